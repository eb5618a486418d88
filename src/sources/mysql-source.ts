/**
 * A data source over a MySQL or MariaDB table: the SQL data source
 * (`./sql-source.ts`) with the `mysql` dialect. Like the PostgreSQL source
 * it needs only a function that runs one statement, so it works with a
 * `mysql2` pool or connection and imports neither; also creating and
 * filling a table in the storage convention, for seeding and tests.
 */
import { readField } from '../evaluate/read-field.js';
import type { Schema } from '../schema/schema.js';
import { defaultColumnName } from '../sql/columns.js';
import { quoteIdentifier } from '../sql/dialect.js';
import { sqlColumnType, toStoredValue } from '../sql/storage.js';
import type { ColumnMap } from '../sql/to-sql.js';
import type { DataSource, ScopeOptions } from '../list/data-source.js';
import { createSqlDataSource } from './sql-source.js';
import type { MysqlPool } from './sql-pools.js';
import { mysqlPoolRunner } from './sql-pools.js';

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
  /** Runs a statement, such as `(sql, params) => pool.execute(sql, params)` with `mysql2/promise`. Give this or `pool`. */
  readonly run?: MysqlRunner;
  /**
   * A `mysql2/promise` pool to run statements on, instead of `run`: a
   * statement whose client goes away is then stopped with `KILL QUERY`
   * (docs/server.md). Deadlines need no pool: each statement carries its
   * own (`max_statement_time` on MariaDB, `MAX_EXECUTION_TIME` on MySQL).
   */
  readonly pool?: MysqlPool;
  /** Statements run at once behind a server's admission queue; default the pool's `connectionLimit` less one, else 8. */
  readonly concurrency?: number;
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
  readonly binaryCollation?: string; /** The per-client counter table (`counterTableDdl`) that totals an unfiltered first page; see `createSqlDataSource`. */
  readonly counterTable?: string | readonly string[];
}

const tableName = (table: string | readonly string[]): string =>
  (typeof table === 'string' ? [table] : table).map((p) => quoteIdentifier(p, 'mysql')).join('.');

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
  const { run, pool, concurrency, ...shared } = options;
  if ((run === undefined) === (pool === undefined)) throw new TypeError('createMysqlDataSource: give either run or pool');
  const poolSize = pool?.pool?.config?.connectionLimit ?? 10;
  return createSqlDataSource({
    ...shared,
    dialect: 'mysql',
    // A plain runner is called with the statement and its parameters only.
    run: pool !== undefined ? mysqlPoolRunner(pool) : (sql, params) => run!(sql, params),
    concurrency: concurrency ?? (pool === undefined ? 8 : Math.max(1, poolSize - 1)),
  });
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
