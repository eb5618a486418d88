/**
 * `wepql lint [options] [FILE|DIR|GLOB...]`
 *
 * Checks saved filters and sorts like a compiler checks code: in files,
 * directories and globs (JSON, YAML, NDJSON, text), inside documents at a
 * selector, or in a database table; against a schema and, with the schema
 * they were written for, against what changed since. Settings come from
 * `wepql.config.json` (found upward) and flags. Exit 0 when there are no
 * errors (and no more warnings than `--max-warnings`), 1 otherwise, 2 on a
 * usage error.
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import { fixText, lintText, renameFields, type LintTextOptions } from '../../lint/lint-text.js';
import { findingToJson, toSarif, type LintFinding } from '../../lint/report.js';
import { relative, sep } from 'node:path';
import { CONFIG_FILE, type DatabaseSource, type LintConfig, type RuleSetting } from '../../workspace/config.js';
import { rewriteSavedFile, type SavedEntry } from '../../workspace/saved-filters.js';
import type { LoadedSource, NoFiltersNotice } from '../../workspace/sources.js';
import { UsageError } from '../../workspace/usage-error.js';
import { maxWarningsFlag, parseArgs, type ParsedArgs } from '../args.js';
import { paint, plural, severityLabel } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';
import { loadSchemaFile, writeSourceFile } from '../io.js';
import { diagnosticsDocsUri, packageVersion } from '../package-info.js';
import { loadPolicyFile } from '../policy-file.js';
import { startProgress } from '../progress.js';
import { readRunSources, runConfig, WORKSPACE_OPTIONS } from '../workspace-flags.js';

/** `wepql lint`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'lint',
  summary: 'check saved filters and sorts against a schema, and against the schema they were written for',
  operands: '[FILE|DIR|GLOB...]',
  details: [
    'Reads .wepql and text files (one filter a line), and JSON, YAML and NDJSON files that hold saved filters (a list of {name, filter, sort} objects, or where --filter-path/--sort-path point). A directory is walked for .wepql files and for JSON/YAML/NDJSON files that hold filters, minus .gitignore, .wepqlignore and "ignorePatterns"; package.json, wepql.config.json, the schema files and JSON Schemas are never read as saved filters. Quote globs for the shell. - reads standard input. Without operands, the "paths" of wepql.config.json are linted.',
    'A file that was asked for but holds no filter or sort is reported (no-filters-found): a warning, an error with --strict. Settings come from wepql.config.json (JSON with comments), found in the working directory or above it (or --config FILE); flags override it. Exit 0 when there is no error, 1 when there is one or more warnings than --max-warnings, 2 for a usage error.',
  ],
  options: [
    { flag: '--schema', value: 'FILE', description: 'the schema the filters must satisfy (without one, only syntax is checked)' },
    {
      flag: '--previous-schema',
      value: 'FILE',
      description: 'the schema the filters were written for: report removed, renamed, retyped and nullability-changed fields',
    },
    {
      flag: '--policy',
      value: 'FILE',
      description: "an endpoint's policy file: report the fields and operators it refuses (needs --schema)",
    },
    { flag: '--fix', description: 'rewrite fixable findings in place (renamed fields, then safe fixes); every other byte stays as it was' },
    { flag: '--fix-dry-run', description: 'report as --fix would leave things, and list what it would rewrite, without writing anything' },
    { flag: '--format', value: 'pretty|json|sarif', description: 'pretty code frames (default), a JSON array of findings, or SARIF 2.1.0' },
    { flag: '--quiet', alias: '-q', description: 'report errors only' },
    { flag: '--max-warnings', value: 'N', description: 'exit 1 when there are more than N warnings (-1: no limit)' },
    ...WORKSPACE_OPTIONS,
    { flag: '--database-url', value: 'URL', description: 'lint saved filters stored in PostgreSQL (default: DATABASE_URL); needs --table' },
    {
      flag: '--allow-database',
      description: 'let the config\'s "database" be read (and written by --fix); a config alone never reads a database',
    },
    { flag: '--table', value: 'NAME', description: 'the table holding saved filters (schema.table allowed)' },
    { flag: '--column', value: 'NAME', description: 'the column of filter texts' },
    { flag: '--sort-column', value: 'NAME', description: 'the column of sort texts' },
    { flag: '--id-column', value: 'NAME', description: 'the column naming each row in reports (default id)' },
    { flag: '--case-sensitive', description: 'judge string conditions as case-sensitive (default: case-insensitive, as in evaluation)' },
  ],
  examples: [
    "wepql lint --schema schemas/employee.json 'examples/*.{json,txt}'",
    'wepql lint --no-config --schema examples/lint-project/schemas/employee-v2.json --previous-schema examples/lint-project/schemas/employee-v1.json examples/lint-project/views/hr',
    "wepql lint --no-config --schema schemas/employee.json --filter-path '$.views[*].filter' examples/lint-project/views/dashboards.yaml",
    'wepql lint --schema schemas/employee.json --database-url "$DATABASE_URL" --table employee_views --column filter --id-column id',
  ],
};

/** A saved text to lint, wherever it came from. */
interface Item {
  readonly label: string;
  readonly entry: SavedEntry;
  readonly file?: LoadedSource;
  readonly row?: { readonly id: string; readonly column: string };
}

