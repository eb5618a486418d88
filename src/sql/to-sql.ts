/**
 * `toSql`: a filter and a sort, as text, syntax tree or typed tree, to a
 * WHERE condition, an ORDER BY list and bound parameters for PostgreSQL,
 * SQLite or MySQL/MariaDB, with the evaluator's semantics (docs/reference.md §"Filter
 * semantics" and §"Sort semantics").
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { WepqlError } from '../diagnostics/error.js';
import { resolveLimits, type Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';
import { resolveColumnMap, type ColumnMap } from './columns.js';
import { compileFilterParts, compileSortParts, renderParts, type CompileContext, type SqlPart } from './compile.js';
import type { Dialect } from './dialects/dialect.js';
import { dialectOf, type SqlDialect } from './dialects/registry.js';
import { sqlError } from './errors.js';
import { compileSeekParts, type Seek } from './seek.js';

export type { ColumnMap, ColumnMapping } from './columns.js';
export type { SqlPart } from './compile.js';

/**
 * Options of `toSql`.
 *
 * @example
 * const options: ToSqlOptions = { dialect: 'sqlite', schema: employeeSchema, tieBreaker: 'Id' };
 * const onPostgres17: ToSqlOptions = { dialect: 'postgres', schema: employeeSchema, foldCollation: 'pg_c_utf8' };
 */
export interface ToSqlOptions {
  /** The engine: a shipped dialect's name, or a `Dialect` object (an engine of your own). */
  readonly dialect: SqlDialect | Dialect;
  readonly schema: Schema;
  /**
   * Field name (schema spelling, `Address.Zip` for nested) → column name,
   * `{ column }`, or `{ json, path }` for a key path inside a JSON column
   * (`jsonb` in PostgreSQL). Unlisted fields use their name, nested paths
   * joined with `_` (`Address.Zip` → column `Address_Zip`).
   */
  readonly columns?: ColumnMap;
  /** Compare strings case-sensitively (default false: fold with `toLowerCase`, docs/reference.md §"Filter semantics"). */
  readonly caseSensitive?: boolean;
  /**
   * PostgreSQL: the collation case-insensitive comparisons and orders fold
   * with, as in `lower(col COLLATE "pg_unicode_fast")` (the default, new in
   * PostgreSQL 18). The collation decides both how `lower()` maps case and
   * how the folded text orders, so name one that orders by code point:
   * before PostgreSQL 18, `pg_c_utf8` (17, builtin) or one created with
   * `CREATE COLLATION wepql_fold (provider = libc, locale = 'C.UTF-8')`;
   * those use simple case mapping and differ from `toLowerCase` on `İ` and
   * final `Σ` (docs/sql.md, "Known gaps"). Written as one quoted identifier
   * (`"C.UTF-8"` stays one name); must be a non-empty string of at most 63
   * bytes. Unused by SQLite and by case-sensitive comparisons (`"C"`).
   *
   * MySQL: the collation whose case mapping `LOWER()` applies (default
   * `utf8mb4_unicode_520_ci`; `utf8mb4_0900_ai_ci` on MySQL 8,
   * `utf8mb4_uca1400_ai_ci` on MariaDB 11.5+ map newer Unicode letters).
   */
  readonly foldCollation?: string;
  /**
   * MySQL: the collation strings are compared, matched and ordered with
   * after folding, which must order by code point and not pad trailing
   * spaces: `utf8mb4_nopad_bin` (the default, MariaDB) or
   * `utf8mb4_0900_bin` (MySQL 8). Unused by the other dialects.
   */
  readonly binaryCollation?: string;
  /**
   * PostgreSQL: compare and order case-insensitive strings by a stored
   * folded twin of each column (`"LastName_folded"`, see `foldedColumnName`:
   * `text COLLATE "C" GENERATED ALWAYS AS (lower("LastName" COLLATE <fold>))
   * STORED`, which `createPostgresTable` makes with `foldedColumns`) instead
   * of the expression `lower("LastName" COLLATE <fold>)`, and write seeks
   * without row-value comparisons. Every test is then a plain operator on a
   * column of its own collation, which `postgres_fdw` ships to the shard
   * whole (docs/server.md, "Shards on other servers"); results are the same.
   * Needs each string field in a column of its own (not a JSON path).
   */
  readonly foldedColumns?: boolean;
  /** A unique column appended to ORDER BY (ascending) so paging is deterministic. A column name, quoted as given. */
  readonly tieBreaker?: string;
  /** PostgreSQL: the number of the first `$n` placeholder (default 1), to append to a query that already has parameters. */
  readonly paramStart?: number;
  /** Bounds on the input (docs/reference.md §"Limits"); unset fields take the defaults. */
  readonly limits?: Partial<Limits>;
  /**
   * A page jump (`LIMIT … OFFSET …`) as a deferred join: `where` becomes
   * `tieBreaker IN (the tie-breaker of the page's rows)`, found by a
   * subquery that walks past `offset` rows reading only the sort index
   * (an index-only scan under the advisor's indexes), so only the page's
   * `limit` rows are fetched from the table. Run the fragment as
   * `SELECT … FROM table WHERE ${where} ORDER BY ${orderBy}` with no LIMIT
   * or OFFSET of your own; the rows and their order are those of the plain
   * `LIMIT limit OFFSET offset`. Needs `tieBreaker` (a unique column);
   * cannot be combined with `seek`.
   */
  readonly deferredJoin?: DeferredJoin;
}

