/**
 * The HTTP list contract on each topology past one server: the conformance
 * dataset seeded with the built `wepql db-seed --conformance` (with
 * `--shards` on the sharded one), served by the reference server
 * (`createListServer`) from a PostgreSQL source laid out as docs/server.md
 * "Scaling out" says, and every case of grammar/corpus/list-http.json run
 * against it over real HTTP by the built `wepql conformance --url` (the
 * bundled CLI called in this process, test/support/srv-cli.ts):
 *
 * - through pgbouncer in transaction mode (two server connections);
 * - on a primary and its streaming hot standby (first pages on the primary,
 *   token pages and jumps on the standby);
 * - on a coordinator whose partitions are `postgres_fdw` foreign tables on
 *   two shards (`foldedColumns`).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDataSource } from '../../src/sources/index.js';
import type { SqlRunner } from '../../src/sources/index.js';
import { readCorpusFile } from '../../src/conformance/corpus.js';
import type { HttpCorpus } from '../../src/conformance/http-corpus.js';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { topologyUnavailable, waitForReplay } from '../../scripts/topology/clusters.mjs';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import { builtCli } from '../support/srv-cli.js';
import type { TopologyDatabases, TopologyName } from '../support/topology-host.js';

const corpus = readCorpusFile<HttpCorpus>('list-http.json');
const TOKEN = 'topology-conformance-token';
const SCOPE = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;

/**
 * The built CLI, run in this process (the server it reaches lives here too): a tool of the test, not the thing tested;
 * DATABASE_URL is cleared so only the flags name a database.
 */
const cli = builtCli;

interface Served {
  /** Reads the rows (a replica, the pooler, the coordinator). */
  readonly query: SqlRunner;
  /** Reads first pages, when reads are split. */
  readonly primary?: SqlRunner;
  readonly foldedColumns?: boolean;
}

/** Seeds the topology's databases and says how the server reads them; the pools it opens go in `pools`. */
async function prepare(name: TopologyName, t: TopologyDatabases, pools: pg.Pool[]): Promise<Served> {
  const pool = (role: string) => {
    const p = new pg.Pool({ connectionString: topologyUrl(t, role), max: 4 });
    // A standby ends an idle session that holds what replay needs (FATAL 40001); the pool drops that client.
    p.on('error', () => {});
    pools.push(p);
    return p;
  };
  const run =
    (p: pg.Pool): SqlRunner =>
    (sql, params) =>
      p.query(sql, params);
  if (name === 'pgbouncer') {
    // Seeded directly (db-seed sets synchronous_commit for its session), served through the pooler.
    const seeded = await cli(['db-seed', '--conformance', '--database-url', topologyUrl(t, 'direct')]);
    expect(seeded.code, seeded.stderr).toBe(0);
    return { query: run(pool('bouncer')) };
  }
  if (name === 'replica') {
    const seeded = await cli(['db-seed', '--conformance', '--database-url', topologyUrl(t, 'primary')]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const primary = pool('primary');
    const standby = pool('standby');
    await waitForReplay(
      (sql) => primary.query(sql),
      (sql) => standby.query(sql),
    );
    return { query: run(standby), primary: run(primary) };
  }
  const shards = `${topologyUrl(t, 'shard0')},${topologyUrl(t, 'shard1')}`;
  const seeded = await cli(['db-seed', '--conformance', '--database-url', topologyUrl(t, 'coordinator'), '--shards', shards]);
  expect(seeded.code, seeded.stderr).toBe(0);
  expect(seeded.stdout).toContain('postgres_fdw foreign table on shard i');
  return { query: run(pool('coordinator')), foldedColumns: true };
}

const TOPOLOGIES: readonly [TopologyName, string][] = [
  ['pgbouncer', 'through pgbouncer in transaction mode'],
  ['replica', 'on a primary and a streaming hot standby (reads split)'],
  ['shards', 'on a coordinator with two postgres_fdw shards (foldedColumns)'],
];

for (const [name, title] of TOPOLOGIES) {
  const unavailable = topologyUnavailable(name);
  if (unavailable !== undefined) console.warn(`SKIPPED: the HTTP list contract ${title} — ${unavailable}`);

  describe.skipIf(unavailable !== undefined)(`the HTTP list contract (wepql conformance --url) ${title}`, () => {
    let t: TopologyDatabases | undefined;
    const pools: pg.Pool[] = [];
    let app: ListServer | undefined;
    let url = '';
    beforeAll(async () => {
      t = await createTopologyDatabases(name, { poolSize: 2 });
      const served = await prepare(name, t, pools);
      const { foldCollation } = await chooseFoldCollation(served.primary ?? served.query);
      const source = createPostgresDataSource({
        query: served.query,
        ...(served.primary === undefined ? {} : { primary: served.primary }),
        table: 'employees',
        schema: employeeSchema,
        tieBreaker: 'Id',
        recordColumn: 'Record',
        ...(foldCollation === undefined ? {} : { foldCollation }),
        ...(served.foldedColumns === true ? { foldedColumns: true } : {}),
        ...SCOPE,
      });
      const clientExists = async (id: number) =>
        (await served.query('SELECT 1 FROM employees WHERE "ClientId" = $1 LIMIT 1', [id])).rows.length > 0;
      app = createListServer({ source, clientExists, authToken: TOKEN, ttlSeconds: 1 });
      ({ url } = await app.listen());
    }, 240_000);
    afterAll(async () => {
      await app?.close();
      for (const p of pools) await p.end();
      if (t !== undefined) await dropTopologyDatabases(t);
    });

    it(`passes every case of list-http.json (${corpus.cases.length})`, async () => {
      const r = await cli(['conformance', '--url', `${url}/api/public/clients/1/employees`, '--token', TOKEN, '--token-ttl', '1']);
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toContain(`${corpus.cases.length} cases: ${corpus.cases.length} passed, 0 failed, 0 excluded`);
    }, 240_000);
  });
}
