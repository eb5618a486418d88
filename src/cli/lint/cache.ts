/**
 * `wepql lint --cache`: what a run learned about each file, kept for the
 * next run so that a file whose text has not changed is neither parsed nor
 * linted again (docs/linting.md, "The cache"). A file's entry is its text's
 * hash, its status signature, the entries read from it and each entry's
 * findings before the config's rules; the rules, code frames, summary and
 * fixes are worked out again on every run, so a cached run reports byte for
 * byte what an uncached one does. The whole cache is dropped when anything
 * else the findings depend on changes: the wepql build, the working
 * directory, the selectors, the schemas, the policy or `--case-sensitive`.
 *
 * Whether a file changed is told, by default, the way git tells it for its
 * index: by its status (size, modification and change times in
 * nanoseconds, inode, device), and by its text's hash when the status
 * differs or was taken too soon after the file last changed to be trusted
 * (a write in the same clock tick would not show). `--cache-strategy
 * content` hashes every file's text.
 */
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writevSync,
  type BigIntStats,
} from 'node:fs';
import type { Hash } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIAGNOSTIC_CODES } from '../../diagnostics/codes.js';
import type { DiagnosticCode } from '../../diagnostics/codes.js';
import type { Diagnostic, Severity } from '../../diagnostics/diagnostic.js';
import type { SavedEntry, SavedFile } from '../../workspace/saved-filters.js';
import type { Candidate } from '../../workspace/discover.js';
import type { LoadedSource, LoadOptions } from '../../workspace/sources.js';
import { UsageError } from '../../workspace/usage-error.js';
import type { ParsedArgs } from '../args.js';
import { packageVersion } from '../package-info.js';
import { runSelectors } from '../workspace-flags.js';
import type { LintConfig } from '../../workspace/config.js';
import type { RuleSettings } from '../../workspace/lint-rules.js';
import type { SeverityCounts } from './fixes.js';

/** The cache file's name when `--cache-location` names a directory or is not given (as ESLint's `.eslintcache`). */
const DEFAULT_CACHE_NAME = '.wepqlcache';
/** Bumped whenever the file's layout changes: a cache of another layout is ignored. */
const LAYOUT = 2;
/**
 * How long after a file's last change its status is trusted to tell the
 * next change: a write in the same clock tick as the status was taken
 * leaves the same times, and filesystems keep times to 2 seconds at the
 * coarsest (FAT). A file changed more recently than this before the run
 * is hashed again next time.
 */
const SETTLE_NS = 2_000_000_000n;

/**
 * A file's part of a pretty report, kept so that an unchanged file under
 * the same rules is reported without its entries being read back or its
 * findings worked out again.
 *
 * @example
 * const replay: Replay = { view, frames: '', counts, fixable, filters: 10, sorts: 0 };
 */
export interface Replay {
  /** `viewKey` of the rules, `--quiet` and colour the frames were written under. */
  readonly view: string;
  /**
   * The file's code frames, joined as the report joins frames (empty when
   * none is shown). Read from a cache file they stay its bytes: written to
   * the report and into the next cache as they are, never decoded.
   */
  readonly frames: string | Buffer;
  /** Its findings by severity, shown or not (the summary counts them all). */
  readonly counts: SeverityCounts;
  /** Its findings `--fix` would act on, by severity (`potentiallyFixable`). */
  readonly fixable: SeverityCounts;
  readonly filters: number;
  readonly sorts: number;
}

/** What a file held, and each entry's findings before the config's rules, in the entries' order. */
interface Details {
  readonly entries: readonly SavedEntry[];
  readonly found: readonly (readonly Diagnostic[])[];
}

/** A file as a cache holds it, read back or to be written. */
interface FileToWrite {
  /** SHA-1 of the file's text. */
  readonly hash: string;
  /** The file's status when its text was read (`signatureOf`), or undefined when it had changed too recently to be trusted. */
  readonly signature: string | undefined;
  /** The path the run named it by (entries, labels and rules depend on it). */
  readonly path: string;
  readonly format: SavedFile['format'];
  /** The details as the cache's file holds them (JSON text as bytes), decoded only when asked for, and carried into the next cache as they are. */
  readonly detailsBytes: () => Buffer;
  readonly replay: Replay | undefined;
}

/** What the cache keeps of one file, as read back. */
interface CachedFile extends FileToWrite {
  /** The details, read from `detailsBytes` on the first call (undefined when damaged: the file is then a miss). */
  readonly details: () => Details | undefined;
}

