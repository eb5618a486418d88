/**
 * A data source over an array of records, through the evaluator: the same
 * semantics as the SQL compiler, so a list served from memory pages exactly
 * like one served from PostgreSQL.
 *
 * At a million records the cost is filtering and sorting. A cold first page
 * filters once and selects its own rows with a bounded heap (no full sort);
 * the full sort that token pages seek in is built afterwards, off the request
 * path. Both run on the work lane (`memory-lane.ts`) in slices of a few
 * milliseconds, so other requests are answered between two slices and
 * clients take turns. Results are kept, as positions, in a cache bounded in
 * results and in bytes (keys and empty results included).
 */
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { compileTypedFilter } from '../evaluate/compile-typed-filter.js';
import { sortKeyReaders } from '../evaluate/sort-keys.js';
import { sortTypedRecords } from '../evaluate/sort-typed.js';
import type { BoundedCache } from '../list/bounded-cache.js';
import { createBoundedCache } from '../list/bounded-cache.js';
import type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { ascendingSort, scalarField, scopeClauses, withClauses } from '../list/data-source.js';
import { convertValueText } from '../validate/convert-value.js';
import type { Schema } from '../schema/schema.js';
import type { SharedWork } from '../list/admission.js';
import { joinShared } from '../list/admission.js';
import { BusyError } from '../list/busy.js';
import type { LaneTask, WorkLane } from './memory-lane.js';
import { sharedWorkLane } from './memory-lane.js';
import type { Ordering } from './memory-order.js';
import { TopK, compareToSeek, isSeekKeyFor, seekKeyAt, seekRange, sortPositions } from './memory-order.js';

/**
 * Options of `createMemoryDataSource`.
 *
 * @example
 * const options: MemoryDataSourceOptions = { schema: employeeSchema, clientField: 'ClientId', tieBreaker: 'Id' };
 */
export interface MemoryDataSourceOptions extends ScopeOptions {
  readonly schema: Schema;
  /**
   * A field that orders records equal on every sort key (for employees,
   * `Id`). The records are put in this order once, and every sort is stable,
   * so pages match a database ordering by the same tie-breaker. When unset,
   * ties keep the array's order.
   */
  readonly tieBreaker?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /**
   * The paging cache's size in record positions (4 bytes each) across all
   * cached (filter, sort, client) results; default 16,000,000 (64 MB). Each
   * result also counts its key and 256 bytes, so results with no match fill
   * the budget too. The least recently used result goes first; a result
   * larger than the budget is not kept.
   */
  readonly cacheBudget?: number;
  /** The most results the paging cache keeps; default 10,000. */
  readonly cacheEntries?: number;
  /** Limits a query's filter and sort are checked against again here; default the handler's defaults. Raise them with the handler's. */
  readonly limits?: Partial<Limits>;
  /** The lane filtering and sorting run on; default one lane shared by every memory source of the process. */
  readonly lane?: WorkLane;
  /**
   * The time a request's work may take on the lane, waiting for its turn
   * included, when the request has no deadline of its own (a handler without
   * an admission queue); default 10,000 ms. At the deadline its work is
   * dropped before its next slice and the request is answered busy (503 with
   * `Retry-After`). A request with a deadline (from an admission queue) keeps
   * that one.
   */
  readonly deadlineMs?: number;
}

/**
 * A memory data source, with a look at its paging cache (for metrics and tests).
 *
 * @example
 * const source: MemoryDataSource = createMemoryDataSource(employees, { schema: employeeSchema }); source.cacheUsage().bytes;
 */
export interface MemoryDataSource extends DataSource {
  /** How many results the paging cache holds and the bytes they count for (positions, keys and overhead). */
  cacheUsage(): { readonly results: number; readonly bytes: number };
  keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage>;
}

/** One query's work: its matches (positions in the base array), its first page, its sorted order. */
interface Entry {
  matches?: Int32Array;
  /** The filtering under way, shared by every request waiting for it; abandoned when they all went away. */
  filtering?: SharedWork<Int32Array>;
  top?: { readonly limit: number; readonly positions: Int32Array };
  sorted?: Int32Array;
  sorting?: LaneTask<Int32Array>;
}

