/**
 * `wepql.config.json`: what `wepql lint`, `wepql fmt --check` and the
 * language server need so that CI runs them with no flags. JSON with
 * comments and trailing commas; its JSON Schema is
 * `schemas/wepql-config.schema.json`. Found by walking up from the working
 * directory (the first `wepql.config.json` wins), or named with `--config
 * FILE`. Paths in it are relative to the file's directory. Command-line
 * flags override it.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes.js';
import { didYouMean } from '../diagnostics/suggest.js';
import { compileGlob, type Glob } from './glob.js';
import { insideProject } from './project-root.js';
import { jsonValue, readJsonTree } from './json-positions.js';
import { LineIndex } from './line-index.js';
import { readRegularText } from './source-text.js';
import { UsageError } from './usage-error.js';

/** The file name searched for. */
export const CONFIG_FILE = 'wepql.config.json';

/**
 * A rule severity as a config file gives it.
 *
 * @example
 * const s: RuleSetting = 'off';
 */
export type RuleSetting = 'off' | 'info' | 'warning' | 'error';

/**
 * Where saved filters live in a PostgreSQL table.
 *
 * @example
 * const db: DatabaseSource = { url: 'postgres://…', table: 'saved_views', column: 'filter', idColumn: 'id' };
 */
export interface DatabaseSource {
  readonly url: string;
  readonly table: string;
  /** The column of filter texts (at least one of `column` and `sortColumn`). */
  readonly column?: string;
  readonly sortColumn?: string;
  /** The column identifying a row in reports (default `id`). */
  readonly idColumn?: string;
}

/**
 * A loaded config, every path absolute.
 *
 * @example
 * const config: LintConfig = loadConfig({ cwd: process.cwd() }) ?? {};
 */
export interface LintConfig {
  /** The config file read, if any. */
  readonly file?: string;
  readonly schema?: string;
  readonly previousSchema?: string;
  /** Per-endpoint policy file (see docs/linting.md). */
  readonly policy?: string;
  /** Files, directories and globs, relative to the config file. */
  readonly paths?: readonly string[];
  readonly ignorePatterns?: readonly string[];
  /** Selectors for filters inside JSON/YAML documents (one or several). */
  readonly filterPath?: readonly string[];
  readonly sortPath?: readonly string[];
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly maxWarnings?: number;
  readonly caseSensitive?: boolean;
  readonly database?: DatabaseSource;
  /** Rules for some files: each entry's `rules` apply, over `rules`, to the files its globs match (relative to the config). */
  readonly overrides?: readonly RuleOverride[];
  /** The directory relative paths resolve against. */
  readonly base?: string;
}

/**
 * An `overrides` entry: rule settings for the files its globs match, as ESLint's `overrides`.
 *
 * @example
 * const o: RuleOverride = { files: [compileGlob('legacy/**')], rules: { contradiction: 'off' } };
 */
export interface RuleOverride {
  readonly files: readonly Glob[];
  readonly rules: Readonly<Record<string, RuleSetting>>;
}

/**
 * Every key a config may have; schemas/wepql-config.schema.json lists the same (a test keeps them in step).
 *
 * @example
 * CONFIG_KEYS.includes('filterPath'); // true
 */
export const CONFIG_KEYS = [
  '$schema',
  'schema',
  'previousSchema',
  'policy',
  'paths',
  'ignorePatterns',
  'filterPath',
  'sortPath',
  'rules',
  'maxWarnings',
  'caseSensitive',
  'database',
  'overrides',
] as const;
const OVERRIDE_KEYS = ['files', 'rules'] as const;
const DATABASE_KEYS = ['url', 'table', 'column', 'sortColumn', 'idColumn'] as const;
const SETTINGS: Readonly<Record<string, RuleSetting>> = { off: 'off', info: 'info', warn: 'warning', warning: 'warning', error: 'error' };

/**
 * The config file that applies: `explicit` when given, else the nearest
 * `wepql.config.json` from `cwd` upward, else undefined.
 *
 * @example
 * findConfig(process.cwd()); // '/repo/wepql.config.json'
 */
