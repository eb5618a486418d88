/**
 * The PostgreSQL pooled runner against a real server and through a real
 * pgbouncer in transaction mode: how many statements a statement with a
 * deadline costs (recorded on the pool's own clients), the deadline and the
 * cancel on each path, that no session setting is left behind, and that a
 * cancel never reaches a later statement of a reused connection.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresPoolRunner } from '../../../src/sql/dialects/postgres/pool.js';
import { topologyUnavailable } from '../../../scripts/topology/clusters.mjs';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../../support/shared-servers.js';
import type { TopologyDatabases } from '../../support/topology-host.js';

/** A real pg.Pool whose clients record every statement they are sent (the runner sees the clients themselves). */
function recordingPool(url: string, max: number) {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'wepql-pool-runner' });
  const sent: string[] = [];
  const wrapped = new WeakSet<object>();
  pool.on('connect', (client) => {
    if (wrapped.has(client)) return;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      sent.push(typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: unknown }).text));
      return query(...args);
    };
  });
  return {
    pool,
    /** The statements sent since the last call. */
    take(): string[] {
      return sent.splice(0);
    },
  };
}

const SLEEP = 'SELECT pg_sleep($1::float8 / 1000) IS NULL AS slept';

async function activeSleeps(watch: pg.Pool): Promise<number> {
  const { rows } = await watch.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'wepql-pool-runner' AND state = 'active' AND query LIKE '%pg_sleep%'",
  );
  return (rows[0] as { n: number }).n;
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

describe.skipIf(findPostgresBin() === undefined)('postgresPoolRunner on a direct connection', () => {
  let server: PostgresServer;
  let watch: pg.Pool;
  beforeAll(async () => {
    server = await startPostgresServer();
    watch = new pg.Pool({ connectionString: server.url, max: 1 });
  }, 60_000);
  afterAll(async () => {
    await watch?.end();
    await server?.stop();
  });

  it('one statement per statement with a deadline, after one check per connection; no setting sent', async () => {
    const { pool, take } = recordingPool(server.url, 2);
    try {
      const run = postgresPoolRunner(pool);
      // Two connections at once, then twenty statements on them.
      await Promise.all([run('SELECT 1 AS n', [], { timeoutMs: 5_000 }), run('SELECT 2 AS n', [], { timeoutMs: 5_000 })]);
      const first = take();
      expect(first.filter((s) => /pg_backend_pid/.test(s))).toHaveLength(2);
      expect(first).toHaveLength(4);
      for (let i = 0; i < 20; i++) {
        const result = (await run('SELECT $1::int AS n', [i], {
          timeoutMs: 5_000,
          signal: new AbortController().signal,
        })) as pg.QueryResult;
        expect(result.rows).toEqual([{ n: i }]);
      }
      const later = take();
      expect(later).toEqual(Array(20).fill('SELECT $1::int AS n'));
      expect(later.some((s) => /statement_timeout|BEGIN|COMMIT/.test(s))).toBe(false);
      // No session setting changed on the pool's connections.
      const settings = await Promise.all([1, 2].map(() => pool.query("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")));
      expect(settings.map((r) => r.rows[0].setting)).toEqual(['0', '0']);
    } finally {
      await pool.end();
    }
  });

  it('a statement past its deadline is cancelled on the server (57014) and its connection closed', async () => {
    const { pool } = recordingPool(server.url, 2);
    try {
      const run = postgresPoolRunner(pool);
      await run('SELECT 1', [], { timeoutMs: 5_000 });
      const started = Date.now();
      const error = (await run(SLEEP, [5_000], { timeoutMs: 200 }).catch((e: unknown) => e)) as { code?: string };
      expect(error.code).toBe('57014');
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await activeSleeps(watch)).toBe(0);
      // The cancelled connection was closed, not given back.
      expect(pool.totalCount).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('a statement whose signal is aborted is cancelled at once, not at its deadline', async () => {
    const { pool } = recordingPool(server.url, 1);
    try {
      const run = postgresPoolRunner(pool);
      const leaving = new AbortController();
      const started = Date.now();
      const pending = run(SLEEP, [10_000], { timeoutMs: 30_000, signal: leaving.signal }).catch((e: unknown) => e);
      expect(await until(async () => (await activeSleeps(watch)) === 1, 5_000)).toBe(true);
      leaving.abort();
      expect(((await pending) as { code?: string }).code).toBe('57014');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await activeSleeps(watch)).toBe(0);
    } finally {
      await pool.end();
    }
  });

  it('a cancel cut at the moment its statement ends never reaches a later statement on the same pool', async () => {
    // Two connections, reused by each round: a statement whose deadline falls right at its end, then statements
    // without a cancel. A late cancel would fail one of those with 57014.
    const { pool } = recordingPool(server.url, 2);
    const run = postgresPoolRunner(pool);
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 14 }), async (sleepMs, timeoutMs) => {
          await run(SLEEP, [sleepMs], { timeoutMs }).catch((e: { code?: string }) => {
            if (e.code !== '57014') throw e;
          });
          const after = await Promise.all(
            [0, 1, 2].map((i) => run('SELECT pg_sleep(0.02) IS NULL AS slept, $1::int AS n', [i], { timeoutMs: 5_000 })),
          );
          expect(after.map((r) => (r as pg.QueryResult).rows[0].n)).toEqual([0, 1, 2]);
        }),
        { numRuns: 40 },
      );
    } finally {
      await pool.end();
    }
  }, 60_000);

  it('a client without cancel keys (as PGlite) takes the transaction path: three statements, the limit set local', async () => {
    const { pool, take } = recordingPool(server.url, 1);
    try {
      // The runner sees a client that shows no processID: it cannot cancel by protocol, so it cannot go direct.
      const keyless = {
        query: (sql: string, params: unknown[]) => pool.query(sql, params),
        connect: async () => {
          const client = await pool.connect();
          return {
            query: (sql: string, params?: unknown[]) => client.query(sql, params),
            release: (d?: Error | boolean) => client.release(d),
          };
        },
      };
      const run = postgresPoolRunner(keyless);
      await run('SELECT 1 AS n', [], { timeoutMs: 5_000 });
      const sent = take();
      expect(sent).toHaveLength(3);
      expect(sent[0]).toMatch(/^BEGIN READ ONLY; SET LOCAL statement_timeout = 5000;/);
      expect(sent[2]).toBe('COMMIT');
      const error = (await run(SLEEP, [5_000], { timeoutMs: 150 }).catch((e: unknown) => e)) as { code?: string };
      expect(error.code).toBe('57014');
      expect((await pool.query('SHOW statement_timeout')).rows[0].statement_timeout).toBe('0');
    } finally {
      await pool.end();
    }
  });
});

