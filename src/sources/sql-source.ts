/**
 * One data source over a SQL table, for every dialect `toSql` writes: it
 * takes the dialect and a function that runs one parameterised statement.
 * `COUNT(*)` for the first page, a seek (keyset) predicate for the next and
 * previous pages, `LIMIT/OFFSET` for jumps, every user value a bound
 * parameter. `createPostgresDataSource` and `createMysqlDataSource` are thin
 * constructors over it; what differs between engines lives in
 * `./sql-engine.ts`.
 */
import { setAtPath } from './record-path.js';
import { WepqlError } from '../diagnostics/error.js';
import type { Schema } from '../schema/schema.js';
import { fieldExpression, resolveColumnMap } from '../sql/columns.js';
import type { SqlDialect } from '../sql/dialect.js';
import { sqlDialect } from '../sql/dialect.js';
import type { Seek, SeekKey } from '../sql/seek.js';
import { toSql, type ColumnMap } from '../sql/to-sql.js';
import type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { scalarField, scopeClauses, withClauses } from '../list/data-source.js';
import { sqlEngine } from './sql-engine.js';

/**
 * Runs one parameterised statement and resolves to its rows in any of the
 * shapes drivers return: `{ rows }` (`pg`, PGlite), mysql2's `[rows, fields]`
 * pair, or the rows themselves.
 *
 * @example
 * const run: SqlStatementRunner = (sql, params) => pool.query(sql, params);
 */
export type SqlStatementRunner = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * Options of `createSqlDataSource`: the options every SQL source shares, plus the dialect and the runner.
 *
 * @example
 * const options: SqlDataSourceOptions = { dialect: 'postgres', run, table: 'employees', schema: employeeSchema, tieBreaker: 'Id' };
 */
export interface SqlDataSourceOptions extends ScopeOptions {
  readonly dialect: SqlDialect;
  /** Runs a statement with the dialect's placeholders (`$1` on PostgreSQL, `?` elsewhere). */
  readonly run: SqlStatementRunner;
  /** The table, optionally schema-qualified as `['payroll', 'employees']`; quoted, never spliced raw. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** Where fields are stored when not in same-named columns (see `toSql`). */
  readonly columns?: ColumnMap;
  /** A unique column appended to every ORDER BY so that pages never overlap or skip rows (for employees, `Id`). */
  readonly tieBreaker: string;
  /** A JSON column holding each whole record, returned as the row; without it, rows are rebuilt from the schema's fields. */
  readonly recordColumn?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /** `toSql`'s `foldCollation`. */
  readonly foldCollation?: string;
  /** `toSql`'s `binaryCollation` (MySQL/MariaDB). */
  readonly binaryCollation?: string;
}

/**
 * Serves a list from a SQL table in `toSql`'s storage convention
 * (docs/sql.md). Seek keys are read with the column's full precision
 * (PostgreSQL timestamps to the microsecond and non-finite doubles as the
 * engine's text), so a walk never repeats or skips a row; datetimes are
 * read as text, so no driver's date parser can shift them. Without
 * `clientField` the list is not per client, and a query that carries a
 * client id is refused with a configuration error.
 *
 * @example
 * const source = createSqlDataSource({
 *   dialect: 'postgres', run: (sql, params) => pool.query(sql, params),
 *   table: 'employees', schema: employeeSchema, tieBreaker: 'Id', clientField: 'ClientId', recordColumn: 'Record',
 * });
 */
