/**
 * `wepql lint --cache`: what a run learned about each file, kept for the
 * next run so that a file whose text has not changed is neither parsed nor
 * linted again (docs/linting.md, "The cache"). A file's entry is its text's
 * hash, the entries read from it and each entry's findings before the
 * config's rules; the rules, code frames, summary and fixes are worked out
 * again on every run, so a cached run reports byte for byte what an
 * uncached one does. The whole cache is dropped when anything else the
 * findings depend on changes: the wepql build, the working directory, the
 * selectors, the schemas, the policy or `--case-sensitive`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIAGNOSTIC_CODES } from '../../diagnostics/codes.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import type { SavedEntry, SavedFile } from '../../workspace/saved-filters.js';
import type { LoadedSource, LoadOptions } from '../../workspace/sources.js';
import { UsageError } from '../../workspace/usage-error.js';
import type { ParsedArgs } from '../args.js';
import { packageVersion } from '../package-info.js';
import { runSelectors } from '../workspace-flags.js';
import type { LintConfig } from '../../workspace/config.js';

/** The cache file's name when `--cache-location` names a directory or is not given (as ESLint's `.eslintcache`). */
const DEFAULT_CACHE_NAME = '.wepqlcache';
/** Bumped whenever the file's layout changes: a cache of another layout is ignored. */
const LAYOUT = 1;

/** What the cache keeps of one file. */
interface CachedFile {
  /** SHA-1 of the file's text. */
  readonly hash: string;
  /** The path the run named it by (entries, labels and rules depend on it). */
  readonly path: string;
  readonly format: SavedFile['format'];
  readonly entries: readonly SavedEntry[];
  /** Each entry's findings before the config's rules, in the entries' order. */
  readonly found: readonly (readonly Diagnostic[])[];
}

/**
 * A run's cache: the file it lives in, the key of this run, what an earlier
 * run with the same key left, and what this run learns.
 *
 * @example
 * const cache = openCache(location, key);
 */
export interface LintCache {
  readonly location: string;
  readonly key: string;
  /** Files an earlier run with the same key read, by absolute path. */
  readonly known: ReadonlyMap<string, CachedFile>;
  /** The findings of their texts, by kind and text: a run's linter starts from them (and adds to them). */
  readonly findings: KnownFindings;
  /** The hash of each file's text as this run read it, by absolute path (hashed once, when asked whether it is known). */
  readonly hashes: Map<string, string>;
  /** Whether the file held a cache of this run's key (else it is written even when the run read nothing). */
  readonly loaded: boolean;
}

/**
 * Where `--cache-location` (or its default) puts the cache: a directory
 * (existing, or written with a trailing slash) gets `.wepqlcache` inside it.
 *
 * @example
 * cacheLocation(undefined, '/repo'); // '/repo/.wepqlcache'
 */
export function cacheLocation(flag: string | undefined, cwd: string): string {
  if (flag === undefined) return join(cwd, DEFAULT_CACHE_NAME);
  const abs = resolve(cwd, flag);
  const isDirectory = /[\\/]$/.test(flag) || (existsSync(abs) && statSync(abs).isDirectory());
  return isDirectory ? join(abs, DEFAULT_CACHE_NAME) : abs;
}

function sha1(text: string | Buffer): string {
  return createHash('sha1').update(text).digest('base64');
}

/** The build of wepql that runs: its version, and this module's file (a local build changes it without a new version). */
function buildStamp(): string {
  const self = fileURLToPath(import.meta.url);
  const stat = existsSync(self) ? statSync(self) : undefined;
  return `${packageVersion()}:${stat?.size ?? 0}:${stat?.mtimeMs ?? 0}`;
}

/**
 * The key of a run: everything besides a file's own text that its entries
 * and findings depend on. Files named by the flags or the config are read
 * here as bytes; one read from standard input cannot be, so the cache is
 * refused for it.
 *
 * @example
 * const key = cacheKey(args, config, { schemaPath: 'schemas/employee.json', caseSensitive: false });
 */
