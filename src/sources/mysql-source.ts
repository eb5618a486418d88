/**
 * A data source over a MySQL or MariaDB table through `toSql` with the
 * `mysql` dialect: `COUNT(*)` for the first page, `LIMIT ? OFFSET ?` or a
 * seek predicate (keyset) for each page, every user value a bound parameter. Like the PostgreSQL
 * source it needs only a function that runs one statement, so it works
 * with a `mysql2` pool or connection and imports neither; also creating
 * and filling a table in the storage convention, for seeding and tests.
 */
import { setAtPath } from './record-path.js';
import { readField } from '../evaluate/read-field.js';
import type { Schema } from '../schema/schema.js';
import { defaultColumnName, fieldExpression, resolveColumnMap } from '../sql/columns.js';
import { quoteIdentifier } from '../sql/dialect.js';
import { sqlColumnType, toStoredValue } from '../sql/storage.js';
import type { Seek, SeekKey, SeekValue } from '../sql/seek.js';
import { toSql, type ColumnMap } from '../sql/to-sql.js';
import type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { scalarField, scopeClauses, withClauses } from '../list/data-source.js';

/**
 * Runs one statement with `?` parameters and resolves to its rows, or to
 * `mysql2`'s `[rows, fields]` pair as its promise API returns it. With
 * `mysql2/promise`, use `execute` (a server-side prepared statement, so
 * values are bound, not interpolated by the driver).
 *
 * @example
 * const run: MysqlRunner = (sql, params) => pool.execute(sql, params);
 */
export type MysqlRunner = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * Options of `createMysqlDataSource`.
 *
 * @example
 * const options: MysqlDataSourceOptions = { run, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', clientField: 'ClientId' };
 */
export interface MysqlDataSourceOptions extends ScopeOptions {
  /** Runs a statement, such as `(sql, params) => pool.execute(sql, params)` with `mysql2/promise`. */
  readonly run: MysqlRunner;
  /** The table, optionally database-qualified as `['payroll', 'employees']`; quoted, never spliced raw. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** Where fields are stored when not in same-named columns (see `toSql`; plain columns only on MySQL). */
  readonly columns?: ColumnMap;
  /** A unique column appended to every ORDER BY so that pages never overlap or skip rows (for employees, `Id`). */
  readonly tieBreaker: string;
  /**
   * A `JSON` column holding each whole record, returned as the row. Without
   * it, rows are rebuilt from the schema's fields: nulls omitted, datetimes
   * as ISO text, booleans from 0/1.
   */
  readonly recordColumn?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /** `toSql`'s `foldCollation` for MySQL (default `utf8mb4_unicode_520_ci`). */
  readonly foldCollation?: string;
  /** `toSql`'s `binaryCollation` (default `utf8mb4_nopad_bin`, MariaDB; `utf8mb4_0900_bin` on MySQL 8). */
  readonly binaryCollation?: string;
}

const tableName = (table: string | readonly string[]): string =>
  (typeof table === 'string' ? [table] : table).map((p) => quoteIdentifier(p, 'mysql')).join('.');

// mysql2's promise API resolves to [rows, fields]; rows are objects, never
// arrays, so an array whose first item is an array is that pair.
const rowsOf = (result: unknown): readonly Record<string, unknown>[] => {
  if (!Array.isArray(result)) return [];
  return (Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
};

/**
 * Serves a list from MySQL or MariaDB. The table follows `toSql`'s storage
 * convention for MySQL (docs/sql.md): `createMysqlTable` makes one.
 *
 * @example
 * import mysql from 'mysql2/promise';
 * const pool = mysql.createPool({ uri: process.env.MYSQL_URL, charset: 'utf8mb4_general_ci' });
 * const source = createMysqlDataSource({
 *   run: (sql, params) => pool.execute(sql, params),
 *   table: 'employees', schema: employeeSchema, tieBreaker: 'Id', recordColumn: 'Record',
 *   clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 },
 * });
 */
export function createMysqlDataSource(options: MysqlDataSourceOptions): DataSource {
  const { schema } = options;
  const table = tableName(options.table);
  const columns = resolveColumnMap(schema, options.columns);
  const select =
    options.recordColumn !== undefined
      ? `${quoteIdentifier(options.recordColumn, 'mysql')} AS \`record\``
      : schema.fields.map((f, i) => `${fieldExpression(f, columns, 'mysql')} AS \`f${i}\``).join(', ');
  // Checked once here so a bad option fails at start-up, not on the first request.
  quoteIdentifier(options.tieBreaker, 'mysql');

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
        dialect: 'mysql',
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
      const value = fromMysql(row[`f${i}`], field.type);
      if (value === null) return;
      setAtPath(out, field.path, value);
    });
    return out;
  };

  // The raw stored value of every ORDER BY key, read back with the page so a token can seek from its first and last row.
  const keyColumns = (q: DataQuery): string =>
    [
      ...(q.sort?.keys ?? []).map((k) => fieldExpression(scalarField(schema, k.field.name, 'sort'), columns, 'mysql')),
      quoteIdentifier(options.tieBreaker, 'mysql'),
    ]
      .map((expr, i) => `, ${expr} AS \`wepql_k${i}\``)
      .join('');
  const keyOf = (q: DataQuery, row: Record<string, unknown>): SeekKey => {
    const types = [...(q.sort?.keys ?? []).map((k) => k.field.type), 'tie'];
    return types.map((type, i) => seekValue(row[`wepql_k${i}`], type));
  };

  return Object.freeze({
    clientScoped: options.clientField !== undefined,
    async keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
      const seek: Seek | undefined =
        window.after !== undefined ? { after: window.after } : window.before !== undefined ? { before: window.before } : undefined;
      const { where, orderBy, params, none } = compile(q, true, seek);
      if (none) return { rows: [] };
      const sql =
        `SELECT ${select}${keyColumns(q)} FROM ${table}${where ? ` WHERE ${where}` : ''}` +
        `${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT ?${seek === undefined ? ' OFFSET ?' : ''}`;
      const limits = seek === undefined ? [String(window.limit), String(window.offset)] : [String(window.limit)];
      const read = rowsOf(await options.run(sql, [...params, ...limits]));
      // A `before` seek reads backwards from the key; the page is those rows in the query's order.
      const rows = seek !== undefined && 'before' in seek ? [...read].reverse() : read;
      if (rows.length === 0) return { rows: [] };
      return { rows: rows.map(rebuild), keys: { first: keyOf(q, rows[0]!), last: keyOf(q, rows[rows.length - 1]!) } };
    },
    async count(q: DataQuery): Promise<number> {
      const { where, params, none } = compile(q, false);
      if (none) return 0;
      const rows = rowsOf(await options.run(`SELECT COUNT(*) AS \`n\` FROM ${table}${where ? ` WHERE ${where}` : ''}`, [...params]));
      return Number(rows[0]?.n ?? 0);
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      const { where, orderBy, params, none } = compile(q, true);
      if (none) return [];
      const sql = `SELECT ${select} FROM ${table}${where ? ` WHERE ${where}` : ''}${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT ? OFFSET ?`;
      // Strings: MySQL 8.0.22+ refuses a DOUBLE parameter (how drivers send JS numbers) for LIMIT.
      const rows = rowsOf(await options.run(sql, [...params, String(window.limit), String(window.offset)]));
      return rows.map(rebuild);
    },
  });
}

