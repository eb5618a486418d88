/**
 * `wepql/kysely`: a wepql filter and sort as Kysely expressions, to put
 * beside the application's own conditions in a Kysely query. Built on the
 * SQL compiler's parts (`toSqlParts`): fixed text goes in as raw SQL,
 * every value as a parameter Kysely numbers itself. Kysely is an optional
 * peer dependency; only this entry imports it.
 *
 * @packageDocumentation
 */
import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import type { SqlPart, SqlQuery, ToSqlOptions } from '../sql/to-sql.js';
import { toSqlParts } from '../sql/to-sql.js';

/**
 * Options of `kyselyWhere` and `kyselyOrderBy`: `toSql`'s, without
 * `paramStart` (Kysely numbers parameters). The dialect must be the one
 * of the Kysely instance (`'postgres'`, `'sqlite'` or `'mysql'`).
 *
 * @example
 * const options: KyselyFragmentOptions = { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id' };
 */
export type KyselyFragmentOptions = Omit<ToSqlOptions, 'paramStart'>;

function fromParts(parts: readonly SqlPart[]): RawBuilder<unknown> {
  return sql.join(
    parts.map((p) => ('sql' in p ? sql.raw(p.sql) : sql.val(p.param))),
    sql.raw(''),
  );
}

/**
 * A wepql filter (text, syntax tree or typed tree) as a Kysely boolean
 * expression, parenthesized so it composes with `eb.and`/`eb.or` and
 * further `.where` calls; an empty filter is Kysely's always-true
 * `eb.and([])`. Throws `WepqlError` like `toSql` for an invalid filter.
 *
 * @example
 * const rows = await db
 *   .selectFrom('employees')
 *   .selectAll()
 *   .where((eb) => eb.and([eb('ClientId', '=', 1), kyselyWhere(eb, "LastName.StartsWith('sm')", { dialect: 'postgres', schema: employeeSchema })]))
 *   .execute();
 */
export function kyselyWhere<DB, TB extends keyof DB>(
  eb: ExpressionBuilder<DB, TB>,
  filter: SqlQuery['filter'],
  options: KyselyFragmentOptions,
): Expression<SqlBool> {
  const { where } = toSqlParts(filter === undefined ? {} : { filter }, options);
  if (where.length === 0) return eb.and([]);
  return sql<SqlBool>`(${fromParts(where)})`;
}

/**
 * A wepql sort as one Kysely ORDER BY expression (every key, then
 * `options.tieBreaker` ascending), for `.orderBy(…)`; `undefined` when
 * there is neither a key nor a tie-breaker. Throws `WepqlError` like
 * `toSql` for an invalid sort.
 *
 * @example
 * const order = kyselyOrderBy('LastName=Asc;BirthOn=Desc', { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id' });
 * const rows = await db.selectFrom('employees').selectAll().orderBy(order!).limit(25).execute();
 */
export function kyselyOrderBy(sort: SqlQuery['sort'], options: KyselyFragmentOptions): RawBuilder<unknown> | undefined {
  const { orderBy } = toSqlParts(sort === undefined ? {} : { sort }, options);
  return orderBy.length === 0 ? undefined : fromParts(orderBy);
}
