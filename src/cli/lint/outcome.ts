/**
 * Linting the items of a run: each distinct text once, the findings under
 * the config's rules, the `overrides` of the item's file and the entry's
 * `wepql-disable` (workspace/lint-rules.ts, as the language server applies
 * them), the code frames of the pretty format, and what `--fix` rewrites.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { lintText } from '../../lint/lint-text.js';
import type { LintFinding } from '../../lint/report.js';
import { applyRule, fileRules, reportedFindings } from '../../workspace/lint-rules.js';
import type { NoFiltersNotice } from '../../workspace/sources.js';
import { startProgress } from '../progress.js';
import { countFixable, fixedText, fixItem, newFixes, type Fixes, type LintOf } from './fixes.js';
import type { Inputs, Item } from './items.js';
import { frame, noticeLine } from './pretty.js';
import type { Settings } from './settings.js';

/**
 * What linting produced.
 *
 * @example
 * const { findings, frames } = lintItems(inputs, settings);
 */
export interface Outcome {
  readonly findings: LintFinding[];
  /** The pretty format's code frames, in order (empty for json and sarif). */
  readonly frames: string[];
  readonly fixes: Fixes;
}

/**
 * Lints every item (and reports the notices about whole files).
 *
 * @example
 * const outcome = lintItems(await readInputs(args, settings), settings);
 */
export function lintItems(inputs: Inputs, settings: Settings): Outcome {
  const outcome: Outcome = { findings: [], frames: [], fixes: newFixes() };
  for (const notice of inputs.tooLarge) addNotice(outcome, notice, 'file-too-large', settings);
  for (const notice of inputs.notices) addNotice(outcome, notice, 'no-filters-found', settings);
  // Saved filters repeat (copied views, shared defaults): lint each distinct text once.
  const cache = new Map<string, Diagnostic[]>();
  const lint: LintOf = (text, kind) => {
    const key = `${kind}\u0000${text}`;
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = lintText(text, kind, settings.options)));
    return found;
  };
  const progress = startProgress(inputs.items.length, 'filters and sorts');
  const rulesOf = fileRules(settings.config);
  for (const item of inputs.items) {
    const rules = rulesOf(item.file?.candidate.abs);
    const reported = (text: string) => reportedFindings(lint(text, item.entry.kind), item.entry, rules);
    const text = settings.fix ? fixItem(item, outcome.fixes, settings.options, lint) : item.entry.text;
    const found = reported(text);
    for (const d of found) addFinding(outcome, item, text, d, settings);
    if (!settings.fix && found.length > 0) {
      const fixed = fixedText(item.entry, settings.options, lint);
      // An unchanged text removes nothing: no second lint to find that out.
      if (fixed !== item.entry.text) countFixable(outcome.fixes, found, reported(fixed), settings.quiet);
    }
    progress.tick(1);
  }
  progress.done();
  return outcome;
}

/**
 * A finding about a file as a whole, on its first line: one that holds no
 * filter (`--strict` makes it an error, the config's rules may too), or one
 * too large to read (an error).
 */
function addNotice(outcome: Outcome, notice: NoFiltersNotice, code: 'no-filters-found' | 'file-too-large', settings: Settings): void {
  const strict = settings.strict && code === 'no-filters-found';
  const base: Diagnostic = {
    code,
    severity: strict || code === 'file-too-large' ? 'error' : 'warning',
    message: notice.message,
    start: 0,
    end: 0,
  };
  const d = applyRule(base, settings.config.rules);
  if (d === undefined) return;
  const severity = strict ? 'error' : d.severity;
  outcome.findings.push({
    file: notice.label,
    line: 1,
    column: 1,
    kind: 'file',
    code: d.code,
    severity,
    message: d.message,
    start: 0,
    end: 0,
  });
  if (settings.format === 'pretty' && !(settings.quiet && severity !== 'error'))
    outcome.frames.push(noticeLine(notice.label, severity, d.code, d.message));
}

function addFinding(outcome: Outcome, item: Item, text: string, d: Diagnostic, settings: Settings): void {
  const { entry } = item;
  const finding: LintFinding = {
    file: item.label,
    line: entry.line,
    column: entry.column + d.start,
    kind: entry.kind,
    ...(entry.name === undefined ? {} : { name: entry.name }),
    code: d.code,
    severity: d.severity,
    message: d.message,
    start: d.start,
    end: d.end,
    ...(d.suggestion === undefined ? {} : { suggestion: d.suggestion }),
  };
  outcome.findings.push(finding);
  if (settings.format === 'pretty' && !(settings.quiet && d.severity !== 'error')) outcome.frames.push(frame(text, d, item, finding));
}
