/**
 * A real MariaDB server (test/support/mariadb-server.ts) behind the same
 * `SqlEngine` interface as PGlite and sql.js, through `mysql2`. Every
 * statement is a server-side prepared statement (`execute`), so parameters
 * are bound, never interpolated by the driver.
 */
import mysql from 'mysql2/promise';
import type { SqlDialect } from '../../src/sql/index.js';
import { startPglite, startSqlJs, type SqlEngine } from './sql-engines.js';
import { findMariadb, mariadbUnavailableReason, startMariadbServer, type MariadbServer } from './mariadb-server.js';

/**
 * Starts a MariaDB server and connects to its `wepql` database.
 *
 * @example
 * const db = await startMariadb();
 * await db.rows('SELECT 1 AS x'); // [{ x: 1 }]
 * await db.close(); // also stops the server
 */
export async function startMariadb(server?: MariadbServer): Promise<SqlEngine & { readonly server: MariadbServer }> {
  const running = server ?? (await startMariadbServer());
  const connection = await mysql.createConnection({
    host: running.host,
    port: running.port,
    user: running.user,
    database: running.database,
    charset: 'UTF8MB4_GENERAL_CI',
    // Property runs prepare hundreds of distinct statements; keep few open.
    maxPreparedStatements: 64,
  });
  // Close to what wepql's DDL needs and to a strict production server.
  await connection.query("SET SESSION sql_mode = 'STRICT_ALL_TABLES,NO_ENGINE_SUBSTITUTION'");
  const exec = async (sql: string, params: readonly unknown[]) => {
    // DDL cannot always be prepared; statements without parameters go as text.
    if (params.length === 0) return (await connection.query(sql))[0];
    return (await connection.execute(sql, params as never[]))[0];
  };
  return {
    dialect: 'mysql',
    server: running,
    async run(sql, params = []) {
      await exec(sql, params);
    },
    async rows(sql, params = []) {
      return (await exec(sql, params)) as Record<string, unknown>[];
    },
    async close() {
      await connection.end();
      if (server === undefined) await running.stop();
    },
  };
}

/**
 * The three engines a dialect test runs on: PGlite, sql.js and — when a
 * MariaDB server is installed — MariaDB (a warning names what is skipped
 * otherwise), each with its dialect and how to start it.
 *
 * @example
 * describe.each(dialectEngines('prefix ranges'))('on %s', (dialect, start) => { … });
 */
export function dialectEngines(what: string): readonly (readonly [SqlDialect, () => Promise<SqlEngine>])[] {
  const mariadb = findMariadb() !== undefined;
  if (!mariadb) console.warn(`SKIPPED: ${what} on MariaDB — ${mariadbUnavailableReason()}`);
  return [['postgres', startPglite], ['sqlite', startSqlJs], ...(mariadb ? ([['mysql', startMariadb]] as const) : [])];
}
