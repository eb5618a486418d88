/**
 * `wepql lint`'s pretty output: a code frame per finding (coloured when
 * the terminal takes colour), the summary line, and ESLint's "N problems
 * potentially fixable with `--fix`" line.
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import type { LintFinding } from '../../lint/report.js';
import { colorOn, paint, plural, severityLabel } from '../color.js';
import type { SeverityCounts, Fixes } from './fixes.js';
import type { Inputs, Item } from './items.js';
import type { Settings } from './settings.js';

/**
 * The code frame of a finding in an item's text, its location as the file has it.
 *
 * @example
 * frames.push(frame(text, d, item, finding));
 */
export function frame(text: string, d: Diagnostic, item: Pick<Item, 'label' | 'entry'>, finding: LintFinding): string {
  const { entry } = item;
  // The frame counts columns in the filter text; a JSON entry starts further right in its file line.
  const out = renderCodeFrame(text, d, {
    location: item.label,
    lineOffset: entry.line - 1,
    ...(entry.column === 1 ? {} : { column: finding.column }),
  });
  if (!colorOn()) return out;
  const newline = out.indexOf('\n');
  const head = newline < 0 ? out : out.slice(0, newline);
  const marker = `: ${d.severity} ${d.code}: `;
  const at = head.indexOf(marker);
  if (at < 0) return out;
  const coloured = `${paint.underline(head.slice(0, at))}: ${severityLabel(d.severity)} ${paint.dim(d.code)}: ${head.slice(at + marker.length)}`;
  return coloured + (newline < 0 ? '' : out.slice(newline));
}

/**
 * The one line of a finding about a file as a whole.
 *
 * @example
 * noticeLine('dash.yaml', 'warning', 'no-filters-found', 'holds no filter or sort');
 */
export function noticeLine(label: string, severity: Severity, code: string, message: string): string {
  return `${paint.underline(`${label}:1:1`)}: ${severityLabel(severity)} ${paint.dim(code)}: ${message}`;
}

/**
 * `N files, M filters checked: E errors, W warnings…`.
 *
 * @example
 * summaryLine(severityTotals(outcome), fixes, inputs, settings); // '1 file, 1 filter checked: 0 errors, 0 warnings'
 */
export function summaryLine(totals: SeverityCounts, fixes: Fixes, inputs: Inputs, settings: Settings): string {
  const count = (s: Severity) => totals[s];
  let filters = 0;
  let sorts = 0;
  for (const item of inputs.items)
    if (item.entry.kind === 'filter') filters++;
    else sorts++;
  for (const { replay } of inputs.replays) {
    filters += replay.filters;
    sorts += replay.sorts;
  }
  const where = [
    ...(inputs.files.length > 0 || settings.database === undefined ? [plural(inputs.files.length, 'file')] : []),
    ...(settings.database === undefined ? [] : [plural(inputs.rows, 'row')]),
  ].join(' and ');
  const infos = count('info');
  return (
    `${where}, ${plural(filters, 'filter')}${sorts > 0 ? ` and ${plural(sorts, 'sort')}` : ''} checked: ` +
    `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}` +
    (infos > 0 && !settings.quiet ? `, ${plural(infos, 'info', 'infos')}` : '') +
    (settings.fix ? `, ${fixes.fixed} ${settings.dryRun ? 'would be fixed (nothing written)' : 'fixed'}` : '') +
    (settings.options.schema === undefined ? ' (no --schema: syntax only)' : '')
  );
}

/**
 * `N problems potentially fixable with \`--fix\` (…)`, as ESLint says it
 * (the count of `potentiallyFixable`), or '' when none are.
 *
 * @example
 * process.stdout.write(fixableLine(fixes));
 */
export function fixableLine(fixes: Fixes): string {
  const { error, warning, info } = fixes.fixable;
  const total = error + warning + info;
  if (total === 0) return '';
  const parts = [plural(error, 'error'), plural(warning, 'warning'), ...(info > 0 ? [plural(info, 'info', 'infos')] : [])];
  return `${plural(total, 'problem')} potentially fixable with \`--fix\` (${parts.join(', ')}); \`--fix-dry-run\` shows the changes.\n`;
}

/**
 * Writes the frames, the dry run's rewrites and the coloured summary to standard output.
 *
 * @example
 * writePretty(frames, fixes, summary, errors, warnings, settings);
 */
export function writePretty(
  frames: readonly (string | Buffer)[],
  fixes: Fixes,
  summary: string,
  counts: { readonly errors: number; readonly warnings: number },
  settings: Settings,
): void {
  let tail = '';
  if (settings.dryRun && fixes.changes.length > 0) tail += `--fix would rewrite:\n${fixes.changes.map((c) => `  ${c}\n`).join('')}\n`;
  const painted = counts.errors > 0 ? paint.red(summary) : counts.warnings > 0 ? paint.yellow(summary) : paint.green(summary);
  tail += paint.bold(painted) + '\n' + fixableLine(fixes);
  // One write: a thousand frames in one piece cost less than a thousand writes.
  if (frames.every((f) => typeof f === 'string')) {
    process.stdout.write((frames.length > 0 ? frames.join('\n\n') + '\n\n' : '') + tail);
    return;
  }
  // Replayed files' frames are a cache's bytes: copied as they are, never decoded and encoded again.
  const pieces: Buffer[] = [];
  let text = '';
  for (const f of frames) {
    if (typeof f === 'string') text += f + '\n\n';
    else {
      if (text !== '') pieces.push(Buffer.from(text));
      pieces.push(f, FRAME_SEPARATOR);
      text = '';
    }
  }
  pieces.push(Buffer.from(text + tail));
  process.stdout.write(Buffer.concat(pieces));
}

/** What the report writes after each frame. */
const FRAME_SEPARATOR = Buffer.from('\n\n');
