/**
 * `compileSort` and `sortRecords`: a sort (text, syntax tree or typed tree)
 * to a comparator, or straight to a sorted copy (docs/reference.md §"Sort semantics").
 */
import type { SortAst } from '../ast/nodes.js';
import type { TypedSort } from '../ast/typed-tree.js';
import type { EvaluateOptions, RecordComparator } from './options.js';
import { resolveSort } from './resolve-input.js';
import { compileTypedSort, sortTypedRecords } from './sort-typed.js';

/**
 * Compiles a sort to a comparator for `Array.prototype.sort` (stable). Null
 * sorts first under `Asc` and last under `Desc`; strings compare by code
 * point of their lower-cased text unless `caseSensitive`; `false < true`.
 * An invalid sort throws `WepqlError`.
 *
 * @example
 * const byName = compileSort('LastName=Asc;CreatedOn=Desc', { schema: employeeSchema });
 * const sorted = [...employees].sort(byName);
 */
export function compileSort(input: string | SortAst | TypedSort, options: EvaluateOptions = {}): RecordComparator {
  return compileTypedSort(resolveSort(input, options), options);
}

/**
 * Returns a sorted copy of `records` (the input is not touched), reading
 * each record's keys once instead of on every comparison — the fast way to
 * sort a whole array. Stable: records equal on every key keep their order.
 *
 * @example
 * const sorted = sortRecords(employees, 'LastName=Asc;CreatedOn=Desc', { schema: employeeSchema });
 */
export function sortRecords<T>(records: readonly T[], sort: string | SortAst | TypedSort, options: EvaluateOptions = {}): T[] {
  return sortTypedRecords(records, resolveSort(sort, options), options);
}
