/**
 * A primary and a hot standby fed by streaming replication
 * (scripts/topology/clusters.mjs, `pg_basebackup -R`). A list opened on the
 * primary is walked on the standby and back: rows inserted on the primary
 * mid-walk never make a row repeat and never hide one that existed when the
 * walk began. A read the standby cancels because it conflicts with replay
 * is run once more; cancelled twice, the client gets 503 with `Retry-After`,
 * never a 500.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../src/list/index.js';
import type { DataSource } from '../../src/list/index.js';
import type { SqlRunner } from '../../src/sources/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { topologyUnavailable, waitForReplay } from '../../scripts/topology/clusters.mjs';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import type { TopologyDatabases } from '../support/topology-host.js';
import { employees, SCOPE } from '../unit/list/list-contract.js';

const unavailable = topologyUnavailable('replica');
if (unavailable !== undefined) console.warn(`SKIPPED: primary and hot standby — ${unavailable}`);

/** A last name after every other in the fold's code-point order. */
const AHEAD = String.fromCodePoint(0x10ffff);

interface Envelope {
  readonly Data: readonly { readonly Id: number }[];
  readonly Pagination?: { readonly TotalRecords: number; readonly TotalPages: number; readonly DataToken: string };
}

describe.skipIf(unavailable !== undefined)('a primary with a streaming hot standby', () => {
  let topology: TopologyDatabases | undefined;
  let primary: pg.Pool | undefined;
  let standby: pg.Pool | undefined;
  let foldCollation: string | undefined;
  const primaryQuery: SqlRunner = (sql, params) => primary!.query(sql, params);
  const standbyQuery: SqlRunner = (sql, params) => standby!.query(sql, params);
  const caughtUp = () =>
    waitForReplay(
      (sql) => primary!.query(sql),
      (sql) => standby!.query(sql),
    );

  beforeAll(async () => {
    // The run's primary and standby, a database of this file's own on them.
    topology = await createTopologyDatabases('replica');
    primary = new pg.Pool({ connectionString: topologyUrl(topology, 'primary'), max: 4 });
    standby = new pg.Pool({ connectionString: topologyUrl(topology, 'standby'), max: 4 });
    // Replay ends an idle session that still holds a conflicting lock (FATAL 40001); the pool drops that client.
    standby.on('error', () => {});
    ({ foldCollation } = await chooseFoldCollation(primaryQuery));
    await createPostgresTable({ query: primaryQuery, table: 'employees', schema: employeeSchema, primaryKey: 'Id' }, { replace: true });
    await insertPostgresRecords({ query: primaryQuery, table: 'employees', schema: employeeSchema }, employees);
    await caughtUp();
    // Replay reaching the primary's position was once not enough in a whole run (the standby then counted 0 rows,
    // and a walk missed 22): the walk starts only when the standby counts every row.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const counted = await standbyQuery('SELECT count(*)::int AS n FROM employees', []).catch(() => undefined);
      if ((counted?.rows[0] as { n: number } | undefined)?.n === employees.length) break;
      if (Date.now() > deadline) throw new Error(`the standby did not count the ${employees.length} rows within 30 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }, 180_000);
  afterAll(async () => {
    await primary?.end();
    await standby?.end();
    if (topology !== undefined) await dropTopologyDatabases(topology);
  });

  const source = (query: SqlRunner, first?: SqlRunner): DataSource =>
    createPostgresDataSource({
      query,
      ...(first === undefined ? {} : { primary: first }),
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      ...(foldCollation === undefined ? {} : { foldCollation }),
      ...SCOPE,
    });

  it('the standby refuses writes and serves the rows the primary has', async () => {
    await expect(standbyQuery('INSERT INTO employees ("Id") VALUES (1)', [])).rejects.toThrow(/read-only transaction/);
    const n = await standbyQuery('SELECT count(*)::int AS n FROM employees', []);
    expect((n.rows[0] as { n: number }).n).toBe(employees.length);
  });

  it('a walk begun on the primary goes on on the standby and back; rows inserted mid-walk neither repeat nor hide a row', async () => {
    const onPrimary = source(primaryQuery);
    const split = source(standbyQuery, primaryQuery);
    const codec = createTokenCodec({ secret: 'replica walk secret, 16+ bytes' });
    const route = '/api/public/clients/1/employees';
    // Request by request, a load balancer sends the walk to one application server, then to the other.
    const servers = [onPrimary, split, split, onPrimary];
    let turn = 0;
    const call = async (query: Record<string, string>) => {
      const s = servers[turn++ % servers.length]!;
      const r = await handleListRequest({ query }, { source: s, schema: employeeSchema, codec, route, clientId: 1 });
      expect(r.status).toBe(200);
      return r.body as Envelope;
    };
    const sort = 'LastName=Asc';
    const original = employees.filter((e) => e.ClientId === 1 && e.RowStatus !== 3).map((e) => e.Id);
    let body = await call({ limit: '17', sort });
    expect(body.Pagination!.TotalRecords).toBe(original.length);
    const seen = body.Data.map((r) => r.Id);
    let nextId = 1_000_000;
    // Totals are fixed at the first page, so the walk ends there; the rows inserted ahead sort after every original one.
    const pages = body.Pagination!.TotalPages;
    for (let page = 2; page <= pages; page++) {
      // New rows on the primary: one that sorts before every name (behind the walk), one after every name (ahead of it).
      for (const LastName of ['', AHEAD]) {
        await primaryQuery(`INSERT INTO employees ("Id", "ClientId", "RowStatus", "LastName", "FirstName") VALUES ($1, 1, 1, $2, 'New')`, [
          nextId++,
          LastName,
        ]);
      }
      if (page % 2 === 0) await caughtUp();
      body = await call({ 'data-token': body.Pagination!.DataToken, 'next-page': 'true' });
      seen.push(...body.Data.map((r) => r.Id));
    }
    expect(new Set(seen).size).toBe(seen.length);
    const originals = seen.filter((id) => id < 1_000_000);
    expect([...originals].sort((a, b) => a - b)).toEqual([...original].sort((a, b) => a - b));
    // Only rows ahead of the walk can join it.
    const joined = seen.filter((id) => id >= 1_000_000);
    const names = await primaryQuery(`SELECT "Id", "LastName" FROM employees WHERE "Id" >= 1000000`, []);
    const late = new Map((names.rows as { Id: string; LastName: string }[]).map((r) => [Number(r.Id), r.LastName]));
    for (const id of joined) expect(late.get(id)).toBe(AHEAD);
  });

  it('the first page (count and rows) reads the primary, token pages the standby', async () => {
    const statements: string[] = [];
    const tag =
      (name: string, run: SqlRunner): SqlRunner =>
      (sql, params) => {
        statements.push(`${name}: ${sql.startsWith('SELECT COUNT') ? 'count' : 'rows'}`);
        return run(sql, params);
      };
    const split = source(tag('standby', standbyQuery), tag('primary', primaryQuery));
    const codec = createTokenCodec({ secret: 'replica walk secret, 16+ bytes' });
    const route = '/api/public/clients/2/employees';
    const call = (query: Record<string, string>) =>
      handleListRequest({ query }, { source: split, schema: employeeSchema, codec, route, clientId: 2 });
    const first = (await call({ limit: '10' })).body as Envelope;
    expect(statements.sort()).toEqual(['primary: count', 'primary: rows']);
    statements.length = 0;
    await call({ 'data-token': first.Pagination!.DataToken, 'next-page': 'true' });
    await call({ 'data-token': first.Pagination!.DataToken, page: '3' });
    expect(statements).toEqual(['standby: rows', 'standby: rows']);
  });

  describe('a read cancelled by a conflict with recovery', () => {
    /**
     * Runs `sql` on the standby while the primary takes an ACCESS EXCLUSIVE lock on the table: replaying
     * the lock waits for the standby's read, and after max_standby_streaming_delay (1 s) cancels it.
     */
    async function conflictingRead(): Promise<unknown> {
      const client = await standby!.connect();
      // Under load replay may end the session (FATAL 40001) instead of cancelling the read: the read's promise says so.
      client.on('error', () => {});
      let failed = false;
      try {
        const reading = client.query('SELECT pg_sleep(5), count(*) FROM employees');
        const locker = await primary!.connect();
        try {
          await locker.query('BEGIN');
          await locker.query('LOCK TABLE employees IN ACCESS EXCLUSIVE MODE');
          await locker.query('COMMIT');
        } finally {
          locker.release();
        }
        return await reading.then(
          () => undefined,
          (e: unknown) => ((failed = true), e),
        );
      } finally {
        // A session the standby ended is dead: back in the pool, the next read would take it and get ECONNRESET.
        client.release(failed);
      }
    }

    it('the standby cancels it with SQLSTATE 40001 (serialization_failure)', async () => {
      const error = (await conflictingRead()) as { code?: string; message?: string } | undefined;
      expect(error?.code).toBe('40001');
      expect(error?.message).toMatch(/conflict with recovery/);
    });

    it('cancelled once: run once more, and the page is right', async () => {
      let cancelled = 0;
      const flaky: SqlRunner = async (sql, params) => {
        if (cancelled === 0) {
          cancelled++;
          const error = await conflictingRead();
          if (error !== undefined) throw error;
        }
        return standbyQuery(sql, params);
      };
      const s = source(flaky);
      const q = { clientId: 1, includeDeleted: false, filter: undefined, sort: undefined };
      const page = await s.page(q, { offset: 0, limit: 5 });
      expect(cancelled).toBe(1);
      expect(page.map((r) => (r as { Id: number }).Id)).toEqual(
        employees
          .filter((e) => e.ClientId === 1 && e.RowStatus !== 3)
          .map((e) => e.Id)
          .sort((a, b) => a - b)
          .slice(0, 5),
      );
    });

    it('cancelled twice: 503 with Retry-After and the busy envelope, never 500', async () => {
      const errors: unknown[] = [];
      const alwaysCancelled: SqlRunner = async () => {
        const error = await conflictingRead();
        throw error ?? new Error('the standby did not cancel the read');
      };
      const codec = createTokenCodec({ secret: 'replica walk secret, 16+ bytes' });
      const first = await handleListRequest(
        { query: { limit: '5' } },
        {
          source: source(standbyQuery, primaryQuery),
          schema: employeeSchema,
          codec,
          route: '/api/public/clients/1/employees',
          clientId: 1,
        },
      );
      const token = (first.body as Envelope).Pagination!.DataToken;
      const r = await handleListRequest(
        { query: { 'data-token': token, 'next-page': 'true' } },
        {
          source: source(alwaysCancelled, primaryQuery),
          schema: employeeSchema,
          codec,
          route: '/api/public/clients/1/employees',
          clientId: 1,
          onError: (e) => errors.push(e),
        },
      );
      expect(r.status).toBe(503);
      expect(r.headers['retry-after']).toBe('1');
      expect(r.body).toEqual({ Status: 0, Code: '503', ErrorCode: null, Message: 'The server is busy; retry after 1 s.', StackTrace: '' });
      expect(errors).toHaveLength(1);
    }, 60_000);
  });
});
