/**
 * The "past one server" topologies of scripts/topology/clusters.mjs, kept
 * by the shared-server coordinator (server-coordinator.ts) for the whole
 * run: each starts the first time a test file asks for it and stops at the
 * end, and every file gets databases of its own on it, as on the shared
 * PostgreSQL server. Starting a cluster costs a data directory (a copy of
 * the coordinator's first `initdb`, clusters.mjs `initDataDirectory`) and a start
 * (a second or more of CPU, tens of seconds of wall time on a loaded
 * machine); the topology files used to start nine of them.
 *
 * - `pgbouncer`: pgbouncer in transaction mode in front of the run's shared
 *   PostgreSQL server, one per pool size asked for;
 * - `replica`: a primary and a streaming hot standby of its own
 *   (`max_standby_streaming_delay` 1 s, so replay cancels conflicting reads);
 * - `shards`: two shard clusters, with the run's shared PostgreSQL server as
 *   the coordinator.
 */
import pg from 'pg';
import {
  startCluster,
  startPgbouncer,
  startPrimaryWithStandby,
  waitForReplay,
  type Cluster,
  type Pgbouncer,
  type PrimaryWithStandby,
} from '../../scripts/topology/clusters.mjs';
import type { SharedDatabase } from './shared-servers.js';

/** The topologies the coordinator keeps. */
export type TopologyName = 'pgbouncer' | 'replica' | 'shards';

/**
 * What a file gets: `database` exists on every server listed (created empty).
 *
 * @example
 * const t: TopologyDatabases = { topology: 'shards', database: 'wepql_7_3', ports: { coordinator: 5433, shard0: 5434, shard1: 5435 } };
 */
export interface TopologyDatabases {
  readonly topology: TopologyName;
  readonly database: string;
  /** Loopback ports by role: `direct` and `bouncer`; `primary` and `standby`; `coordinator`, `shard0`, `shard1`. */
  readonly ports: Readonly<Record<string, number>>;
}

/**
 * Creates and drops databases on one topology.
 *
 * @example
 * const host = topologyHost(postgres); const t = await host.create('replica', {}); await host.drop('replica', t.database);
 */
export interface TopologyHost {
  create(topology: TopologyName, body: Record<string, unknown>): Promise<TopologyDatabases>;
  drop(topology: TopologyName, database: string): Promise<void>;
  stop(): Promise<void>;
}

/** The run's shared PostgreSQL server, as the coordinator hands out its databases. */
export interface SharedPostgres {
  create(): Promise<SharedDatabase>;
  drop(database: string): Promise<void>;
}

const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;

async function onServer<T>(port: number, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url(port, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The topologies of a run, over its shared PostgreSQL server.
 *
 * @example
 * const host = topologyHost({ create: () => postgres.create(), drop: (d) => postgres.drop(d) });
 */
export function topologyHost(postgres: SharedPostgres): TopologyHost {
  const bouncers = new Map<number, Promise<Pgbouncer>>();
  let pair: Promise<PrimaryWithStandby> | undefined;
  let shards: Promise<Cluster[]> | undefined;
  const shardDatabases = new Set<string>();
  const replicaDatabases = new Set<string>();
  let counter = 0;

  return {
    async create(topology, body): Promise<TopologyDatabases> {
      if (topology === 'pgbouncer') {
        const poolSize = Number(body['poolSize'] ?? 2);
        if (!(Number.isInteger(poolSize) && poolSize >= 1 && poolSize <= 20)) throw new Error(`poolSize ${String(body['poolSize'])}`);
        const db = await postgres.create();
        if (!bouncers.has(poolSize)) bouncers.set(poolSize, startPgbouncer({ port: db.port } as Cluster, { poolSize }));
        const bouncer = await bouncers.get(poolSize)!;
        return { topology, database: db.database, ports: { direct: db.port, bouncer: bouncer.port } };
      }
      if (topology === 'replica') {
        const running = await (pair ??= startPrimaryWithStandby());
        const database = `wepql_replica_${process.pid}_${++counter}`;
        await onServer(running.primary.port, (c) => c.query(`CREATE DATABASE "${database}"`));
        replicaDatabases.add(database);
        await onServer(running.primary.port, (p) =>
          onServer(running.standby.port, (s) =>
            waitForReplay(
              (sql) => p.query(sql),
              (sql) => s.query(sql),
            ),
          ),
        );
        return { topology, database, ports: { primary: running.primary.port, standby: running.standby.port } };
      }
      const clusters = await (shards ??= Promise.all([startCluster('shard0'), startCluster('shard1')]));
      const db = await postgres.create();
      for (const c of clusters) await onServer(c.port, (client) => client.query(`CREATE DATABASE "${db.database}"`));
      shardDatabases.add(db.database);
      return { topology, database: db.database, ports: { coordinator: db.port, shard0: clusters[0]!.port, shard1: clusters[1]!.port } };
    },
    async drop(topology, database) {
      if (topology === 'pgbouncer') return postgres.drop(database);
      if (topology === 'replica') {
        if (!replicaDatabases.delete(database)) throw new Error(`no replica database "${database}"`);
        const running = await pair!;
        await onServer(running.primary.port, (c) => c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
        return;
      }
      if (!shardDatabases.delete(database)) throw new Error(`no sharded database "${database}"`);
      // The coordinator first: its postgres_fdw sessions on the shards end with it.
      await postgres.drop(database);
      for (const c of await shards!) await onServer(c.port, (client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    },
    async stop() {
      const all = await Promise.allSettled([
        ...bouncers.values(),
        ...(pair === undefined ? [] : [pair]),
        ...(shards === undefined ? [] : [shards]),
      ]);
      for (const r of all) {
        if (r.status !== 'fulfilled') continue;
        const value = r.value;
        if (Array.isArray(value)) for (const c of value) c.stop();
        else value.stop();
      }
    },
  };
}
