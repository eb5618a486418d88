/**
 * `wepql fmt --check FILE...`, in the manner of Prettier's `--check`: lists
 * the files whose saved filters or sorts are not in canonical form and
 * exits 1 if there are any; exit 0 when all are canonical.
 */
import { formatFilter, formatSort } from '../print/format.js';
import { WepqlError } from '../diagnostics/error.js';
import { readInput, loadSchemaFile } from './io.js';
import { readSavedFilters, SavedFileError } from './saved-filters.js';
import { UsageError } from './args.js';

/**
 * Checks files and prints one line per file that is not canonical. Entries
 * with syntax errors make their file count as not canonical and are named.
 *
 * @example
 * process.exitCode = await runFmtCheck(['saved.txt'], {});
 */
export async function runFmtCheck(files: readonly string[], options: { readonly schemaFile?: string }): Promise<number> {
  if (files.length === 0) throw new UsageError('--check needs at least one FILE');
  const schema = options.schemaFile === undefined ? undefined : await loadSchemaFile(options.schemaFile);
  const printOptions = schema === undefined ? {} : { schema };
  let bad = 0;
  for (const path of files) {
    const content = await readInput(path);
    let saved;
    try {
      saved = readSavedFilters(path, content);
    } catch (e) {
      if (e instanceof SavedFileError) throw new UsageError(e.message);
      throw e;
    }
    const problems: string[] = [];
    for (const entry of saved.entries) {
      try {
        const canonical = entry.kind === 'filter' ? formatFilter(entry.text, printOptions) : formatSort(entry.text, printOptions);
        if (canonical !== entry.text) problems.push(`line ${entry.line}: not canonical, expected ${canonical}`);
      } catch (e) {
        if (!(e instanceof WepqlError)) throw e;
        const first = e.diagnostics.find((d) => d.severity === 'error');
        problems.push(`line ${entry.line}: cannot be formatted (${first?.code ?? 'error'}: ${first?.message ?? e.message})`);
      }
    }
    if (problems.length > 0) {
      bad++;
      process.stdout.write(`[warn] ${path}\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
    }
  }
  if (bad > 0) {
    process.stdout.write(`[warn] Canonical-form issues found in ${bad} file${bad === 1 ? '' : 's'}. Run \`wepql lint --fix\` to fix them.\n`);
    return 1;
  }
  process.stdout.write(`Checked ${files.length} file${files.length === 1 ? '' : 's'}: all in canonical form.\n`);
  return 0;
}