/**
 * The page a deferred join reads: `limit` rows after `offset` rows of `table`.
 *
 * @example
 * const jump: DeferredJoin = { table: 'employees', limit: 50, offset: 484_950 };
 */
export interface DeferredJoin {
  /** The table, optionally schema-qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  readonly limit: number;
  readonly offset: number;
}

/**
 * What `toSql` returns: fragments without their keywords, `''` when absent,
 * and the parameters in placeholder order.
 *
 * @example
 * const { where, orderBy, params }: SqlFragment = toSql({ filter: 'Id.Equal(5)' }, options);
 */
export interface SqlFragment {
  readonly where: string;
  readonly orderBy: string;
  readonly params: readonly unknown[];
}

/**
 * What `toSql` accepts: a filter and a sort, each as text, syntax tree or typed tree.
 *
 * @example
 * const q: SqlQuery = { filter: 'Gender.Equal(1)', sort: 'LastName=Asc' };
 */
export interface SqlQuery {
  readonly filter?: string | FilterAst | TypedFilter;
  readonly sort?: string | SortAst | TypedSort;
  /**
   * Keyset paging: only the rows after (or before) a row's sort key, which
   * is one value per sort key and then the tie-breaker's (so `tieBreaker`
   * is needed). With `before`, `orderBy` is the reverse order, so that
   * `LIMIT n` reads the n rows nearest the key; reverse the rows read.
   */
  readonly seek?: Seek;
}

/**
 * The WHERE and ORDER BY of `toSqlParts`, as text pieces and parameters.
 *
 * @example
 * const { where, orderBy }: SqlParts = toSqlParts({ filter: 'Id.Equal(5)' }, options);
 */
export interface SqlParts {
  readonly where: readonly SqlPart[];
  readonly orderBy: readonly SqlPart[];
}

/**
 * Compiles to text and parameter parts, for query builders that number
 * parameters themselves (Kysely: `sql.join(parts.map((p) => 'sql' in p ?
 * sql.raw(p.sql) : sql.val(p.param)), sql.raw(''))`). `orderBy` never has
 * parameters. Throws like `toSql`.
 *
 * @example
 * toSqlParts({ filter: 'Id.Equal(5)' }, { dialect: 'sqlite', schema }).where; // [{ sql: '"Id" = ' }, { param: 5 }]
 */
export function toSqlParts(query: SqlQuery, options: ToSqlOptions): SqlParts {
  const context = compileContext(options);
  const { schema, limits } = context;
  const filter = typedFilter(query?.filter, schema, limits);
  const sort = typedSort(query?.sort, schema, limits);
  if (options.tieBreaker !== undefined && typeof options.tieBreaker !== 'string') {
    sqlError('invalid-sql-option', 'tieBreaker must be a column name');
  }
  const where = filter === undefined ? [] : compileFilterParts(filter, context);
  const seek = query?.seek;
  if (options.deferredJoin !== undefined) {
    if (seek !== undefined) sqlError('invalid-sql-option', 'deferredJoin reads a page by its offset and cannot be combined with seek');
    const orderBy = compileSortParts(sort, context, options.tieBreaker);
    return { where: deferredJoinParts(options, context, where, orderBy), orderBy };
  }
  if (seek === undefined) return { where, orderBy: compileSortParts(sort, context, options.tieBreaker) };
  if (typeof seek !== 'object' || seek === null || !('after' in seek || 'before' in seek)) {
    sqlError('invalid-sql-option', 'seek must be { after: key } or { before: key }');
  }
  const seekParts = compileSeekParts(sort, context, options.tieBreaker, seek);
  return {
    // Top-level filter clauses are joined by AND and groups are parenthesized, so appending keeps precedence.
    where: where.length === 0 ? seekParts : [...where, { sql: ' AND ' }, ...seekParts],
    orderBy: compileSortParts(sort, context, options.tieBreaker, 'before' in seek),
  };
}

/**
 * `tb IN (SELECT key FROM (SELECT tb AS key FROM table WHERE … ORDER BY … LIMIT ? OFFSET ?) AS page)`:
 * the doubled subquery because MySQL and MariaDB refuse LIMIT directly inside IN.
 */
function deferredJoinParts(
  options: ToSqlOptions,
  context: CompileContext,
  where: readonly SqlPart[],
  orderBy: readonly SqlPart[],
): readonly SqlPart[] {
  const jump = options.deferredJoin!;
  const dialect = context.dialect.rules;
  if (typeof options.tieBreaker !== 'string') sqlError('invalid-sql-option', 'deferredJoin needs a tieBreaker (a unique column)');
  const count = (value: unknown, name: string, min: number): number => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
      sqlError('invalid-sql-option', `deferredJoin.${name} must be a whole number ≥ ${min}`);
    return value;
  };
  const limit = count(jump?.limit, 'limit', 1);
  const offset = count(jump?.offset, 'offset', 0);
  const parts = typeof jump.table === 'string' ? [jump.table] : jump.table;
  if (!Array.isArray(parts) || parts.length === 0) sqlError('invalid-sql-option', 'deferredJoin.table must be a name or a list of names');
  const table = parts.map((p) => dialect.quote(p)).join('.');
  const tieBreaker = dialect.quote(options.tieBreaker);
  const key = dialect.quote('wepql_key');
  // With folded columns (written for postgres_fdw), `= ANY(ARRAY(…))`: the page's keys become one
  // array parameter the outer foreign scan ships to the shard, where a semi-join would fetch every row.
  const [open, close] = context.foldedColumns === true ? ['= ANY(ARRAY(', '))'] : ['IN (', ')'];
  return [
    {
      sql: `${tieBreaker} ${open}SELECT ${key} FROM (SELECT ${tieBreaker} AS ${key} FROM ${table}${where.length === 0 ? '' : ' WHERE '}`,
    },
    ...where,
    { sql: `${orderBy.length === 0 ? '' : ' ORDER BY '}` },
    ...orderBy,
    { sql: ' LIMIT ' },
    { param: dialect.limitValue(limit) },
    { sql: ' OFFSET ' },
    { param: dialect.limitValue(offset) },
    { sql: `) AS ${dialect.quote('wepql_page')}${close}` },
  ];
}