/** Everything a run decided before linting: where findings go and what they are checked against. */
interface Settings {
  readonly config: LintConfig;
  readonly format: 'pretty' | 'json' | 'sarif';
  readonly fix: boolean;
  /** `--fix-dry-run`: fix in memory, report, write nothing. */
  readonly dryRun: boolean;
  readonly quiet: boolean;
  readonly strict: boolean;
  readonly maxWarnings: number | undefined;
  readonly schemaPath: string | undefined;
  readonly previousPath: string | undefined;
  readonly policyPath: string | undefined;
  readonly options: LintTextOptions;
  readonly database: DatabaseSource | undefined;
}

/** What was read: files (with their entries), database rows, and files that hold nothing. */
interface Inputs {
  readonly items: readonly Item[];
  readonly files: readonly LoadedSource[];
  readonly notices: readonly NoFiltersNotice[];
  /** Files too large to read: each an error finding, and the run goes on. */
  readonly tooLarge: readonly NoFiltersNotice[];
  readonly rows: number;
}

/** What linting produced. */
interface Outcome {
  readonly findings: LintFinding[];
  readonly frames: string[];
  readonly fileFixes: Map<LoadedSource, Map<SavedEntry, string>>;
  readonly rowFixes: { entry: { id: string; kind: 'filter' | 'sort'; column: string; text: string }; text: string }[];
  /** `label:line: old → new` for each text --fix-dry-run would rewrite. */
  readonly changes: string[];
  fixed: number;
  /** Findings that `--fix` would remove (counted when not fixing), by severity. */
  fixable: { error: number; warning: number; info: number };
}

