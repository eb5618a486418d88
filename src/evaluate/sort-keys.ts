/**
 * Sort keys (docs/reference.md §"Sort semantics"): how a record's value is read as a
 * key, and how two
 * keys compare. Null is the smallest key, so it sorts first under `Asc` and
 * last under `Desc`; strings compare by code point of their (by default
 * lower-cased) text; `false < true`; numbers and datetimes by value.
 */
import { codeInfo } from '../diagnostics/codes.js';
import { WepqlError } from '../diagnostics/error.js';
import { LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import type { ScalarType } from '../schema/values.js';
import type { TypedSort } from '../ast/typed-tree.js';
import { compareCodePoints } from './string-order.js';
import { typedFieldReader } from './typed-reader.js';

/**
 * A key value: folded text for strings, a number for every other type
 * (`false`/`true` as 0/1, datetimes as epoch ms), or null.
 *
 * @example
 * const key: SortKeyValue = 'smith';
 */
export type SortKeyValue = string | number | null;

/**
 * One key of a sort, ready to read records.
 *
 * @example
 * const [byName] = sortKeyReaders(typedSort, { caseSensitive: false, limits: DEFAULT_LIMITS });
 * byName.get({ LastName: 'Smith' }); // 'smith'
 */
export interface SortKeyReader {
  /** Reads a record's key. */
  readonly get: (record: unknown) => SortKeyValue;
  /** Whether keys are strings (compared by code point) rather than numbers. */
  readonly text: boolean;
  /** 1 for `Asc`, -1 for `Desc`. */
  readonly direction: 1 | -1;
}

function keyGetter(path: readonly string[], type: ScalarType, fold: boolean): (record: unknown) => SortKeyValue {
  const read = typedFieldReader(path, type, fold);
  if (type !== 'boolean') return read as (record: unknown) => SortKeyValue;
  // Booleans become numbers so that every non-text key sorts as a number: false < true.
  return (r) => {
    const v = read(r);
    return v === null ? null : v ? 1 : 0;
  };
}

/**
 * Compares two key values of one key, ascending: null first.
 *
 * @example
 * compareKeyValues(null, 'a', true); // negative
 * compareKeyValues(2, 10, false);    // negative
 */
export function compareKeyValues(a: SortKeyValue, b: SortKeyValue, text: boolean): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (text) return compareCodePoints(a as string, b as string);
  return (a as number) < (b as number) ? -1 : 1;
}

/**
 * Turns a typed sort into key readers. Throws `WepqlError` for more keys
 * than `limits.maxSortKeys`.
 *
 * @example
 * sortKeyReaders(typedSort, { caseSensitive: false, limits: DEFAULT_LIMITS })[0].direction; // 1
 */
export function sortKeyReaders(
  sort: TypedSort,
  options: { readonly caseSensitive: boolean; readonly limits: Limits },
): readonly SortKeyReader[] {
  if (sort.keys.length > options.limits.maxSortKeys) {
    const span = sort.source?.span ?? { start: 0, end: 0 };
    throw WepqlError.from('sort', [
      {
        code: LIMIT_CODES.maxSortKeys,
        severity: codeInfo(LIMIT_CODES.maxSortKeys).severity,
        message: limitMessage('maxSortKeys', options.limits.maxSortKeys),
        start: span.start,
        end: span.end,
      },
    ]);
  }
  return sort.keys.map((key) => ({
    get: keyGetter(key.field.path, key.field.type, !options.caseSensitive),
    text: key.field.type === 'string',
    direction: key.direction === 'Desc' ? -1 : 1,
  }));
}
