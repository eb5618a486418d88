/**
 * Sorting with a validated sort: a per-pair comparator, and the fast path
 * that reads every record's keys once (decorate, sort indices, undecorate).
 */
import { resolveLimits } from '../diagnostics/limits.js';
import type { TypedSort } from '../ast/typed-tree.js';
import type { EvaluateOptions, RecordComparator } from './options.js';
import type { SortKeyReader } from './sort-keys.js';
import { compareKeyValues, sortKeyReaders } from './sort-keys.js';
import { compareCodePoints, needsCodePointCompare } from './string-order.js';

function readers(sort: TypedSort, options: EvaluateOptions): readonly SortKeyReader[] {
  return sortKeyReaders(sort, { caseSensitive: options.caseSensitive === true, limits: resolveLimits(options.limits) });
}

/**
 * A comparator for a typed sort that reads keys on every comparison. Use it
 * with `Array.prototype.sort` (stable); `sortTypedRecords` is faster for
 * whole arrays.
 *
 * @example
 * records.slice().sort(compileTypedSort(typedSort));
 */
export function compileTypedSort(sort: TypedSort, options: EvaluateOptions = {}): RecordComparator {
  const keys = readers(sort, options);
  return (a, b) => {
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k]!;
      const c = compareKeyValues(key.get(a), key.get(b), key.text);
      if (c !== 0) return c < 0 ? -key.direction : key.direction;
    }
    return 0;
  };
}

/** Compares records `i` and `j` by one precomputed key column. */
type ColumnCompare = (i: number, j: number) => number;

function columnCompare(key: SortKeyReader, records: readonly unknown[]): ColumnCompare {
  const n = records.length;
  const dir = key.direction;
  if (!key.text) {
    // Null becomes -Infinity: the smallest key, equal to other nulls (record values are finite).
    const column = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const v = key.get(records[i]);
      column[i] = v === null ? Number.NEGATIVE_INFINITY : (v as number);
    }
    return (i, j) => {
      const a = column[i]!;
      const b = column[j]!;
      return a === b ? 0 : a < b ? -dir : dir;
    };
  }
  const column: (string | null)[] = new Array<string | null>(n);
  let codePoints = false;
  for (let i = 0; i < n; i++) {
    const v = key.get(records[i]) as string | null;
    column[i] = v;
    if (v !== null && !codePoints && needsCodePointCompare(v)) codePoints = true;
  }
  // Without a code unit at or above U+D800 in the column, `<` is code-point order.
  const before: (a: string, b: string) => boolean = codePoints ? (a, b) => compareCodePoints(a, b) < 0 : (a, b) => a < b;
  return (i, j) => {
    const a = column[i]!;
    const b = column[j]!;
    if (a === b) return 0;
    if (a === null) return -dir;
    if (b === null) return dir;
    return before(a, b) ? -dir : dir;
  };
}

/**
 * A new array of the records in sort order; stable, input untouched. Each
 * record's keys are read once, not on every comparison.
 *
 * @example
 * sortTypedRecords(records, typedSort).map((r) => r.LastName);
 */
export function sortTypedRecords<T>(records: readonly T[], sort: TypedSort, options: EvaluateOptions = {}): T[] {
  const order = sortTypedOrder(records, sort, options);
  const n = records.length;
  const out: T[] = new Array<T>(n);
  for (let i = 0; i < n; i++) out[i] = records[order[i]!]!;
  return out;
}

/**
 * The positions of the records in sort order (stable), for callers that
 * keep positions rather than records, such as a paging cache.
 *
 * @example
 * sortTypedOrder([{ A: 2 }, { A: 1 }], typedSort); // [1, 0]
 */
export function sortTypedOrder(records: readonly unknown[], sort: TypedSort, options: EvaluateOptions = {}): number[] {
  const keys = readers(sort, options);
  const n = records.length;
  const order: number[] = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = i;
  if (keys.length > 0 && n > 1) {
    const columns = keys.map((key) => columnCompare(key, records));
    let compare: ColumnCompare;
    if (columns.length === 1) {
      const [c0] = columns as [ColumnCompare];
      compare = (i, j) => c0(i, j) || i - j;
    } else if (columns.length === 2) {
      const [c0, c1] = columns as [ColumnCompare, ColumnCompare];
      compare = (i, j) => c0(i, j) || c1(i, j) || i - j;
    } else {
      compare = (i, j) => {
        for (let k = 0; k < columns.length; k++) {
          const c = columns[k]!(i, j);
          if (c !== 0) return c;
        }
        // Stability does not depend on the engine's sort: ties keep input order.
        return i - j;
      };
    }
    order.sort(compare);
  }
  return order;
}
