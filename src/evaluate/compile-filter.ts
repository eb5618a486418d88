/**
 * `compileFilter`: a filter (text, syntax tree or typed tree) to a record
 * predicate with the semantics of docs/reference.md §"Filter semantics".
 */
import type { FilterAst } from '../ast/nodes.js';
import type { TypedFilter } from '../ast/typed-tree.js';
import { compileTypedFilter } from './compile-typed-filter.js';
import type { EvaluateOptions, RecordPredicate } from './options.js';
import { resolveFilter } from './resolve-input.js';

/**
 * Compiles a filter to a predicate. Text and syntax trees are validated
 * against `options.schema`; an invalid filter throws `WepqlError` carrying
 * every diagnostic. Null fields fail every operator except `IsNull`,
 * `InArrayOrNull` and `NotInArrayOrNull`; strings match case-insensitively
 * unless `caseSensitive`; only own properties are read.
 *
 * @example
 * const active = compileFilter('RowStatus.NotEqual(3);Or(LastName.StartsWith(sm);FirstName.Contains(an))', { schema: employeeSchema });
 * employees.filter(active);
 */
export function compileFilter(input: string | FilterAst | TypedFilter, options: EvaluateOptions = {}): RecordPredicate {
  return compileTypedFilter(resolveFilter(input, options), options);
}