// The file's layout: a first line (JSON) that says which files are known and where in the rest of the
// file their texts are: each file's details (a JSON line of entries and findings, decoded only for a
// file whose report part cannot be used) and its report part's frames (as written, not JSON: read back
// without unescaping), each region ended by a newline. Offsets count bytes from the second line.
// Arrays rather than records: keys repeated for every entry and finding made the text half as large again.
/** An entry: kind, text, line, column, range start and end, encoding, name (null: none), disable list (null: none). */
type EntryRow = [SavedEntry['kind'], string, number, number, number, number, SavedEntry['encoding'], string | null, string[] | null];
/** A finding: code, severity, message, start, end, suggestion (null: none), fix as [start, end, new text] (null: none). */
type FindingRow = [DiagnosticCode, Severity, string, number, number, string | null, [number, number, string][] | null];
/** A report part: view, its frames' offset and length, then counts, fixable counts (error, warning, info each), filters and sorts. */
type ReplayRow = [string, number, number, number, number, number, number, number, number, number, number];
/** A file in the first line: hash, signature (null: hash it), path, format, its details' offset and length, report part (null: none). */
type FileRow = [string, string | null, string, SavedFile['format'], number, number, ReplayRow | null];

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
  /** The findings of the texts of the files whose details were read, by kind and text: a run's linter starts from them (and adds to them). */
  readonly findings: KnownFindings;
  /** The files this run reports from their report parts, by absolute path (`trustFrom` leaves their entries unread). */
  readonly replayed: Map<string, Replay>;
  /** The files whose entries this run read back whole: their details are carried into the next cache as they were. */
  readonly readBack: Set<CachedFile>;
  /** The hash of each file's text as this run read it, by absolute path (hashed once, when asked whether it is known). */
  readonly hashes: Map<string, string>;
  /** Each file's status as this run found it before reading it, when settled enough to trust (`trustFrom`), by absolute path. */
  readonly signatures: Map<string, string>;
  /** `--cache-strategy`: `metadata` trusts a file whose status is as cached; `content` hashes every file's text. */
  readonly strategy: CacheStrategy;
  /** A status whose change time is at or after this (nanoseconds since the epoch) is too recent to trust. */
  readonly settledBefore: bigint;
  /** Whether the file held a cache of this run's key (else it is written even when the run read nothing). */
  readonly loaded: boolean;
}

/**
 * How `--cache` tells that a file has not changed: by its status, falling
 * back to its text's hash (`metadata`, the default, as ESLint's), or by
 * the hash alone (`content`).
 *
 * @example
 * const strategy: CacheStrategy = 'content';
 */
export type CacheStrategy = 'metadata' | 'content';

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

/**
 * `node:crypto`'s `createHash`, loaded on the first hash: loading the module
 * initializes OpenSSL, which cost every `wepql lint` about 3.5 ms of its
 * main thread and more CPU beside it, when only `--cache` hashes anything.
 */
function createHash(algorithm: 'sha1'): Hash {
  return process.getBuiltinModule('node:crypto').createHash(algorithm);
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

/** A file of the first line read back, or undefined when it is not one (a damaged or hand-edited cache is ignored, never trusted). */
function cachedFile(value: unknown, regionOf: (offset: unknown, length: unknown) => (() => Buffer) | undefined): CachedFile | undefined {
  if (!Array.isArray(value) || value.length !== 7) return undefined;
  const [hash, signature, path, format, offset, length, replayRow] = value as unknown[];
  if (typeof hash !== 'string' || (signature !== null && typeof signature !== 'string') || typeof path !== 'string') return undefined;
  if (!FORMATS.has(format)) return undefined;
  const detailsBytes = regionOf(offset, length);
  if (detailsBytes === undefined) return undefined;
  const replay = replayRow === null ? undefined : replayOf(replayRow, regionOf);
  if (replayRow !== null && replay === undefined) return undefined;
  let details: Details | undefined | null = null;
  return {
    hash,
    signature: signature ?? undefined,
    path,
    format: format as SavedFile['format'],
    detailsBytes,
    details: () => (details === null ? (details = detailsFrom(detailsBytes().toString('utf8'))) : details),
    replay,
  };
}

/** A file's details line read back: undefined when it is not JSON of the layout, or a field has not its type. */
function detailsFrom(text: string): Details | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [entryRows, foundRows] = value as unknown[];
  if (!Array.isArray(entryRows) || !Array.isArray(foundRows) || entryRows.length !== foundRows.length || entryRows.length === 0)
    return undefined;
  const entries: SavedEntry[] = [];
  const found: Diagnostic[][] = [];
  for (let i = 0; i < entryRows.length; i++) {
    const entry = entryOf(entryRows[i]);
    const rows: unknown = foundRows[i];
    if (entry === undefined || !Array.isArray(rows)) return undefined;
    const diagnostics: Diagnostic[] = [];
    for (const row of rows) {
      const d = diagnosticOf(row);
      if (d === undefined) return undefined;
      diagnostics.push(d);
    }
    entries.push(entry);
    found.push(diagnostics);
  }
  return { entries, found };
}

