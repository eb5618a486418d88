/**
 * `wepql db-seed --shards` and `wepql db-index --shards`, the built CLI,
 * on the run's sharded topology (a coordinator and two shard clusters,
 * test/support/topology-host.ts): the table they lay out is the one
 * docs/server.md "Scaling out" describes — each partition a `postgres_fdw`
 * foreign table on its shard, with stored folded twins and the advised
 * indexes on the shard — and a source with `foldedColumns` reads it with
 * the same results as the memory source, each page shipped to one shard.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilterOrThrow, analyzeSortOrThrow } from '../../src/index.js';
import { createMemoryDataSource, createPostgresDataSource } from '../../src/sources/index.js';
import type { DataQuery } from '../../src/list/index.js';
import type { SqlRunner } from '../../src/sources/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { generatedEmployee } from '../../src/sample/generate-employees.js';
import { topologyUnavailable } from '../../scripts/topology/clusters.mjs';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import { builtCli } from '../support/srv-cli.js';
import type { TopologyDatabases } from '../support/topology-host.js';
import { tempDirs } from '../support/temp-dirs.js';

const filtersDir = tempDirs('wepql-shard-filters-');

const unavailable = topologyUnavailable('shards');
if (unavailable !== undefined) console.warn(`SKIPPED: wepql db-seed/db-index --shards — ${unavailable}`);

/**
 * The built CLI's `runWepql`, called in this process (test/support/srv-cli.ts): the shipped code, its output and exit
 * code, without a Node start per command; DATABASE_URL is cleared so only the flags name a database.
 */
const cli = builtCli;

const ROWS = 3000;