interface Context {
  readonly base: readonly unknown[];
  readonly options: MemoryDataSourceOptions;
  readonly evaluate: { readonly caseSensitive: boolean; readonly limits: Limits };
  readonly cache: BoundedCache<Entry>;
  readonly byIdentity: WeakMap<DataQuery, Entry>;
  readonly lane: WorkLane;
  readonly deadlineMs: number;
  /** The deadlines of requests that came without one, by query identity (a first page's count and rows share one). */
  readonly deadlines: WeakMap<DataQuery, Deadline>;
}

/** A request's own deadline: its signal (aborted with a `BusyError` when the time is up, or with the request's reason) and the calls holding it. */
interface Deadline {
  readonly signal: AbortSignal;
  readonly stop: () => void;
  calls: number;
}

/** What a request may wait and work on the lane when it brings no deadline of its own. */
const DEFAULT_DEADLINE_MS = 10_000;

/** Bytes an entry holds beyond its positions and key: the objects around them. */
const ENTRY_OVERHEAD = 256;
/** A page jump this deep or less is selected with a heap rather than waiting for the full sort. */
const SELECT_DEPTH = 10_000;

/**
 * Serves records from memory. The array is copied (and ordered by the
 * tie-breaker) once; later changes to it are not seen. A token's seek key
 * is the page row's sort-key values and its position in that copy, so it is
 * exact however many records share a key.
 *
 * @example
 * const source = createMemoryDataSource(employees, { schema: employeeSchema, clientField: 'ClientId',
 *   deleted: { field: 'RowStatus', value: 3 }, tieBreaker: 'Id' });
 * await source.count({ filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 }); // 532
 */
export function createMemoryDataSource(records: readonly unknown[], options: MemoryDataSourceOptions): MemoryDataSource {
  const evaluate = { caseSensitive: options.caseSensitive === true, limits: resolveLimits(options.limits) };
  const base =
    options.tieBreaker === undefined
      ? [...records]
      : sortTypedRecords(records, ascendingSort(options.schema, options.tieBreaker), evaluate);
  const budget = options.cacheBudget ?? 16_000_000;
  const cache = createBoundedCache<Entry>({ maxEntries: options.cacheEntries ?? 10_000, maxBytes: budget * 4 });
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  if (!(deadlineMs > 0)) throw new RangeError(`deadlineMs must be a positive number of milliseconds, got ${deadlineMs}`);
  const ctx: Context = {
    base,
    options,
    evaluate,
    cache,
    byIdentity: new WeakMap(),
    lane: options.lane ?? sharedWorkLane,
    deadlineMs,
    deadlines: new WeakMap(),
  };
  return Object.freeze({
    clientScoped: options.clientField !== undefined,
    // The lane, not a pool, decides what runs: many requests may hold a slot while it slices their work fairly.
    concurrency: 64,
    cacheUsage: () => ({ results: cache.size, bytes: cache.bytes }),
    count: (q: DataQuery): Promise<number> => timed(ctx, q, async () => (await matchesOf(ctx, q, entryFor(ctx, q))).length),
    page: (q: DataQuery, window: PageWindow): Promise<readonly unknown[]> =>
      timed(ctx, q, async () => {
        const { positions, from, to } = await windowOf(ctx, q, { offset: window.offset, limit: window.limit });
        return rowsAt(ctx, positions, from, to);
      }),
    keyedPage: (q: DataQuery, window: SeekWindow): Promise<KeyedPage> => timed(ctx, q, () => keyedWindow(ctx, q, window)),
  });
}

/** A page with the seek keys of its first and last rows. */
async function keyedWindow(ctx: Context, q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
  const { positions, from, to } = await windowOf(ctx, q, window);
  const rows = rowsAt(ctx, positions, from, to);
  if (rows.length === 0) return { rows };
  const order = orderingOf(ctx, q);
  return { rows, keys: { first: seekKeyAt(order, positions[from]!), last: seekKeyAt(order, positions[to - 1]!) } };
}

/**
 * Runs one call of the source under its request's time. A request without a
 * deadline of its own gets `deadlineMs` from its first call (the count and
 * rows of a first page share it): at the deadline its signal is aborted with
 * a `BusyError`, which drops its lane work before the next slice and ends its
 * waits. The timer stops when the request's last call ends.
 */