/** A report part read back, or undefined when a field has not its type. */
function replayOf(row: unknown, regionOf: (offset: unknown, length: unknown) => (() => Buffer) | undefined): Replay | undefined {
  if (!Array.isArray(row) || row.length !== 11) return undefined;
  const [view, offset, length, ...numbers] = row as unknown[];
  const frames = regionOf(offset, length);
  if (typeof view !== 'string' || frames === undefined || !numbers.every(isOffset)) return undefined;
  const [error, warning, info, fixableError, fixableWarning, fixableInfo, filters, sorts] = numbers as number[];
  return {
    view,
    frames: frames(),
    counts: { error: error!, warning: warning!, info: info! },
    fixable: { error: fixableError!, warning: fixableWarning!, info: fixableInfo! },
    filters: filters!,
    sorts: sorts!,
  };
}

// The values each field may hold, as records over the types' unions: a value the types gain and these lack fails the type check.
const FORMATS = namesOf<SavedFile['format']>({ txt: true, json: true, ndjson: true, yaml: true });
const ENCODINGS = namesOf<SavedEntry['encoding']>({ raw: true, 'json-string': true, 'yaml-plain': true, 'yaml-single': true });
const SEVERITIES = namesOf<Severity>({ error: true, warning: true, info: true });
const KINDS = namesOf<SavedEntry['kind']>({ filter: true, sort: true });
const CODES: ReadonlySet<unknown> = new Set(Object.keys(DIAGNOSTIC_CODES));

function namesOf<T extends string>(all: Record<T, true>): ReadonlySet<unknown> {
  return new Set(Object.keys(all));
}

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

/** An entry row as `entryRow` writes one, read back into the entry; undefined when a field has not its type. */
function entryOf(row: unknown): SavedEntry | undefined {
  if (!Array.isArray(row) || row.length !== 9) return undefined;
  const [kind, text, line, column, start, end, encoding, name, disable] = row as unknown[];
  const ok =
    KINDS.has(kind) &&
    typeof text === 'string' &&
    isOffset(line) &&
    isOffset(column) &&
    isOffset(start) &&
    isOffset(end) &&
    ENCODINGS.has(encoding) &&
    (name === null || typeof name === 'string') &&
    (disable === null || (Array.isArray(disable) && disable.every((c) => typeof c === 'string')));
  if (!ok) return undefined;
  return {
    kind: kind as SavedEntry['kind'],
    text,
    line,
    column,
    ...(name === null ? {} : { name }),
    range: { start, end },
    encoding: encoding as SavedEntry['encoding'],
    ...(disable === null ? {} : { disable: disable as string[] }),
  };
}

/** A finding row read back: a known code, a severity, offsets, and edits that are edits; else undefined. */
function diagnosticOf(row: unknown): Diagnostic | undefined {
  if (!Array.isArray(row) || row.length !== 7) return undefined;
  const [code, severity, message, start, end, suggestion, fix] = row as unknown[];
  const isEdit = (e: unknown) => Array.isArray(e) && e.length === 3 && isOffset(e[0]) && isOffset(e[1]) && typeof e[2] === 'string';
  const ok =
    CODES.has(code) &&
    SEVERITIES.has(severity) &&
    typeof message === 'string' &&
    isOffset(start) &&
    isOffset(end) &&
    (suggestion === null || typeof suggestion === 'string') &&
    (fix === null || (Array.isArray(fix) && fix.every(isEdit)));
  if (!ok) return undefined;
  return {
    code: code as DiagnosticCode,
    severity: severity as Severity,
    message,
    start,
    end,
    ...(suggestion === null ? {} : { suggestion }),
    ...(fix === null ? {} : { fix: (fix as [number, number, string][]).map(([s, e, newText]) => ({ start: s, end: e, newText })) }),
  };
}

