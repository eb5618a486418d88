/**
 * The test run's shared database servers, seen from a test file.
 *
 * Starting PostgreSQL (`initdb`) or MariaDB (`mariadb-install-db`) costs
 * seconds of CPU each; a run that let every file start its own paid that a
 * dozen times. The vitest global setup (test/global-setup.ts) therefore
 * keeps ONE server per engine for the whole run, started the first time a
 * file asks for it, and hands each file a database of its own on it, so
 * files stay isolated from each other. The setup listens on a loopback
 * port and passes its address through vitest's `provide`/`inject` (or the
 * `WEPQL_TEST_SERVERS` environment variable, for a run that wants to share
 * one coordinator by hand).
 *
 * Outside a vitest run with that setup (no address), `sharedServersAddress`
 * is undefined and the start functions of postgres-server.ts and
 * mariadb-server.ts start a private server as they always did.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { installPackedWepql } from './packed-install.js';
import type { TopologyDatabases, TopologyName } from './topology-host.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the shared-server coordinator. */
    wepqlTestServers: string;
  }
}

/** The engines the coordinator serves. */
export type SharedEngine = 'postgres' | 'mariadb';

/**
 * A database created for one test file on a shared server.
 *
 * @example
 * const db: SharedDatabase = await createSharedDatabase('postgres');
 */
export interface SharedDatabase {
  readonly engine: SharedEngine;
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The user to connect as (`postgres` or `root`, no password, loopback only). */
  readonly user: string;
  /** The database created for this caller, empty. */
  readonly database: string;
}

/**
 * The coordinator's address, or undefined when the run has none.
 *
 * @example
 * sharedServersAddress(); // 'http://127.0.0.1:41234' under `vitest run`
 */
export function sharedServersAddress(): string | undefined {
  const fromEnv = process.env['WEPQL_TEST_SERVERS'];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  try {
    const provided = inject('wepqlTestServers');
    return typeof provided === 'string' && provided !== '' ? provided : undefined;
  } catch {
    // Not inside a vitest worker (a script importing this file).
    return undefined;
  }
}

async function call(path: string, body: object): Promise<unknown> {
  const address = sharedServersAddress();
  if (address === undefined) throw new Error('no shared-server coordinator in this run');
  const response = await fetch(`${address}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { error?: string };
  if (!response.ok) throw new Error(`shared ${path} failed: ${answer.error ?? response.status}`);
  return answer;
}

/**
 * Asks the coordinator for a new empty database on the run's server of
 * `engine`, starting that server if this is the first request.
 *
 * @example
 * const db = await createSharedDatabase('mariadb'); // { database: 'wepql_3', port: 40123, … }
 */
export async function createSharedDatabase(engine: SharedEngine): Promise<SharedDatabase> {
  return (await call(`/${engine}/create`, { owner: process.pid })) as SharedDatabase;
}

/**
 * Drops a database made by `createSharedDatabase` (closing its sessions on
 * PostgreSQL); the server keeps running for other files.
 *
 * @example
 * await dropSharedDatabase(db);
 */
export async function dropSharedDatabase(db: SharedDatabase): Promise<void> {
  await call(`/${db.engine}/drop`, { database: db.database });
}

/**
 * Asks the coordinator for databases of this file's own on a topology of
 * scripts/topology/clusters.mjs (test/support/topology-host.ts), starting
 * the topology if this is the first request of the run; `options.poolSize`
 * picks the pgbouncer (transaction mode, that many server connections).
 *
 * @example
 * const t = await createTopologyDatabases('shards'); // { database, ports: { coordinator, shard0, shard1 } }
 */
export async function createTopologyDatabases(
  topology: TopologyName,
  options: { readonly poolSize?: number } = {},
): Promise<TopologyDatabases> {
  return (await call(`/topology/${topology}/create`, options)) as TopologyDatabases;
}

/**
 * Drops the databases `createTopologyDatabases` made; the topology keeps running for other files.
 *
 * @example
 * await dropTopologyDatabases(t);
 */
export async function dropTopologyDatabases(t: TopologyDatabases): Promise<void> {
  await call(`/topology/${t.topology}/drop`, { database: t.database });
}

/**
 * The URL of a topology database on one of its servers.
 *
 * @example
 * topologyUrl(t, 'shard0'); // 'postgres://postgres@127.0.0.1:40123/wepql_7_3'
 */
export function topologyUrl(t: TopologyDatabases, role: string): string {
  const port = t.ports[role];
  if (port === undefined) throw new Error(`topology ${t.topology} has no ${role}`);
  return `postgres://postgres@127.0.0.1:${port}/${t.database}`;
}

/**
 * The run's installed package (test/support/packed-install.ts): the
 * coordinator packs and installs on the first request and answers every
 * later one with the same app folder, so a run pays for `npm pack` and
 * `npm install` once. Outside a run with a coordinator it installs into a
 * temporary folder of its own. Files use the app at the same time: one that
 * changes what is installed works on a copy (adding a file of its own is fine).
 *
 * @example
 * const app = await sharedPackedApp(); // join(app, 'node_modules', 'wepql') is the package
 */
export async function sharedPackedApp(): Promise<string> {
  if (sharedServersAddress() === undefined) return installPackedWepql(mkdtempSync(join(tmpdir(), 'wepql-pack-')));
  return ((await call('/packed/create', {})) as { app: string }).app;
}
