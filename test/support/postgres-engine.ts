/**
 * A real PostgreSQL server (test/support/postgres-server.ts) behind the
 * same `SqlEngine` interface as PGlite and sql.js, through `pg`, with the
 * fold collation a server before PostgreSQL 18 needs (`wepql_fold`, libc
 * `C.UTF-8`) created, as `chooseFoldCollation` does for the reference
 * server.
 */
import pg from 'pg';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import type { SqlEngine } from './sql-engines.js';
import { startPostgresServer, type PostgresServer } from './postgres-server.js';

/** A real PostgreSQL engine and the `foldCollation` to pass to `toSql` on it. */
export type PostgresEngine = SqlEngine & {
  readonly server: PostgresServer;
  readonly foldCollation: string | undefined;
  readonly version: number;
};

/**
 * Starts a PostgreSQL server (or uses `server`) and connects a pool to it.
 *
 * @example
 * const db = await startPostgresEngine();
 * await db.rows('SELECT 1 AS x'); // [{ x: 1 }]
 * await db.close(); // also stops the server it started
 */
export async function startPostgresEngine(server?: PostgresServer): Promise<PostgresEngine> {
  const running = server ?? (await startPostgresServer());
  const pool = new pg.Pool({ connectionString: running.url, max: 2 });
  const query = async (sql: string, params: readonly unknown[]) => pool.query(sql, [...params]);
  const { version, foldCollation } = await chooseFoldCollation(query);
  return {
    dialect: 'postgres',
    server: running,
    foldCollation,
    version,
    native: pool,
    async run(sql, params = []) {
      await query(sql, params);
    },
    async rows(sql, params = []) {
      return (await query(sql, params)).rows as Record<string, unknown>[];
    },
    async close() {
      await pool.end();
      if (server === undefined) await running.stop();
    },
  };
}