/** A saved entry as the cache writes it. */
function entryRow(entry: SavedEntry): EntryRow {
  const { kind, text, line, column, name, range, encoding, disable, ...rest } = entry;
  onlyThese(rest);
  return [kind, text, line, column, range.start, range.end, encoding, name ?? null, disable === undefined ? null : [...disable]];
}

/** A finding as the cache writes it. */
function findingRow(d: Diagnostic): FindingRow {
  const { code, severity, message, start, end, suggestion, fix, ...rest } = d;
  onlyThese(rest);
  return [code, severity, message, start, end, suggestion ?? null, fix === undefined ? null : fix.map((e) => [e.start, e.end, e.newText])];
}

/**
 * Takes what is left of a record once every field the cache writes is
 * taken out: nothing, or the type check fails, so a field the types gain
 * cannot be dropped from the cache unnoticed.
 */
function onlyThese(rest: Record<string, never>): void {
  void rest;
}

/**
 * Reads the cache at `location`: what it knows when it was written with
 * `key`, else nothing (a missing, damaged or stale cache is started
 * afresh). Only its first line is read at once; a file's entries and
 * findings are read when the run asks for them.
 *
 * @example
 * const cache = openCache('/repo/.wepqlcache', key, 'metadata');
 */
export function openCache(location: string, key: string, strategy: CacheStrategy = 'metadata'): LintCache {
  const known = new Map<string, CachedFile>();
  const findings: KnownFindings = { filter: new Map(), sort: new Map() };
  const settledBefore = BigInt(Date.now()) * 1_000_000n - SETTLE_NS;
  const fresh = {
    location,
    key,
    known,
    findings,
    replayed: new Map(),
    readBack: new Set<CachedFile>(),
    hashes: new Map(),
    signatures: new Map(),
    strategy,
    settledBefore,
  };
  let bytes: Buffer;
  let top: { layout?: unknown; key?: unknown; files?: unknown } | null;
  try {
    bytes = readFileSync(location);
    // Only the first line is decoded and parsed now: the details lines are decoded for the files that need them.
    top = JSON.parse(bytes.toString('utf8', 0, bytes.indexOf(10) >>> 0)) as typeof top;
  } catch {
    return { ...fresh, loaded: false };
  }
  if (top === null || typeof top !== 'object' || top.layout !== LAYOUT || top.key !== key) return { ...fresh, loaded: false };
  if (typeof top.files !== 'object' || top.files === null) return { ...fresh, loaded: false };
  const body = bytes.indexOf(10) + 1;
  // A region is whole when a newline ends it where its length says.
  const regionOf = (offset: unknown, length: unknown) => {
    if (!isOffset(offset) || !isOffset(length)) return undefined;
    const end = body + offset + length;
    return end < bytes.length && bytes[end] === 10 ? () => bytes.subarray(body + offset, end) : undefined;
  };
  // Object.entries reads own members only: a "__proto__" path is a path like any other.
  for (const [abs, value] of Object.entries(top.files)) {
    const file = cachedFile(value, regionOf);
    if (file !== undefined) known.set(abs, file);
  }
  return { ...fresh, loaded: true };
}

/** A cached file's entries, with their findings made known to the run's linter; undefined when its details are damaged. */
function entriesOf(cache: LintCache, file: CachedFile): readonly SavedEntry[] | undefined {
  const details = knowFindingsOf(cache, file);
  if (details === undefined) return undefined;
  cache.readBack.add(file);
  return details.entries;
}

/**
 * The `reuse` answer of `loadSources` for this cache: a file whose path and
 * text hash are as cached gets its cached entries. A file whose text
 * changed is read again, but the findings its texts had are made known to
 * the run's linter: a text's findings depend on the text and the run's key
 * only, so an edit re-lints the texts it changed, not the file's others.
 *
 * @example
 * await readRunSources(args, config, { operands, alsoExclude, reuse: reuseFrom(cache) });
 */
export function reuseFrom(cache: LintCache): NonNullable<LoadOptions['reuse']> {
  return (candidate, source) => {
    const hash = sha1(source.text);
    cache.hashes.set(candidate.abs, hash);
    const file = cache.known.get(candidate.abs);
    if (file === undefined) return undefined;
    if (file.path !== candidate.path || file.hash !== hash) {
      knowFindingsOf(cache, file);
      return undefined;
    }
    const entries = entriesOf(cache, file);
    return entries === undefined ? undefined : { format: file.format, entries };
  };
}