/**
 * Compiles a filter and a sort to SQL for PostgreSQL, SQLite or MySQL
 * (and MariaDB). `where` and `orderBy` come without their keywords and are
 * `''` when absent; every user value is in `params` (PostgreSQL `$n`
 * placeholders from `paramStart`, SQLite and MySQL `?`), never in the text. Invalid input throws
 * `WepqlError` carrying the diagnostics. The table must follow the storage
 * convention of docs/sql.md (timestamptz / epoch-ms datetimes, …); SQLite
 * connections need `registerSqliteFunctions` for case-insensitive strings;
 * case-insensitive strings on PostgreSQL need version 18 (collation
 * `pg_unicode_fast`) or a `foldCollation` the server has; MySQL strings
 * fold with the collation's case tables (docs/sql.md lists the gaps).
 *
 * @example
 * const { where, orderBy, params } = toSql(
 *   { filter: 'LastName.StartsWith(Sm);Salary.GreaterThan(1000)', sort: 'LastName=Asc' },
 *   { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id' },
 * );
 * // where:   lower("LastName" COLLATE "pg_unicode_fast") LIKE $1 ESCAPE '\' AND "Salary" > $2
 * // orderBy: lower("LastName" COLLATE "pg_unicode_fast") ASC NULLS FIRST, "Id" ASC
 * // params:  ['sm%', 1000]
 */
