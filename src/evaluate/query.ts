/**
 * `query`: filter, sort, skip and limit over an array of records in memory,
 * with the same meaning a database gives the same filter and sort.
 */
import { WepqlError } from '../diagnostics/error.js';
import { inferSchema } from '../schema/infer.js';
import { compileTypedFilter } from './compile-typed-filter.js';
import type { QueryOptions } from './options.js';
import { resolveFilter, resolveSort } from './resolve-input.js';
import { sortTypedRecords } from './sort-typed.js';

function count(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new WepqlError(`${name} must be a whole number ≥ 0, got ${String(value)}`, []);
  }
  return value;
}

/**
 * Runs a filter and a sort over records and returns the page asked for, as
 * a new array (records are not copied or changed). The schema is inferred
 * from the records when `options.schema` is absent and text or a syntax
 * tree is given. Throws `WepqlError` for an invalid filter or sort, or a
 * `skip`/`limit` that is not a whole number ≥ 0.
 *
 * @example
 * query(employees, { filter: 'ClientId.Equal(1);RowStatus.NotEqual(3)', sort: 'LastName=Asc', skip: 20, limit: 10 });
 */
export function query<T>(records: readonly T[], options: QueryOptions = {}): T[] {
  const skip = count(options.skip, 'skip') ?? 0;
  const limit = count(options.limit, 'limit');
  const needsSchema =
    options.schema === undefined &&
    ((options.filter !== undefined && (typeof options.filter === 'string' || options.filter.kind !== 'typed-filter')) ||
      (options.sort !== undefined && (typeof options.sort === 'string' || options.sort.kind !== 'typed-sort')));
  const resolved = needsSchema ? { ...options, schema: inferSchema(records) } : options;
  // Resolve both before running either, so an invalid sort fails before any work.
  const filter = options.filter === undefined ? undefined : resolveFilter(options.filter, resolved);
  const sort = options.sort === undefined ? undefined : resolveSort(options.sort, resolved);
  let out: T[];
  if (filter === undefined) out = records.slice();
  else {
    const matches = compileTypedFilter(filter, resolved);
    out = [];
    for (let i = 0; i < records.length; i++) if (matches(records[i])) out.push(records[i]!);
  }
  if (sort !== undefined) out = sortTypedRecords(out, sort, resolved);
  if (skip === 0 && limit === undefined) return out;
  return out.slice(skip, limit === undefined ? undefined : skip + limit);
}
