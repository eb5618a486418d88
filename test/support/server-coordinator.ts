/**
 * The coordinator behind test/support/shared-servers.ts, run by vitest's
 * global setup in the main process: an HTTP server on a loopback port that
 * starts at most one PostgreSQL and one MariaDB for the whole run (the
 * first time a test file asks), creates a database per request, drops it
 * when the file is done, and stops both servers at the end of the run.
 *
 * Routes (POST, JSON bodies): `/postgres/create`, `/mariadb/create` →
 * a `SharedDatabase`; `/postgres/drop`, `/mariadb/drop` with
 * `{ database }` → `{}`; `/topology/<pgbouncer|replica|shards>/create`
 * → a `TopologyDatabases` and `/topology/<name>/drop` with `{ database }`
 * (topology-host.ts); `/packed/create` → `{ app }`, the packed package
 * installed into an app folder (packed-install.ts), made on the first
 * request and removed at the end of the run; `/browser/endpoint` →
 * `{ wsEndpoint }`, the run's Chromium (browser-host.ts), and
 * `/web/playground` → `{ dir, bytes }`, the run's playground build
 * (web-playground.ts), each started on the first request and stopped at the
 * end of the run. Errors answer 500 with `{ error }`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { browserHost } from './browser-host.js';
import { startPrivateMariadbServer, type MariadbServer } from './mariadb-server.js';
import { installPackedWepql } from './packed-install.js';
import { startPrivatePostgresServer, type PostgresServer } from './postgres-server.js';
import type { SharedDatabase, SharedEngine } from './shared-servers.js';
import { topologyHost, type TopologyName } from './topology-host.js';
import { playgroundHost } from './web-playground.js';

/**
 * A running coordinator.
 *
 * @example
 * const c = await startServerCoordinator(); project.provide('wepqlTestServers', c.address);
 */
export interface ServerCoordinator {
  /** `http://127.0.0.1:<port>` */
  readonly address: string;
  /** Stops the servers it started and closes the HTTP server. */
  close(): Promise<void>;
}

interface EngineHost {
  /** Starts the server now rather than on the first request. */
  start(): Promise<unknown>;
  create(): Promise<SharedDatabase>;
  drop(database: string): Promise<void>;
  stop(): Promise<void>;
}

// Database names come only from this counter: nothing a request sends is
// ever spliced into SQL (drop checks the name is one it made).
function namer(): { next(): string; made(name: string): boolean; forget(name: string): void } {
  const live = new Set<string>();
  let n = 0;
  return {
    next: () => {
      const name = `wepql_${process.pid}_${++n}`;
      live.add(name);
      return name;
    },
    made: (name) => live.has(name),
    forget: (name) => void live.delete(name),
  };
}

/** One task at a time: CREATE/DROP DATABASE must not race on the template. */
function serial(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = tail.then(task, task);
    tail = run.catch(() => undefined);
    return run;
  };
}

