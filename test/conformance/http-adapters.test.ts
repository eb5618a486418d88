/**
 * grammar/corpus/list-http.json against the Express, Fastify and Hono
 * adapters, each in a small application of its real framework on
 * 127.0.0.1 (a bearer check as middleware, unknown clients refused through
 * `resolveClient`, data tokens living one second), over the memory source
 * and over SQL sources loaded from the shipped SQL files: PostgreSQL
 * (PGlite, employees.postgres.sql, one database for all three adapters)
 * and MariaDB (employees.mysql.sql, for one adapter). The expiry case, which waits out a
 * token, runs on the memory source only.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceEmployees, readCorpusFile } from '../../src/conformance/corpus.js';
import type { HttpCorpus } from '../../src/conformance/http-corpus.js';
import { runHttpCorpus } from '../../src/conformance/http.js';
import { textReport } from '../../src/conformance/results.js';
import { listHandler as expressList } from '../../src/frameworks/express.js';
import { listHandler as fastifyList } from '../../src/frameworks/fastify.js';
import { listHandler as honoList } from '../../src/frameworks/hono.js';
import type { ListRouteOptions } from '../../src/frameworks/list-route.js';
import type { DataSource } from '../../src/list/data-source.js';
import { createTokenCodec } from '../../src/list/token.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, employeePostgresSource, EMPLOYEE_TABLE, RECORD_COLUMN } from '../../src/sample/employees.js';
import { createMemoryDataSource } from '../../src/sources/memory-source.js';
import { createMysqlDataSource } from '../../src/sources/mysql-source.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb } from '../support/mariadb-server.js';
import { createPglite } from '../support/sql-pglite.js';

const corpus = readCorpusFile<HttpCorpus>('list-http.json');
const TOKEN = 'conformance-bearer';
const ROUTE = '/api/public/clients/:client_id/employees';
const UNAUTHORIZED = { 'www-authenticate': 'Bearer error="invalid_token"' };
const sqlFile = (name: string) => readFileSync(new URL(`../../grammar/corpus/dataset/${name}`, import.meta.url), 'utf8');
/** The statements of a generated SQL file (no value in the dataset holds ";\n"). */
const statements = (sql: string) =>
  sql
    .split(/;\n/)
    .map((s) => s.replace(/^(--[^\n]*\n)+/, '').trim())
    .filter((s) => s !== '');

interface ServedSource {
  readonly source: DataSource;
  readonly clientExists: (id: number) => Promise<boolean>;
  close(): Promise<void>;
}

async function memorySource(): Promise<ServedSource> {
  const records = conformanceEmployees();
  const clients = new Set(records.map((r) => r['ClientId']));
  return {
    source: createMemoryDataSource(records, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' }),
    clientExists: async (id) => clients.has(id),
    close: async () => {},
  };
}

async function pgliteSource(): Promise<ServedSource> {
  const db = await createPglite();
  await db.exec(sqlFile('employees.postgres.sql'));
  const query = (sql: string, params: unknown[]) => db.query(sql, params);
  const { foldCollation } = await chooseFoldCollation(query);
  return { ...employeePostgresSource(query, foldCollation), close: () => db.close() };
}

async function mariadbSource(): Promise<ServedSource> {
  const engine = await startMariadb();
  for (const s of statements(sqlFile('employees.mysql.sql'))) await engine.run(s);
  const run = (sql: string, params: unknown[]) => engine.rows(sql, params);
  const source = createMysqlDataSource({
    run,
    table: EMPLOYEE_TABLE,
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: RECORD_COLUMN,
    ...EMPLOYEE_SCOPE,
  });
  const clientExists = async (id: number) =>
    (await engine.rows(`SELECT 1 FROM ${EMPLOYEE_TABLE} WHERE ClientId = ? LIMIT 1`, [id])).length > 0;
  return { source, clientExists, close: () => engine.close() };
}

function routeOptions(served: ServedSource): ListRouteOptions {
  return {
    source: served.source,
    schema: employeeSchema,
    codec: createTokenCodec({ secret: 'conformance secret, 16+ bytes', ttlSeconds: 1 }),
    resolveClient: async (raw) => (/^\d{1,9}$/.test(raw) && (await served.clientExists(Number(raw))) ? Number(raw) : undefined),
  };
}

const bearerOk = (header: string | undefined) => header === `Bearer ${TOKEN}`;

type Started = { url: string; close(): Promise<void> };

const closeServer = (server: import('node:http').Server) =>
  new Promise<void>((resolve, reject) => {
    server.close((e) => (e ? reject(e) : resolve()));
    server.closeIdleConnections();
  });

async function startExpress(options: ListRouteOptions): Promise<Started> {
  const app = express();
  app.get(
    ROUTE,
    (req, res, next) => (bearerOk(req.get('authorization')) ? next() : res.status(401).set(UNAUTHORIZED).end()),
    expressList(options),
  );
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

async function startFastify(options: ListRouteOptions): Promise<Started> {
  const app = Fastify();
  app.addHook('onRequest', async (request, reply) => {
    if (!bearerOk(request.headers.authorization)) return reply.code(401).headers(UNAUTHORIZED).send();
  });
  app.get(ROUTE, fastifyList(options));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function startHono(options: ListRouteOptions): Promise<Started> {
  const app = new Hono();
  app.use(ROUTE, async (c, next) => {
    if (!bearerOk(c.req.header('authorization'))) return c.body(null, 401, UNAUTHORIZED);
    await next();
  });
  app.get(ROUTE, honoList(options));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => closeServer(server as import('node:http').Server),
  };
}

const ADAPTERS = { Express: startExpress, Fastify: startFastify, Hono: startHono } as const;
const mariadb = findMariadb() !== undefined;
const RUNS: readonly { adapter: keyof typeof ADAPTERS; source: string; open: () => Promise<ServedSource>; available: boolean }[] = [
  ...(['Express', 'Fastify', 'Hono'] as const).flatMap((adapter) => [
    { adapter, source: 'memory', open: memorySource, available: true },
    { adapter, source: 'PostgreSQL (PGlite, employees.postgres.sql)', open: pgliteSource, available: true },
  ]),
  { adapter: 'Fastify', source: 'MariaDB (employees.mysql.sql)', open: mariadbSource, available: mariadb },
];

const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

// One database per source for the whole file: starting PGlite costs seconds, and the cases only read.
const opened = new Map<() => Promise<ServedSource>, Promise<ServedSource>>();
function openOnce(open: () => Promise<ServedSource>): Promise<ServedSource> {
  if (!opened.has(open)) {
    const served = open();
    opened.set(open, served);
    closers.push(async () => (await served).close());
  }
  return opened.get(open)!;
}

describe.each(RUNS)('list-http.json on the $adapter adapter over $source', ({ adapter, source, open, available }) => {
  it.skipIf(!available)(
    'passes every case',
    async () => {
      const served = await openOnce(open);
      const app = await ADAPTERS[adapter](routeOptions(served));
      closers.push(() => app.close());
      const results = await runHttpCorpus(corpus, {
        url: `${app.url}/api/public/${corpus.routes.list}`,
        token: TOKEN,
        tokenTtlSeconds: 1,
        excludeTags: source === 'memory' ? [] : ['expiry'],
      });
      const failed = results.filter((r) => r.outcome === 'fail');
      expect(failed, textReport(failed)).toEqual([]);
      expect(results.filter((r) => r.outcome === 'pass').length).toBe(corpus.cases.length - (source === 'memory' ? 0 : 1));
      // The first run on a source starts its database (PGlite or MariaDB): seconds, or minutes on a loaded machine.
    },
    240_000,
  );
});
