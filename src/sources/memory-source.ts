/**
 * A data source over an array of records, through the evaluator: the same
 * semantics as the SQL compiler, so a list served from memory pages exactly
 * like one served from PostgreSQL.
 *
 * At a million records the cost is filtering and sorting, so both are done
 * once per (filter, sort, client, include-deleted) and kept, as positions,
 * in a cache bounded by `cacheBudget`; token pages then seek into the sorted
 * positions by binary search. A first page sorts only its own rows (a
 * partial sort) and leaves the full sort for just after the response.
 */
import type { Schema } from '../schema/schema.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { compileTypedFilter } from '../evaluate/compile-typed-filter.js';
import { compareKeyValues, sortKeyReaders, type SortKeyReader, type SortKeyValue } from '../evaluate/sort-keys.js';
import { sortTypedOrder, sortTypedRecords } from '../evaluate/sort-typed.js';
import type { SeekKey } from '../sql/seek.js';
import type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { ascendingSort, scopeClauses, withClauses } from '../list/data-source.js';

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
   * How many record positions the paging cache may hold across all cached
   * (filter, sort, client) results, 4 bytes each twice (matches and sorted
   * order); default 8,000,000 (about 64 MB). The least recently used result
   * goes first; a result larger than the budget is not kept.
   */
  readonly cacheBudget?: number;
}

/** The matches of one query, as positions in the base array, and their sorted order once known. */
interface Entry {
  readonly matches: Int32Array;
  sorted?: Int32Array;
}

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
export function createMemoryDataSource(records: readonly unknown[], options: MemoryDataSourceOptions): DataSource {
  const { schema } = options;
  const evaluate = { caseSensitive: options.caseSensitive === true };
  const limits = resolveLimits(undefined);
  const base = options.tieBreaker === undefined ? [...records] : sortTypedRecords(records, ascendingSort(schema, options.tieBreaker), evaluate);
  const budget = options.cacheBudget ?? 8_000_000;

  const matching = (q: DataQuery): Int32Array => {
    const scope = scopeClauses(schema, options, q);
    if (scope.none) return new Int32Array(0);
    const filter = withClauses(q.filter, scope.clauses);
    if (filter === undefined || filter.clauses.length === 0) return Int32Array.from({ length: base.length }, (_, i) => i);
    const predicate = compileTypedFilter(filter, evaluate);
    const hits: number[] = [];
    for (let i = 0; i < base.length; i++) if (predicate(base[i])) hits.push(i);
    return Int32Array.from(hits);
  };

  // Results by query text, least recently used first (a Map iterates in insertion order).
  const lru = new Map<string, Entry>();
  let held = 0;
  const size = (e: Entry) => e.matches.length + (e.sorted?.length ?? 0);
  const keep = (key: string, entry: Entry) => {
    const old = lru.get(key);
    if (old !== undefined) {
      held -= size(old);
      lru.delete(key);
    }
    if (size(entry) > budget) return;
    lru.set(key, entry);
    held += size(entry);
    for (const [k, e] of lru) {
      if (held <= budget) break;
      lru.delete(k);
      held -= size(e);
    }
  };
  // Queries without a cacheKey: a first page asks for the count and then a window of the same
  // query object; a WeakMap by identity saves filtering twice without holding on to them.
  const byIdentity = new WeakMap<DataQuery, Entry>();
  const cacheKey = (q: DataQuery) =>
    q.cacheKey === undefined ? undefined : JSON.stringify([q.cacheKey, q.clientId === undefined ? null : String(q.clientId), q.includeDeleted]);
  const remembered = (q: DataQuery): Entry => {
    const key = cacheKey(q);
    if (key === undefined) {
      let entry = byIdentity.get(q);
      if (entry === undefined) byIdentity.set(q, (entry = { matches: matching(q) }));
      return entry;
    }
    let entry = lru.get(key);
    if (entry === undefined) entry = { matches: matching(q) };
    keep(key, entry);
    return entry;
  };
  const readersOf = (q: DataQuery): readonly SortKeyReader[] =>
    q.sort === undefined ? [] : sortKeyReaders(q.sort, { caseSensitive: evaluate.caseSensitive, limits });
  const sorted = (q: DataQuery, entry: Entry): Int32Array => {
    if (entry.sorted !== undefined) return entry.sorted;
    if (q.sort === undefined || q.sort.keys.length === 0) return (entry.sorted = entry.matches);
    const rows = Array.from(entry.matches, (i) => base[i]);
    const order = sortTypedOrder(rows, q.sort, evaluate);
    const out = new Int32Array(order.length);
    for (let i = 0; i < order.length; i++) out[i] = entry.matches[order[i]!]!;
    entry.sorted = out;
    const key = cacheKey(q);
    if (key !== undefined && lru.get(key) === entry) keep(key, entry); // re-counted at its new size
    return out;
  };

  /** Sort-key values and base position: the seek key of the record at `position`. */
  const keyAt = (readers: readonly SortKeyReader[], position: number): SeekKey => [
    ...readers.map((r) => r.get(base[position])),
    position,
  ];
  /** Compares the record at `position` with a seek key in sort order. */
  const compareTo = (readers: readonly SortKeyReader[], position: number, key: SeekKey): number => {
    for (let k = 0; k < readers.length; k++) {
      const r = readers[k]!;
      const c = compareKeyValues(r.get(base[position]), key[k] as SortKeyValue, r.text);
      if (c !== 0) return c * r.direction;
    }
    return position - (key[readers.length] as number);
  };
  const isKey = (readers: readonly SortKeyReader[], key: SeekKey | undefined): key is SeekKey =>
    key !== undefined &&
    key.length === readers.length + 1 &&
    Number.isSafeInteger(key[readers.length]) &&
    readers.every((r, k) => key[k] === null || typeof key[k] === (r.text ? 'string' : 'number'));

  const windowOf = (q: DataQuery, window: SeekWindow): { positions: ArrayLike<number>; from: number; to: number } => {
    const entry = remembered(q);
    const readers = readersOf(q);
    if (entry.sorted === undefined && window.offset === 0 && window.after === undefined && window.before === undefined) {
      // First page: only its rows need sorting; the full sort runs after this response has gone.
      const top = partialSort(entry.matches, window.limit, readers, base);
      // Only a cached result can be asked for again.
      if (cacheKey(q) !== undefined) setTimeout(() => sorted(q, entry), 0);
      return { positions: top, from: 0, to: top.length };
    }
    const order = sorted(q, entry);
    const search = (key: SeekKey, strictlyAfter: boolean) => {
      let lo = 0;
      let hi = order.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const c = compareTo(readers, order[mid]!, key);
        if (c < 0 || (strictlyAfter && c === 0)) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    if (isKey(readers, window.after)) {
      const from = search(window.after, true);
      return { positions: order, from, to: Math.min(order.length, from + window.limit) };
    }
    if (isKey(readers, window.before)) {
      const to = search(window.before, false);
      return { positions: order, from: Math.max(0, to - window.limit), to };
    }
    const from = Math.min(order.length, window.offset);
    return { positions: order, from, to: Math.min(order.length, from + window.limit) };
  };

  return Object.freeze({
    clientScoped: options.clientField !== undefined,
    async count(q: DataQuery): Promise<number> {
      return remembered(q).matches.length;
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      const { positions, from, to } = windowOf(q, { offset: window.offset, limit: window.limit });
      const rows: unknown[] = [];
      for (let i = from; i < to; i++) rows.push(base[positions[i]!]);
      return rows;
    },
    async keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
      const { positions, from, to } = windowOf(q, window);
      const rows: unknown[] = [];
      for (let i = from; i < to; i++) rows.push(base[positions[i]!]);
      if (rows.length === 0) return { rows };
      const readers = readersOf(q);
      return { rows, keys: { first: keyAt(readers, positions[from]!), last: keyAt(readers, positions[to - 1]!) } };
    },
  });
}

