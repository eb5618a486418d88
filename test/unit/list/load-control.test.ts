/**
 * The admission queue, deadlines, cancellation and single-flight against
 * real PostgreSQL and MariaDB servers, over HTTP to the reference server. A
 * statement is made to wait by a table lock held from another connection
 * (no slow filter exists in the language), so the tests decide how long it runs.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from '../../../src/list/data-source.js';
import {
  createPostgresDataSource,
  createPostgresTable,
  insertPostgresRecords,
  createMysqlDataSource,
  createMysqlTable,
  insertMysqlRecords,
} from '../../../src/sources/index.js';
import { createTokenCodec } from '../../../src/list/index.js';
import type { ListServerOptions } from '../../../src/reference-server/index.js';
import { createListServer } from '../../../src/reference-server/index.js';
import { listHandler as expressList } from '../../../src/frameworks/express.js';
import { listHandler as fastifyList } from '../../../src/frameworks/fastify.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { findMariadb, startMariadbServer } from '../../support/mariadb-server.js';
import { findPostgresBin, startPostgresServer } from '../../support/postgres-server.js';
import { employees, SCOPE } from './list-contract.js';

const ROUTE = '/api/public/clients/1/employees';
const BUSY = /^\{"Status":0,"Code":"503","ErrorCode":null,"Message":"The server is busy; retry after (\d+) s\.","StackTrace":""\}$/;

/** One engine as the tests drive it. */
interface Engine {
  readonly source: DataSource;
  /** Counts the page and count statements the source sent since the last call. */
  statements(): { pages: number; counts: number };
  /** The page statements counted since the last `statements()`: text, parameters and when (for a failure's message). */
  sentPages(): readonly string[];
  /** Holds a lock from another connection that makes every read of the table wait; returns its release. */
  lock(): Promise<() => Promise<void>>;
  /** Statements of the source's pool now running on the server. */
  running(): Promise<number>;
  close(): Promise<void>;
}

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
  readonly ms: number;
}

function get(url: string, query: string, token: string, signal?: AbortSignal): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}${ROUTE}?${query}`, { headers: { authorization: `Bearer ${token}` }, agent: false, signal }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers['retry-after'],
          body: Buffer.concat(chunks).toString('utf8'),
          ms: performance.now() - started,
        }),
      );
    });
    req.on('error', reject);
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

function serve(engine: Engine, admission: ListServerOptions['admission']) {
  return createListServer({ source: engine.source, clientExists: async () => true, admission, authToken: 'load-control' });
}

/** Statements sent since the last look: page and count statements, and each page statement as sent. */
interface Tally {
  pages: number;
  counts: number;
  sent: string[];
}

/** An engine's `statements()` and `sentPages()` over its tally: what was sent since the last `statements()`. */
function tallyReaders(tally: Tally): Pick<Engine, 'statements' | 'sentPages'> {
  return {
    sentPages: () => [...tally.sent],
    statements: () => {
      const seen = { pages: tally.pages, counts: tally.counts };
      tally.pages = tally.counts = 0;
      tally.sent = [];
      return seen;
    },
  };
}

/** Counts the statements a runner sends, by what they read. */
function counting<T extends unknown[], R>(run: (sql: string, ...rest: T) => R, tally: Tally) {
  return (sql: string, ...rest: T): R => {
    if (/COUNT\(\*\)/.test(sql)) tally.counts++;
    else if (/FROM "?`?employees/.test(sql) && !/pg_|KILL|BEGIN/.test(sql)) {
      tally.pages++;
      tally.sent.push(`${new Date().toISOString()} ${sql.slice(0, 160)} ${JSON.stringify(rest[0] ?? null).slice(0, 120)}`);
    }
    return run(sql, ...rest);
  };
}