describe.skipIf(unavailable !== undefined)('wepql db-seed --shards and db-index --shards on a coordinator with two shards', () => {
  let t: TopologyDatabases;
  let coordinator: pg.Pool;
  let shards: pg.Pool[];
  let coordinatorUrl: string;
  let shardList: string;
  beforeAll(async () => {
    t = await createTopologyDatabases('shards');
    coordinatorUrl = topologyUrl(t, 'coordinator');
    shardList = `${topologyUrl(t, 'shard0')},${topologyUrl(t, 'shard1')}`;
    coordinator = new pg.Pool({ connectionString: coordinatorUrl, max: 2 });
    shards = ['shard0', 'shard1'].map((role) => new pg.Pool({ connectionString: topologyUrl(t, role), max: 2 }));
  }, 180_000);
  afterAll(async () => {
    await coordinator?.end();
    for (const s of shards ?? []) await s.end();
    if (t !== undefined) await dropTopologyDatabases(t);
  });

  it('refuses --shards with --partitions, an empty entry, and --counts', async () => {
    const both = await cli(['db-seed', '--database-url', coordinatorUrl, '--partitions', '2', '--shards', shardList]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --partitions N or --shards URL,URL, not both');
    const empty = await cli(['db-seed', '--database-url', coordinatorUrl, '--shards', `${topologyUrl(t, 'shard0')},`]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no empty entry');
    const counts = await cli(['db-index', '--shards', shardList, '--counts']);
    expect(counts.code).toBe(2);
    expect(counts.stderr).toContain('--counts cannot go with --shards');
  });

  it('db-index --shards before db-seed says there is no shard table', async () => {
    const r = await cli(['db-index', '--shards', shardList, '--sort', 'LastName=Asc']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/shard 0 \(127\.0\.0\.1:\d+\/\w+\) holds no "employees_p<i>" table: run wepql db-seed --shards first/);
  });

  it('seeds N rows through the coordinator onto the shards, indexes each shard, and a foldedColumns source reads it whole', async () => {
    const seeded = await cli(['db-seed', '--database-url', coordinatorUrl, '--rows', String(ROWS), '--shards', shardList]);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(/shard 0 \(127\.0\.0\.1:\d+\/\w+\): table "employees_p0", index on "ClientId", VACUUM ANALYZE/);
    expect(seeded.stdout).toMatch(/shard 1 \(127\.0\.0\.1:\d+\/\w+\): table "employees_p1", index on "ClientId", VACUUM ANALYZE/);
    expect(seeded.stdout).toContain('SET enable_partitionwise_aggregate = on');
    expect(seeded.stdout).toMatch(
      /created table "employees" in 2 hash partitions on "ClientId", partition i a postgres_fdw foreign table on shard i \(servers "employees_shard0", "employees_shard1"\), strings with stored folded twins .* with 3000 employees/,
    );

    // The rows are on the shards, split by client; the coordinator holds only foreign partitions.
    const onShard = await Promise.all(
      shards.map(async (s, i) => Number((await s.query(`SELECT count(*) AS n FROM employees_p${i}`)).rows[0].n)),
    );
    expect(onShard[0]! + onShard[1]!).toBe(ROWS);
    expect(Math.min(...onShard)).toBeGreaterThan(0);
    const kinds = await coordinator.query(
      `SELECT c.relname, c.relkind FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'employees'::regclass ORDER BY 1`,
    );
    expect(kinds.rows).toEqual([
      { relname: 'employees_p0', relkind: 'f' },
      { relname: 'employees_p1', relkind: 'f' },
    ]);
    const folded = await shards[0]!.query(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'employees_p0' AND column_name = 'LastName_folded'`,
    );
    expect(folded.rows).toHaveLength(1);

    // Printed, then applied: the advised indexes over the folded columns, on each shard's table.
    const filters = join(filtersDir(), 'filters.txt');
    writeFileSync(filters, 'LastName.StartsWith(Sm)\nGender.Equal(1)\n');
    const args = ['--shards', shardList, '--sort', 'LastName=Asc', '--sort', 'BirthOn=Desc', '--filters', filters];
    const printed = await cli(['db-index', ...args]);
    expect(printed.code, printed.stderr).toBe(0);
    expect(printed.stdout).toMatch(/^-- shard 0 \(.*\): table "employees_p0"$/m);
    expect(printed.stdout).toMatch(/^-- shard 1 \(.*\): table "employees_p1"$/m);
    expect(printed.stdout).toMatch(/CREATE INDEX .* ON "employees_p1" .*"LastName_folded"/);
    const applied = await cli(['db-index', '--database-url', coordinatorUrl, ...args, '--apply']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain('ANALYZE "employees";  -- on the coordinator');
    for (const [i, s] of shards.entries()) {
      const indexes = await s.query(`SELECT indexdef FROM pg_indexes WHERE tablename = $1`, [`employees_p${i}`]);
      const defs = indexes.rows.map((r: { indexdef: string }) => r.indexdef);
      expect(
        defs.some((d) => /\("ClientId", "LastName_folded"/.test(d)),
        defs.join('\n'),
      ).toBe(true);
    }

    // Read through the coordinator as docs/server.md says: the same rows as the memory source, each page from one shard.
    const records = Array.from({ length: ROWS }, (_, i) => generatedEmployee(i + 1));
    const scope = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;
    const memory = createMemoryDataSource(records, { schema: employeeSchema, tieBreaker: 'Id', ...scope });
    const plans: string[] = [];
    const query: SqlRunner = async (sql, params) => {
      const plan = await coordinator.query(`EXPLAIN (VERBOSE, FORMAT TEXT) ${sql}`, params);
      plans.push(plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n'));
      return coordinator.query(sql, params);
    };
    const { foldCollation } = await chooseFoldCollation((sql, params) => coordinator.query(sql, params));
    const sharded = createPostgresDataSource({
      query,
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...(foldCollation === undefined ? {} : { foldCollation }),
      foldedColumns: true,
      ...scope,
    });
    const client = records[0]!['ClientId'] as number;
    const q: DataQuery = {
      clientId: client,
      includeDeleted: false,
      filter: analyzeFilterOrThrow('LastName.StartsWith(s)', { schema: employeeSchema }),
      sort: analyzeSortOrThrow('LastName=Asc', { schema: employeeSchema }),
    };
    const total = await memory.count(q);
    expect(total).toBeGreaterThan(20);
    expect(await sharded.count(q)).toBe(total);
    expect(await sharded.page(q, { offset: 0, limit: 10 })).toEqual(await memory.page(q, { offset: 0, limit: 10 }));
    expect(await sharded.page(q, { offset: 10, limit: 10 })).toEqual(await memory.page(q, { offset: 10, limit: 10 }));
    for (const plan of plans) {
      // One partition: every foreign scan (a jump has two, keys then rows) reads the client's shard, the filter in its Remote SQL.
      const scanned = new Set([...plan.matchAll(/(?:Foreign Scan on|Aggregate on \() ?public\.(employees_p\d+)/g)].map((m) => m[1]));
      expect(scanned.size, plan).toBe(1);
      expect(plan, plan).toMatch(/Remote SQL: SELECT .* WHERE .*"LastName_folded" ~~ 's%'/);
    }
    expect(plans.filter((p) => /Remote SQL: .*ORDER BY "LastName_folded"/.test(p))).toHaveLength(2);
  }, 240_000);
});
