/**
 * How the list handler finds a first page's `TotalRecords`: exactly (the
 * default), exactly below a threshold and estimated above it, or from a
 * bounded, short-lived cache of earlier totals. A total that is not exact
 * is marked by the response header `x-wepql-total: estimated`
 * (docs/reference.md §"Totals"), and the walk's tokens carry the mark.
 */
import { WepqlError } from '../diagnostics/error.js';
import type { BoundedCache } from './bounded-cache.js';
import { createBoundedCache } from './bounded-cache.js';
import type { CountAnswer, DataQuery, DataSource } from './data-source.js';

/**
 * A server's count strategy: `'exact'` counts every first page; the object
 * form estimates above `estimateAbove` records (where the source can, see
 * `DataSource.estimateCount`) and/or keeps totals for `cacheTtlMs`.
 *
 * @example
 * const count: CountStrategy = { estimateAbove: 10_000, cacheTtlMs: 5_000 };
 */
export type CountStrategy = 'exact' | CountEstimate;

/**
 * The inexact count strategies; either or both.
 *
 * @example
 * const strategy: CountEstimate = { estimateAbove: 100_000 };
 */
export interface CountEstimate {
  /**
   * Count exactly when at most this many records match; above it, the
   * source's estimate (PostgreSQL's and MySQL's planner row estimate). The
   * exact count then costs at most this many rows.
   */
  readonly estimateAbove?: number;
  /**
   * Keep each total (per list, client, include-deleted and filter) this many
   * milliseconds and answer later first pages from it. A total from the cache
   * may be stale, so it is marked as estimated.
   */
  readonly cacheTtlMs?: number;
  /** Most totals the cache keeps (least recently used go first); default 10,000. */
  readonly cacheEntries?: number;
}

const DEFAULT_CACHE_ENTRIES = 10_000;
// An entry is a short key and two numbers; the byte budget only backs up the entry count.
const CACHE_BYTES_PER_ENTRY = 512;

interface CachedTotal {
  readonly total: number;
  readonly at: number;
}

// One cache per strategy object: the adapters and `createListServer` pass the same object to every request.
const caches = new WeakMap<CountEstimate, BoundedCache<CachedTotal>>();

/**
 * Throws a `WepqlError` naming the option when a strategy is not one the
 * handler can follow, so a bad option fails when a server is created.
 *
 * @example
 * checkCountStrategy({ estimateAbove: -1 }); // throws: count.estimateAbove must be a whole number ≥ 0
 */
export function checkCountStrategy(strategy: CountStrategy | undefined): void {
  if (strategy === undefined || strategy === 'exact') return;
  if (typeof strategy !== 'object' || strategy === null) {
    throw new WepqlError(`count must be 'exact' or { estimateAbove?, cacheTtlMs?, cacheEntries? }, got ${String(strategy)}`, []);
  }
  const whole = (name: keyof CountEstimate, min: number): void => {
    const v = strategy[name];
    if (v !== undefined && !(Number.isSafeInteger(v) && v >= min)) {
      throw new WepqlError(`count.${name} must be a whole number ≥ ${min}, got ${String(v)}`, []);
    }
  };
  whole('estimateAbove', 0);
  whole('cacheTtlMs', 1);
  whole('cacheEntries', 1);
  if (strategy.estimateAbove === undefined && strategy.cacheTtlMs === undefined) {
    throw new WepqlError(`count: give estimateAbove, cacheTtlMs or both (or 'exact')`, []);
  }
}

/**
 * The total of a first page under `strategy`. `key` names what the total
 * depends on (list, client, include-deleted, filter); `count` and
 * `estimateCount` are the source's (the handler passes them gated by its
 * admission queue).
 *
 * @example
 * const { total, estimated } = await countTotal(source, q, { estimateAbove: 10_000 }, key, Date.now());
 */
export async function countTotal(
  source: Pick<DataSource, 'count' | 'estimateCount'>,
  q: DataQuery,
  strategy: CountStrategy | undefined,
  key: string,
  now: number,
): Promise<CountAnswer> {
  if (strategy === undefined || strategy === 'exact') return { total: await source.count(q), estimated: false };
  const cache = strategy.cacheTtlMs === undefined ? undefined : cacheOf(strategy);
  const hit = cache?.get(key);
  if (hit !== undefined && now - hit.at < strategy.cacheTtlMs!) return { total: hit.total, estimated: true };
  const answer =
    strategy.estimateAbove !== undefined && source.estimateCount !== undefined
      ? await source.estimateCount(q, strategy.estimateAbove)
      : { total: await source.count(q), estimated: false };
  cache?.set(key, { total: answer.total, at: now }, 16);
  return answer;
}

function cacheOf(strategy: CountEstimate): BoundedCache<CachedTotal> {
  let cache = caches.get(strategy);
  if (cache === undefined) {
    const maxEntries = strategy.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
    cache = createBoundedCache<CachedTotal>({ maxEntries, maxBytes: maxEntries * CACHE_BYTES_PER_ENTRY });
    caches.set(strategy, cache);
  }
  return cache;
}