async function timed<T>(ctx: Context, q: DataQuery, call: () => Promise<T>): Promise<T> {
  if (q.deadline !== undefined) return call();
  let deadline = ctx.deadlines.get(q);
  if (deadline === undefined || deadline.calls === 0) ctx.deadlines.set(q, (deadline = startDeadline(ctx.deadlineMs, q.signal)));
  deadline.calls++;
  try {
    return await call();
  } finally {
    if (--deadline.calls === 0) deadline.stop();
  }
}

function startDeadline(ms: number, requestSignal: AbortSignal | undefined): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new BusyError(`the request's work ran past its deadline of ${ms} ms`, 1)), ms);
  const gone = () => controller.abort(requestSignal!.reason);
  if (requestSignal?.aborted === true) gone();
  else requestSignal?.addEventListener('abort', gone, { once: true });
  return {
    signal: controller.signal,
    calls: 0,
    stop: () => {
      clearTimeout(timer);
      requestSignal?.removeEventListener('abort', gone);
    },
  };
}

/** The signal a request's lane work and waits watch: its own deadline's when it came without one, else its own. */
function signalOf(ctx: Context, q: DataQuery): AbortSignal | undefined {
  return q.deadline === undefined ? (ctx.deadlines.get(q)?.signal ?? q.signal) : q.signal;
}

function rowsAt(ctx: Context, positions: ArrayLike<number>, from: number, to: number): unknown[] {
  const rows: unknown[] = [];
  for (let i = from; i < to; i++) rows.push(ctx.base[positions[i]!]);
  return rows;
}

/** The cache key of a query: its text key with the client and the soft-delete choice; undefined without a text key. */
function cacheKeyOf(ctx: Context, q: DataQuery): string | undefined {
  return q.cacheKey === undefined
    ? undefined
    : JSON.stringify([q.cacheKey, q.clientId === undefined ? null : clientKeyOf(ctx, q), q.includeDeleted]);
}

/**
 * The entry of a query. Queries without a `cacheKey` are remembered by
 * identity only: a first page asks for the count and a window of the same
 * query object, and a WeakMap saves filtering twice without holding on.
 */
function entryFor(ctx: Context, q: DataQuery): Entry {
  const key = cacheKeyOf(ctx, q);
  if (key === undefined) {
    let entry = ctx.byIdentity.get(q);
    if (entry === undefined) ctx.byIdentity.set(q, (entry = {}));
    return entry;
  }
  let entry = ctx.cache.get(key);
  if (entry === undefined) ctx.cache.set(key, (entry = {}), ENTRY_OVERHEAD);
  return entry;
}

/** Counts an entry at its current size again (when it gained matches, a first page or its order). */
function recount(ctx: Context, q: DataQuery, entry: Entry): void {
  const key = cacheKeyOf(ctx, q);
  if (key === undefined || ctx.cache.peek(key) !== entry) return;
  const positions = (entry.matches?.length ?? 0) + (entry.sorted?.length ?? 0) + (entry.top?.positions.length ?? 0);
  ctx.cache.set(key, entry, ENTRY_OVERHEAD + positions * 4);
}

function orderingOf(ctx: Context, q: DataQuery): Ordering {
  const readers = q.sort === undefined ? [] : sortKeyReaders(q.sort, ctx.evaluate);
  return { base: ctx.base, readers };
}

/**
 * The client a query belongs to, as one text per client identity: the id is
 * read as the client field's type by the reader the scope clause uses
 * (`scopeClauses`), so `1`, `01`, `+1` and `1e0` are one client, one cache
 * entry and one turn on the lane, not one per spelling. Every id that reads
 * as no value of the type (it matches no row) shares one key.
 */
function clientKeyOf(ctx: Context, q: DataQuery): string {
  if (q.clientId === undefined) return '';
  const field = ctx.options.clientField;
  if (field === undefined) return String(q.clientId);
  const converted = convertValueText(String(q.clientId), scalarField(ctx.options.schema, field, 'clientField').type);
  if (!converted.ok) return '\u0001none';
  return converted.value instanceof Date ? converted.value.toISOString() : String(converted.value);
}

/** The lane turn of a query's filtering and first-page selection: its client's. */
function ownerOf(ctx: Context, q: DataQuery): string {
  return `c${clientKeyOf(ctx, q)}`;
}