/** Makes the findings a cached file's texts had known to the run's linter; returns its details (undefined when damaged). */
function knowFindingsOf(cache: LintCache, file: CachedFile): Details | undefined {
  const details = file.details();
  details?.entries.forEach((entry, i) => cache.findings[entry.kind].set(entry.text, details.found[i]!));
  return details;
}

/**
 * The status signature of a file: size, modification and change times in
 * nanoseconds, inode and device. Undefined when the file changed at or
 * after `settledBefore`: a second write in the same clock tick would leave
 * the same signature, so such a file is hashed next time instead.
 *
 * @example
 * signatureOf(statSync(path, { bigint: true }), cache.settledBefore);
 */
function signatureOf(stat: BigIntStats, settledBefore: bigint): string | undefined {
  if (stat.mtimeNs >= settledBefore || stat.ctimeNs >= settledBefore) return undefined;
  return `${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}:${stat.ino}:${stat.dev}`;
}

/**
 * The `trust` answer of `loadSources` for this cache: a file whose status
 * is as cached (and settled when cached) is not read. When `viewOf` gives
 * the view its report part was written under, the part is replayed
 * (`replayed`) and no entry is read back, so none is answered; else its
 * cached entries are. Every file's settled status is noted for the cache
 * either way, unless the strategy is `content` (which reads and hashes
 * every file); when the run needs every text (`--fix`: `mayTrust` false),
 * nothing is trusted.
 *
 * @example
 * await readRunSources(args, config, { operands, alsoExclude, trust: trustFrom(cache, !settings.fix, viewOf) });
 */
export function trustFrom(
  cache: LintCache,
  mayTrust: boolean,
  viewOf: ((abs: string) => string) | undefined,
): NonNullable<LoadOptions['trust']> {
  return (candidate: Candidate) => {
    // `content` neither trusts a status nor learns one: every file is read and hashed.
    if (cache.strategy === 'content') return undefined;
    let stat: BigIntStats;
    try {
      stat = statSync(candidate.abs, { bigint: true });
    } catch {
      return undefined; // Reading it says why, in the words every run uses.
    }
    if (!stat.isFile()) return undefined;
    const signature = signatureOf(stat, cache.settledBefore);
    if (signature === undefined) return undefined;
    cache.signatures.set(candidate.abs, signature);
    const file = cache.known.get(candidate.abs);
    if (!mayTrust || file === undefined) return undefined;
    if (file.signature !== signature || file.path !== candidate.path) return undefined;
    cache.hashes.set(candidate.abs, file.hash);
    if (file.replay !== undefined && file.replay.view === viewOf?.(candidate.abs)) {
      cache.replayed.set(candidate.abs, file.replay);
      // No entry is read back: the file's report is its report part (lint/items.ts).
      return { format: file.format, entries: [] };
    }
    const entries = entriesOf(cache, file);
    return entries === undefined ? undefined : { format: file.format, entries };
  };
}

/**
 * The view a report part is written under: the rules of its file, and the
 * run's `--quiet` and colour. Parts are kept for the pretty format only.
 *
 * @example
 * viewKey(rulesOf(abs), settings.quiet, colorOn());
 */
export function viewKey(rules: RuleSettings, quiet: boolean, color: boolean): string {
  const sorted = Object.keys(rules ?? {})
    .sort()
    .map((code) => [code, rules![code]]);
  return sha1(JSON.stringify([sorted, quiet, color]));
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
 * leaves its file out) and its report part (`parts`), the files replayed
 * from the cache, and the earlier run's files that still exist and this
 * run did not read. Nothing is written when nothing changed; else a
 * temporary file is renamed into place, so a run stopped midway leaves the
 * old cache whole. Returns the error's text when it could not be written.
 *
 * @example
 * const problem = saveCache(cache, inputs.items, outcome.raw, partsOf(outcome, inputs));
 */
export function saveCache(
  cache: LintCache,
  items: readonly { readonly file?: LoadedSource | undefined }[],
  raw: readonly (readonly Diagnostic[] | undefined)[],
  parts: ReadonlyMap<LoadedSource, Replay>,
): string | undefined {
  const { files, seen } = filesOfRun(cache, items, raw, parts);
  let unchanged = true;
  for (const [abs, file] of cache.known) {
    if (seen.has(abs) || cache.replayed.has(abs)) {
      // A replayed file is as cached: its status was.
      if (!seen.has(abs)) files.set(abs, file);
      const now = files.get(abs);
      unchanged &&= now !== undefined && sameFile(now, file);
    } else if (existsSync(abs)) files.set(abs, file);
    else unchanged = false;
  }
  // Files new to the cache change it too; a run that learned nothing leaves the file as it is.
  for (const abs of files.keys()) unchanged &&= cache.known.has(abs);
  if (unchanged && cache.loaded) return undefined;
  return writeAtomically(cache.location, cacheBytes(cache.key, files));
}

