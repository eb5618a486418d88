/**
 * Ordering records by a sort, for the memory source: comparisons of
 * positions (ties by position, the base array being in tie-breaker order),
 * seek keys, a bounded heap that selects one page without sorting the rest,
 * and a full sort split into slices for the work lane.
 */
import { compareKeyValues, type SortKeyReader, type SortKeyValue } from '../evaluate/sort-keys.js';
import { compareCodePoints } from '../evaluate/string-order.js';
import type { SeekKey } from '../sql/seek.js';
import type { WorkLane } from './memory-lane.js';

/**
 * The records and the key readers of one sort.
 *
 * @example
 * const order: Ordering = { base: records, readers: sortKeyReaders(sort, { caseSensitive: false, limits }) };
 */
export interface Ordering {
  readonly base: readonly unknown[];
  readonly readers: readonly SortKeyReader[];
}

/**
 * The sort-key values of the record at `position`.
 *
 * @example
 * keysAt(order, 3); // ['smith']
 */
export function keysAt(order: Ordering, position: number): SortKeyValue[] {
  const record = order.base[position];
  return order.readers.map((r) => r.get(record));
}

/**
 * A record's seek key: its sort-key values and its position, so it is exact however many records share a key.
 *
 * @example
 * seekKeyAt(order, 3); // ['smith', 3]
 */
export function seekKeyAt(order: Ordering, position: number): SeekKey {
  return [...keysAt(order, position), position];
}

/**
 * Compares two records given their keys, in sort order, ties by position.
 *
 * @example
 * compareKeyed(order, ['a'], 1, ['b'], 0); // negative
 */
export function compareKeyed(order: Ordering, a: readonly SortKeyValue[], pa: number, b: readonly SortKeyValue[], pb: number): number {
  const { readers } = order;
  for (let k = 0; k < readers.length; k++) {
    const r = readers[k]!;
    const c = compareKeyValues(a[k]!, b[k]!, r.text);
    if (c !== 0) return c * r.direction;
  }
  return pa - pb;
}

/**
 * Compares the record at `position` with a seek key, in sort order.
 *
 * @example
 * compareToSeek(order, 3, ['smith', 2]); // positive: same name, later position
 */
export function compareToSeek(order: Ordering, position: number, key: SeekKey): number {
  const { readers } = order;
  const record = order.base[position];
  for (let k = 0; k < readers.length; k++) {
    const r = readers[k]!;
    const c = compareKeyValues(r.get(record), key[k] as SortKeyValue, r.text);
    if (c !== 0) return c * r.direction;
  }
  return position - (key[readers.length] as number);
}

/**
 * True when `key` has the shape of this ordering's seek keys (a token from
 * the same list, but read defensively all the same).
 *
 * @example
 * isSeekKeyFor(order, ['smith', 3]); // true for a one-key text sort
 */
export function isSeekKeyFor(order: Ordering, key: SeekKey | undefined): key is SeekKey {
  const { readers } = order;
  return (
    key !== undefined &&
    key.length === readers.length + 1 &&
    Number.isSafeInteger(key[readers.length]) &&
    readers.every((r, k) => key[k] === null || typeof key[k] === (r.text ? 'string' : 'number'))
  );
}

/**
 * Where a seek window starts and ends in a sorted order, by binary search.
 *
 * @example
 * seekRange(order, sorted, { after: ['smith', 3] }, 25); // { from, to }
 */
