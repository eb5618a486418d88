/**
 * Shards by client on other servers: a coordinator whose employees table is
 * `PARTITION BY HASH ("ClientId")` with each partition a `postgres_fdw`
 * foreign table on a cluster of its own (scripts/topology/clusters.mjs).
 * With `foldedColumns` every statement the data source sends is pruned to
 * one partition and shipped to its shard whole: EXPLAIN (VERBOSE) shows one
 * foreign scan whose Remote SQL holds the filter and the order, and no
 * local filter or sort above it; with `partitionOf` (the client's partition
 * named in each statement) the Remote SQL holds the page's LIMIT and the
 * jump's LIMIT and OFFSET too; and the list contract gives the same results
 * as on one server, routed or not.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilterOrThrow, analyzeSortOrThrow } from '../../src/index.js';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../src/sources/index.js';
import type { DataQuery, DataSource } from '../../src/list/index.js';
import type { SqlRunner } from '../../src/sources/index.js';
import { indexesFor } from '../../src/sql/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { FALLBACK_FOLD_COLLATION, findEmployeePartitions } from '../../src/sample/employees.js';
import { topologyUnavailable } from '../../scripts/topology/clusters.mjs';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import type { TopologyDatabases } from '../support/topology-host.js';
import { describeListContract, employees, SCOPE } from '../unit/list/list-contract.js';

const unavailable = topologyUnavailable('shards');
if (unavailable !== undefined) console.warn(`SKIPPED: shards on postgres_fdw — ${unavailable}`);

const SHARDS = 2;
const FOLD = FALLBACK_FOLD_COLLATION;

interface Sharded {
  readonly pools: readonly pg.Pool[];
  readonly query: SqlRunner;
  stop(): Promise<void>;
}

/** A coordinator and two shards (the run's, databases of this file's own) holding the sample employees, each shard with the advised indexes. */
async function startSharded(): Promise<Sharded> {
  const t: TopologyDatabases = await createTopologyDatabases('shards');
  // Counts group by the client, so the coordinator can ship the whole aggregate to the shard (a setting of the
  // database, not of a session: pgbouncer in front of the coordinator keeps no session settings).
  const setup = new pg.Client({ connectionString: topologyUrl(t, 'coordinator') });
  await setup.connect();
  await setup.query(`ALTER DATABASE "${t.database}" SET enable_partitionwise_aggregate = on`);
  await setup.end();
  const pools = ['coordinator', 'shard0', 'shard1'].map((role) => new pg.Pool({ connectionString: topologyUrl(t, role), max: 4 }));
  const runner =
    (p: pg.Pool): SqlRunner =>
    (sql, params) =>
      p.query(sql, params);
  const query = runner(pools[0]!);
  for (const p of pools) await p.query(`CREATE COLLATION IF NOT EXISTS ${FOLD} (provider = libc, locale = 'C.UTF-8')`);
  await query('CREATE EXTENSION IF NOT EXISTS postgres_fdw', []);
  await createPostgresTable(
    { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' },
    {
      replace: true,
      partitions: { field: 'ClientId', count: SHARDS },
      foldedColumns: { foldCollation: FOLD },
      shards: [0, 1].map((i) => ({
        query: runner(pools[i + 1]!),
        host: '127.0.0.1',
        port: t.ports[`shard${i}`]!,
        dbname: t.database,
        user: 'postgres',
      })),
    },
  );
  await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
  for (let i = 0; i < SHARDS; i++) {
    const indexes = indexesFor(employeeSchema, {
      dialect: 'postgres',
      table: `employees_p${i}`,
      clientField: 'ClientId',
      tieBreaker: 'Id',
      foldCollation: FOLD,
      foldedColumns: true,
      include: ['RowStatus'],
      sorts: ['LastName=Asc', 'LastName=Desc;FirstName=Asc', 'BirthOn=Desc', 'Gender=Desc;LastPaidOn=Asc'],
      filters: ["LastName.StartsWith('o''')", 'Gender.Equal(1)'],
    });
    for (const index of indexes) await pools[i + 1]!.query(index.sql);
    await pools[i + 1]!.query(`ANALYZE employees_p${i}`);
  }
  // The shards were written through the coordinator: their statistics reach it through ANALYZE of the foreign tables.
  await query('ANALYZE employees', []);
  return {
    pools,
    query,
    async stop() {
      for (const p of pools) await p.end();
      await dropTopologyDatabases(t);
    },
  };
}

type PartitionOf = NonNullable<Awaited<ReturnType<typeof findEmployeePartitions>>>;

const sourceOver = (query: SqlRunner, partitionOf?: PartitionOf): DataSource =>
  createPostgresDataSource({
    ...(partitionOf === undefined ? {} : { partitionOf }),
    query,
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    foldCollation: FOLD,
    foldedColumns: true,
    ...SCOPE,
  });

/** The catalogue's partition lookup for the coordinator's employees, which must find the layout. */
async function routeOf(query: SqlRunner): Promise<PartitionOf> {
  const partitionOf = await findEmployeePartitions(query);
  if (partitionOf === undefined) throw new Error('findEmployeePartitions did not find the partitioned-by-client foreign layout');
  return partitionOf;
}

/** The file's databases on the run's coordinator and shards, dropped after its last test. */
let shared: Promise<Sharded> | undefined;
const sharded = (): Promise<Sharded> => (shared ??= startSharded());
afterAll(async () => {
  await (await shared)?.stop();
});

if (unavailable === undefined) {
  // Starting the run's shard clusters (the first file to ask) and filling them takes longer than a hook's default on a busy machine.
  beforeAll(async () => {
    await sharded();
  }, 300_000);
  describeListContract('PostgreSQL coordinator with two postgres_fdw shards (foldedColumns)', async () => ({
    source: sourceOver((await sharded()).query),
  }));
  describeListContract('PostgreSQL coordinator with two postgres_fdw shards (foldedColumns, partitionOf)', async () => {
    const { query } = await sharded();
    return { source: sourceOver(query, await routeOf(query)) };
  });
}

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Remote SQL'?: string;
  readonly Filter?: string;
  readonly 'Actual Rows'?: number;
  readonly Plans?: readonly PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

/** A client of its own with 20,000 employees, enough that reading the whole client would show. */
const BIG_CLIENT = 7;
const BIG_ROWS = 20_000;

describe.skipIf(unavailable !== undefined)('every statement of a list request ships to one shard whole', () => {
  let query: SqlRunner;
  beforeAll(async () => {
    const s = await sharded();
    query = s.query;
    await query(
      `INSERT INTO employees ("Id", "ClientId", "RowStatus", "LastName", "FirstName", "Gender", "Record")
       SELECT 100000 + g, $1, 1 + g % 2, 'S' || (g * 7919 % $2), 'F' || (g % 97), 1 + g % 3, '{}'::json FROM generate_series(1, $2) g`,
      [BIG_CLIENT, BIG_ROWS],
    );
    for (let i = 0; i < SHARDS; i++) await s.pools[i + 1]!.query(`ANALYZE employees_p${i}`);
    await query('ANALYZE employees', []);
  }, 240_000);

  /** Runs each statement through EXPLAIN (VERBOSE) first and keeps its plan. */
  function explained(): { run: SqlRunner; plans: { sql: string; plan: PlanNode }[] } {
    const plans: { sql: string; plan: PlanNode }[] = [];
    return {
      plans,
      async run(sql, params) {
        const r = await query(`EXPLAIN (ANALYZE, VERBOSE, FORMAT JSON) ${sql}`, params);
        const raw = (r.rows[0] as Record<string, unknown>)['QUERY PLAN'];
        if (process.env.WEPQL_DUMP_PLANS) console.log(sql, JSON.stringify(raw, null, 1));
        plans.push({ sql, plan: ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[])[0]!.Plan });
        return query(sql, params);
      },
    };
  }

  const SORTED: DataQuery = {
    clientId: BIG_CLIENT,
    includeDeleted: false,
    filter: analyzeFilterOrThrow('LastName.StartsWith(s1);Gender.Equal(2)', { schema: employeeSchema }),
    sort: analyzeSortOrThrow('LastName=Desc;FirstName=Asc', { schema: employeeSchema }),
  };
  const PAGE = 25;

  interface Shipped {
    readonly remote: readonly string[];
    /** Rows each foreign scan handed to the coordinator. */
    readonly rows: readonly number[];
    /** Node types that worked on the coordinator besides reading the shard and stopping (Limit, Result, Aggregate). */
    readonly local: readonly string[];
  }

  function shipped(plan: PlanNode): Shipped {
    const all = nodes(plan);
    const scans = all.filter((n) => n['Node Type'] === 'Foreign Scan');
    return {
      remote: scans.map((n) => n['Remote SQL']!),
      rows: scans.map((n) => n['Actual Rows']!),
      local: all
        .filter((n) => n.Filter !== undefined || !['Foreign Scan', 'Limit', 'Result', 'Subquery Scan'].includes(n['Node Type']))
        .map((n) => n['Node Type']),
    };
  }

  it('first page, count, next-page, prev-page and a jump: one shard, the filter and the order in its Remote SQL, only the page crosses', async () => {
    await shipsWhole(undefined);
  });

  it("with partitionOf, the same and the LIMIT too: the page statements and the jump's keys (LIMIT and OFFSET) in the Remote SQL", async () => {
    await shipsWhole(await routeOf(query));
  });

  async function shipsWhole(partitionOf: PartitionOf | undefined): Promise<void> {
    const { run, plans } = explained();
    const source = sourceOver(run, partitionOf);
    const first = await source.keyedPage!(SORTED, { offset: 0, limit: PAGE });
    const total = await source.count(SORTED);
    expect(total).toBeGreaterThan(20 * PAGE);
    await source.keyedPage!(SORTED, { offset: PAGE, limit: PAGE, after: first.keys!.last });
    const jump = await source.keyedPage!(SORTED, { offset: 20 * PAGE, limit: PAGE });
    expect(jump.rows).toHaveLength(PAGE);
    const back = await source.keyedPage!(SORTED, { offset: 19 * PAGE, limit: PAGE, before: jump.keys!.first });
    const skipped = await sourceOver(query).page(SORTED, { offset: 19 * PAGE, limit: PAGE });
    expect(back.rows).toEqual(skipped);

    const partition = await query(`SELECT tableoid::regclass::text AS t FROM employees WHERE "ClientId" = $1 LIMIT 1`, [BIG_CLIENT]);
    const table = `public.${(partition.rows[0] as { t: string }).t}`;
    const filter = [
      /"ClientId" = 7\b/,
      /"LastName_folded" ~~ 's1%'/,
      /"LastName_folded" >= 's1'/,
      /"LastName_folded" < 's2'/,
      /"Gender" = 2\b/,
    ];
    const order =
      /ORDER BY "LastName_folded" (ASC|DESC) NULLS (FIRST|LAST), "FirstName_folded" (ASC|DESC) NULLS (FIRST|LAST), "Id" (ASC|DESC)/;
    const byKind = (prefix: string) => plans.filter((p) => p.sql.startsWith(prefix));
    expect(plans).toHaveLength(5);
    for (const { sql, plan } of plans) {
      const s = shipped(plan);
      for (const remote of s.remote) expect(remote, sql).toContain(` FROM ${table} `);
      if (sql.startsWith('SELECT COUNT')) {
        // The whole aggregate on the shard: one row crosses.
        expect(s.remote, sql).toHaveLength(1);
        expect(s.remote[0], sql).toMatch(/^SELECT count\(\*\), "ClientId" FROM .* GROUP BY 2$/);
        for (const f of filter) expect(s.remote[0], sql).toMatch(f);
        expect(s.rows).toEqual([1]);
        expect(s.local, sql).toEqual([]);
      } else if (/ANY\(ARRAY\(/.test(sql)) {
        // The jump: the page's keys from the shard's ordered keys, then the page's rows by those keys; the coordinator
        // orders just those rows.
        expect(s.remote, sql).toHaveLength(2);
        const [keys, rows] = s.remote[0]!.includes('ANY (') ? [s.remote[1]!, s.remote[0]!] : [s.remote[0]!, s.remote[1]!];
        expect(keys, sql).toMatch(order);
        for (const f of filter) expect(keys, sql).toMatch(f);
        // Named directly, the foreign partition takes the skip and the page: only the page's keys cross.
        if (partitionOf !== undefined)
          expect(keys, sql).toMatch(new RegExp(`${order.source}[^()]* LIMIT ${PAGE}\\b.* OFFSET ${20 * PAGE}\\b`));
        expect(rows, sql).toMatch(/"Id" = ANY \(\$1::bigint\[\]\)/);
        expect(Math.min(...s.rows), sql).toBe(PAGE);
        // Routed, only the page's keys cross (over the partitioned table, the skipped ones too).
        if (partitionOf !== undefined) expect(s.rows, sql).toEqual([PAGE, PAGE]);
        expect(
          s.local.filter((t) => t !== 'Sort'),
          sql,
        ).toEqual([]);
      } else {
        expect(s.remote, sql).toHaveLength(1);
        expect(s.remote[0], sql).toMatch(order);
        for (const f of filter) expect(s.remote[0], sql).toMatch(f);
        if (partitionOf !== undefined) expect(s.remote[0], sql).toMatch(new RegExp(`${order.source}[^()]* LIMIT ${PAGE}\\b`));
        // The coordinator stops reading at the page's end: the shard's ordered cursor hands over no more.
        expect(s.rows[0], sql).toBeLessThanOrEqual(PAGE + 1);
        expect(s.local, sql).toEqual([]);
      }
    }
    expect(byKind('SELECT COUNT')).toHaveLength(1);
  }
});
