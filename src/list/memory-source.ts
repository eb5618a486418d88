/**
 * A data source over an array of records, through the evaluator: the same
 * semantics as the SQL compiler, so a list served from memory pages exactly
 * like one served from PostgreSQL.
 */
import type { Schema } from '../schema/schema.js';
import { compileTypedFilter } from '../evaluate/compile-typed-filter.js';
import { sortTypedRecords } from '../evaluate/sort-typed.js';
import type { DataQuery, DataSource, PageWindow, ScopeOptions } from './data-source.js';
import { ascendingSort, scopeClauses, withClauses } from './data-source.js';

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
}

/**
 * Serves records from memory. The array is copied (and ordered by the
 * tie-breaker) once; later changes to it are not seen.
 *
 * @example
 * const source = createMemoryDataSource(employees, { schema: employeeSchema, clientField: 'ClientId',
 *   deleted: { field: 'RowStatus', value: 3 }, tieBreaker: 'Id' });
 * await source.count({ filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 }); // 532
 */
export function createMemoryDataSource(records: readonly unknown[], options: MemoryDataSourceOptions): DataSource {
  const { schema } = options;
  const evaluate = { caseSensitive: options.caseSensitive === true };
  const base = options.tieBreaker === undefined ? [...records] : sortTypedRecords(records, ascendingSort(schema, options.tieBreaker), evaluate);

  const matching = (q: DataQuery): readonly unknown[] => {
    const scope = scopeClauses(schema, options, q);
    if (scope.none) return [];
    const filter = withClauses(q.filter, scope.clauses);
    if (filter === undefined || filter.clauses.length === 0) return base;
    const predicate = compileTypedFilter(filter, evaluate);
    return base.filter((r) => predicate(r));
  };

  // A first page asks for the count and then a window of the same query
  // object; remembering it saves filtering twice. Queries are immutable, so
  // object identity is a safe key, and a WeakMap lets concurrent requests
  // keep their own entries without holding on to them afterwards.
  const cache = new WeakMap<DataQuery, { rows: readonly unknown[]; ordered?: readonly unknown[] }>();
  const remembered = (q: DataQuery) => {
    let entry = cache.get(q);
    if (entry === undefined) cache.set(q, (entry = { rows: matching(q) }));
    return entry;
  };

  return Object.freeze({
    async count(q: DataQuery): Promise<number> {
      return remembered(q).rows.length;
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      const entry = remembered(q);
      entry.ordered ??= q.sort === undefined || q.sort.keys.length === 0 ? entry.rows : sortTypedRecords(entry.rows, q.sort, evaluate);
      return entry.ordered.slice(window.offset, window.offset + window.limit);
    },
  });
}
