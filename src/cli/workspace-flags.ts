/**
 * The options `wepql lint` and `wepql fmt --check`/`--write` share — config,
 * selectors, ignores, `--allow-outside`, `--strict` — and the one way both
 * turn them into the files to read (`workspace/sources.ts`), so the two
 * commands walk a repository alike.
 */
import { resolve } from 'node:path';
import { findConfig, loadConfig, projectTrust, type LintConfig } from '../workspace/config.js';
import { excludedFiles, findCandidates, loadSources, selectorsOf, type LoadedSources, type LoadOptions } from '../workspace/sources.js';
import type { SavedSelectors } from '../workspace/saved-filters.js';
import { UsageError } from '../workspace/usage-error.js';
import type { ParsedArgs } from './args.js';
import { STDIN_LABEL } from './color.js';
import type { OptionDefinition } from './command.js';
import { setBatchV8SettingsFor } from './batch-v8-settings.js';

/** Options both commands take, with their help text. */
export const WORKSPACE_OPTIONS: readonly OptionDefinition[] = [
  { flag: '--config', value: 'FILE', description: 'read settings from FILE instead of the nearest wepql.config.json' },
  { flag: '--no-config', description: 'ignore any wepql.config.json' },
  {
    flag: '--filter-path',
    value: 'PATH',
    repeatable: true,
    description: "where filters sit inside JSON/YAML documents, such as '$.views[*].filter'",
  },
  {
    flag: '--sort-path',
    value: 'PATH',
    repeatable: true,
    description: "where sorts sit inside JSON/YAML documents, such as '$.views[*].sort'",
  },
  { flag: '--ignore-pattern', value: 'PATTERN', repeatable: true, description: 'leave out files matching this .gitignore-style pattern' },
  { flag: '--ignore-path', value: 'FILE', description: 'read .gitignore-style patterns from FILE instead of .wepqlignore' },
  {
    flag: '--allow-outside',
    description: 'let the config\'s "paths", "schema", "previousSchema" and "policy" name files outside the project',
  },
  { flag: '--strict', description: 'a file that was asked for but holds no filter or sort is an error, not a warning' },
];

/**
 * The config of a run: `--config FILE`, else the nearest `wepql.config.json`
 * (none with `--no-config`).
 *
 * @example
 * const config = runConfig(args, process.cwd());
 */
export function runConfig(args: ParsedArgs, cwd: string): LintConfig {
  if (args.switches.has('--no-config')) {
    if (args.values.has('--config')) throw new UsageError('--config and --no-config cannot be combined');
    return {};
  }
  const file = findConfig(cwd, args.values.get('--config'));
  if (file === undefined) return {};
  // The project: the config's directory, or the working directory when the config sits deeper (`--config ci/lint.json`).
  return loadConfig(file, args.switches.has('--allow-outside') ? {} : projectTrust(file, cwd));
}

/**
 * The selectors of a run: flags, else the config's `filterPath`/`sortPath`.
 *
 * @example
 * runSelectors(args, config);
 */
export function runSelectors(args: ParsedArgs, config: LintConfig): SavedSelectors {
  return selectorsOf(args.repeated.get('--filter-path') ?? config.filterPath, args.repeated.get('--sort-path') ?? config.sortPath);
}

/**
 * Finds and reads the files a run names (operands, else the config's
 * `paths`). Returns undefined when nothing is named at all.
 *
 * @example
 * const sources = await readRunSources(args, config, { operands: args.positionals, alsoExclude: [schemaPath] });
 */
export async function readRunSources(
  args: ParsedArgs,
  config: LintConfig,
  // `reuse` and `trust`: entries known from an earlier run.
  options: Pick<LoadOptions, 'reuse' | 'trust'> & {
    readonly operands: readonly string[];
    readonly alsoExclude: readonly (string | undefined)[];
  },
): Promise<LoadedSources | undefined> {
  const cwd = process.cwd();
  const ignorePath = args.values.get('--ignore-path');
  const candidates = await findCandidates({
    cwd,
    operands: options.operands,
    config,
    ignorePatterns: args.repeated.get('--ignore-pattern') ?? [],
    ...(ignorePath === undefined ? {} : { ignorePath }),
    allowOutside: args.switches.has('--allow-outside'),
  });
  if (options.operands.length === 0 && config.paths === undefined) return undefined;
  // A run over many files is short: V8's defaults for long-lived programs cost it more than they save.
  setBatchV8SettingsFor(candidates.length);
  const exclude = excludedFiles(
    config,
    options.alsoExclude.map((p) => (p === undefined ? undefined : resolve(cwd, p))),
  );
  const loaded = await loadSources(candidates, {
    selectors: runSelectors(args, config),
    exclude,
    stdinLabel: STDIN_LABEL,
    ...(options.reuse === undefined ? {} : { reuse: options.reuse }),
    ...(options.trust === undefined ? {} : { trust: options.trust }),
  });
  if (loaded.files.length === 0 && loaded.notices.length === 0 && loaded.tooLarge.length === 0) {
    const asked = options.operands.length > 0 ? options.operands : (config.paths ?? []);
    return {
      files: [],
      notices: [
        {
          label: asked.join(' '),
          message: 'no saved-filter files found (a walk reads .wepql files, and JSON/YAML/NDJSON files holding filters)',
        },
      ],
      tooLarge: [],
    };
  }
  return loaded;
}
