/**
 * Creating and filling a MySQL or MariaDB table in `toSql`'s storage
 * convention: the shared table code (../table.ts) with this dialect
 * (strings in utf8mb4, datetimes as epoch milliseconds, records in a `JSON` column).
 */
import type { Schema } from '../../../schema/schema.js';
import { createSqlTable, insertSqlRecords } from '../table.js';
import { MYSQL_DIALECT } from './dialect.js';

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
  return createSqlTable(MYSQL_DIALECT, options.run, options, how);
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
  return insertSqlRecords(MYSQL_DIALECT, options.run, options, records);
}
