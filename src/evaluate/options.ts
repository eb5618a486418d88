/**
 * The option and function types of the evaluator (docs/reference.md §"Filter semantics"
 * and §"Sort semantics"), shared by
 * `compileFilter`, `compileSort`, `sortRecords` and `query`.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';

/**
 * How filters and sorts are compiled.
 *
 * @example
 * const options: EvaluateOptions = { schema: employeeSchema, caseSensitive: true };
 */
export interface EvaluateOptions {
  /** The schema that text and syntax trees are validated against; required for them. */
  readonly schema?: Schema;
  /** Compare strings exactly instead of through `toLowerCase()` on both sides (default false). */
  readonly caseSensitive?: boolean;
  /** Bounds on the input (docs/reference.md §"Limits"); unset fields keep their defaults. */
  readonly limits?: Partial<Limits>;
  /**
   * `codegen` builds one function with `new Function` (fastest); `closures`
   * composes closures (works under a Content-Security-Policy without
   * `unsafe-eval`); `auto` (default) uses codegen when the environment allows
   * it and closures otherwise.
   */
  readonly strategy?: EvaluateStrategy;
}

/**
 * The ways a filter can be compiled.
 *
 * @example
 * const strategy: EvaluateStrategy = 'closures';
 */
export type EvaluateStrategy = 'auto' | 'codegen' | 'closures';

/**
 * A compiled filter: true when the record matches.
 *
 * @example
 * const isSmith: RecordPredicate = compileFilter('LastName.Equal(smith)', { schema });
 * isSmith({ LastName: 'Smith' }); // true
 */
export type RecordPredicate = (record: unknown) => boolean;

/**
 * A compiled sort: negative when `a` sorts before `b`, positive after, 0 when equal on every key.
 *
 * @example
 * const byName: RecordComparator = compileSort('LastName=Asc', { schema });
 * [...records].sort(byName);
 */
export type RecordComparator = (a: unknown, b: unknown) => number;

/**
 * What `query` runs over a list of records: filter, then sort, then skip and limit.
 *
 * @example
 * const options: QueryOptions = { filter: 'RowStatus.NotEqual(3)', sort: 'LastName=Asc', limit: 10 };
 */
export interface QueryOptions extends EvaluateOptions {
  readonly filter?: string | FilterAst | TypedFilter;
  readonly sort?: string | SortAst | TypedSort;
  /** Matching records to drop before the first one returned (default 0). */
  readonly skip?: number;
  /** Most records to return (default: all). */
  readonly limit?: number;
}
