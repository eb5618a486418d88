/**
 * The employees table on the run's real PostgreSQL and MariaDB servers as
 * the load tests drive it (test/unit/list/load-control.test.ts,
 * load-budget.test.ts, test/engines/estimate-count.test.ts): a database of
 * the file's own, the table created and filled, the pool the source under
 * test reads through, and the handles that make a statement wait and show
 * it running — a table lock held from another connection (no slow filter
 * exists in the language, so the test decides how long a statement runs)
 * and the server's list of running statements.
 *
 * The files differ in the pool's size, in how they watch what the source
 * sends (a wrapper around the pool, or the pool's own clients), and in the
 * rows they load; those are parameters or left to the file. The table is
 * filled through a connection outside the pool, so the pool is empty when
 * the file gets it: a hook on its connections sees every one.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { createMysqlTable, createPostgresTable, insertMysqlRecords, insertPostgresRecords } from '../../src/sources/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { startMariadbServer } from './mariadb-server.js';
import { startPostgresServer } from './postgres-server.js';

/** What both engines hand a load test. */
export interface LoadTable {
  /** Holds a lock from another connection that makes every read of the table wait; resolves with its release. */
  lock(): Promise<() => Promise<void>>;
  /** Statements on the table now running on the server from the pool's connections (the watching one not counted). */
  running(): Promise<number>;
  /** Ends the pool and the other connections, and gives the database back. */
  close(): Promise<void>;
}

/** How a file wants its table. */
export interface LoadTableOptions {
  /** Connections of the pool the source reads through. */
  readonly poolSize: number;
  /** The rows of the `employees` table (the sample employees or a slice of them). */
  readonly records: readonly unknown[];
}

/**
 * A PostgreSQL `employees` table (`Record` JSON column, key `Id`) and a
 * `pg.Pool` of `poolSize` connections named `application`: `running()`
 * counts that name's active statements on the table in `pg_stat_activity`.
 *
 * @example
 * const t = await openPostgresLoadTable({ application: 'wepql-load', poolSize: 4, records: employees.slice(0, 400) });
 * const release = await t.lock(); await release(); await t.close();
 */
export async function openPostgresLoadTable(
  options: LoadTableOptions & { readonly application: string },
): Promise<LoadTable & { readonly pool: pg.Pool; readonly url: string }> {
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: options.poolSize, application_name: options.application });
  const other = new pg.Pool({ connectionString: server.url, max: 2 });
  const query = (sql: string, params: unknown[]) => other.query(sql, params);
  const table = { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  await createPostgresTable(table, { replace: true });
  await insertPostgresRecords(table, options.records);
  return {
    pool,
    url: server.url,
    lock: async () => {
      const holder = await other.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE employees IN ACCESS EXCLUSIVE MODE');
      return async () => {
        await holder.query('ROLLBACK');
        holder.release();
      };
    },
    running: async () => {
      const { rows } = await other.query(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND query LIKE '%employees%' AND pid <> pg_backend_pid()",
        [options.application],
      );
      return (rows[0] as { n: number }).n;
    },
    close: async () => {
      await pool.end();
      await other.end();
      await server.stop();
    },
  };
}

/**
 * A MariaDB `employees` table and a `mysql2` pool of `poolSize`
 * connections: `running()` counts the statements on the table in the
 * process list, read from a connection of its own.
 *
 * @example
 * const t = await openMariadbLoadTable({ poolSize: 4, records: employees.slice(0, 400) });
 * const release = await t.lock(); await release(); await t.close();
 */
export async function openMariadbLoadTable(options: LoadTableOptions): Promise<LoadTable & { readonly pool: mysql.Pool }> {
  const server = await startMariadbServer();
  const config = { host: server.host, port: server.port, user: server.user, database: server.database, charset: 'UTF8MB4_GENERAL_CI' };
  const pool = mysql.createPool({ ...config, connectionLimit: options.poolSize });
  const other = await mysql.createConnection(config);
  const watcher = await mysql.createConnection(config);
  const run = async (sql: string, params: unknown[]) =>
    (params.length === 0 ? await other.query(sql) : await other.execute(sql, params as never[]))[0];
  const table = { run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  await createMysqlTable(table, { replace: true });
  await insertMysqlRecords(table, options.records);
  return {
    pool,
    lock: async () => {
      await other.query('LOCK TABLES employees WRITE');
      return async () => void (await other.query('UNLOCK TABLES'));
    },
    running: async () => {
      const [rows] = await watcher.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE COMMAND IN ('Query', 'Execute') AND INFO LIKE '%FROM `employees`%' AND ID <> CONNECTION_ID()",
      );
      return Number((rows as { n: number }[])[0]!.n);
    },
    close: async () => {
      await pool.end();
      await other.end();
      await watcher.end();
      await server.stop();
    },
  };
}