/** A stored key value as a seek value: epoch ms stay numbers, 0/1 become booleans, a 64-bit tie-breaker beyond 2^53 stays text. */
function seekValue(value: unknown, type: string): SeekValue {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return Number(value) !== 0;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'string' && (type === 'integer' || type === 'number' || type === 'datetime')) return Number(value);
  return value as SeekValue;
}

function fromMysql(value: unknown, type: string): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'datetime':
      return new Date(Number(value)).toISOString();
    case 'boolean':
      return Number(value) !== 0;
    case 'integer':
    case 'number':
      return typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}

/**
 * Options of `createMysqlTable` and `insertMysqlRecords`.
 *
 * @example
 * const table: MysqlTableOptions = { run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
 */
export interface MysqlTableOptions {
  readonly run: MysqlRunner;
  /** Table name, optionally database-qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** A `JSON` column that stores each record whole. */
  readonly recordColumn?: string;
  /** A field that is the primary key (for employees, `Id`; an integer field). */
  readonly primaryKey?: string;
}

/**
 * Drops (when `replace`) and creates the table in the storage convention
 * (`sqlColumnType(type, 'mysql')`, strings in utf8mb4); returns the statement run.
 *
 * @example
 * await createMysqlTable({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
 */
export async function createMysqlTable(options: MysqlTableOptions, how: { readonly replace?: boolean } = {}): Promise<string> {
  const table = tableName(options.table);
  const columns = options.schema.fields.map((f) => {
    // No NOT NULL: a value that does not read as its type is stored as NULL, as the evaluator counts it.
    const key = options.primaryKey === f.name ? ' PRIMARY KEY' : '';
    return `${quoteIdentifier(defaultColumnName(f), 'mysql')} ${sqlColumnType(f.type, 'mysql')}${key}`;
  });
  if (options.recordColumn !== undefined) columns.push(`${quoteIdentifier(options.recordColumn, 'mysql')} JSON NOT NULL`);
  if (how.replace === true) await options.run(`DROP TABLE IF EXISTS ${table}`, []);
  const sql = `CREATE TABLE ${table} (${columns.join(', ')}) DEFAULT CHARACTER SET utf8mb4`;
  await options.run(sql, []);
  return sql;
}

/**
 * Inserts records in batches of parameterised multi-row INSERTs, values
 * stored as the convention says (`toStoredValue(…, 'mysql')`). Returns the
 * number of rows.
 *
 * @example
 * await insertMysqlRecords({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees); // 1200
 */
export async function insertMysqlRecords(options: MysqlTableOptions, records: readonly unknown[]): Promise<number> {
  const table = tableName(options.table);
  const fields = options.schema.fields;
  const names = fields.map((f) => quoteIdentifier(defaultColumnName(f), 'mysql'));
  if (options.recordColumn !== undefined) names.push(quoteIdentifier(options.recordColumn, 'mysql'));
  // Prepared statements take at most 65,535 parameters.
  const batch = Math.max(1, Math.floor(60_000 / names.length));
  for (let start = 0; start < records.length; start += batch) {
    const chunk = records.slice(start, start + batch);
    const params: unknown[] = [];
    for (const record of chunk) {
      for (const f of fields) params.push(toStoredValue(readField(record, f.path), f.type, 'mysql'));
      if (options.recordColumn !== undefined) params.push(JSON.stringify(record));
    }
    const row = `(${names.map(() => '?').join(', ')})`;
    await options.run(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}`, params);
  }
  return records.length;
}
