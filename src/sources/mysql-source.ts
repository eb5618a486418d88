/**
 * A data source over a MySQL or MariaDB table: the SQL data source
 * (`./sql-source.ts`) with the `mysql` dialect. Like the PostgreSQL source
 * it needs only a function that runs one statement, so it works with a
 * `mysql2` pool or connection and imports neither; also creating and
 * filling a table in the storage convention, for seeding and tests.
 */
import type { Schema } from '../schema/schema.js';
import type { ColumnMap } from '../sql/columns.js';
import { MYSQL_DIALECT } from '../sql/dialects/mysql/dialect.js';
import type { MysqlRunner } from '../sql/dialects/mysql/table.js';
import type { DataSource, ScopeOptions } from '../list/data-source.js';
import { createSqlDataSource } from './sql-source.js';
import type { MysqlPool } from '../sql/dialects/mysql/pool.js';
import { mysqlPoolRunner } from '../sql/dialects/mysql/pool.js';

export { createMysqlTable, insertMysqlRecords } from '../sql/dialects/mysql/table.js';
export type { MysqlRunner, MysqlTableOptions } from '../sql/dialects/mysql/table.js';

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
  readonly binaryCollation?: string;
  /** The per-client counter table (`counterTableDdl`) that totals an unfiltered first page; see `createSqlDataSource`. */
  readonly counterTable?: string | readonly string[];
}

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
    dialect: MYSQL_DIALECT,
    // A plain runner is called with the statement and its parameters only.
    run: pool !== undefined ? mysqlPoolRunner(pool) : (sql, params) => run!(sql, params),
    concurrency: concurrency ?? (pool === undefined ? 8 : Math.max(1, poolSize - 1)),
  });
}