/**
 * Runs `wepql lint`.
 *
 * @example
 * process.exitCode = await run(['--schema', 'schemas/employee.json', 'views/']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  const settings = await readSettings(args);
  const inputs = await readInputs(args, settings);
  const outcome = lintItems(inputs, settings);
  await writeFixes(outcome, settings);
  return report(outcome, inputs, settings);
}

async function readSettings(args: ParsedArgs): Promise<Settings> {
  const config = runConfig(args, process.cwd());
  const format = args.values.get('--format') ?? 'pretty';
  if (format !== 'pretty' && format !== 'json' && format !== 'sarif') {
    throw new UsageError(`--format must be pretty, json or sarif, got ${JSON.stringify(format)}`);
  }
  const schemaPath = args.values.get('--schema') ?? config.schema;
  const previousPath = args.values.get('--previous-schema') ?? config.previousSchema;
  if (previousPath !== undefined && schemaPath === undefined)
    throw new UsageError('--previous-schema needs --schema, the schema the filters will run under');
  const schema = schemaPath === undefined ? undefined : await loadSchemaFile(schemaPath);
  const previousSchema = previousPath === undefined ? undefined : await loadSchemaFile(previousPath);
  const policyPath = args.values.get('--policy') ?? config.policy;
  const policy = policyPath === undefined ? undefined : await loadPolicyFile(policyPath, schema);
  const dryRun = args.switches.has('--fix-dry-run');
  const fix = args.switches.has('--fix') || dryRun;
  if (dryRun && args.switches.has('--fix')) throw new UsageError('--fix and --fix-dry-run cannot be combined');
  if (fix && !dryRun && args.positionals.includes('-')) throw new UsageError('--fix cannot rewrite standard input; name files');
  const maxWarnings = maxWarningsFlag(args) ?? config.maxWarnings;
  return {
    config,
    format,
    fix,
    dryRun,
    quiet: args.switches.has('--quiet'),
    strict: args.switches.has('--strict'),
    maxWarnings: maxWarnings === -1 ? undefined : maxWarnings,
    schemaPath,
    previousPath,
    policyPath,
    options: {
      ...(schema === undefined ? {} : { schema }),
      ...(policy === undefined ? {} : { policy }),
      ...(previousSchema === undefined ? {} : { previousSchema }),
      caseSensitive: args.switches.has('--case-sensitive') || config.caseSensitive === true,
    },
    database: databaseSource(args, config),
  };
}

async function readInputs(args: ParsedArgs, settings: Settings): Promise<Inputs> {
  const { database } = settings;
  // The config's paths are linted only when the run names nothing else (operands or a table).
  const operands = args.positionals;
  const wantFiles = operands.length > 0 || database === undefined;
  const sources = wantFiles
    ? await readRunSources(args, settings.config, {
        operands,
        alsoExclude: [settings.schemaPath, settings.previousPath, settings.policyPath],
      })
    : undefined;
  if (sources === undefined && database === undefined) {
    throw new UsageError(
      'name at least one FILE, directory or glob (- reads standard input), give --table for a database, or set "paths" in wepql.config.json',
    );
  }
  const items: Item[] = [];
  for (const file of sources?.files ?? []) for (const entry of file.file.entries) items.push({ label: file.label, entry, file });
  const rows = database === undefined ? 0 : await readRows(database, items);
  return { items, files: sources?.files ?? [], notices: sources?.notices ?? [], tooLarge: sources?.tooLarge ?? [], rows };
}

/** Reads the table's rows into `items`, each labelled `table#id.column`; resolves to the number of rows. */
async function readRows(database: DatabaseSource, items: Item[]): Promise<number> {
  const { readDatabaseEntries } = await import('../../workspace/db-source.js');
  const entries = await readDatabaseEntries(database);
  for (const e of entries) {
    const entry: SavedEntry = { kind: e.kind, text: e.text, line: 1, column: 1, range: { start: 0, end: e.text.length }, encoding: 'raw' };
    items.push({ label: `${database.table}#${e.id}.${e.column}`, entry, row: { id: e.id, column: e.column } });
  }
  return new Set(entries.map((e) => e.id)).size;
}