export function toSql(query: SqlQuery, options: ToSqlOptions): SqlFragment {
  const parts = toSqlParts(query, options);
  const start = options.paramStart ?? 1;
  if (!Number.isSafeInteger(start) || start < 1) sqlError('invalid-sql-option', 'paramStart must be a whole number ≥ 1');
  const dialect = dialectOf(options.dialect);
  const where = renderParts(parts.where, dialect, start);
  const orderBy = renderParts(parts.orderBy, dialect, start + where.params.length);
  return { where: where.sql, orderBy: orderBy.sql, params: [...where.params, ...orderBy.params] };
}

/**
 * Checks `toSql`'s options and turns them into the compiler's context; the
 * index advisor builds its context here too, so both write the same
 * expressions. Throws `WepqlError` like `toSql`.
 *
 * @example
 * compileContext({ dialect: 'postgres', schema: employeeSchema }).foldCollation; // '"pg_unicode_fast"'
 */
export function compileContext(
  options: Pick<
    ToSqlOptions,
    'dialect' | 'schema' | 'columns' | 'caseSensitive' | 'foldCollation' | 'binaryCollation' | 'foldedColumns' | 'limits'
  >,
): CompileContext {
  const dialect = dialectOf(options?.dialect);
  const schema = options.schema;
  if (typeof schema?.lookup !== 'function') sqlError('invalid-sql-option', 'schema must be a Schema from defineSchema');
  const limits = resolveLimits(options.limits);
  const { rules } = dialect;
  const fold = options.foldCollation !== undefined ? options.foldCollation : rules.defaultFoldCollation;
  if (typeof fold !== 'string') sqlError('invalid-sql-option', 'foldCollation must be a collation name');
  const binary = options.binaryCollation !== undefined ? options.binaryCollation : rules.defaultBinaryCollation;
  if (typeof binary !== 'string') sqlError('invalid-sql-option', 'binaryCollation must be a collation name');
  const folded = options.foldedColumns ?? false;
  if (typeof folded !== 'boolean') sqlError('invalid-sql-option', 'foldedColumns must be true or false');
  if (folded && !rules.storedFoldedColumns) sqlError('invalid-sql-option', `foldedColumns is not supported on ${dialect.name}`);
  return {
    dialect,
    schema,
    columns: resolveColumnMap(schema, options.columns),
    caseSensitive: options.caseSensitive === true,
    // Quoted (and checked) even where it goes unused, so a bad name fails on every dialect alike.
    foldCollation: rules.quoteCollation(fold),
    binaryCollation: rules.quoteBinaryCollation(binary),
    foldedColumns: folded,
    limits,
  };
}

/**
 * A filter as text, syntax tree or typed tree, validated to a typed tree; throws like `toSql`.
 *
 * @example
 * typedFilterOf('Id.Equal(5)', employeeSchema, resolveLimits()).clauses.length; // 1
 */
export function typedFilterOf(input: SqlQuery['filter'], schema: Schema, limits: Limits): TypedFilter | undefined {
  return typedFilter(input, schema, limits);
}

/**
 * A sort as text, syntax tree or typed tree, validated to a typed tree; throws like `toSql`.
 *
 * @example
 * typedSortOf('LastName=Asc', employeeSchema, resolveLimits())?.keys.length; // 1
 */
export function typedSortOf(input: SqlQuery['sort'], schema: Schema, limits: Limits): TypedSort | undefined {
  return typedSort(input, schema, limits);
}

function typedFilter(input: SqlQuery['filter'], schema: Schema, limits: Limits): TypedFilter | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'object' && input !== null && input.kind === 'typed-filter') return input;
  if (typeof input !== 'string' && (typeof input !== 'object' || input === null || input.kind !== 'filter')) {
    sqlError('invalid-sql-option', 'filter must be text, a FilterAst or a TypedFilter');
  }
  const result = analyzeFilter(input, { schema, limits });
  if (result.value === undefined) throw WepqlError.from('filter', result.diagnostics);
  return result.value;
}

function typedSort(input: SqlQuery['sort'], schema: Schema, limits: Limits): TypedSort | undefined {
  if (input === undefined) return undefined;
  if (typeof input === 'object' && input !== null && input.kind === 'typed-sort') return input;
  if (typeof input !== 'string' && (typeof input !== 'object' || input === null || input.kind !== 'sort')) {
    sqlError('invalid-sql-option', 'sort must be text, a SortAst or a TypedSort');
  }
  const result = analyzeSort(input, { schema, limits });
  if (result.value === undefined) throw WepqlError.from('sort', result.diagnostics);
  return result.value;
}
