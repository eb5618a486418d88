/**
 * `wepql lint`'s settings: what a run decided before reading anything —
 * the config and the flags over it, the schemas and policy the texts are
 * checked against, the output format, and whether fixes are written.
 */
import type { LintTextOptions } from '../../lint/lint-text.js';
import type { DatabaseSource, LintConfig } from '../../workspace/config.js';
import { UsageError } from '../../workspace/usage-error.js';
import { maxWarningsFlag, type ParsedArgs } from '../args.js';
import { loadSchemaFile } from '../io.js';
import { loadPolicyFile } from '../policy-file.js';
import { runConfig } from '../workspace-flags.js';
import { cacheLocation, type CacheStrategy } from './cache.js';
import { databaseSource } from './database.js';

/**
 * Everything a run decided before linting: where findings go and what they are checked against.
 *
 * @example
 * const settings = await readSettings(parseArgs(argv, specOf(definition)));
 */
export interface Settings {
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
  /** `--cache`: the file the run's cache lives in (lint/cache.ts). */
  readonly cacheLocation: string | undefined;
  /** `--cache-strategy`: how the cache tells an unchanged file (default `metadata`). */
  readonly cacheStrategy: CacheStrategy;
}

/**
 * Reads the config and the flags, and loads the schemas and policy they name.
 *
 * @example
 * const settings = await readSettings(args);
 */
export async function readSettings(args: ParsedArgs): Promise<Settings> {
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
  for (const flag of ['--cache-location', '--cache-strategy'])
    if (args.values.has(flag) && !args.switches.has('--cache')) throw new UsageError(`${flag} needs --cache`);
  const cacheStrategy = args.values.get('--cache-strategy') ?? 'metadata';
  if (cacheStrategy !== 'metadata' && cacheStrategy !== 'content')
    throw new UsageError(`--cache-strategy must be metadata or content, got ${JSON.stringify(cacheStrategy)}`);
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
    cacheLocation: args.switches.has('--cache') ? cacheLocation(args.values.get('--cache-location'), process.cwd()) : undefined,
    cacheStrategy,
  };
}
