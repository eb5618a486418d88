/**
 * A data source over a PostgreSQL table through `toSql`: `COUNT(*)` for the
 * first page, a seek (keyset) predicate for the next and previous pages and
 * `LIMIT/OFFSET` for jumps, every user value a bound parameter. It needs only a `query(sql, params)` function, so it works
 * with a `pg` Pool or Client and with PGlite alike, and imports neither.
 */
import { setAtPath } from './record-path.js';
import type { Schema } from '../schema/schema.js';
import type { ColumnMap } from '../sql/to-sql.js';
import { fieldExpression, resolveColumnMap } from '../sql/columns.js';
import { quoteIdentifier } from '../sql/dialect.js';
import { toSql } from '../sql/to-sql.js';
import type { Seek, SeekKey, SeekValue } from '../sql/seek.js';
import type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { scalarField, scopeClauses, withClauses } from '../list/data-source.js';

/**
 * Runs one parameterised statement: `pool.query`, `client.query` and PGlite's `db.query` all fit.
 *
 * @example
 * const query: SqlRunner = (sql, params) => pool.query(sql, params); // or PGlite's db.query
 */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<{ readonly rows: readonly unknown[] }>;

/**
 * Options of `createPostgresDataSource`.
 *
 * @example
 * const options: PostgresDataSourceOptions = { query, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', clientField: 'ClientId' };
 */
export interface PostgresDataSourceOptions extends ScopeOptions {
  /** Runs a statement, such as `(sql, params) => pool.query(sql, params)`. */
  readonly query: SqlRunner;
  /** The table, optionally schema-qualified as `['payroll', 'employees']`; quoted, never spliced raw. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** Where fields are stored when not in same-named columns (see `toSql`). */
  readonly columns?: ColumnMap;
  /** A unique column appended to every ORDER BY so that pages never overlap or skip rows (for employees, `Id`). */
  readonly tieBreaker: string;
  /**
   * A `json` column holding each whole record, returned as the row. Without
   * it, rows are rebuilt from the schema's fields: nulls omitted, datetimes
   * as ISO text, 64-bit integers as numbers.
   */
  readonly recordColumn?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /** The collation `toSql` folds case with (its `foldCollation`; default `pg_unicode_fast`, PostgreSQL 18). */
  readonly foldCollation?: string;
}

/**
 * Serves a list from PostgreSQL (or PGlite). The table follows `toSql`'s
 * storage convention (docs/sql.md); `wepql db-seed` creates one for the
 * sample employees.
 *
 * @example
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const source = createPostgresDataSource({
 *   query: (sql, params) => pool.query(sql, params), table: 'employees', schema: employeeSchema,
 *   tieBreaker: 'Id', clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 }, recordColumn: 'Record',
 * });
 */