/**
 * The first `k` positions in sort order, ties by position (the base order),
 * keeping a bounded max-heap of the best `k` seen: O(n log k), not a full sort.
 */
function partialSort(matches: Int32Array, k: number, readers: readonly SortKeyReader[], base: readonly unknown[]): Int32Array {
  if (readers.length === 0) return matches.subarray(0, k);
  const n = readers.length;
  const keysOf = (p: number) => readers.map((r) => r.get(base[p]));
  const cmp = (a: number, ka: readonly SortKeyValue[], b: number, kb: readonly SortKeyValue[]) => {
    for (let i = 0; i < n; i++) {
      const r = readers[i]!;
      const c = compareKeyValues(ka[i]!, kb[i]!, r.text);
      if (c !== 0) return c * r.direction;
    }
    return a - b;
  };
  const heap: number[] = [];
  const heapKeys: (readonly SortKeyValue[])[] = [];
  const swap = (i: number, j: number) => {
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
    [heapKeys[i], heapKeys[j]] = [heapKeys[j]!, heapKeys[i]!];
  };
  const above = (i: number, j: number) => cmp(heap[i]!, heapKeys[i]!, heap[j]!, heapKeys[j]!) > 0;
  for (let m = 0; m < matches.length && k > 0; m++) {
    const p = matches[m]!;
    const kp = keysOf(p);
    if (heap.length === k) {
      // Not better than the worst kept: skip.
      if (cmp(p, kp, heap[0]!, heapKeys[0]!) >= 0) continue;
      heap[0] = p;
      heapKeys[0] = kp;
    } else {
      heap.push(p);
      heapKeys.push(kp);
      for (let i = heap.length - 1; i > 0; ) {
        const parent = (i - 1) >> 1;
        if (!above(i, parent)) break;
        swap(i, parent);
        i = parent;
      }
      continue;
    }
    for (let i = 0; ; ) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < heap.length && above(l, top)) top = l;
      if (r < heap.length && above(r, top)) top = r;
      if (top === i) break;
      swap(i, top);
      i = top;
    }
  }
  const order = heap.map((p, i) => ({ p, key: heapKeys[i]! }));
  order.sort((a, b) => cmp(a.p, a.key, b.p, b.key));
  return Int32Array.from(order, (o) => o.p);
}
