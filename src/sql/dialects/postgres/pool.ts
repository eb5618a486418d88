/**
 * The PostgreSQL statement runner over a connection pool (a `pg` Pool or
 * anything alike; no driver is imported).
 *
 * A statement with a deadline takes one round trip when its connection talks
 * to a backend directly: it runs alone, and at its deadline (or when its
 * request goes away) it is cancelled with the protocol's cancel request,
 * which takes no connection of the pool. Whether a connection is direct is
 * asked once per connection (`SELECT pg_backend_pid()` against the process
 * id the server sent at startup; a pooler such as pgbouncer sends its own)
 * and remembered for the connection's life. Through a pooler, or with a
 * client that does not show its keys (PGlite), the statement runs in a
 * read-only transaction of its own with `SET LOCAL statement_timeout`: the
 * setting ends with the transaction, so the pooler never hands it to another
 * client. No session setting is ever changed.
 *
 * A connection that was sent a cancel is closed, never reused, and its
 * transaction is never ended first: its backend goes with it (a pooler
 * closes a server connection its client left inside a transaction), so a
 * late cancel cannot stop someone else's statement.
 */
import type { SqlStatementRunner, StatementContext } from '../dialect.js';
import { cancelKeysOf, sendCancelRequest, type CancelKeys } from './cancel-request.js';

/**
 * The part of a `pg` Pool (or PGlite-like pool) the runner uses.
 *
 * @example
 * const pool: PostgresPool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 */
export interface PostgresPool {
  /** Runs a statement without a deadline on any connection (and sends `pg_cancel_backend` when a client has no cancel keys). */
  query(sql: string, params: unknown[]): Promise<{ readonly rows: readonly unknown[] }>;
  /** Checks a connection out, for a statement with a deadline. */
  connect(): Promise<PostgresPoolClient>;
  /** The pool's options; `max` sizes the source's default concurrency. */
  readonly options?: { readonly max?: number };
}

/**
 * A connection checked out of a `PostgresPool`. A node-postgres client also
 * shows `processID`, `secretKey`, `host` and `port`: with them the runner
 * can run a statement in one round trip and cancel it without another
 * connection of the pool.
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

/** What the runner learnt about a pooled connection: direct (with its cancel keys) or not. */
type Route = { readonly direct: true; readonly keys: CancelKeys } | { readonly direct: false };

/** One entry per pooled connection object, asked once and forgotten with the connection. */
const routes = new WeakMap<object, Route>();

/**
 * Runs statements on a PostgreSQL pool, each with its context's time limit
 * and cancelled when its signal is aborted. On a direct connection the
 * statement runs alone, cancelled at its deadline by a protocol cancel
 * request; through a pooler it runs in a read-only transaction with
 * `SET LOCAL statement_timeout` and is cancelled with `pg_cancel_backend`.
 * A statement without a context runs as `pool.query`.
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
    let route: Route;
    try {
      route = await routeOf(client);
    } catch (error) {
      client.release(true);
      throw error;
    }
    return route.direct ? runDirect(client, route.keys, pool, sql, params, context) : runInTransaction(client, pool, sql, params, context);
  };
}

/** Whether `client` talks to its backend directly, asked on its first statement with a deadline. */
async function routeOf(client: PostgresPoolClient): Promise<Route> {
  const known = routes.get(client);
  if (known !== undefined) return known;
  const keys = cancelKeysOf(client);
  let route: Route = { direct: false };
  if (keys !== undefined) {
    const pid = backendPid(await client.query('SELECT pg_backend_pid() AS pid'));
    // A pooler answers startup with keys of its own; only a backend's own pid equals the one it sent.
    if (pid === keys.processID) route = { direct: true, keys };
  }
  routes.set(client, route);
  return route;
}

/**
 * The statement alone, in one round trip. Its deadline is a timer here (no
 * setting is sent); at the deadline or the signal, a cancel request stops it
 * on the server, and the connection is closed once the cancel was taken.
 */
async function runDirect(
  client: PostgresPoolClient,
  keys: CancelKeys,
  pool: PostgresPool,
  sql: string,
  params: unknown[],
  context: StatementContext,
): Promise<unknown> {
  let cancelled: Promise<unknown> | undefined;
  const cancel = () => {
    cancelled ??= sendCancelRequest(keys).then((sent) =>
      sent ? undefined : pool.query('SELECT pg_cancel_backend($1)', [keys.processID]).catch(() => undefined),
    );
  };
  const { signal, timeoutMs } = context;
  if (signal?.aborted === true) {
    client.release();
    signal.throwIfAborted();
  }
  const timer = timeoutMs === undefined ? undefined : setTimeout(cancel, Math.max(1, Math.ceil(timeoutMs)));
  signal?.addEventListener('abort', cancel, { once: true });
  let failed = false;
  try {
    return await client.query(sql, params);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', cancel);
    if (cancelled !== undefined) {
      // The cancel is taken (the server has signalled the backend) before the connection goes, and it never comes back.
      await cancelled;
      client.release(true);
    } else client.release(failed);
  }
}

/**
 * The statement in a read-only transaction of its own, its limit set local to
 * it: for a pooler in transaction mode, which may hand each transaction to a
 * different backend. Cancelled with `pg_cancel_backend` through the pool.
 */
async function runInTransaction(
  client: PostgresPoolClient,
  pool: PostgresPool,
  sql: string,
  params: unknown[],
  context: StatementContext,
): Promise<unknown> {
  let cancelled = false;
  let closeIt = false;
  try {
    // One round trip opens the transaction, sets its limit and names its backend (through a pooler, the server's).
    const timeout = context.timeoutMs === undefined ? 0 : Math.max(1, Math.ceil(context.timeoutMs));
    const begun = await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeout}; SELECT pg_backend_pid() AS pid`);
    const pid = backendPid(begun);
    const cancel = () => {
      cancelled = true;
      // Not awaited: the transaction is never ended after a cancel (below), so however late it arrives it finds
      // this backend inside it or gone, and a cancel waiting for a pool connection cannot hold this one.
      void pool.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
    };
    const { signal } = context;
    signal?.throwIfAborted();
    signal?.addEventListener('abort', cancel, { once: true });
    let result: unknown;
    try {
      result = await client.query(sql, params);
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
    if (cancelled) return result;
    await client.query('COMMIT');
    return result;
  } catch (error) {
    closeIt = true;
    if (!cancelled) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    // After a cancel the connection closes with its transaction open: its backend ends (through a pooler, the
    // server connection its client left inside a transaction is closed), so no later statement meets the cancel.
    client.release(closeIt || cancelled);
  }
}

/** The pid from the last result of a (possibly multi-statement) query (`pg` returns one result per statement). */
function backendPid(results: unknown): number {
  const list = Array.isArray(results) ? results : [results];
  const last = list[list.length - 1] as { rows?: { pid?: unknown }[] } | undefined;
  const pid = Number(last?.rows?.[0]?.pid);
  if (!Number.isSafeInteger(pid)) throw new Error('postgresPoolRunner: could not read the backend pid');
  return pid;
}