export function cacheKey(
  args: ParsedArgs,
  config: LintConfig,
  inputs: {
    readonly schemaPath?: string | undefined;
    readonly previousPath?: string | undefined;
    readonly policyPath?: string | undefined;
    readonly caseSensitive: boolean;
  },
): string {
  const named = [inputs.schemaPath, inputs.previousPath, inputs.policyPath];
  if (named.includes('-')) throw new UsageError('--cache needs the schema, previous schema and policy as files, not standard input');
  const cwd = process.cwd();
  const hash = createHash('sha1');
  const part = (value: string) => hash.update(`${value.length}:${value}`);
  part(String(LAYOUT));
  part(buildStamp());
  part(cwd);
  part(JSON.stringify(runSelectors(args, config)));
  part(String(inputs.caseSensitive));
  for (const path of named) part(path === undefined ? '' : sha1(readFileSync(resolve(cwd, path))));
  return hash.digest('base64');
}

/** A cached file as read back, or undefined when it is not one (a damaged or hand-edited cache is ignored, never trusted). */
function cachedFile(value: unknown): CachedFile | undefined {
  if (!isRecord(value)) return undefined;
  const { hash, path, format, entries, found } = value;
  if (typeof hash !== 'string' || typeof path !== 'string' || !FORMATS.has(format)) return undefined;
  if (!Array.isArray(entries) || !Array.isArray(found) || entries.length !== found.length || entries.length === 0) return undefined;
  for (let i = 0; i < entries.length; i++) {
    const diagnostics: unknown = found[i];
    if (!isEntry(entries[i]) || !Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return undefined;
  }
  return value as unknown as CachedFile;
}

// The values each field may hold, as records over the types' unions: a value the types gain and these lack fails the type check.
const FORMATS = namesOf<SavedFile['format']>({ txt: true, json: true, ndjson: true, yaml: true });
const ENCODINGS = namesOf<SavedEntry['encoding']>({ raw: true, 'json-string': true, 'yaml-plain': true, 'yaml-single': true });
const SEVERITIES = namesOf<Severity>({ error: true, warning: true, info: true });
const CODES: ReadonlySet<unknown> = new Set(Object.keys(DIAGNOSTIC_CODES));

function namesOf<T extends string>(all: Record<T, true>): ReadonlySet<unknown> {
  return new Set(Object.keys(all));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** A saved entry as `readSavedFilters` makes one: every field a run reads of it has its type. */
function isEntry(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { kind, text, line, column, name, range, encoding, disable } = value;
  return (
    (kind === 'filter' || kind === 'sort') &&
    typeof text === 'string' &&
    isOffset(line) &&
    isOffset(column) &&
    (name === undefined || typeof name === 'string') &&
    isRecord(range) &&
    isOffset(range.start) &&
    isOffset(range.end) &&
    ENCODINGS.has(encoding) &&
    (disable === undefined || (Array.isArray(disable) && disable.every((c) => typeof c === 'string')))
  );
}

/** A diagnostic of a known code, with offsets, and edits that are edits. */
function isDiagnostic(value: unknown): boolean {
  if (!isRecord(value)) return false;
  const { code, severity, message, start, end, suggestion, fix } = value;
  return (
    CODES.has(code) &&
    SEVERITIES.has(severity) &&
    typeof message === 'string' &&
    isOffset(start) &&
    isOffset(end) &&
    (suggestion === undefined || typeof suggestion === 'string') &&
    (fix === undefined ||
      (Array.isArray(fix) && fix.every((e) => isRecord(e) && isOffset(e.start) && isOffset(e.end) && typeof e.newText === 'string')))
  );
}

/**
 * Reads the cache at `location`: what it knows when it was written with
 * `key`, else nothing (a missing, damaged or stale cache is started afresh).
 *
 * @example
 * const cache = openCache('/repo/.wepqlcache', key);
 */
export function openCache(location: string, key: string): LintCache {
  const known = new Map<string, CachedFile>();
  const findings: KnownFindings = { filter: new Map(), sort: new Map() };
  const empty: LintCache = { location, key, known, findings, hashes: new Map(), loaded: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(location, 'utf8'));
  } catch {
    return empty;
  }
  const top = parsed as { layout?: unknown; key?: unknown; files?: unknown } | null;
  if (top === null || typeof top !== 'object' || top.layout !== LAYOUT || top.key !== key) return empty;
  if (typeof top.files !== 'object' || top.files === null) return empty;
  // Object.entries reads own members only: a "__proto__" path is a path like any other.
  for (const [abs, value] of Object.entries(top.files)) {
    const file = cachedFile(value);
    if (file === undefined) continue;
    known.set(abs, file);
    file.entries.forEach((entry, i) => findings[entry.kind].set(entry.text, file.found[i]!));
  }
  return { ...empty, loaded: true };
}

/**
 * The `reuse` answer of `loadSources` for this cache: a file whose path and
 * text hash are as cached gets its cached entries.
 *
 * @example
 * await readRunSources(args, config, { operands, alsoExclude, reuse: reuseFrom(cache) });
 */
export function reuseFrom(cache: LintCache): NonNullable<LoadOptions['reuse']> {
  return (candidate, source) => {
    const hash = sha1(source.text);
    cache.hashes.set(candidate.abs, hash);
    const file = cache.known.get(candidate.abs);
    if (file === undefined || file.path !== candidate.path || file.hash !== hash) return undefined;
    return { format: file.format, entries: file.entries };
  };
}

/**
 * Findings before the config's rules, by kind and text.
 *
 * @example
 * const known: KnownFindings = { filter: new Map([['Gender.Equal(1)', []]]), sort: new Map() };
 */
export interface KnownFindings {
  readonly filter: Map<string, readonly Diagnostic[]>;
  readonly sort: Map<string, readonly Diagnostic[]>;
}

/**
 * Writes the cache after a run: every file of the run that held entries,
 * with the findings the run had for their texts as written (`raw`, one per
 * item in the items' order; undefined for an item `--fix` changed, which
 * leaves its file out), plus the earlier run's files that still exist and
 * this run did not read. Nothing is written when nothing changed; else a
 * temporary file is renamed into place, so a run stopped midway leaves the
 * old cache whole. Returns the error's text when it could not be written.
 *
 * @example
 * const problem = saveCache(cache, inputs.items, outcome.raw);
 */
export function saveCache(
  cache: LintCache,
  items: readonly { readonly file?: LoadedSource | undefined }[],
  raw: readonly (readonly Diagnostic[] | undefined)[],
): string | undefined {
  const { files, seen } = filesOfRun(cache, items, raw);
  let unchanged = true;
  for (const [abs, file] of cache.known) {
    if (!seen.has(abs)) {
      if (existsSync(abs)) files[abs] = file;
      else unchanged = false;
    } else {
      const now = files[abs];
      unchanged &&= now !== undefined && now.hash === file.hash && now.path === file.path;
    }
  }
  // Files new to the cache change it too; a run that learned nothing leaves the file as it is.
  for (const abs of seen) unchanged &&= cache.known.has(abs) || files[abs] === undefined;
  if (unchanged && cache.loaded) return undefined;
  return writeAtomically(cache.location, JSON.stringify({ layout: LAYOUT, key: cache.key, files }));
}

/** The run's files that held entries, with their findings (a file with an item `--fix` changed is left out), and every file the run read. */
function filesOfRun(
  cache: LintCache,
  items: readonly { readonly file?: LoadedSource | undefined }[],
  raw: readonly (readonly Diagnostic[] | undefined)[],
): { files: Record<string, CachedFile>; seen: Set<string> } {
  const files: Record<string, CachedFile> = Object.create(null) as Record<string, CachedFile>;
  const seen = new Set<string>();
  let i = 0;
  while (i < items.length) {
    // A file's items are consecutive (lint/items.ts).
    const source = items[i]!.file;
    const found: (readonly Diagnostic[])[] = [];
    let complete = true;
    for (; i < items.length && items[i]!.file === source; i++) {
      const r = raw[i];
      if (r === undefined) complete = false;
      else found.push(r);
    }
    if (source === undefined || source.candidate.origin === 'stdin') continue;
    const abs = source.candidate.abs;
    seen.add(abs);
    if (!complete) continue;
    const { format, entries } = source.file;
    files[abs] = { hash: cache.hashes.get(abs) ?? sha1(source.source.text), path: source.candidate.path, format, entries, found };
  }
  return { files, seen };
}

/** Writes `text` to a temporary file beside `location` and renames it into place; the error's text when that failed. */
function writeAtomically(location: string, text: string): string | undefined {
  const temporary = `${location}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(location), { recursive: true });
    writeFileSync(temporary, text);
    renameSync(temporary, location);
    return undefined;
  } catch (e) {
    try {
      unlinkSync(temporary);
    } catch {
      // Nothing was written, or it is gone already.
    }
    return (e as Error).message;
  }
}
