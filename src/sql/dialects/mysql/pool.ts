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
 * connection's thread) when the context's signal is aborted or its time is
 * up. The time limit is also in the statement's text (the SQL data source
 * writes it there, in whole seconds so a prepared statement is reused), so a
 * statement stops on the server even if this process does not live to kill
 * it. One round trip per statement once its text is prepared on the
 * connection.
 *
 * @example
 * const run = mysqlPoolRunner(pool);
 * await run('SELECT 1', [], { signal: AbortSignal.timeout(500) });
 */
export function mysqlPoolRunner(pool: MysqlPool): SqlStatementRunner {
  return async (sql, params, context) => {
    if (context?.signal === undefined && context?.timeoutMs === undefined) return pool.execute(sql, params);
    context.signal?.throwIfAborted();
    const connection = await pool.getConnection();
    let killed: Promise<unknown> | undefined;
    const kill = () => {
      const thread = Number(connection.threadId);
      if (killed === undefined && Number.isSafeInteger(thread)) killed = pool.query(`KILL QUERY ${thread}`).catch(() => undefined);
    };
    // The exact deadline: the limit in the text is rounded up to whole seconds.
    const timer = context.timeoutMs === undefined ? undefined : setTimeout(kill, Math.max(1, Math.ceil(context.timeoutMs)));
    try {
      return await whileWatching(context, kill, () => connection.execute(sql, params));
    } finally {
      clearTimeout(timer);
      if (killed !== undefined) {
        await killed;
        connection.destroy();
      } else connection.release();
    }
  };
}
