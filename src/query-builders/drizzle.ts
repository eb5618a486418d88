/**
 * `wepql/drizzle`: a wepql filter and sort as Drizzle `SQL`, to combine
 * with the application's own conditions (`and(eq(…), drizzleWhere(…))`).
 * Built on the SQL compiler's parts (`toSqlParts`): fixed text goes in as
 * `sql.raw`, every value as `sql.param`, so Drizzle binds it. drizzle-orm
 * is an optional peer dependency; only this entry imports it.
 *
 * @packageDocumentation
 */
import { sql, type SQL } from 'drizzle-orm';
import type { SqlPart, SqlQuery, ToSqlOptions } from '../sql/to-sql.js';
import { toSqlParts } from '../sql/to-sql.js';

/**
 * Options of `drizzleWhere` and `drizzleOrderBy`: `toSql`'s, without
 * `paramStart` (Drizzle numbers parameters). The dialect must be the
 * database's (`'postgres'`, `'sqlite'` or `'mysql'`).
 *
 * @example
 * const options: DrizzleFragmentOptions = { dialect: 'sqlite', schema: employeeSchema, tieBreaker: 'Id' };
 */
export type DrizzleFragmentOptions = Omit<ToSqlOptions, 'paramStart'>;

function fromParts(parts: readonly SqlPart[]): SQL {
  return sql.join(parts.map((p) => ('sql' in p ? sql.raw(p.sql) : sql.param(p.param))));
}

/**
 * A wepql filter (text, syntax tree or typed tree) as a parenthesized
 * Drizzle condition, or `undefined` for an empty filter (which `and()` and
 * `.where()` ignore). Throws `WepqlError` like `toSql` for an invalid filter.
 *
 * @example
 * const rows = await db
 *   .select()
 *   .from(employees)
 *   .where(and(eq(employees.ClientId, 1), drizzleWhere("LastName.StartsWith('sm')", { dialect: 'sqlite', schema: employeeSchema })));
 */
export function drizzleWhere(filter: SqlQuery['filter'], options: DrizzleFragmentOptions): SQL | undefined {
  const { where } = toSqlParts(filter === undefined ? {} : { filter }, options);
  return where.length === 0 ? undefined : sql`(${fromParts(where)})`;
}

/**
 * A wepql sort as Drizzle ORDER BY items (every key, then
 * `options.tieBreaker` ascending), to spread into `.orderBy(…)`; empty when
 * there is neither a key nor a tie-breaker. Throws `WepqlError` like
 * `toSql` for an invalid sort.
 *
 * @example
 * const rows = await db.select().from(employees)
 *   .orderBy(...drizzleOrderBy('LastName=Asc;BirthOn=Desc', { dialect: 'sqlite', schema: employeeSchema, tieBreaker: 'Id' }));
 */
export function drizzleOrderBy(sort: SqlQuery['sort'], options: DrizzleFragmentOptions): SQL[] {
  const { orderBy } = toSqlParts(sort === undefined ? {} : { sort }, options);
  return orderBy.length === 0 ? [] : [fromParts(orderBy)];
}
