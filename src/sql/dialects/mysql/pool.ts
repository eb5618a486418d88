/**
 * The MySQL and MariaDB statement runner over a connection pool (a
 * `mysql2/promise` pool or anything alike; no driver is imported). The time
 * limit is in the statement itself (the dialect's driver face writes it
 * there); cancelling is `KILL QUERY` of the connection's thread, and a
 * connection that was sent one is closed, never reused, so a late cancel
 * cannot stop someone else's statement.
 */
import type { SqlStatementRunner } from '../dialect.js';
import { whileWatching } from '../shared.js';

/**
 * The part of a `mysql2/promise` pool the runner uses.
 *
 * @example
 * const pool: MysqlPool = mysql.createPool({ uri: process.env.MYSQL_URL });
 */
export interface MysqlPool {
  /** Runs a prepared statement on any connection. */
  execute(sql: string, params: unknown[]): Promise<unknown>;
  /** Runs a statement without parameters (the `KILL QUERY` of a cancel). */
  query(sql: string): Promise<unknown>;
  /** Checks a connection out, for a statement that may be cancelled. */
  getConnection(): Promise<MysqlPoolConnection>;
  /** mysql2 keeps its options here; `connectionLimit` sizes the source's default concurrency. */
  readonly pool?: { readonly config?: { readonly connectionLimit?: number } };
}

/**
 * A connection checked out of a `MysqlPool`.
 *
 * @example
 * const conn: MysqlPoolConnection = await pool.getConnection(); conn.release();
 */
export interface MysqlPoolConnection {
  /** Runs a prepared statement on this connection. */
  execute(sql: string, params: unknown[]): Promise<unknown>;
  /** Gives the connection back to the pool. */
  release(): void;
  /** Closes the connection (after a cancel, so a late `KILL QUERY` reaches no one else). */
  destroy(): void;
  readonly threadId: number | null;
}

/**
 * Runs statements on a MySQL or MariaDB pool, cancelled (`KILL QUERY` of the
 * connection's thread) when the context's signal is aborted. The time limit
 * is already in the statement's text (the SQL data source writes it there).
 *
 * @example
 * const run = mysqlPoolRunner(pool);
 * await run('SELECT 1', [], { signal: AbortSignal.timeout(500) });
 */
export function mysqlPoolRunner(pool: MysqlPool): SqlStatementRunner {
  return async (sql, params, context) => {
    if (context?.signal === undefined) return pool.execute(sql, params);
    context.signal.throwIfAborted();
    const connection = await pool.getConnection();
    let killed: Promise<unknown> | undefined;
    try {
      const kill = () => {
        const thread = Number(connection.threadId);
        if (Number.isSafeInteger(thread)) killed = pool.query(`KILL QUERY ${thread}`).catch(() => undefined);
      };
      return await whileWatching(context, kill, () => connection.execute(sql, params));
    } finally {
      if (killed !== undefined) {
        await killed;
        connection.destroy();
      } else connection.release();
    }
  };
}