export function createSqlDataSource(options: SqlDataSourceOptions): DataSource {
  const { schema, dialect } = options;
  const engine = sqlEngine(dialect, options.run);
  const { quote } = sqlDialect(dialect);
  const table = (typeof options.table === 'string' ? [options.table] : options.table).map(quote).join('.');
  const columns = resolveColumnMap(schema, options.columns);
  // Checked once here so a bad option fails at start-up, not on the first request.
  quote(options.tieBreaker);
  if (options.clientField !== undefined) scalarField(schema, options.clientField, 'clientField');
  if (options.recordColumn !== undefined) quote(options.recordColumn);
  const select =
    options.recordColumn !== undefined
      ? `${quote(options.recordColumn)} AS ${quote('record')}`
      : schema.fields.map((f, i) => `${engine.readExpression(fieldExpression(f, columns, dialect), f.type)} AS ${quote(`f${i}`)}`).join(', ');

  const compile = (q: DataQuery, withSort: boolean, seek?: Seek) => {
    if (q.clientId !== undefined && options.clientField === undefined) throw unscopedSourceError(dialect);
    const scope = scopeClauses(schema, options, q);
    const filter = withClauses(q.filter, scope.clauses);
    const sql = toSql(
      {
        ...(filter === undefined ? {} : { filter }),
        ...(withSort && q.sort !== undefined ? { sort: q.sort } : {}),
        ...(seek === undefined ? {} : { seek }),
      },
      {
        dialect,
        schema,
        tieBreaker: options.tieBreaker,
        ...(options.columns === undefined ? {} : { columns: options.columns }),
        ...(options.caseSensitive === undefined ? {} : { caseSensitive: options.caseSensitive }),
        ...(options.foldCollation === undefined ? {} : { foldCollation: options.foldCollation }),
        ...(options.binaryCollation === undefined ? {} : { binaryCollation: options.binaryCollation }),
      },
    );
    return { ...sql, none: scope.none };
  };

  const rebuild = (row: Record<string, unknown>): unknown => {
    if (options.recordColumn !== undefined) return typeof row.record === 'string' ? JSON.parse(row.record) : row.record;
    const out: Record<string, unknown> = {};
    schema.fields.forEach((field, i) => {
      const value = engine.recordValue(row[`f${i}`], field.type);
      if (value !== null) setAtPath(out, field.path, value);
    });
    return out;
  };

  // Every ORDER BY key, read back exactly (see `SqlEngine.keyExpression`) so a token can seek from the page's first and last row.
  const keyTypes = (q: DataQuery) => [...(q.sort?.keys ?? []).map((k) => k.field.type), 'tie' as const];
  const keyColumns = (q: DataQuery): string =>
    [
      ...(q.sort?.keys ?? []).map((k) => engine.keyExpression(fieldExpression(scalarField(schema, k.field.name, 'sort'), columns, dialect), k.field.type)),
      quote(options.tieBreaker),
    ]
      .map((expr, i) => `, ${expr} AS ${quote(`wepql_k${i}`)}`)
      .join('');
  const keyOf = (q: DataQuery, row: Record<string, unknown>): SeekKey => keyTypes(q).map((type, i) => engine.seekValue(row[`wepql_k${i}`], type));

  const select_ = (q: DataQuery, window: PageWindow, seek: Seek | undefined, keyed: boolean) => {
    const { where, orderBy, params, none } = compile(q, true, seek);
    const n = params.length;
    const sql =
      `SELECT ${select}${keyed ? keyColumns(q) : ''} FROM ${table}${where ? ` WHERE ${where}` : ''}` +
      `${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT ${engine.placeholder(n + 1)}` +
      `${seek === undefined ? ` OFFSET ${engine.placeholder(n + 2)}` : ''}`;
    const limits = seek === undefined ? [window.limit, window.offset] : [window.limit];
    return { sql, params: [...params, ...limits.map(engine.limitValue)], none, ordered: orderBy !== '' };
  };

  const read = async (q: DataQuery, window: PageWindow, seek: Seek | undefined, keyed: boolean): Promise<readonly Record<string, unknown>[]> => {
    const statement = select_(q, window, seek, keyed);
    if (statement.none) return [];
    const rows = await engine.rows(statement.sql, statement.params, statement.ordered);
    // A `before` seek reads backwards from the key; the page is those rows in the query's order.
    return seek !== undefined && 'before' in seek ? [...rows].reverse() : rows;
  };

  return Object.freeze({
    clientScoped: options.clientField !== undefined,
    async keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
      const rows = await readKeyed(q, window, read);
      if (rows.length === 0) return { rows: [] };
      return { rows: rows.map(rebuild), keys: { first: keyOf(q, rows[0]!), last: keyOf(q, rows[rows.length - 1]!) } };
    },
    async count(q: DataQuery): Promise<number> {
      const { where, params, none } = compile(q, false);
      if (none) return 0;
      const rows = await engine.rows(`SELECT COUNT(*) AS ${quote('n')} FROM ${table}${where ? ` WHERE ${where}` : ''}`, [...params], false);
      return Number(rows[0]?.n ?? 0);
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      return (await read(q, window, undefined, false)).map(rebuild);
    },
  });
}

type Reader = (q: DataQuery, window: PageWindow, seek: Seek | undefined, keyed: boolean) => Promise<readonly Record<string, unknown>[]>;

/**
 * The rows of a window that may seek. A walk towards smaller first keys (a
 * `Desc` sort going forward, an `Asc` one going back) meets NULL first keys
 * last: it reads the non-NULL rows from an index range first and, only when
 * the page is not full, the NULL ones (also an index range) — one OR over
 * both would leave the index no single start.
 */
async function readKeyed(q: DataQuery, window: SeekWindow, read: Reader): Promise<readonly Record<string, unknown>[]> {
  const seek: Seek | undefined =
    window.after !== undefined ? { after: window.after } : window.before !== undefined ? { before: window.before } : undefined;
  const key = window.after ?? window.before;
  const direction = q.sort?.keys[0]?.direction;
  if (seek === undefined || key === undefined || direction === undefined || key[0] === null || (direction === 'Asc') === 'after' in seek) {
    return read(q, window, seek, true);
  }
  const rows = await read(q, window, { ...seek, firstKey: 'not-null' }, true);
  if (rows.length >= window.limit) return rows;
  const rest = await read(q, { offset: 0, limit: window.limit - rows.length }, { ...seek, firstKey: 'null' }, true);
  return 'before' in seek ? [...rest, ...rows] : [...rows, ...rest];
}

function unscopedSourceError(dialect: SqlDialect): WepqlError {
  const constructor = dialect === 'postgres' ? 'createPostgresDataSource' : dialect === 'mysql' ? 'createMysqlDataSource' : 'createSqlDataSource';
  return new WepqlError(
    `configuration error: the list has a client id (its route has :client_id, or the handler was given clientId) ` +
      `but the data source was created without clientField, so it cannot limit rows to that client. ` +
      `Pass clientField (the field holding the client id, such as 'ClientId') to ${constructor}, ` +
      `or serve the list on a route without a client id.`,
    [],
  );
}