function lintItems(inputs: Inputs, settings: Settings): Outcome {
  const outcome: Outcome = {
    findings: [],
    frames: [],
    fileFixes: new Map(),
    rowFixes: [],
    changes: [],
    fixed: 0,
    fixable: { error: 0, warning: 0, info: 0 },
  };
  for (const notice of inputs.tooLarge) addNotice(outcome, notice, 'file-too-large', settings);
  for (const notice of inputs.notices) addNotice(outcome, notice, 'no-filters-found', settings);
  // Saved filters repeat (copied views, shared defaults): lint each distinct text once.
  const cache = new Map<string, Diagnostic[]>();
  const lintCached = (text: string, kind: 'filter' | 'sort'): Diagnostic[] => {
    const key = `${kind}\u0000${text}`;
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = lintText(text, kind, settings.options)));
    return found;
  };
  const progress = startProgress(inputs.items.length, 'filters and sorts');
  const rulesOf = fileRules(settings.config);
  for (const item of inputs.items) {
    const rules = rulesOf(item.file?.candidate.abs);
    const reported = (text: string) => reportedFindings(lintCached(text, item.entry.kind), item.entry, rules);
    const text = settings.fix ? fixItem(item, outcome, settings.options) : item.entry.text;
    const found = reported(text);
    for (const d of found) addFinding(outcome, item, text, d, settings);
    if (!settings.fix && found.length > 0) countFixable(outcome, found, reported(fixedText(item.entry, settings.options)), settings);
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
  if (settings.format === 'pretty' && !(settings.quiet && severity !== 'error')) {
    outcome.frames.push(`${paint.underline(`${notice.label}:1:1`)}: ${severityLabel(severity)} ${paint.dim(d.code)}: ${d.message}`);
  }
}

/** The findings a text's diagnostics come to under the file's rules and the entry's own `wepql-disable`. */
function reportedFindings(diagnostics: readonly Diagnostic[], entry: SavedEntry, rules: LintConfig['rules']): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const raw of diagnostics) {
    if (entry.disable !== undefined && (entry.disable.includes('*') || entry.disable.includes(raw.code))) continue;
    const d = applyRule(raw, rules);
    if (d !== undefined) out.push(d);
  }
  return out;
}

/** What --fix makes of a text: renames first, in place, so that they land even when another finding has no safe fix; then the safe fixes. */
function fixedText(entry: SavedEntry, options: LintTextOptions): string {
  const renamed = renameFields(entry.text, entry.kind, options);
  return fixText(renamed, entry.kind, options) ?? renamed;
}

/** Counts the findings --fix would remove: those whose code the fixed text no longer reports as often. */
function countFixable(outcome: Outcome, before: readonly Diagnostic[], after: readonly Diagnostic[], settings: Settings): void {
  const left = new Map<string, number>();
  for (const d of after) left.set(d.code, (left.get(d.code) ?? 0) + 1);
  for (const d of before) {
    const n = left.get(d.code) ?? 0;
    if (n > 0) left.set(d.code, n - 1);
    else if (!(settings.quiet && d.severity !== 'error')) outcome.fixable[d.severity]++;
  }
}

/**
 * The rules for a file: the config's `rules`, then those of each `overrides`
 * entry whose `files` globs match the file's path relative to the config.
 */
function fileRules(config: LintConfig): (abs: string | undefined) => LintConfig['rules'] {
  const overrides = config.overrides ?? [];
  if (overrides.length === 0) return () => config.rules;
  const base = config.base ?? process.cwd();
  const cache = new Map<string, LintConfig['rules']>();
  return (abs) => {
    if (abs === undefined || abs === '-') return config.rules;
    let rules = cache.get(abs);
    if (rules === undefined) {
      const rel = relative(base, abs).split(sep).join('/');
      rules = Object.assign(Object.create(null) as Record<string, RuleSetting>, config.rules);
      for (const o of overrides) if (o.files.some((glob) => glob.matches(rel))) Object.assign(rules, o.rules);
      cache.set(abs, rules);
    }
    return rules;
  };
}