/**
 * The lane turn of work that token pages wait for (their seek selection,
 * the sort they seek in): one per client, beside that client's turn for cold
 * queries, so a token page neither queues behind its own client's cold
 * queries nor behind another client's burst of walks.
 */
function pageTurnsOf(ctx: Context, q: DataQuery): string {
  return `p${clientKeyOf(ctx, q)}`;
}

/** The matches of a query, filtering on the lane if nobody has yet; `top` also selects a first page on the way. */
function matchesOf(ctx: Context, q: DataQuery, entry: Entry, top?: TopK): Promise<Int32Array> {
  if (entry.matches !== undefined) return Promise.resolve(entry.matches);
  if (entry.filtering === undefined) {
    const controller = new AbortController();
    const result = ctx.lane.run(ownerOf(ctx, q), filterJob(ctx, q, top), controller.signal).result;
    const filtering: SharedWork<Int32Array> = { result, controller, callers: 0 };
    entry.filtering = filtering;
    result.then(
      (matches) => {
        entry.matches = matches;
        entry.filtering = undefined;
        recount(ctx, q, entry);
        sortLater(ctx, q, entry);
      },
      () => {
        if (entry.filtering === filtering) entry.filtering = undefined;
      },
    );
  }
  return joinShared(entry.filtering, signalOf(ctx, q));
}

/** A wait that ends with the request's abort reason as soon as its signal is aborted (the work goes on for others). */
function untilAborted<T>(waiting: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return waiting;
  return joinShared({ result: waiting, controller: new AbortController(), callers: 1 }, signal);
}

function* filterJob(ctx: Context, q: DataQuery, top: TopK | undefined): Generator<void, Int32Array, void> {
  const { base, lane } = ctx;
  const scope = scopeClauses(ctx.options.schema, ctx.options, q);
  if (scope.none) return new Int32Array(0);
  const filter = withClauses(q.filter, scope.clauses);
  const predicate = filter === undefined || filter.clauses.length === 0 ? undefined : compileTypedFilter(filter, ctx.evaluate);
  let hits = new Int32Array(Math.min(base.length, 1024));
  let n = 0;
  for (let i = 0; i < base.length; i++) {
    if (predicate === undefined || predicate(base[i])) {
      if (n === hits.length) {
        const grown = new Int32Array(Math.min(base.length, hits.length * 2));
        grown.set(hits);
        hits = grown;
      }
      hits[n++] = i;
      top?.offer(i);
    }
    if ((i & 1023) === 0 && lane.due()) yield;
  }
  return hits.slice(0, n);
}

/** Queues the full sort of a cached query's matches as background work (token pages seek in it). */
function sortLater(ctx: Context, q: DataQuery, entry: Entry): void {
  if (entry.sorted !== undefined || entry.sorting !== undefined || entry.matches === undefined) return;
  const order = orderingOf(ctx, q);
  if (order.readers.length === 0) {
    entry.sorted = entry.matches;
    return;
  }
  // A query that cannot be asked for again (no cache key) is not worth sorting.
  if (cacheKeyOf(ctx, q) === undefined) return;
  entry.sorting = ctx.lane.background(sortPositions(order, entry.matches, ctx.lane));
  entry.sorting.result.then(
    (sorted) => {
      entry.sorted = sorted;
      entry.sorting = undefined;
      recount(ctx, q, entry);
    },
    () => (entry.sorting = undefined),
  );
}

/** The sorted order, waiting for (and hurrying) its background sort; sorting now when there is none. */
async function sortedOf(ctx: Context, q: DataQuery, entry: Entry): Promise<Int32Array> {
  if (entry.sorted !== undefined) return entry.sorted;
  const matches = await matchesOf(ctx, q, entry);
  if (entry.sorted !== undefined) return entry.sorted;
  sortLater(ctx, q, entry);
  if (entry.sorted !== undefined) return entry.sorted;
  if (entry.sorting === undefined)
    return ctx.lane.run(pageTurnsOf(ctx, q), sortPositions(orderingOf(ctx, q), matches, ctx.lane), signalOf(ctx, q)).result;
  entry.sorting.promote(pageTurnsOf(ctx, q));
  return untilAborted(entry.sorting.result, signalOf(ctx, q));
}

