/**
 * `wepql fmt --check` and `wepql fmt --write`, in the manner of Prettier:
 * `--check` lists the files whose saved filters or sorts are not in
 * canonical form and exits 1 if there are any; `--write` rewrites them in
 * place (only the filter and sort texts change, byte for byte) and names
 * them. Files are found exactly as `wepql lint` finds them (operands or the
 * config's `paths`, selectors, ignores); a file asked for that holds no
 * filter is named too (exit 1 with `--strict`).
 */
import { formatFilter, formatSort, type PrintOptions } from '../print/format.js';
import { WepqlError } from '../diagnostics/error.js';
import { rewriteSavedFile, type SavedEntry } from '../workspace/saved-filters.js';
import type { LoadedSource, NoFiltersNotice } from '../workspace/sources.js';
import { UsageError } from '../workspace/usage-error.js';
import type { ParsedArgs } from './args.js';
import { paint, plural } from './color.js';
import { loadSchemaFile, writeSourceFile } from './io.js';
import { readRunSources, runConfig } from './workspace-flags.js';

/** What checking one file found: texts to rewrite, and entries with errors no rewrite can fix. */
interface FileCheck {
  readonly replacements: Map<SavedEntry, string>;
  /** Every problem in file order: `line N: not canonical, expected …` or `line N: cannot be formatted (…)`. */
  readonly problems: string[];
  /** The `cannot be formatted` problems alone: syntax errors, fixed by hand. */
  readonly unformattable: string[];
}

function checkFile(loaded: LoadedSource, printOptions: PrintOptions): FileCheck {
  const check: FileCheck = { replacements: new Map(), problems: [], unformattable: [] };
  for (const entry of loaded.file.entries) {
    try {
      const canonical = entry.kind === 'filter' ? formatFilter(entry.text, printOptions) : formatSort(entry.text, printOptions);
      if (canonical !== entry.text) {
        check.problems.push(`line ${entry.line}: not canonical, expected ${canonical}`);
        check.replacements.set(entry, canonical);
      }
    } catch (e) {
      if (!(e instanceof WepqlError)) throw e;
      const first = e.diagnostics.find((d) => d.severity === 'error');
      const problem = `line ${entry.line}: cannot be formatted (${first?.code ?? 'error'}: ${first?.message ?? e.message})`;
      check.problems.push(problem);
      check.unformattable.push(problem);
    }
  }
  return check;
}

const indented = (lines: readonly string[]): string => lines.map((l) => `  ${l}\n`).join('');

/** Rewrites one file if a text changes; says so, and names the entries left with errors. Resolves to whether it changed. */
async function writeFile(loaded: LoadedSource, check: FileCheck): Promise<boolean> {
  const next = rewriteSavedFile(loaded.file, check.replacements);
  const changed = next !== loaded.file.content;
  if (changed) {
    await writeSourceFile(loaded.candidate.abs, loaded.source, next);
    process.stdout.write(`${loaded.label} (${plural(check.replacements.size, 'entry', 'entries')} rewritten)\n`);
  }
  if (check.unformattable.length > 0) {
    const left = changed ? '' : ' (not changed)';
    process.stdout.write(`${paint.red('[error]')} ${loaded.label}${left}\n${indented(check.unformattable)}`);
  }
  return changed;
}

/** The closing line about entries no rewrite can fix, or '' when there are none. */
function unformattableLine(files: number): string {
  if (files === 0) return '';
  const hold = files === 1 ? 'holds' : 'hold';
  return (
    `${paint.red('[error]')} ${plural(files, 'file')} ${hold} entries with errors that \`wepql fmt --write\` cannot fix (named above); ` +
    'fix them by hand (`wepql lint` shows each error).\n'
  );
}

function reportNotices(notices: readonly NoFiltersNotice[], tooLarge: readonly NoFiltersNotice[], strict: boolean): void {
  for (const n of tooLarge) process.stderr.write(`${paint.red('[error]')} ${n.label}: file-too-large: ${n.message}\n`);
  for (const n of notices) {
    const label = strict ? paint.red('[error]') : paint.yellow('[warn]');
    process.stderr.write(`${label} ${n.label}: no-filters-found: ${n.message}\n`);
  }
}

/**
 * Checks (or rewrites) the files a run names and prints one line per file
 * that is not canonical. Entries with syntax errors are named and left as
 * they are.
 *
 * @example
 * process.exitCode = await runFmtCheck(args, { write: false });
 */
export async function runFmtCheck(args: ParsedArgs, options: { readonly schemaFile?: string; readonly write?: boolean }): Promise<number> {
  const write = options.write === true;
  const mode = write ? '--write' : '--check';
  if (write && args.positionals.includes('-')) throw new UsageError('--write cannot rewrite standard input; name files');
  const config = runConfig(args, process.cwd());
  const schemaFile = options.schemaFile ?? config.schema;
  const schema = schemaFile === undefined ? undefined : await loadSchemaFile(schemaFile);
  const sources = await readRunSources(args, config, { operands: args.positionals, alsoExclude: [schemaFile] });
  if (sources === undefined) throw new UsageError(`${mode} needs at least one FILE, directory or glob, or "paths" in wepql.config.json`);
  const strict = args.switches.has('--strict');
  reportNotices(sources.notices, sources.tooLarge, strict);
  const printOptions: PrintOptions = schema === undefined ? {} : { schema };
  let notCanonical = 0;
  let withErrors = 0;
  let changed = 0;
  for (const loaded of sources.files) {
    const check = checkFile(loaded, printOptions);
    if (check.replacements.size > 0) notCanonical++;
    if (check.unformattable.length > 0) withErrors++;
    if (write) {
      if (await writeFile(loaded, check)) changed++;
    } else if (check.problems.length > 0) {
      process.stdout.write(`${paint.yellow('[warn]')} ${loaded.label}\n${indented(check.problems)}`);
    }
  }
  // A file too large to read was not checked: the run fails, as with --strict for a file without filters.
  const failedStrict = (strict && sources.notices.length > 0) || sources.tooLarge.length > 0;
  const files = plural(sources.files.length, 'file');
  if (sources.tooLarge.length > 0)
    process.stdout.write(
      `${paint.red('[error]')} ${plural(sources.tooLarge.length, 'file')} too large to read, not checked (named above).\n`,
    );
  if (write) {
    const summary =
      changed === 0 && withErrors === 0
        ? 'all were already in canonical form'
        : changed === 0
          ? 'no file changed'
          : `${plural(changed, 'file')} changed`;
    process.stdout.write(`Formatted ${files}: ${summary}.\n${unformattableLine(withErrors)}`);
    return withErrors > 0 || failedStrict ? 1 : 0;
  }
  if (notCanonical > 0 || withErrors > 0) {
    if (notCanonical > 0)
      process.stdout.write(
        `${paint.yellow('[warn]')} Canonical-form issues found in ${plural(notCanonical, 'file')}. Run \`wepql fmt --write\` to fix them.\n`,
      );
    process.stdout.write(unformattableLine(withErrors));
    return 1;
  }
  if (sources.notices.length > 0) {
    const held = `${plural(sources.notices.length, 'file')} asked for ${sources.notices.length === 1 ? 'holds' : 'hold'} no filter or sort (named above)`;
    process.stdout.write(`Checked ${files}; ${held}: no canonical-form issues in the files read.\n`);
  } else process.stdout.write(`Checked ${files}: all in canonical form.\n`);
  return failedStrict ? 1 : 0;
}