export function seekRange(
  order: Ordering,
  sorted: Int32Array,
  seek: { readonly after?: SeekKey; readonly before?: SeekKey },
  limit: number,
): { from: number; to: number } {
  const search = (key: SeekKey, strictlyAfter: boolean) => {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const c = compareToSeek(order, sorted[mid]!, key);
      if (c < 0 || (strictlyAfter && c === 0)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  if (seek.after !== undefined) {
    const from = search(seek.after, true);
    return { from, to: Math.min(sorted.length, from + limit) };
  }
  const to = search(seek.before!, false);
  return { from: Math.max(0, to - limit), to };
}

/**
 * Selects the first `k` positions offered, in sort order (or, with `sign`
 * -1, the last `k` in reverse order), keeping a bounded max-heap: O(n log k)
 * instead of a sort. Most offers are refused after reading one key.
 *
 * @example
 * const top = new TopK(order, 25); for (const p of matches) top.offer(p); top.result();
 */
export class TopK {
  readonly #order: Ordering;
  readonly #k: number;
  readonly #sign: 1 | -1;
  readonly #heap: number[] = [];
  readonly #keys: SortKeyValue[][] = [];

  constructor(order: Ordering, k: number, sign: 1 | -1 = 1) {
    this.#order = order;
    this.#k = Math.max(0, k);
    this.#sign = sign;
  }

  /** Offers the record at `position`. */
  offer(position: number): void {
    const heap = this.#heap;
    if (this.#k === 0) return;
    if (heap.length === this.#k && this.#order.readers.length > 0) {
      // Refused on the first key alone when it is already worse than the worst kept.
      const r = this.#order.readers[0]!;
      const c = compareKeyValues(r.get(this.#order.base[position]), this.#keys[0]![0]!, r.text) * r.direction * this.#sign;
      if (c > 0) return;
    }
    const keys = keysAt(this.#order, position);
    if (heap.length < this.#k) {
      heap.push(position);
      this.#keys.push(keys);
      this.#up(heap.length - 1);
    } else if (this.#cmp(position, keys, 0) < 0) {
      heap[0] = position;
      this.#keys[0] = keys;
      this.#down(0);
    }
  }

  /** The selected positions, best first. */
  result(): Int32Array {
    const order = this.#heap.map((p, i) => ({ p, keys: this.#keys[i]! }));
    order.sort((a, b) => this.#sign * compareKeyed(this.#order, a.keys, a.p, b.keys, b.p));
    return Int32Array.from(order, (o) => o.p);
  }

  #cmp(p: number, keys: readonly SortKeyValue[], at: number): number {
    return this.#sign * compareKeyed(this.#order, keys, p, this.#keys[at]!, this.#heap[at]!);
  }

  #above(i: number, j: number): boolean {
    return this.#cmp(this.#heap[i]!, this.#keys[i]!, j) > 0;
  }

  #swap(i: number, j: number): void {
    const heap = this.#heap;
    const keys = this.#keys;
    [heap[i], heap[j]] = [heap[j]!, heap[i]!];
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }

  #up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#above(i, parent)) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #down(i: number): void {
    const n = this.#heap.length;
    for (;;) {
      const l = 2 * i + 1;
      let top = i;
      if (l < n && this.#above(l, top)) top = l;
      if (l + 1 < n && this.#above(l + 1, top)) top = l + 1;
      if (top === i) return;
      this.#swap(i, top);
      i = top;
    }
  }
}

// Runs sorted by the engine's sort before merging: a slice's worth of work each.
const RUN = 2048;
const CHECK_EVERY = 1024;

/**
 * Sorts positions (ascending, so ties stay in base order) by the ordering,
 * in slices: key columns first, then sorted runs, then merge passes, with a
 * `yield` whenever the lane says the slice is spent. Returns the positions
 * in sort order.
 *
 * @example
 * const sorted = await lane.background(sortPositions(order, matches, lane)).result;
 */
export function* sortPositions(order: Ordering, positions: Int32Array, lane: WorkLane): Generator<void, Int32Array, void> {
  const n = positions.length;
  if (order.readers.length === 0 || n < 2) return positions;
  const columns: SortKeyValue[][] = order.readers.map(() => new Array<SortKeyValue>(n));
  for (let i = 0; i < n; i++) {
    const record = order.base[positions[i]!];
    for (let k = 0; k < columns.length; k++) columns[k]![i] = order.readers[k]!.get(record);
    if (i % CHECK_EVERY === 0 && lane.due()) yield;
  }
  const compare = columnCompare(order, columns);
  let src = new Int32Array(n);
  for (let i = 0; i < n; i++) src[i] = i;
  for (let start = 0; start < n; start += RUN) {
    const run = Array.from(src.subarray(start, Math.min(n, start + RUN)));
    run.sort(compare);
    src.set(run, start);
    if (lane.due()) yield;
  }
  let dst = new Int32Array(n);
  for (let width = RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width)
      yield* merge(src, dst, lo, Math.min(n, lo + width), Math.min(n, lo + 2 * width), compare, lane);
    [src, dst] = [dst, src];
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = positions[src[i]!]!;
  return out;
}

function* merge(
  src: Int32Array,
  dst: Int32Array,
  lo: number,
  mid: number,
  hi: number,
  compare: (a: number, b: number) => number,
  lane: WorkLane,
): Generator<void, void, void> {
  let i = lo;
  let j = mid;
  for (let o = lo; o < hi; o++) {
    if (i < mid && (j >= hi || compare(src[i]!, src[j]!) <= 0)) dst[o] = src[i++]!;
    else dst[o] = src[j++]!;
    if (o % CHECK_EVERY === 0 && lane.due()) yield;
  }
}

/** A comparator of indexes into the key columns, ties by index (= base order). */
function columnCompare(order: Ordering, columns: readonly SortKeyValue[][]): (a: number, b: number) => number {
  const parts = order.readers.map((r, k) => {
    const column = columns[k]!;
    const dir = r.direction;
    if (!r.text) {
      return (a: number, b: number) => {
        const x = column[a]!;
        const y = column[b]!;
        return x === y ? 0 : x === null ? -dir : y === null ? dir : (x as number) < (y as number) ? -dir : dir;
      };
    }
    return (a: number, b: number) => {
      const x = column[a]!;
      const y = column[b]!;
      return x === y ? 0 : x === null ? -dir : y === null ? dir : compareCodePoints(x as string, y as string) * dir;
    };
  });
  if (parts.length === 1) {
    const [c0] = parts as [(a: number, b: number) => number];
    return (a, b) => c0(a, b) || a - b;
  }
  return (a, b) => {
    for (let k = 0; k < parts.length; k++) {
      const c = parts[k]!(a, b);
      if (c !== 0) return c;
    }
    return a - b;
  };
}
