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
import { relative, resolve } from 'node:path';
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import { fixText, lintText, renameFields, type LintTextOptions } from '../../lint/lint-text.js';
import { findingToJson, toSarif, type LintFinding } from '../../lint/report.js';
import type { Schema } from '../../schema/schema.js';
import { integerFlag, parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { paint, plural, severityLabel, STDIN_LABEL } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';
import { findConfig, loadConfig, type DatabaseSource, type LintConfig } from '../../workspace/config.js';
import { discoverFiles, readIgnoreFile } from '../../workspace/discover.js';
import { loadSchemaFile, readInput, writeFileText } from '../io.js';
import { loadPolicyFile } from '../policy-file.js';
import { startProgress } from '../progress.js';
import { loadYaml, needsYaml, readSavedFilters, rewriteSavedFile, SavedFileError, type SavedEntry, type SavedFile, type SavedSelectors } from '../../workspace/saved-filters.js';
import { parseSelector } from '../../workspace/selector.js';

/** `wepql lint`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'lint',
  summary: 'check saved filters and sorts against a schema, and against the schema they were written for',
  operands: '[FILE|DIR|GLOB...]',
  details: [
    'Reads JSON (a list of {name, filter, sort} objects or one object), YAML, NDJSON and text files (one filter a line); directories are walked for such files; quote globs for the shell. - reads standard input. Without operands, the "paths" of wepql.config.json are linted.',
    'Settings come from wepql.config.json, found in the working directory or above it (or --config FILE); flags override it. Exit 0 when there is no error, 1 when there is one or more warnings than --max-warnings, 2 for a usage error.',
  ],
  options: [
    { flag: '--schema', value: 'FILE', description: 'the schema the filters must satisfy (without one, only syntax is checked)' },
    { flag: '--previous-schema', value: 'FILE', description: 'the schema the filters were written for: report removed, renamed, retyped and nullability-changed fields' },
    { flag: '--policy', value: 'FILE', description: "an endpoint's policy file: report the fields and operators it refuses (needs --schema)" },
    { flag: '--config', value: 'FILE', description: 'read settings from FILE instead of the nearest wepql.config.json' },
    { flag: '--no-config', description: 'ignore any wepql.config.json' },
    { flag: '--fix', description: 'rewrite fixable findings in place (renamed fields, then safe fixes); every other byte stays as it was' },
    { flag: '--format', value: 'pretty|json|sarif', description: 'pretty code frames (default), a JSON array of findings, or SARIF 2.1.0' },
    { flag: '--quiet', alias: '-q', description: 'report errors only' },
    { flag: '--max-warnings', value: 'N', description: 'exit 1 when there are more than N warnings' },
    { flag: '--filter-path', value: 'PATH', repeatable: true, description: "where filters sit inside JSON/YAML documents, such as '$.views[*].filter'" },
    { flag: '--sort-path', value: 'PATH', repeatable: true, description: "where sorts sit inside JSON/YAML documents, such as '$.views[*].sort'" },
    { flag: '--ignore-pattern', value: 'PATTERN', repeatable: true, description: 'leave out files matching this .gitignore-style pattern' },
    { flag: '--ignore-path', value: 'FILE', description: 'read .gitignore-style patterns from FILE (default: .wepqlignore beside the config, if any)' },
    { flag: '--database-url', value: 'URL', description: 'lint saved filters stored in PostgreSQL (default: DATABASE_URL); needs --table' },
    { flag: '--table', value: 'NAME', description: 'the table holding saved filters (schema.table allowed)' },
    { flag: '--column', value: 'NAME', description: 'the column of filter texts' },
    { flag: '--sort-column', value: 'NAME', description: 'the column of sort texts' },
    { flag: '--id-column', value: 'NAME', description: 'the column naming each row in reports (default id)' },
    { flag: '--case-sensitive', description: 'judge string conditions as case-sensitive (default: case-insensitive, as in evaluation)' },
  ],
  examples: [
    "wepql lint --schema schemas/employee.json 'views/**/*.{json,yaml}'",
    'wepql lint --schema schema.v2.json --previous-schema schema.v1.json --fix views/',
    "wepql lint --schema schema.json --filter-path '$.views[*].filter' dashboards.yaml",
    'wepql lint --schema schema.json --database-url "$DATABASE_URL" --table saved_views --column filter --id-column id',
  ],
};

const VERSION = '0.1.0';

/** A saved text to lint, wherever it came from. */
interface Item {
  readonly label: string;
  readonly entry: SavedEntry;
  readonly file?: SavedFile;
  readonly row?: { readonly id: string; readonly column: string };
}

