/**
 * What `wepql lint` reads: the saved filters and sorts of the files the run
 * names (operands, else the config's `paths`) and of a database table, each
 * as an item that says where it came from.
 */
import type { SavedEntry } from '../../workspace/saved-filters.js';
import type { LoadedSource, NoFiltersNotice } from '../../workspace/sources.js';
import { UsageError } from '../../workspace/usage-error.js';
import type { ParsedArgs } from '../args.js';
import { readRunSources } from '../workspace-flags.js';
import { fileRules } from '../../workspace/lint-rules.js';
import { colorOn } from '../color.js';
import { cacheKey, openCache, reuseFrom, trustFrom, viewKey, type LintCache, type Replay } from './cache.js';
import { readRows } from './database.js';
import type { Settings } from './settings.js';

/**
 * A saved text to lint, wherever it came from.
 *
 * @example
 * const item: Item = { label: 'views/a.json', entry, file };
 */
export interface Item {
  readonly label: string;
  readonly entry: SavedEntry;
  readonly file?: LoadedSource;
  readonly row?: { readonly id: string; readonly column: string };
}

/**
 * What was read: files (with their entries), database rows, and files that hold nothing.
 *
 * @example
 * const { items, notices } = await readInputs(args, settings);
 */
export interface Inputs {
  readonly items: readonly Item[];
  readonly files: readonly LoadedSource[];
  readonly notices: readonly NoFiltersNotice[];
  /** `--cache`: what earlier runs left, and where this run leaves what it learns. */
  readonly cache?: LintCache;
  /** Files too large to read: each an error finding, and the run goes on. */
  readonly tooLarge: readonly NoFiltersNotice[];
  readonly rows: number;
  /** Files reported from their cached report parts (none of their entries is an item), each before the item of index `before`. */
  readonly replays: readonly { readonly before: number; readonly replay: Replay }[];
  /** The view each file's report part is written under (`viewKey`); undefined when the run keeps none. */
  readonly viewOf: ((abs: string) => string) | undefined;
}

/**
 * Reads the files and the table a run names. The config's `paths` are
 * linted only when the run names nothing else (operands or a table).
 *
 * @example
 * const inputs = await readInputs(args, settings);
 */
export async function readInputs(args: ParsedArgs, settings: Settings): Promise<Inputs> {
  const { database } = settings;
  const operands = args.positionals;
  const wantFiles = operands.length > 0 || database === undefined;
  const cache = settings.cacheLocation === undefined ? undefined : openRunCache(args, settings, settings.cacheLocation);
  const viewOf = viewsOf(settings);
  const sources = wantFiles
    ? await readRunSources(args, settings.config, {
        operands,
        alsoExclude: [settings.schemaPath, settings.previousPath, settings.policyPath, settings.cacheLocation],
        // --fix needs every file's text: nothing is trusted unread then.
        ...(cache === undefined ? {} : { reuse: reuseFrom(cache), trust: trustFrom(cache, !settings.fix, viewOf) }),
      })
    : undefined;
  if (sources === undefined && database === undefined) {
    throw new UsageError(
      'name at least one FILE, directory or glob (- reads standard input), give --table for a database, or set "paths" in wepql.config.json',
    );
  }
  const items: Item[] = [];
  const replays: { before: number; replay: Replay }[] = [];
  for (const file of sources?.files ?? []) {
    const replay = cache?.replayed.get(file.candidate.abs);
    if (replay !== undefined) replays.push({ before: items.length, replay });
    else for (const entry of file.file.entries) items.push({ label: file.label, entry, file });
  }
  const rows = database === undefined ? 0 : await readRows(database, items);
  return {
    items,
    files: sources?.files ?? [],
    notices: sources?.notices ?? [],
    tooLarge: sources?.tooLarge ?? [],
    rows,
    replays,
    viewOf,
    ...(cache === undefined ? {} : { cache }),
  };
}

/** The views report parts are kept under: with `--cache`, the pretty format's when nothing is fixed; else none (undefined). */
function viewsOf(settings: Settings): ((abs: string) => string) | undefined {
  if (settings.cacheLocation === undefined || settings.format !== 'pretty' || settings.fix) return undefined;
  const rulesOf = fileRules(settings.config);
  const color = colorOn();
  // Files share their rules object unless an override picks them out: one key per rules object.
  const keys = new Map<object | undefined, string>();
  return (abs) => {
    const rules = rulesOf(abs);
    let key = keys.get(rules);
    if (key === undefined) keys.set(rules, (key = viewKey(rules, settings.quiet, color)));
    return key;
  };
}

/** The run's cache: opened under the key of this run's settings (lint/cache.ts). */
function openRunCache(args: ParsedArgs, settings: Settings, location: string): LintCache {
  const key = cacheKey(args, settings.config, {
    schemaPath: settings.schemaPath,
    previousPath: settings.previousPath,
    policyPath: settings.policyPath,
    caseSensitive: settings.options.caseSensitive === true,
  });
  return openCache(location, key, settings.cacheStrategy);
}