export function findConfig(cwd: string, explicit?: string): string | undefined {
  if (explicit !== undefined) return resolve(cwd, explicit);
  let dir = resolve(cwd);
  for (;;) {
    const candidate = join(dir, CONFIG_FILE);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads JSON with comments (`//`, `/* *\/`) and trailing commas, as editors
 * read `tsconfig.json`. Throws `UsageError` with the position of the first
 * syntax error.
 *
 * @example
 * readJsonc('{ "schema": "s.json", // the current schema\n }', 'wepql.config.json'); // { schema: 's.json' }
 */
export function readJsonc(text: string, file: string): unknown {
  const read = readJsonTree(text, 'jsonc');
  if (read.problem === 'syntax') {
    const at = new LineIndex(text).position(read.offset);
    throw new UsageError(`config ${file}: not valid JSON (${read.error} at line ${at.line}, column ${at.column})`);
  }
  if (read.problem !== undefined) throw new UsageError(`config ${file}: ${read.error}`);
  try {
    return jsonValue(read.tree);
  } catch (e) {
    if (e instanceof RangeError) throw new UsageError(`config ${file}: nests too deeply to read`);
    throw e;
  }
}

/**
 * Reads and checks a config file. Throws `UsageError` naming the file and
 * the key for anything it cannot use (with "did you mean" for a misspelled
 * key or rule), and, with `trust.confineTo`, for a `schema`,
 * `previousSchema` or `policy` outside the project (see `ConfigTrust`).
 *
 * @example
 * loadConfig('/repo/wepql.config.json').schema; // '/repo/schemas/employee.json'
 */
export function loadConfig(file: string, trust: ConfigTrust = {}, read: ConfigReadOptions = {}): LintConfig {
  const json = readJsonc(readRegularText(file, 'config'), file);
  const fail: Fail = (key, message) => {
    throw new ConfigKeyError(file, key, message);
  };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) fail('$', 'must be a JSON object');
  const obj = json as Record<string, unknown>;
  const own = (key: string): unknown => Object.getOwnPropertyDescriptor(obj, key)?.value;
  checkKeys(obj, CONFIG_KEYS, '', fail);
  const maxWarnings = own('maxWarnings');
  if (maxWarnings !== undefined && (typeof maxWarnings !== 'number' || !Number.isSafeInteger(maxWarnings) || maxWarnings < -1)) {
    fail('maxWarnings', 'must be a whole number ≥ 0, or -1 for no limit');
  }
  const caseSensitive = own('caseSensitive');
  if (caseSensitive !== undefined && typeof caseSensitive !== 'boolean') fail('caseSensitive', 'must be true or false');
  const unknownCode: UnknownCode = (key, message) => {
    if (read.unknownCodes === undefined) fail(key, message);
    read.unknownCodes.push(new ConfigKeyError(file, key, message));
  };
  const rules = own('rules') === undefined ? undefined : readRules(own('rules'), fail, unknownCode);
  const database = own('database') === undefined ? undefined : readDatabase(own('database'), fail);
  const overrides = own('overrides') === undefined ? undefined : readOverrides(own('overrides'), fail, unknownCode);
  return {
    file,
    base: dirname(file),
    ...readPaths(own, dirname(file), trust, fail),
    ...(rules === undefined ? {} : { rules }),
    ...(maxWarnings === undefined ? {} : { maxWarnings: maxWarnings as number }),
    ...(caseSensitive === undefined ? {} : { caseSensitive: caseSensitive as boolean }),
    ...(database === undefined ? {} : { database }),
    ...(overrides === undefined ? {} : { overrides }),
  };
}

function readOverrides(raw: unknown, fail: Fail, unknownCode: UnknownCode): RuleOverride[] {
  if (!Array.isArray(raw)) fail('overrides', 'must be an array of { "files": [globs], "rules": { code: severity } }');
  return (raw as unknown[]).map((o, i) => {
    const key = `overrides[${i}]`;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) fail(key, 'must be an object with "files" and "rules"');
    const entry = o as Record<string, unknown>;
    checkKeys(entry, OVERRIDE_KEYS, `${key}.`, fail);
    const files = typeof entry.files === 'string' ? [entry.files] : entry.files;
    if (!Array.isArray(files) || files.length === 0 || !files.every((f) => typeof f === 'string' && f !== ''))
      fail(`${key}.files`, 'must be a glob or a non-empty array of globs, relative to the config');
    if (entry.rules === undefined) fail(key, 'needs "rules"');
    const globs = (files as string[]).map((f) => {
      try {
        return compileGlob(f);
      } catch (e) {
        return fail(`${key}.files`, (e as Error).message);
      }
    });
    return { files: globs, rules: readRules(entry.rules, fail, unknownCode, `${key}.rules`) };
  });
}

/**
 * How far a config is trusted. With `confineTo`, its `schema`,
 * `previousSchema` and `policy` files must lie inside one of those
 * directories (by real path): the command line and the language server
 * pass `projectTrust`'s (the command line not with `--allow-outside`), so
 * that a config from a cloned repository cannot make a command or an
 * editor print lines of any file. `outsideHint` ends the message about a
 * path outside (by default, how the command line lifts the rule).
 *
 * @example
 * loadConfig('/repo/wepql.config.json', { confineTo: ['/repo', process.cwd()] });
 */
export interface ConfigTrust {
  readonly confineTo?: readonly string[];
  readonly outsideHint?: string;
}

/**
 * The project a config found for `cwd` may reach: the config's own
 * directory and `cwd` (the working directory of a command, the workspace
 * root of an editor). The one place that rule is written, for the command
 * line and the language server alike.
 *
 * @example
 * loadConfig(file, projectTrust(file, process.cwd())); // refuses "schema": "/etc/passwd"
 */
export function projectTrust(file: string, cwd: string, outsideHint?: string): ConfigTrust {
  return { confineTo: [dirname(file), resolve(cwd)], ...(outsideHint === undefined ? {} : { outsideHint }) };
}