/** Applies --fix to an item; records a changed text for writing back (or, dry, for listing) and returns the text to lint. */
function fixItem(item: Item, outcome: Outcome, options: LintTextOptions): string {
  const { entry } = item;
  const fixed = fixedText(entry, options);
  if (fixed === entry.text) return entry.text;
  outcome.fixed++;
  outcome.changes.push(`${item.label}:${entry.line}: ${entry.text} → ${fixed}`);
  if (item.file !== undefined) {
    let map = outcome.fileFixes.get(item.file);
    if (map === undefined) outcome.fileFixes.set(item.file, (map = new Map()));
    map.set(entry, fixed);
  } else if (item.row !== undefined) outcome.rowFixes.push({ entry: { ...item.row, kind: entry.kind, text: entry.text }, text: fixed });
  return fixed;
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

async function writeFixes(outcome: Outcome, settings: Settings): Promise<void> {
  if (settings.dryRun) return;
  for (const [loaded, map] of outcome.fileFixes) {
    const next = rewriteSavedFile(loaded.file, map);
    if (next !== loaded.file.content) await writeSourceFile(loaded.candidate.abs, loaded.source, next);
  }
  if (settings.database !== undefined && outcome.rowFixes.length > 0) {
    const { writeDatabaseFixes } = await import('../../workspace/db-source.js');
    await writeDatabaseFixes(settings.database, outcome.rowFixes);
  }
}

function summaryLine(outcome: Outcome, inputs: Inputs, settings: Settings): string {
  const count = (s: Severity) => outcome.findings.filter((f) => f.severity === s).length;
  const filters = inputs.items.filter((i) => i.entry.kind === 'filter').length;
  const sorts = inputs.items.length - filters;
  const where = [
    ...(inputs.files.length > 0 || settings.database === undefined ? [plural(inputs.files.length, 'file')] : []),
    ...(settings.database === undefined ? [] : [plural(inputs.rows, 'row')]),
  ].join(' and ');
  const infos = count('info');
  return (
    `${where}, ${plural(filters, 'filter')}${sorts > 0 ? ` and ${plural(sorts, 'sort')}` : ''} checked: ` +
    `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}` +
    (infos > 0 && !settings.quiet ? `, ${plural(infos, 'info', 'infos')}` : '') +
    (settings.fix ? `, ${outcome.fixed} ${settings.dryRun ? 'would be fixed (nothing written)' : 'fixed'}` : '') +
    (settings.options.schema === undefined ? ' (no --schema: syntax only)' : '')
  );
}

function report(outcome: Outcome, inputs: Inputs, settings: Settings): number {
  const { findings } = outcome;
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.filter((f) => f.severity === 'warning').length;
  const summary = summaryLine(outcome, inputs, settings);
  const shown = settings.quiet ? findings.filter((f) => f.severity === 'error') : findings;
  const fixable = fixableLine(outcome);
  if (settings.format === 'pretty') {
    if (outcome.frames.length > 0) process.stdout.write(outcome.frames.join('\n\n') + '\n\n');
    if (settings.dryRun && outcome.changes.length > 0)
      process.stdout.write(`--fix would rewrite:\n${outcome.changes.map((c) => `  ${c}\n`).join('')}\n`);
    const painted = errors > 0 ? paint.red(summary) : warnings > 0 ? paint.yellow(summary) : paint.green(summary);
    process.stdout.write(paint.bold(painted) + '\n' + fixable);
  } else {
    const body = settings.format === 'json' ? shown.map(findingToJson) : toSarif(shown, sarifTool());
    process.stdout.write(JSON.stringify(body, null, 2) + '\n');
    process.stderr.write(summary + '\n' + fixable);
  }
  const tooManyWarnings = settings.maxWarnings !== undefined && warnings > settings.maxWarnings;
  if (tooManyWarnings) process.stderr.write(`wepql lint: too many warnings (${warnings}; --max-warnings allows ${settings.maxWarnings})\n`);
  return errors > 0 || tooManyWarnings ? 1 : 0;
}

/** `N problems fixable with \`--fix\` (…)`, as ESLint says it, or '' when none are. */
function fixableLine(outcome: Outcome): string {
  const { error, warning, info } = outcome.fixable;
  const total = error + warning + info;
  if (total === 0) return '';
  const parts = [plural(error, 'error'), plural(warning, 'warning'), ...(info > 0 ? [plural(info, 'info', 'infos')] : [])];
  return `${plural(total, 'problem')} fixable with \`--fix\` (${parts.join(', ')}); \`--fix-dry-run\` shows the changes.\n`;
}

function sarifTool(): { version: string; docsUri?: string } {
  const docsUri = diagnosticsDocsUri();
  return { version: packageVersion(), ...(docsUri === undefined ? {} : { docsUri }) };
}

/** The config's severity for a code: `off` drops the finding. */
function applyRule(d: Diagnostic, rules: LintConfig['rules']): Diagnostic | undefined {
  if (rules === undefined || !Object.hasOwn(rules, d.code)) return d;
  const setting = rules[d.code]!;
  if (setting === 'off') return undefined;
  return setting === d.severity ? d : { ...d, severity: setting };
}

function frame(text: string, d: Diagnostic, item: Item, finding: LintFinding): string {
  const { entry } = item;
  let out = renderCodeFrame(text, d, { location: item.label, lineOffset: entry.line - 1 });
  // The frame counts columns in the filter text; a JSON entry starts further right in its file line.
  if (entry.column !== 1)
    out = out.replace(/^([^\n]*?):(\d+):(\d+):/, (_m, loc: string, line: string) => `${loc}:${line}:${finding.column}:`);
  const newline = out.indexOf('\n');
  const head = newline < 0 ? out : out.slice(0, newline);
  const marker = `: ${d.severity} ${d.code}: `;
  const at = head.indexOf(marker);
  if (at < 0) return out;
  const coloured = `${paint.underline(head.slice(0, at))}: ${severityLabel(d.severity)} ${paint.dim(d.code)}: ${head.slice(at + marker.length)}`;
  return coloured + (newline < 0 ? '' : out.slice(newline));
}

function databaseSource(args: ParsedArgs, config: LintConfig): DatabaseSource | undefined {
  const flags = ['--database-url', '--table', '--column', '--sort-column', '--id-column'].filter((f) => args.values.has(f));
  if (flags.length === 0) return args.positionals.length === 0 ? configDatabase(args, config) : undefined;
  const table = args.values.get('--table');
  if (table === undefined) throw new UsageError(`${flags[0]} needs --table, the table holding saved filters`);
  const column = args.values.get('--column');
  const sortColumn = args.values.get('--sort-column');
  if (column === undefined && sortColumn === undefined) throw new UsageError('--table needs --column (and/or --sort-column)');
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  if (url === undefined || url === '') throw new UsageError('give --database-url URL or set DATABASE_URL');
  const idColumn = args.values.get('--id-column');
  return {
    url,
    table,
    ...(column === undefined ? {} : { column }),
    ...(sortColumn === undefined ? {} : { sortColumn }),
    ...(idColumn === undefined ? {} : { idColumn }),
  };
}

/**
 * The config's `database`, only when the command line says `--allow-database`:
 * a config comes with the repository, and a cloned repository's config must
 * not read (and print) any table of the environment's database, nor send its
 * credentials to a host of the config's choosing.
 */
function configDatabase(args: ParsedArgs, config: LintConfig): DatabaseSource | undefined {
  const db = config.database;
  if (db === undefined || args.switches.has('--allow-database')) return db;
  throw new UsageError(
    `config ${config.file ?? CONFIG_FILE}: "database" asks to read table ${JSON.stringify(db.table)} of ${databaseHost(db.url)}; ` +
      'a config alone never reads a database: pass --allow-database to read it (and to write fixes with --fix), ' +
      'or name the table yourself with --table/--column',
  );
}

/** Where a URL points, without its credentials, for messages. */
function databaseHost(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return hostname === '' ? 'the database named by the URL' : `the database at ${hostname}${port === '' ? '' : `:${port}`}`;
  } catch {
    return 'the database named by the URL';
  }
}