async function postgresEngine(): Promise<Engine> {
  const server = await startPostgresServer();
  const app = 'wepql-load-control';
  const pool = new pg.Pool({ connectionString: server.url, max: 6, application_name: app });
  const other = new pg.Pool({ connectionString: server.url, max: 2 });
  const query = (sql: string, params: unknown[]) => pool.query(sql, params);
  await createPostgresTable(
    { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' },
    { replace: true },
  );
  await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees.slice(0, 400));
  const tally: Tally = { pages: 0, counts: 0, sent: [] };
  // The source sees the pool through a wrapper that counts what it sends (connections pass their statements through too).
  const counted = {
    options: { max: 6 },
    query: counting((sql: string, params: unknown[]) => pool.query(sql, params), tally),
    connect: async () => {
      const client = await pool.connect();
      return {
        query: counting((sql: string, params?: unknown[]) => client.query(sql, params), tally),
        release: (destroy?: Error | boolean) => client.release(destroy),
      };
    },
  };
  const source = createPostgresDataSource({
    pool: counted,
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    foldCollation: 'C',
    ...SCOPE,
  });
  return {
    source,
    ...tallyReaders(tally),
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
        [app],
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

async function mariadbEngine(): Promise<Engine> {
  const server = await startMariadbServer();
  const config = { host: server.host, port: server.port, user: server.user, database: server.database, charset: 'UTF8MB4_GENERAL_CI' };
  const pool = mysql.createPool({ ...config, connectionLimit: 6 });
  const other = await mysql.createConnection(config);
  const watcher = await mysql.createConnection(config);
  const run = async (sql: string, params: unknown[]) =>
    (params.length === 0 ? await pool.query(sql) : await pool.execute(sql, params as never[]))[0];
  await createMysqlTable({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
  await insertMysqlRecords({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees.slice(0, 400));
  const tally: Tally = { pages: 0, counts: 0, sent: [] };
  const counted = {
    pool: { config: { connectionLimit: 6 } },
    execute: counting((sql: string, params: unknown[]) => pool.execute(sql, params as never[]), tally),
    query: (sql: string) => pool.query(sql),
    getConnection: async () => {
      const connection = await pool.getConnection();
      return {
        execute: counting((sql: string, params: unknown[]) => connection.execute(sql, params as never[]), tally),
        release: () => connection.release(),
        destroy: () => connection.destroy(),
        threadId: connection.threadId,
      };
    },
  };
  const source = createMysqlDataSource({
    pool: counted,
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    ...SCOPE,
  });
  return {
    source,
    ...tallyReaders(tally),
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

const engines: [string, boolean, () => Promise<Engine>][] = [
  ['PostgreSQL', findPostgresBin() !== undefined, postgresEngine],
  ['MariaDB', findMariadb() !== undefined, mariadbEngine],
];

for (const [name, available, start] of engines) {
  describe.skipIf(!available)(`load control on ${name}`, () => {
    let engine: Engine;
    beforeAll(async () => {
      engine = await start();
    }, 60_000);
    afterAll(async () => engine?.close());

    it('deadline: a statement still waiting at its deadline is stopped on the server and answered 503 with Retry-After', async () => {
      const app = serve(engine, { deadlineMs: 700 });
      const { url } = await app.listen();
      const release = await engine.lock();
      try {
        const answer = await get(url, 'limit=5&sort=LastName%3DAsc', app.authToken);
        expect(answer.status).toBe(503);
        expect(answer.body).toMatch(BUSY);
        expect(answer.retryAfter).toBe(BUSY.exec(answer.body)![1]);
        expect(answer.ms).toBeLessThan(3_000);
        // The statements carried the deadline (statement_timeout / max_statement_time) or were cancelled: none is left.
        expect(await until(async () => (await engine.running()) === 0, 3_000)).toBe(true);
      } finally {
        await release();
        await app.close();
      }
    });

    it("cancellation: a client that disconnects cancels its running statements (gone from the server's activity list)", async () => {
      const app = serve(engine, { deadlineMs: 30_000 });
      const { url } = await app.listen();
      const release = await engine.lock();
      try {
        const leaving = new AbortController();
        const request = get(url, 'limit=5&sort=FirstName%3DDesc', app.authToken, leaving.signal).catch((e: Error) => e);
        expect(await until(async () => (await engine.running()) >= 2, 5_000)).toBe(true);
        leaving.abort();
        expect(await request).toBeInstanceOf(Error);
        // Well before the 30 s deadline and with the lock still held, the count and the page are cancelled.
        expect(await until(async () => (await engine.running()) === 0, 3_000)).toBe(true);
      } finally {
        await release();
        await app.close();
      }
    });

    it.each(['Fastify', 'Express'])(
      "cancellation through %s: a client that disconnects cancels its running statements (gone from the server's activity list)",
      async (framework) => {
        const handler = { source: engine.source, schema: employeeSchema, codec: createTokenCodec({ secret: 'c'.repeat(32) }) };
        const route = '/api/public/clients/:client_id/employees';
        let url: string;
        let close: () => Promise<void>;
        if (framework === 'Fastify') {
          const app = Fastify();
          app.get(route, fastifyList({ ...handler, admission: { deadlineMs: 30_000 } }));
          url = await app.listen({ host: '127.0.0.1', port: 0 });
          close = () => app.close();
        } else {
          const app = express();
          app.get(route, expressList({ ...handler, admission: { deadlineMs: 30_000 } }));
          const server = app.listen(0, '127.0.0.1');
          await new Promise((resolve) => server.once('listening', resolve));
          url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
          close = () => new Promise((resolve) => server.close(() => resolve()));
        }
        const release = await engine.lock();
        try {
          const leaving = new AbortController();
          const request = get(url, 'limit=5&sort=FirstName%3DAsc', 'none', leaving.signal).catch((e: Error) => e);
          expect(await until(async () => (await engine.running()) >= 2, 5_000)).toBe(true);
          leaving.abort();
          expect(await request).toBeInstanceOf(Error);
          // Well before the 30 s deadline and with the lock still held, the count and the page are cancelled.
          expect(await until(async () => (await engine.running()) === 0, 3_000)).toBe(true);
        } finally {
          await release();
          await close();
        }
      },
    );

    it('shedding: a burst larger than the queue is answered at once (503, Retry-After, the exact body), never left waiting', async () => {
      const app = serve(engine, { concurrency: 1, queue: 2, maxWaitMs: 800, deadlineMs: 5_000 });
      const { url } = await app.listen();
      const release = await engine.lock();
      try {
        const burst = await Promise.all(
          Array.from({ length: 12 }, (_, i) => get(url, `limit=5&filter=EmployeeNumber.GreaterThan(${i})`, app.authToken)),
        );
        const refused = burst.filter((a) => a.status === 503);
        // One slot, two places per class: at most one request runs, and it waits for the lock, so every request is refused.
        expect(refused.length).toBe(12);
        for (const a of refused) {
          expect(a.body).toMatch(BUSY);
          expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1);
        }
        // Those that found the queue full were refused at once; those queued, at their wait; the running one at its deadline.
        expect(burst.filter((a) => a.ms < 500).length).toBeGreaterThanOrEqual(8);
        expect(Math.max(...burst.map((a) => a.ms))).toBeLessThan(6_500);
      } finally {
        await release();
        await app.close();
      }
      expect(await until(async () => (await engine.running()) === 0, 3_000)).toBe(true);
    });

    it('single-flight: identical concurrent first pages run one count and one page statement', { retry: 2 }, async () => {
      const app = serve(engine, { deadlineMs: 10_000 });
      let arrived = 0;
      let released = '';
      app.server.on('request', () => arrived++);
      const { url } = await app.listen();
      const release = await engine.lock();
      engine.statements();
      let answers: Answer[];
      try {
        const same = Array.from({ length: 8 }, () => get(url, 'limit=7&sort=LastName%3DAsc&filter=Gender.Equal(1)', app.authToken));
        // All eight have arrived and wait behind the lock before it is released: counted as the server reads
        // them, then a moment for their handlers to join the first. A fixed 400 ms from the send was once too
        // short for the eighth on a loaded machine: it came after the release and ran a page of its own.
        expect(await until(async () => arrived === 8, 10_000)).toBe(true);
        await new Promise((r) => setTimeout(r, 200));
        released = new Date().toISOString();
        await release();
        answers = await Promise.all(same);
      } finally {
        await app.close();
      }
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((a) => JSON.stringify(JSON.parse(a.body).Data))).size).toBe(1);
      // Seen failing with two page statements after all eight had arrived. What this printed then named the
      // second: the rows of a shedding-case request answered 503, which the shared first-page work left queued
      // under its own ticket (src/list/admission.ts now closes that ticket when the work settles). A failure
      // still prints what was sent and when, also when a retry then passes.
      const sent = engine.sentPages();
      const counted = engine.statements();
      const message = `page statements sent:\n${sent.join('\n')}\nlock released ${released}`;
      if (counted.pages !== 1 || counted.counts !== 1) console.warn(`single-flight on ${name}: ${JSON.stringify(counted)}; ${message}`);
      expect(counted, message).toEqual({ pages: 1, counts: 1 });
    });
  });
}