/** Selects `limit` rows (after skipping `skip`) with a heap over the matches, on the lane. */
function* selectJob(matches: Int32Array, top: TopK, accept: (p: number) => boolean, lane: WorkLane): Generator<void, Int32Array, void> {
  for (let i = 0; i < matches.length; i++) {
    const p = matches[i]!;
    if (accept(p)) top.offer(p);
    if ((i & 1023) === 0 && lane.due()) yield;
  }
  return top.result();
}

type Window = { positions: ArrayLike<number>; from: number; to: number };

/**
 * The rows of a window. From the sorted order when it is built (binary
 * search for a seek, a slice for an offset); before that, a first page is
 * selected with a heap while filtering, a seek with a heap over the matches
 * past its key, and a shallow page jump with a heap of its depth.
 */
async function windowOf(ctx: Context, q: DataQuery, window: SeekWindow): Promise<Window> {
  const entry = entryFor(ctx, q);
  const order = orderingOf(ctx, q);
  const after = isSeekKeyFor(order, window.after) ? window.after : undefined;
  const before = after === undefined && isSeekKeyFor(order, window.before) ? window.before : undefined;
  const sorted = entry.sorted ?? (order.readers.length === 0 ? await matchesOf(ctx, q, entry) : undefined);
  if (sorted !== undefined) {
    if (after !== undefined || before !== undefined)
      return { positions: sorted, ...seekRange(order, sorted, { after, before }, window.limit) };
    const from = Math.min(sorted.length, window.offset);
    return { positions: sorted, from, to: Math.min(sorted.length, from + window.limit) };
  }
  if (after !== undefined || before !== undefined) return seekBySelection(ctx, q, entry, order, after, before, window.limit);
  if (window.offset === 0) return firstPage(ctx, q, entry, order, window.limit);
  if (window.offset + window.limit <= SELECT_DEPTH) {
    const top = await selectFrom(ctx, q, entry, new TopK(order, window.offset + window.limit), () => true);
    return { positions: top, from: Math.min(top.length, window.offset), to: top.length };
  }
  const all = await sortedOf(ctx, q, entry);
  const from = Math.min(all.length, window.offset);
  return { positions: all, from, to: Math.min(all.length, from + window.limit) };
}

async function firstPage(ctx: Context, q: DataQuery, entry: Entry, order: Ordering, limit: number): Promise<Window> {
  if (entry.top !== undefined && entry.top.limit >= limit)
    return { positions: entry.top.positions, from: 0, to: Math.min(limit, entry.top.positions.length) };
  let positions: Int32Array;
  if (entry.matches === undefined && entry.filtering === undefined) {
    // Cold: select the page while filtering, in the same pass.
    const top = new TopK(order, limit);
    await matchesOf(ctx, q, entry, top);
    positions = top.result();
  } else {
    positions = await selectFrom(ctx, q, entry, new TopK(order, limit), () => true);
  }
  if (entry.top === undefined || entry.top.limit < limit) {
    entry.top = { limit, positions };
    recount(ctx, q, entry);
  }
  return { positions, from: 0, to: positions.length };
}

async function seekBySelection(
  ctx: Context,
  q: DataQuery,
  entry: Entry,
  order: Ordering,
  after: SeekWindow['after'],
  before: SeekWindow['before'],
  limit: number,
): Promise<Window> {
  // The sort token pages will seek in is hurried too: one sort serves every later page.
  entry.sorting?.promote(pageTurnsOf(ctx, q));
  if (after !== undefined) {
    const rows = await selectFrom(ctx, q, entry, new TopK(order, limit), (p) => compareToSeek(order, p, after) > 0, pageTurnsOf(ctx, q));
    return { positions: rows, from: 0, to: rows.length };
  }
  const nearestFirst = await selectFrom(
    ctx,
    q,
    entry,
    new TopK(order, limit, -1),
    (p) => compareToSeek(order, p, before!) < 0,
    pageTurnsOf(ctx, q),
  );
  const rows = nearestFirst.slice().reverse();
  return { positions: rows, from: 0, to: rows.length };
}

async function selectFrom(
  ctx: Context,
  q: DataQuery,
  entry: Entry,
  top: TopK,
  accept: (p: number) => boolean,
  owner = ownerOf(ctx, q),
): Promise<Int32Array> {
  const matches = await matchesOf(ctx, q, entry);
  return ctx.lane.run(owner, selectJob(matches, top, accept, ctx.lane), signalOf(ctx, q)).result;
}