function postgresHost(): EngineHost {
  let server: Promise<PostgresServer> | undefined;
  const names = namer();
  const queue = serial();
  const start = (): Promise<PostgresServer> => (server ??= startPrivatePostgresServer());
  const admin = async <T>(work: (client: pg.Client) => Promise<T>): Promise<T> => {
    const running = await start();
    const client = new pg.Client({ connectionString: running.url });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    start,
    create: () =>
      queue(async () => {
        const database = names.next();
        await admin((c) => c.query(`CREATE DATABASE "${database}"`));
        const running = await server!;
        return { engine: 'postgres', host: '127.0.0.1', port: running.port, user: 'postgres', database };
      }),
    drop: (database) =>
      queue(async () => {
        if (!names.made(database)) throw new Error(`no shared PostgreSQL database "${database}"`);
        names.forget(database);
        await admin((c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
      }),
    async stop() {
      if (server !== undefined) await (await server).stop();
    },
  };
}

function mariadbHost(): EngineHost {
  let server: Promise<MariadbServer> | undefined;
  const names = namer();
  const queue = serial();
  const start = (): Promise<MariadbServer> => (server ??= startPrivateMariadbServer());
  const admin = async <T>(work: (c: mysql.Connection) => Promise<T>): Promise<T> => {
    const running = await start();
    const connection = await mysql.createConnection({ host: running.host, port: running.port, user: running.user });
    try {
      return await work(connection);
    } finally {
      await connection.end();
    }
  };
  return {
    start,
    create: () =>
      queue(async () => {
        const database = names.next();
        await admin((c) => c.query(`CREATE DATABASE \`${database}\``));
        const running = await server!;
        return { engine: 'mariadb', host: '127.0.0.1', port: running.port, user: running.user, database };
      }),
    drop: (database) =>
      queue(async () => {
        if (!names.made(database)) throw new Error(`no shared MariaDB database "${database}"`);
        names.forget(database);
        await admin((c) => c.query(`DROP DATABASE IF EXISTS \`${database}\``));
      }),
    async stop() {
      if (server !== undefined) await (await server).stop();
    },
  };
}

/** The packed install, made once on the first request (a failed attempt is not retried: every asker sees its error). */
function packedHost(): { app(): Promise<string>; stop(): void } {
  let dir: string | undefined;
  let app: Promise<string> | undefined;
  return {
    app: () => {
      if (app === undefined) {
        dir = mkdtempSync(join(tmpdir(), 'wepql-packed-run-'));
        app = installPackedWepql(dir);
      }
      return app;
    },
    stop: () => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  const value: unknown = text === '' ? {} : JSON.parse(text);
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  // One request per connection: a kept-alive socket that the server times out just as a
  // worker reuses it fails that worker's fetch with "other side closed".
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
}

/**
 * Starts the coordinator; no database server runs until a file asks, unless
 * `eager` (the whole suite, where files of both engines come soon): then
 * PostgreSQL starts at once and MariaDB after it (each start waits on
 * synchronous child processes, so two at once would take as long), and the
 * packed install beside them, while the first files run. A failed eager start is not retried: the files that
 * ask see its error, as they would have.
 *
 * @example
 * const c = await startServerCoordinator();
 * // … tests call createSharedDatabase('postgres') …
 * await c.close();
 */
export async function startServerCoordinator(options: { readonly eager?: boolean } = {}): Promise<ServerCoordinator> {
  const hosts: Record<SharedEngine, EngineHost> = { postgres: postgresHost(), mariadb: mariadbHost() };
  const topologies = topologyHost(hosts.postgres);
  const packed = packedHost();
  const browser = browserHost();
  const playground = playgroundHost();
  const web: Record<string, () => Promise<unknown>> = {
    '/browser/endpoint': async () => ({ wsEndpoint: await browser.endpoint() }),
    '/web/playground': () => playground.built(),
  };
  const http = createServer((req, res) => {
    const parts = (req.url ?? '').split('/');
    const webRoute = req.method === 'POST' && Object.hasOwn(web, req.url ?? '') ? web[req.url!] : undefined;
    if (webRoute !== undefined) {
      webRoute().then(
        (result) => answer(res, 200, result),
        (error: unknown) => answer(res, 500, { error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/packed/create') {
      packed.app().then(
        (app) => answer(res, 200, { app }),
        (error: unknown) => answer(res, 500, { error: error instanceof Error ? error.message : String(error) }),
      );
      return;
    }
    if (parts[1] === 'topology') {
      const [, , name, action] = parts;
      if (req.method !== 'POST' || !['pgbouncer', 'replica', 'shards'].includes(name!) || (action !== 'create' && action !== 'drop')) {
        answer(res, 404, { error: `no route ${req.method} ${req.url}` });
        return;
      }
      const topology = name as TopologyName;
      readJson(req)
        .then(async (body) =>
          action === 'create' ? topologies.create(topology, body) : topologies.drop(topology, String(body['database'])).then(() => ({})),
        )
        .then(
          (result) => answer(res, 200, result),
          (error: unknown) => answer(res, 500, { error: error instanceof Error ? error.message : String(error) }),
        );
      return;
    }
    const [, engine, action] = parts;
    const host = engine === 'postgres' || engine === 'mariadb' ? hosts[engine] : undefined;
    if (req.method !== 'POST' || host === undefined || (action !== 'create' && action !== 'drop')) {
      answer(res, 404, { error: `no route ${req.method} ${req.url}` });
      return;
    }
    readJson(req)
      .then(async (body) => {
        if (action === 'create') return host.create();
        await host.drop(String(body['database']));
        return {};
      })
      .then(
        (result) => answer(res, 200, result),
        (error: unknown) => answer(res, 500, { error: error instanceof Error ? error.message : String(error) }),
      );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  let closing = false;
  if (options.eager === true) {
    // After this turn of the event loop: the caller learns the address first.
    setImmediate(() => {
      if (closing) return;
      // The packed install (npm pack, npm install: asynchronous processes) beside them: two files wait for it,
      // and asked for on their first use, it kept both workers waiting about 10 s with a core idle.
      void packed.app().catch(() => undefined);
      void hosts.postgres
        .start()
        .catch(() => undefined)
        .then(() => (closing ? undefined : hosts.mariadb.start()))
        .catch(() => undefined);
    });
  }
  const address = http.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    address: `http://127.0.0.1:${port}`,
    async close() {
      closing = true;
      await new Promise<void>((resolve) => http.close(() => resolve()));
      // The topologies first: pgbouncer and the coordinator's shards lean on the shared PostgreSQL server.
      await topologies.stop().catch(() => {});
      await Promise.allSettled([hosts.postgres.stop(), hosts.mariadb.stop(), browser.stop(), playground.stop()]);
      packed.stop();
    },
  };
}