/**
 * A config key the tool cannot use: a `UsageError` that also says which
 * file and key (`rules.bogus`, `overrides[0].files`, `$` for the whole
 * document), so that an editor can underline the key.
 *
 * @example
 * try { loadConfig(file); } catch (e) { if (e instanceof ConfigKeyError) console.log(e.key); }
 */
export class ConfigKeyError extends UsageError {
  readonly file: string;
  readonly key: string;
  readonly reason: string;
  constructor(file: string, key: string, reason: string) {
    super(`config ${file}: ${key}: ${reason}`);
    this.name = 'ConfigKeyError';
    this.file = file;
    this.key = key;
    this.reason = reason;
  }
}

/** Throws the usage error of a config key. */
type Fail = (key: string, message: string) => never;
/** A rule of a code that does not exist: thrown, or kept aside (`ConfigReadOptions`). */
type UnknownCode = (key: string, message: string) => void;

/**
 * How `loadConfig` treats a rule naming a code that does not exist. By
 * default it throws (the command line exits 2); with `unknownCodes`, each
 * one is added there and the rule left out, so that an editor shows it at
 * its key and applies the rest of the config (its schema, its other rules).
 *
 * @example
 * const unknownCodes: ConfigKeyError[] = [];
 * loadConfig(file, projectTrust(file, root), { unknownCodes });
 */
export interface ConfigReadOptions {
  readonly unknownCodes?: ConfigKeyError[];
}

function checkKeys(obj: object, known: readonly string[], prefix: string, fail: Fail): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const near = didYouMean(key, known);
    fail(
      `${prefix}${key}`,
      `unknown key${near === undefined ? '' : `; did you mean "${near}"?`}${prefix === '' ? ` (known: ${known.join(', ')})` : ''}`,
    );
  }
}

/** The string-valued keys: files (resolved against the config's directory), lists, and selectors (one or a list). */
function readPaths(own: (key: string) => unknown, base: string, trust: ConfigTrust, fail: Fail): Partial<LintConfig> {
  const roots = trust.confineTo;
  const hint = trust.outsideHint ?? 'pass --allow-outside to read it';
  const str = (key: string): string | undefined => {
    const v = own(key);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '') fail(key, 'must be a non-empty string');
    return v as string;
  };
  const path = (key: string): string | undefined => {
    const v = str(key);
    if (v === undefined) return undefined;
    const abs = resolve(base, v);
    if (roots !== undefined && !insideProject(abs, roots))
      fail(key, `${JSON.stringify(v)} lies outside the project (${roots.join(' or ')}); ${hint}`);
    return abs;
  };
  const strings = (key: string): string[] | undefined => {
    const v = own(key);
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== '')) fail(key, 'must be an array of non-empty strings');
    return v as string[];
  };
  const values = {
    schema: path('schema'),
    previousSchema: path('previousSchema'),
    policy: path('policy'),
    paths: strings('paths'),
    ignorePatterns: strings('ignorePatterns'),
    filterPath: typeof own('filterPath') === 'string' ? [str('filterPath')!] : strings('filterPath'),
    sortPath: typeof own('sortPath') === 'string' ? [str('sortPath')!] : strings('sortPath'),
  };
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

function readRules(raw: unknown, fail: Fail, unknownCode: UnknownCode, key = 'rules'): Record<string, RuleSetting> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fail(key, 'must be an object of code → "off" | "info" | "warn" | "error"');
  const rules = Object.create(null) as Record<string, RuleSetting>;
  for (const [code, setting] of Object.entries(raw as object)) {
    if (!Object.hasOwn(DIAGNOSTIC_CODES, code)) {
      const near = didYouMean(code, Object.keys(DIAGNOSTIC_CODES));
      unknownCode(`${key}.${code}`, `unknown diagnostic code${near === undefined ? '' : `; did you mean "${near}"?`}`);
      continue;
    }
    if (typeof setting !== 'string' || !Object.hasOwn(SETTINGS, setting))
      fail(`${key}.${code}`, 'must be "off", "info", "warn" or "error"');
    rules[code] = SETTINGS[setting as string]!;
  }
  return rules;
}

function readDatabase(raw: unknown, fail: Fail): DatabaseSource {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail('database', 'must be an object with "url", "table" and "column"');
  const db = raw as Record<string, unknown>;
  checkKeys(db, DATABASE_KEYS, 'database.', fail);
  for (const key of Object.keys(db))
    if (typeof db[key] !== 'string' || db[key] === '') fail(`database.${key}`, 'must be a non-empty string');
  if (db.table === undefined) fail('database', 'needs "table"');
  if (db.column === undefined && db.sortColumn === undefined) fail('database', 'needs "column" (and/or "sortColumn")');
  // The URL may come from the environment so that no password sits in the repository.
  const url = (db.url as string | undefined) ?? process.env.DATABASE_URL;
  if (url === undefined) fail('database', 'needs "url", or set DATABASE_URL');
  return {
    url: url!,
    table: db.table as string,
    ...(db.column === undefined ? {} : { column: db.column as string }),
    ...(db.sortColumn === undefined ? {} : { sortColumn: db.sortColumn as string }),
    ...(db.idColumn === undefined ? {} : { idColumn: db.idColumn as string }),
  };
}