function sameFile(a: FileToWrite, b: FileToWrite): boolean {
  return a.hash === b.hash && a.path === b.path && a.signature === b.signature && a.replay?.view === b.replay?.view;
}

/**
 * The cache's bytes, in pieces to write one after another: the first line,
 * then each file's regions at the offsets the first line gives (carried
 * regions are the bytes read, never decoded, and never copied into one
 * buffer: on this scale a copy of the file costs as much as writing it).
 */
function cacheBytes(key: string, files: ReadonlyMap<string, FileToWrite>): Buffer[] {
  const rows: Record<string, FileRow> = Object.create(null) as Record<string, FileRow>;
  const regions: Buffer[] = [];
  let offset = 0;
  const region = (bytes: Buffer): [number, number] => {
    const at = offset;
    regions.push(bytes, NEWLINE);
    offset += bytes.length + 1;
    return [at, bytes.length];
  };
  for (const [abs, file] of files) {
    const [at, length] = region(file.detailsBytes());
    rows[abs] = [file.hash, file.signature ?? null, file.path, file.format, at, length, replayRow(file.replay, region)];
  }
  return [Buffer.from(JSON.stringify({ layout: LAYOUT, key, files: rows })), NEWLINE, ...regions];
}

const NEWLINE = Buffer.from('\n');

function replayRow(replay: Replay | undefined, region: (bytes: Buffer) => [number, number]): ReplayRow | null {
  if (replay === undefined) return null;
  const { view, frames, counts, fixable, filters, sorts } = replay;
  const [at, length] = region(typeof frames === 'string' ? Buffer.from(frames) : frames);
  return [view, at, length, counts.error, counts.warning, counts.info, fixable.error, fixable.warning, fixable.info, filters, sorts];
}

/** The run's files that held entries, with their findings (a file with an item `--fix` changed is left out), and every file the run read. */
function filesOfRun(
  cache: LintCache,
  items: readonly { readonly file?: LoadedSource | undefined }[],
  raw: readonly (readonly Diagnostic[] | undefined)[],
  parts: ReadonlyMap<LoadedSource, Replay>,
): { files: Map<string, FileToWrite>; seen: Set<string> } {
  const files = new Map<string, FileToWrite>();
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
    const hash = cache.hashes.get(abs) ?? sha1(source.source.text);
    const path = source.candidate.path;
    // The same text under the same key has the same details: a line read back whole is kept as it was.
    const before = cache.known.get(abs);
    const same = before !== undefined && before.hash === hash && before.path === path && cache.readBack.has(before);
    const detailsBytes = same
      ? before.detailsBytes
      : () => Buffer.from(JSON.stringify([entries.map(entryRow), found.map((ds) => ds.map(findingRow))]));
    const replay = parts.get(source) ?? (same ? before.replay : undefined);
    // A status recorded with this very text still tells it: any change since would have changed the status.
    const signature = cache.signatures.get(abs) ?? (same ? before.signature : undefined);
    files.set(abs, { hash, signature, path, format, detailsBytes, replay });
  }
  return { files, seen };
}

/** Writes every piece, in order, however many a gathered write takes and wherever one stops short. */
function writeAll(fd: number, pieces: readonly Buffer[]): void {
  // A gathered write takes at most 1,024 pieces (IOV_MAX); what one leaves is written by the next.
  let rest = pieces.filter((piece) => piece.length > 0);
  while (rest.length > 0) {
    let written = writevSync(fd, rest.slice(0, 1024));
    if (written === 0) throw new Error('the disk took no byte of the cache');
    let i = 0;
    while (i < rest.length && written >= rest[i]!.length) written -= rest[i++]!.length;
    rest = i < rest.length && written > 0 ? [rest[i]!.subarray(written), ...rest.slice(i + 1)] : rest.slice(i);
  }
}

/** Writes the pieces to a temporary file beside `location` and renames it into place; the error's text when that failed. */
function writeAtomically(location: string, pieces: readonly Buffer[]): string | undefined {
  const temporary = `${location}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(location), { recursive: true });
    const fd = openSync(temporary, 'w');
    try {
      writeAll(fd, pieces);
    } finally {
      closeSync(fd);
    }
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