const bouncerMissing = topologyUnavailable('pgbouncer');
describe.skipIf(bouncerMissing !== undefined)('postgresPoolRunner through pgbouncer (transaction mode)', () => {
  let t: TopologyDatabases;
  let watch: pg.Pool;
  beforeAll(async () => {
    t = await createTopologyDatabases('pgbouncer', { poolSize: 2 });
    watch = new pg.Pool({ connectionString: topologyUrl(t, 'direct'), max: 1 });
  }, 120_000);
  afterAll(async () => {
    await watch?.end();
    if (t !== undefined) await dropTopologyDatabases(t);
  });

  it('detects the pooler and keeps the transaction: the limit set local, no setting left on the server', async () => {
    const { pool, take } = recordingPool(topologyUrl(t, 'bouncer'), 4);
    try {
      const run = postgresPoolRunner(pool);
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => run('SELECT $1::int AS n', [i], { timeoutMs: 5_000 })));
      expect(results.map((r) => (r as pg.QueryResult).rows[0].n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const sent = take().filter((s) => !/^SELECT pg_backend_pid\(\) AS pid$/.test(s));
      expect(sent.filter((s) => s.startsWith('BEGIN READ ONLY; SET LOCAL statement_timeout'))).toHaveLength(8);
      expect(sent.filter((s) => s === 'COMMIT')).toHaveLength(8);
      const settings = await Promise.all([1, 2].map(() => pool.query('SHOW statement_timeout')));
      expect(settings.map((r) => r.rows[0].statement_timeout)).toEqual(['0', '0']);
    } finally {
      await pool.end();
    }
  });

  it('a deadline and an abort stop the statement on the server, and no cancel reaches a later statement', async () => {
    const { pool } = recordingPool(topologyUrl(t, 'bouncer'), 4);
    const run = postgresPoolRunner(pool);
    try {
      const timedOut = (await run(SLEEP, [5_000], { timeoutMs: 200 }).catch((e: unknown) => e)) as { code?: string };
      expect(timedOut.code).toBe('57014');
      const leaving = new AbortController();
      const pending = run(SLEEP, [10_000], { timeoutMs: 30_000, signal: leaving.signal }).catch((e: unknown) => e);
      expect(await until(async () => (await activeSleeps(watch)) === 1, 5_000)).toBe(true);
      leaving.abort();
      expect(((await pending) as { code?: string }).code).toBe('57014');
      expect(await until(async () => (await activeSleeps(watch)) === 0, 3_000)).toBe(true);
      for (let round = 0; round < 30; round++) {
        const abort = new AbortController();
        const cut = run(SLEEP, [round % 7], { timeoutMs: 5_000, signal: abort.signal }).catch(() => undefined);
        setTimeout(() => abort.abort(), round % 5);
        const after = await Promise.all(
          [0, 1, 2].map((i) => run('SELECT pg_sleep(0.01) IS NULL AS slept, $1::int AS n', [i], { timeoutMs: 5_000 })),
        );
        expect(after.map((r) => (r as pg.QueryResult).rows[0].n)).toEqual([0, 1, 2]);
        await cut;
      }
    } finally {
      await pool.end();
    }
  }, 60_000);
});