export function createPostgresDataSource(options: PostgresDataSourceOptions): DataSource {
  const { schema } = options;
  const table = (typeof options.table === 'string' ? [options.table] : options.table).map((p) => quoteIdentifier(p, 'postgres')).join('.');
  const columns = resolveColumnMap(schema, options.columns);
  const select =
    options.recordColumn !== undefined
      ? `${quoteIdentifier(options.recordColumn, 'postgres')} AS "record"`
      : schema.fields.map((f, i) => `${fieldExpression(f, columns, 'postgres')} AS "f${i}"`).join(', ');
  // Checked once here so a bad option fails at start-up, not on the first request.
  quoteIdentifier(options.tieBreaker, 'postgres');

  const compile = (q: DataQuery, withSort: boolean, seek?: Seek) => {
    const scope = scopeClauses(schema, options, q);
    const filter = withClauses(q.filter, scope.clauses);
    const sql = toSql(
      {
        ...(filter === undefined ? {} : { filter }),
        ...(withSort && q.sort !== undefined ? { sort: q.sort } : {}),
        ...(seek === undefined ? {} : { seek }),
      },
      {
        dialect: 'postgres',
        schema,
        tieBreaker: options.tieBreaker,
        ...(options.columns === undefined ? {} : { columns: options.columns }),
        ...(options.caseSensitive === undefined ? {} : { caseSensitive: options.caseSensitive }),
        ...(options.foldCollation === undefined ? {} : { foldCollation: options.foldCollation }),
      },
    );
    return { ...sql, none: scope.none };
  };

  const rebuild = (row: unknown): unknown => {
    const r = row as Record<string, unknown>;
    if (options.recordColumn !== undefined) return typeof r.record === 'string' ? JSON.parse(r.record) : r.record;
    const out: Record<string, unknown> = {};
    schema.fields.forEach((field, i) => {
      const value = fromDatabase(r[`f${i}`], field.type);
      if (value === null) return;
      setAtPath(out, field.path, value);
    });
    return out;
  };

  // The raw stored value of every ORDER BY key, read back with the page so a token can seek from its first and last row.
  const keyColumns = (q: DataQuery): string =>
    [
      ...(q.sort?.keys ?? []).map((k) => fieldExpression(scalarField(schema, k.field.name, 'sort'), columns, 'postgres')),
      quoteIdentifier(options.tieBreaker, 'postgres'),
    ]
      .map((expr, i) => `, ${expr} AS "wepql_k${i}"`)
      .join('');
  const keyOf = (q: DataQuery, row: unknown): SeekKey => {
    const r = row as Record<string, unknown>;
    const types = [...(q.sort?.keys ?? []).map((k) => k.field.type), 'tie'];
    return types.map((type, i) => seekValue(r[`wepql_k${i}`], type));
  };

  const run = async (q: DataQuery, window: PageWindow, seek?: Seek): Promise<readonly unknown[]> => {
    const { where, orderBy, params, none } = compile(q, true, seek);
    if (none) return [];
    const n = params.length;
    const sql =
      `SELECT ${select}${keyColumns(q)} FROM ${table}${where ? ` WHERE ${where}` : ''}` +
      `${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT $${n + 1}${seek === undefined ? ` OFFSET $${n + 2}` : ''}`;
    const result = await options.query(sql, seek === undefined ? [...params, window.limit, window.offset] : [...params, window.limit]);
    return seek !== undefined && 'before' in seek ? [...result.rows].reverse() : result.rows;
  };

  return Object.freeze({
    clientScoped: options.clientField !== undefined,
    async keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
      const seek: Seek | undefined =
        window.after !== undefined ? { after: window.after } : window.before !== undefined ? { before: window.before } : undefined;
      const key = window.after ?? window.before;
      const direction = q.sort?.keys[0]?.direction;
      let rows: readonly unknown[];
      if (seek === undefined || key === undefined || direction === undefined || key[0] === null || (direction === 'Asc') === ('after' in seek)) {
        rows = await run(q, window, seek);
      } else {
        // Walking towards smaller first keys, NULL keys come last: the non-NULL rows from an index range
        // first, then, only if the page is not full, the NULL ones (also an index range).
        rows = await run(q, window, { ...seek, firstKey: 'not-null' });
        if (rows.length < window.limit) {
          const rest = await run(q, { offset: 0, limit: window.limit - rows.length }, { ...seek, firstKey: 'null' });
          rows = 'before' in seek ? [...rest, ...rows] : [...rows, ...rest];
        }
      }
      if (rows.length === 0) return { rows };
      return { rows: rows.map(rebuild), keys: { first: keyOf(q, rows[0]), last: keyOf(q, rows[rows.length - 1]) } };
    },
    async count(q: DataQuery): Promise<number> {
      const { where, params, none } = compile(q, false);
      if (none) return 0;
      const result = await options.query(`SELECT COUNT(*) AS "n" FROM ${table}${where ? ` WHERE ${where}` : ''}`, [...params]);
      return Number((result.rows[0] as { n: unknown } | undefined)?.n ?? 0);
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      const { where, orderBy, params, none } = compile(q, true);
      if (none) return [];
      const n = params.length;
      const sql =
        `SELECT ${select} FROM ${table}${where ? ` WHERE ${where}` : ''}` +
        `${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT $${n + 1} OFFSET $${n + 2}`;
      const result = await options.query(sql, [...params, window.limit, window.offset]);
      return result.rows.map(rebuild);
    },
  });
}

function seekValue(value: unknown, type: string): SeekValue {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.getTime();
  // `pg` returns bigint and numeric as text; a tie-breaker stays text (the server reads it as the column's type), so a 64-bit key is exact.
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'string' && (type === 'integer' || type === 'number')) return Number(value);
  return value as SeekValue;
}

function fromDatabase(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  // `pg` returns bigint and numeric as text, PGlite may return bigint as BigInt.
  if ((type === 'integer' || type === 'number') && (typeof value === 'string' || typeof value === 'bigint')) return Number(value);
  return value;
}