/** Runs `wepql lint`. */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  const cwd = process.cwd();
  const configFile = args.switches.has('--no-config') ? undefined : findConfig(cwd, args.values.get('--config'));
  const config: LintConfig = configFile === undefined ? {} : loadConfig(configFile);

  const format = args.values.get('--format') ?? 'pretty';
  if (format !== 'pretty' && format !== 'json' && format !== 'sarif') {
    throw new UsageError(`--format must be pretty, json or sarif, got ${JSON.stringify(format)}`);
  }
  const fix = args.switches.has('--fix');
  const quiet = args.switches.has('--quiet');
  const maxWarnings = integerFlag(args, '--max-warnings') ?? config.maxWarnings;
  const schemaPath = args.values.get('--schema') ?? config.schema;
  const previousPath = args.values.get('--previous-schema') ?? config.previousSchema;
  if (previousPath !== undefined && schemaPath === undefined) throw new UsageError('--previous-schema needs --schema, the schema the filters will run under');
  const schema: Schema | undefined = schemaPath === undefined ? undefined : await loadSchemaFile(schemaPath);
  const previousSchema: Schema | undefined = previousPath === undefined ? undefined : await loadSchemaFile(previousPath);
  const policyPath = args.values.get('--policy') ?? config.policy;
  const policy = policyPath === undefined ? undefined : await loadPolicyFile(policyPath, schema);
  const options: LintTextOptions = {
    ...(schema === undefined ? {} : { schema }),
    ...(policy === undefined ? {} : { policy }),
    ...(previousSchema === undefined ? {} : { previousSchema }),
    caseSensitive: args.switches.has('--case-sensitive') || config.caseSensitive === true,
  };
  const filterPaths = args.repeated.get('--filter-path') ?? config.filterPath;
  const sortPaths = args.repeated.get('--sort-path') ?? config.sortPath;
  const selectors: SavedSelectors = {
    ...(filterPaths === undefined ? {} : { filter: filterPaths.map((p) => parseSelector(p, '--filter-path')) }),
    ...(sortPaths === undefined ? {} : { sort: sortPaths.map((p) => parseSelector(p, '--sort-path')) }),
  };
  const database = databaseSource(args, config);
  if (fix && args.positionals.includes('-')) throw new UsageError('--fix cannot rewrite standard input; name files');

  // Which files: operands (relative to the working directory) or the config's paths (relative to the config).
  const ignoreBase = config.base ?? cwd;
  const patterns = [
    ...(args.values.has('--ignore-path')
      ? readIgnoreFile(resolve(cwd, args.values.get('--ignore-path')!), true)
      : readIgnoreFile(resolve(ignoreBase, '.wepqlignore'), false)),
    ...(config.ignorePatterns ?? []),
    ...(args.repeated.get('--ignore-pattern') ?? []),
  ];
  let paths: string[] = [];
  if (args.positionals.length > 0) paths = await discoverFiles(args.positionals, { cwd, ignore: { base: ignoreBase, patterns } });
  else if (config.paths !== undefined && database === undefined) {
    const base = config.base!;
    paths = (await discoverFiles(config.paths, { cwd: base, ignore: { base, patterns } })).map((p) => relative(cwd, resolve(base, p)) || p);
  }
  if (paths.length === 0 && database === undefined) {
    throw new UsageError('name at least one FILE, directory or glob (- reads standard input), give --table for a database, or set "paths" in wepql.config.json');
  }

  // Read everything first so that a usage problem in any source stops the run before output.
  const items: Item[] = [];
  const files: SavedFile[] = [];
  if (needsYaml(paths, selectors)) await loadYaml();
  for (const path of paths) {
    const content = await readInput(path);
    let file: SavedFile;
    try {
      file = readSavedFilters(path, content, selectors);
    } catch (e) {
      if (e instanceof SavedFileError) throw new UsageError(path === '-' ? e.message.replace(/^-:/, `${STDIN_LABEL}:`) : e.message);
      throw e;
    }
    files.push(file);
    const label = path === '-' ? STDIN_LABEL : path;
    for (const entry of file.entries) items.push({ label, entry, file });
  }
  let rows = 0;
  if (database !== undefined) {
    const { readDatabaseEntries } = await import('../../workspace/db-source.js');
    const entries = await readDatabaseEntries(database);
    rows = new Set(entries.map((e) => e.id)).size;
    for (const e of entries) {
      const entry: SavedEntry = { kind: e.kind, text: e.text, line: 1, column: 1, range: { start: 0, end: e.text.length }, encoding: 'raw' };
      items.push({ label: `${database.table}#${e.id}`, entry, row: { id: e.id, column: e.column } });
    }
  }

  const rules = config.rules;
  const findings: LintFinding[] = [];
  const frames: string[] = [];
  const replacements = new Map<SavedFile, Map<SavedEntry, string>>();
  const rowFixes: { entry: { id: string; kind: 'filter' | 'sort'; column: string; text: string }; text: string }[] = [];
  let fixedCount = 0;
  // Saved filters repeat (copied views, shared defaults): lint each distinct text once.
  const cache = new Map<string, Diagnostic[]>();
  const lintCached = (text: string, kind: 'filter' | 'sort'): Diagnostic[] => {
    const key = `${kind}\u0000${text}`;
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = lintText(text, kind, options)));
    return found;
  };
  const progress = startProgress(items.length, 'filters and sorts');
  for (const item of items) {
    const { entry } = item;
    let text = entry.text;
    if (fix) {
      // Renames first, in place, so that they land even when another finding has no safe fix.
      const renamed = renameFields(text, entry.kind, options);
      const fixed = fixText(renamed, entry.kind, options) ?? renamed;
      if (fixed !== text) {
        text = fixed;
        fixedCount++;
        if (item.file !== undefined) {
          let map = replacements.get(item.file);
          if (map === undefined) replacements.set(item.file, (map = new Map()));
          map.set(entry, fixed);
        } else if (item.row !== undefined) rowFixes.push({ entry: { ...item.row, kind: entry.kind, text: entry.text }, text: fixed });
      }
    }
    for (const raw of lintCached(text, entry.kind)) {
      const d = applyRule(raw, rules);
      if (d === undefined) continue;
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
      findings.push(finding);
      if (format === 'pretty' && !(quiet && d.severity !== 'error')) frames.push(frame(text, d, item, finding));
    }
    progress.tick(1);
  }
  progress.done();

  for (const [file, map] of replacements) {
    const next = rewriteSavedFile(file, map);
    if (next !== file.content) await writeFileText(file.path, next);
  }
  if (database !== undefined && rowFixes.length > 0) {
    const { writeDatabaseFixes } = await import('../../workspace/db-source.js');
    await writeDatabaseFixes(database, rowFixes);
  }

  const count = (s: Severity) => findings.filter((f) => f.severity === s).length;
  const errors = count('error');
  const warnings = count('warning');
  const infos = count('info');
  const filters = items.filter((i) => i.entry.kind === 'filter').length;
  const sorts = items.length - filters;
  const where = [
    ...(files.length > 0 || database === undefined ? [plural(files.length, 'file')] : []),
    ...(database === undefined ? [] : [plural(rows, 'row')]),
  ].join(' and ');
  const summary =
    `${where}, ${plural(filters, 'filter')}${sorts > 0 ? ` and ${plural(sorts, 'sort')}` : ''} checked: ` +
    `${plural(errors, 'error')}, ${plural(warnings, 'warning')}` +
    (infos > 0 && !quiet ? `, ${plural(infos, 'info', 'infos')}` : '') +
    (fix ? `, ${fixedCount} fixed` : '') +
    (schema === undefined ? ' (no --schema: syntax only)' : '');
  const tooManyWarnings = maxWarnings !== undefined && warnings > maxWarnings;

  const shown = quiet ? findings.filter((f) => f.severity === 'error') : findings;
  if (format === 'pretty') {
    if (frames.length > 0) process.stdout.write(frames.join('\n\n') + '\n\n');
    const painted = errors > 0 ? paint.red(summary) : warnings > 0 ? paint.yellow(summary) : paint.green(summary);
    process.stdout.write(paint.bold(painted) + '\n');
  } else if (format === 'json') {
    process.stdout.write(JSON.stringify(shown.map(findingToJson), null, 2) + '\n');
    process.stderr.write(summary + '\n');
  } else {
    process.stdout.write(JSON.stringify(toSarif(shown, { version: VERSION }), null, 2) + '\n');
    process.stderr.write(summary + '\n');
  }
  if (tooManyWarnings) {
    process.stderr.write(`wepql lint: too many warnings (${warnings}; --max-warnings allows ${maxWarnings})\n`);
  }
  return errors > 0 || tooManyWarnings ? 1 : 0;
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
  if (entry.column !== 1) out = out.replace(/^([^\n]*?):(\d+):(\d+):/, (_m, loc: string, line: string) => `${loc}:${line}:${finding.column}:`);
  const newline = out.indexOf('\n');
  const head = newline < 0 ? out : out.slice(0, newline);
  const marker = `: ${d.severity} ${d.code}: `;
  const at = head.indexOf(marker);
  if (at < 0) return out;
  const coloured = `${paint.underline(head.slice(0, at))}: ${severityLabel(d.severity)} ${paint.dim(d.code)}: ${head.slice(at + marker.length)}`;
  return coloured + (newline < 0 ? '' : out.slice(newline));
}

function databaseSource(args: ReturnType<typeof parseArgs>, config: LintConfig): DatabaseSource | undefined {
  const flags = ['--database-url', '--table', '--column', '--sort-column', '--id-column'].filter((f) => args.values.has(f));
  if (flags.length === 0) return args.positionals.length === 0 ? config.database : undefined;
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
