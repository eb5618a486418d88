/**
 * `wepql fmt`: prints the canonical (or pretty) form of one filter or sort
 * text, or with `--check FILE...` lists the saved-filter files that are not
 * canonical. Exit 0 on success, 1 when the input has errors (rendered on
 * stderr), 2 for usage errors.
 */
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { WepqlError } from '../../diagnostics/error.js';
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import type { PrintOptions } from '../../print/format.js';
import { printFilter, printSort } from '../../print/format.js';
import { parseFilter } from '../../syntax/parse-filter.js';
import { parseSort } from '../../syntax/parse-sort.js';
import { integerFlag, parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { loadSchemaFile, readInput } from '../io.js';
import { STDIN_LABEL } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';
import { WORKSPACE_OPTIONS } from '../workspace-flags.js';

/** `wepql fmt`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'fmt',
  summary: 'print the canonical form of a filter or sort, or check (--check) or rewrite (--write) files of saved filters',
  operands: 'TEXT | --check|--write [FILE|DIR|GLOB...]',
  details: [
    'With TEXT (- reads standard input) the canonical form is printed. With --check the files whose filters or sorts are not canonical are named and the exit code is 1; with --write they are rewritten in place, only the filter and sort texts changing (every other byte stays as it was). An entry with a syntax error cannot be formatted: both name it and exit 1, and it is left for a fix by hand.',
    'Files are found as wepql lint finds them: operands, or the "paths" of wepql.config.json; --filter-path/--sort-path or the config\'s filterPath/sortPath; .gitignore, .wepqlignore and "ignorePatterns". A file asked for that holds no filter is named on standard error (no-filters-found; exit 1 with --strict).',
  ],
  options: [
    { flag: '--check', description: 'name the files that are not in canonical form; exit 1 if any' },
    { flag: '--write', alias: '-w', description: 'rewrite files in place into canonical form and name the files changed' },
    { flag: '--sort', description: 'TEXT is a sort, not a filter' },
    { flag: '--pretty', description: 'break long filters over indented lines' },
    { flag: '--width', value: 'N', description: 'line width for --pretty (default 80)' },
    { flag: '--indent', value: 'N', description: 'spaces per level for --pretty (default 2, at most 64)' },
    { flag: '--quote-all', description: 'quote every string value, not only those that need it' },
    { flag: '--schema', value: 'FILE', description: 'spell fields as the schema does' },
    ...WORKSPACE_OPTIONS,
  ],
  examples: [
    "wepql fmt --pretty 'or(a.equal(1);b.equal(2))'",
    "wepql fmt -- 'lastName.equal(-5)'",
    "wepql fmt --check 'examples/*.{json,txt}'",
    'wepql fmt --check --config examples/lint-project/wepql.config.json',
  ],
};

const SPEC = specOf(definition);

/**
 * Runs `wepql fmt [--sort] [--pretty] [--width N] [--indent N] [--quote-all] [--schema FILE] TEXT`
 * (TEXT `-` reads standard input) or `wepql fmt --check [--schema FILE] FILE...`.
 *
 * @example
 * process.exitCode = await run(['--pretty', '--width', '40', 'Or(A.Equal(1);B.Equal(2))']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, SPEC);
  const schemaFile = args.values.get('--schema');
  if (args.switches.has('--check') || args.switches.has('--write')) {
    const mode = args.switches.has('--check') ? '--check' : '--write';
    if (args.switches.has('--check') && args.switches.has('--write')) throw new UsageError('--check and --write cannot be combined');
    for (const flag of ['--sort', '--pretty', '--quote-all', '--width', '--indent']) {
      if (args.switches.has(flag) || args.values.has(flag)) throw new UsageError(`${flag} cannot be combined with ${mode}`);
    }
    const { runFmtCheck } = await import('../fmt-check.js');
    return runFmtCheck(args, { ...(schemaFile === undefined ? {} : { schemaFile }), write: mode === '--write' });
  }
  const workspaceFlag = WORKSPACE_OPTIONS.find((o) => args.switches.has(o.flag) || args.values.has(o.flag) || args.repeated.has(o.flag));
  if (workspaceFlag !== undefined) throw new UsageError(`${workspaceFlag.flag} needs --check or --write`);
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0 ? 'missing TEXT (use - to read standard input)' : 'expected exactly one TEXT; quote it for the shell',
    );
  }
  const width = integerFlag(args, '--width', 1);
  const indent = integerFlag(args, '--indent', 0);
  if (indent !== undefined && indent > 64) throw new UsageError('--indent must be at most 64');
  const source = args.positionals[0]!;
  const text = source === '-' ? await readInput('-') : source;
  const options: PrintOptions = {
    pretty: args.switches.has('--pretty'),
    quoteAllStrings: args.switches.has('--quote-all'),
    ...(width === undefined ? {} : { width }),
    ...(indent === undefined ? {} : { indent }),
    ...(schemaFile === undefined ? {} : { schema: await loadSchemaFile(schemaFile) }),
  };
  const location = source === '-' ? { location: STDIN_LABEL } : {};
  const report = (diagnostics: readonly Diagnostic[]): boolean => {
    // Infos (a one-child group) are advice for `lint`, not worth a formatter's stderr.
    for (const d of diagnostics) {
      if (d.severity !== 'info') process.stderr.write(renderCodeFrame(text, d, location) + '\n');
    }
    return hasErrors(diagnostics);
  };
  let output: string;
  try {
    if (args.switches.has('--sort')) {
      const { ast, diagnostics } = parseSort(text);
      if (report(diagnostics)) return 1;
      output = printSort(ast, options);
    } else {
      const { ast, diagnostics } = parseFilter(text);
      if (report(diagnostics)) return 1;
      output = printFilter(ast, options);
    }
  } catch (error) {
    if (!(error instanceof WepqlError)) throw error;
    report(error.diagnostics);
    return 1;
  }
  process.stdout.write(output + '\n');
  return 0;
}
