/**
 * The PostgreSQL statement runner over a connection pool (a `pg` Pool or
 * anything alike; no driver is imported). PostgreSQL takes a time limit only
 * as a setting, so a statement with one runs in a read-only transaction of
 * its own with `SET LOCAL statement_timeout`: the setting ends with the
 * transaction, so a pooler in transaction mode (pgbouncer) never hands it to
 * another client. Cancelling is `pg_cancel_backend` of the backend the
 * transaction runs on, sent through another connection of the pool; a
 * connection that was sent a cancel is closed, never reused, so a late
 * cancel cannot stop someone else's statement.
 */
import type { SqlStatementRunner } from '../dialect.js';
import { whileWatching } from '../shared.js';

/**
 * The part of a `pg` Pool (or PGlite-like pool) the runner uses.
 *
 * @example
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 */
export interface PostgresPool {
  /** Runs a statement without a deadline on any connection (and sends cancels). */
  query(sql: string, params: unknown[]): Promise<{ readonly rows: readonly unknown[] }>;
  /** Checks a connection out, for a statement that runs in a transaction of its own. */
  connect(): Promise<PostgresPoolClient>;
  /** The pool's options; `max` sizes the source's default concurrency. */
  readonly options?: { readonly max?: number };
}

/**
 * A connection checked out of a `PostgresPool`.
 *
 * @example
 * const client: PostgresPoolClient = await pool.connect(); client.release();
 */
export interface PostgresPoolClient {
  /** Runs a statement (or several, without parameters) on this connection. */
  query(sql: string, params?: unknown[]): Promise<unknown>;
  /** Gives the connection back; with an error (or `true`), closes it instead. */
  release(destroy?: Error | boolean): void;
}

/**
 * Runs statements on a PostgreSQL pool, each with its context's time limit
 * (`SET LOCAL statement_timeout` in a read-only transaction) and cancelled
 * (`pg_cancel_backend`) when its signal is aborted. A statement without a
 * context runs as `pool.query`.
 *
 * @example
 * const run = postgresPoolRunner(pool);
 * await run('SELECT 1', [], { timeoutMs: 500 });
 */
export function postgresPoolRunner(pool: PostgresPool): SqlStatementRunner {
  return async (sql, params, context) => {
    if (context === undefined) return pool.query(sql, params);
    context.signal?.throwIfAborted();
    const client = await pool.connect();
    let cancelled: Promise<unknown> | undefined;
    let closeIt = false;
    try {
      // One round trip opens the transaction, sets its limit and names its backend (through a pooler, the server's).
      const timeout = context.timeoutMs === undefined ? 0 : Math.max(1, Math.ceil(context.timeoutMs));
      const begun = await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeout}; SELECT pg_backend_pid() AS pid`);
      const pid = backendPid(begun);
      const cancel = () => {
        closeIt = true;
        cancelled = pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
      };
      try {
        const result = await whileWatching(context, cancel, () => client.query(sql, params));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => (closeIt = true));
        throw error;
      }
    } catch (error) {
      closeIt = true;
      throw error;
    } finally {
      // Wait for a cancel to be delivered before the connection goes, so it cannot reach a later statement.
      if (cancelled !== undefined) await cancelled;
      client.release(closeIt);
    }
  };
}

/** The pid from the last result of the multi-statement BEGIN (`pg` returns one result per statement). */
function backendPid(results: unknown): number {
  const list = Array.isArray(results) ? results : [results];
  const last = list[list.length - 1] as { rows?: { pid?: unknown }[] } | undefined;
  const pid = Number(last?.rows?.[0]?.pid);
  if (!Number.isSafeInteger(pid)) throw new Error('postgresPoolRunner: could not read the backend pid');
  return pid;
}
