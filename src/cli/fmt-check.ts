/**
 * `wepql fmt --check FILE...` and `wepql fmt --write FILE...`, in the
 * manner of Prettier: `--check` lists the files whose saved filters or sorts
 * are not in canonical form and exits 1 if there are any; `--write` rewrites
 * them in place (only the filter and sort texts change) and names them.
 * Files, directories and globs are accepted, as for `wepql lint`.
 */
import { formatFilter, formatSort } from '../print/format.js';
import { WepqlError } from '../diagnostics/error.js';
import { readInput, loadSchemaFile, writeFileText } from './io.js';
import { loadYaml, needsYaml, readSavedFilters, rewriteSavedFile, SavedFileError, type SavedEntry } from '../workspace/saved-filters.js';
import { UsageError } from '../workspace/usage-error.js';
import { paint, plural, STDIN_LABEL } from './color.js';
import { discoverFiles, readIgnoreFile } from '../workspace/discover.js';

/**
 * Checks (or rewrites) files and prints one line per file that is not
 * canonical. Entries with syntax errors are named and left as they are.
 *
 * @example
 * process.exitCode = await runFmtCheck(['saved.txt'], {});
 */
export async function runFmtCheck(
  inputs: readonly string[],
  options: { readonly schemaFile?: string; readonly write?: boolean },
): Promise<number> {
  const write = options.write === true;
  if (inputs.length === 0) throw new UsageError(`${write ? '--write' : '--check'} needs at least one FILE, directory or glob`);
  if (write && inputs.includes('-')) throw new UsageError('--write cannot rewrite standard input; name files');
  const cwd = process.cwd();
  const files = await discoverFiles(inputs, { cwd, ignore: { base: cwd, patterns: readIgnoreFile(`${cwd}/.wepqlignore`, false) } });
  const schema = options.schemaFile === undefined ? undefined : await loadSchemaFile(options.schemaFile);
  const printOptions = schema === undefined ? {} : { schema };
  if (needsYaml(files)) await loadYaml();
  let bad = 0;
  let unformattable = 0;
  for (const path of files) {
    const content = await readInput(path);
    const label = path === '-' ? STDIN_LABEL : path;
    let saved;
    try {
      saved = readSavedFilters(path, content);
    } catch (e) {
      if (e instanceof SavedFileError) throw new UsageError(e.message);
      throw e;
    }
    const problems: string[] = [];
    const replacements = new Map<SavedEntry, string>();
    for (const entry of saved.entries) {
      try {
        const canonical = entry.kind === 'filter' ? formatFilter(entry.text, printOptions) : formatSort(entry.text, printOptions);
        if (canonical !== entry.text) {
          problems.push(`line ${entry.line}: not canonical, expected ${canonical}`);
          replacements.set(entry, canonical);
        }
      } catch (e) {
        if (!(e instanceof WepqlError)) throw e;
        const first = e.diagnostics.find((d) => d.severity === 'error');
        unformattable++;
        problems.push(`line ${entry.line}: cannot be formatted (${first?.code ?? 'error'}: ${first?.message ?? e.message})`);
      }
    }
    if (problems.length === 0) continue;
    bad++;
    if (write) {
      if (replacements.size > 0) await writeFileText(path, rewriteSavedFile(saved, replacements));
      const left = problems.filter((p) => p.includes('cannot be formatted'));
      process.stdout.write(`${replacements.size > 0 ? `${label} (${plural(replacements.size, 'entry', 'entries')} rewritten)` : label}\n`);
      if (left.length > 0) process.stdout.write(`${left.map((p) => `  ${p}`).join('\n')}\n`);
    } else {
      process.stdout.write(`${paint.yellow('[warn]')} ${label}\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    }
  }
  if (write) {
    process.stdout.write(`Formatted ${plural(files.length, 'file')}: ${bad === 0 ? 'all were already in canonical form' : `${plural(bad, 'file')} changed`}.\n`);
    return unformattable > 0 ? 1 : 0;
  }
  if (bad > 0) {
    process.stdout.write(`${paint.yellow('[warn]')} Canonical-form issues found in ${plural(bad, 'file')}. Run \`wepql fmt --write\` to fix them.\n`);
    return 1;
  }
  process.stdout.write(`Checked ${plural(files.length, 'file')}: all in canonical form.\n`);
  return 0;
}
