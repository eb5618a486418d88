/**
 * Past one machine: `wepql db-seed --partitions N` creates the employees
 * table `PARTITION BY HASH ("ClientId")`; the advised indexes, created on
 * the parent, reach every partition; and because every statement the data
 * source sends carries the client scope as its first equality, EXPLAIN of a
 * first page, a seek page (both directions) and a count on the real
 * PostgreSQL server reads one partition through that partition's index.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSort } from '../../../src/index.js';
import type { DataQuery } from '../../../src/list/index.js';
import type { SqlRunner } from '../../../src/sources/index.js';
import { createPostgresDataSource, createPostgresTable } from '../../../src/sources/index.js';
import { indexesFor } from '../../../src/sql/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, EMPLOYEE_TABLE, RECORD_COLUMN } from '../../../src/sample/employees.js';
import { run as dbSeed } from '../../../src/cli/commands/db-seed.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { UsageError } from '../../../src/workspace/usage-error.js';
import { createPglite } from '../../support/sql-pglite.js';

const PARTITIONS = 4;
const SORT = 'LastName=Asc';

interface Plan {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly Plan[];
}
const nodes = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

interface Explained {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly scans: readonly Plan[];
}

/** Runs each statement through EXPLAIN first and keeps its scan nodes. */
function explaining(query: SqlRunner, seen: Explained[]): SqlRunner {
  return async (sql, params) => {
    const explained = await query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const raw = (explained.rows[0] as Record<string, unknown>)['QUERY PLAN'];
    const plan = ((typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Plan }[])[0]!.Plan;
    seen.push({ sql, params, scans: nodes(plan).filter((n) => n['Relation Name'] !== undefined || n['Index Name'] !== undefined) });
    return query(sql, params);
  };
}

describe.skipIf(findPostgresBin() === undefined)(
  'hash partitions on the client (wepql db-seed --partitions) on the real PostgreSQL server',
  () => {
    let server: PostgresServer | undefined;
    let pool: pg.Pool | undefined;
    beforeAll(async () => {
      server = await startPostgresServer();
      pool = new pg.Pool({ connectionString: server.url, max: 2 });
    }, 60_000);
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
    });

    it('db-seed --partitions N makes N hash partitions; the advised index reaches each; plans prune to one partition and use its index', async () => {
      expect(await dbSeed(['--database-url', server!.url, '--rows', '12000', '--partitions', String(PARTITIONS)])).toBe(0);
      const p = pool!;
      const children = await p.query(
        `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
        [EMPLOYEE_TABLE],
      );
      expect(children.rows.map((r) => r.relname)).toEqual(Array.from({ length: PARTITIONS }, (_, i) => `${EMPLOYEE_TABLE}_p${i}`));
      const strategy = await p.query(`SELECT partstrat, partnatts FROM pg_partitioned_table WHERE partrelid = $1::regclass`, [
        EMPLOYEE_TABLE,
      ]);
      expect(strategy.rows).toEqual([{ partstrat: 'h', partnatts: 1 }]);

      const client = await p.connect();
      try {
        const query: SqlRunner = (sql, params) => client.query(sql, params);
        const { foldCollation } = await chooseFoldCollation(query);
        const [sortIndex] = indexesFor(employeeSchema, {
          dialect: 'postgres',
          table: EMPLOYEE_TABLE,
          clientField: 'ClientId',
          tieBreaker: 'Id',
          sorts: [SORT],
          ...(foldCollation === undefined ? {} : { foldCollation }),
        });
        await query(sortIndex!.sql, []);
        await query(`ANALYZE ${EMPLOYEE_TABLE}`, []);
        // Each partition's own copy of the advised index, by partition.
        const copies = await query(
          `SELECT t.relname AS "partition", c.relname AS "index" FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         JOIN pg_index x ON x.indexrelid = c.oid JOIN pg_class t ON t.oid = x.indrelid WHERE i.inhparent = $1::regclass`,
          [sortIndex!.name],
        );
        const indexOf = new Map(copies.rows.map((r) => [(r as { partition: string }).partition, (r as { index: string }).index]));
        expect(indexOf.size).toBe(PARTITIONS);
        // The small test table must not make a sequential scan cheaper.
        await query('SET enable_seqscan = off', []);

        const seen: Explained[] = [];
        const source = createPostgresDataSource({
          query: explaining(query, seen),
          table: EMPLOYEE_TABLE,
          schema: employeeSchema,
          tieBreaker: 'Id',
          recordColumn: RECORD_COLUMN,
          ...(foldCollation === undefined ? {} : { foldCollation }),
          ...EMPLOYEE_SCOPE,
        });
        for (const clientId of [1, 3]) {
          const q: DataQuery = {
            filter: undefined,
            sort: analyzeSort(SORT, { schema: employeeSchema }).value,
            includeDeleted: false,
            clientId,
          };
          seen.length = 0;
          expect(await source.count(q)).toBeGreaterThan(20);
          const first = await source.keyedPage!(q, { offset: 0, limit: 10 });
          const second = await source.keyedPage!(q, { offset: 10, limit: 10, after: first.keys!.last });
          const back = await source.keyedPage!(q, { offset: 0, limit: 10, before: second.keys!.first });
          expect(back.rows).toEqual(first.rows);
          // A page=N jump: a deferred join, inner and outer statements on the same one partition.
          const jump = await source.keyedPage!(q, { offset: 20, limit: 10 });
          expect(jump.rows.length).toBe(10);
          expect(seen.length).toBe(5);
          expect(seen[4]!.sql).toMatch(
            / IN \(SELECT "wepql_key" FROM \(SELECT "Id" AS "wepql_key" FROM "employees" WHERE "ClientId" = \$2 AND /,
          );
          for (const [i, { sql, params, scans }] of seen.entries()) {
            const what = `${['count', 'first page', 'seek page', 'seek page backwards', 'page jump'][i]} of client ${clientId}`;
            // Every statement carries the client scope as its first equality, so it can route to one partition (or shard).
            expect(sql, what).toMatch(/ WHERE "ClientId" = \$1 AND /);
            expect(params[0], what).toBe(clientId);
            const relations = new Set(scans.map((n) => n['Relation Name']).filter((r) => r !== undefined));
            const summary = scans.map((n) => `${n['Node Type']} ${n['Relation Name'] ?? ''} ${n['Index Name'] ?? ''}`).join(' | ');
            expect(relations.size, `${what} reads one partition: ${summary}`).toBe(1);
            const [partition] = [...relations] as string[];
            expect(indexOf.has(partition!), `${what}: ${summary}`).toBe(true);
            expect(
              scans.some((n) => n['Node Type'] === 'Seq Scan'),
              `${what}: ${summary}`,
            ).toBe(false);
            if (i > 0)
              expect(
                scans.some((n) => n['Index Name'] === indexOf.get(partition!)),
                `${what} uses ${indexOf.get(partition!)}: ${summary}`,
              ).toBe(true);
          }
        }
      } finally {
        client.release();
      }
    }, 120_000);
  },
);

describe('createPostgresTable with hash partitions (PGlite)', () => {
  it('creates the parent PARTITION BY HASH and N partitions; the primary key leads with the partition key', async () => {
    const db = await createPglite();
    try {
      const query: SqlRunner = (sql, params) => db.query(sql, params);
      const table = { query, table: ['public', 'staff'], schema: employeeSchema, primaryKey: 'Id' };
      const sql = await createPostgresTable(table, { replace: true, partitions: { field: 'ClientId', count: 3 } });
      expect(sql.split('\n')).toEqual([
        expect.stringMatching(/^CREATE TABLE "public"\."staff" \(.*, PRIMARY KEY \("ClientId", "Id"\)\) PARTITION BY HASH \("ClientId"\)$/),
        'CREATE TABLE "public"."staff_p0" PARTITION OF "public"."staff" FOR VALUES WITH (MODULUS 3, REMAINDER 0)',
        'CREATE TABLE "public"."staff_p1" PARTITION OF "public"."staff" FOR VALUES WITH (MODULUS 3, REMAINDER 1)',
        'CREATE TABLE "public"."staff_p2" PARTITION OF "public"."staff" FOR VALUES WITH (MODULUS 3, REMAINDER 2)',
      ]);
      await db.query(`INSERT INTO staff ("Id", "ClientId") SELECT g, g % 7 FROM generate_series(1, 70) AS g`);
      const spread = await db.query<{ n: number }>(`SELECT count(DISTINCT tableoid)::int AS n FROM staff`);
      expect(spread.rows[0]!.n).toBe(3);
      await expect(createPostgresTable(table, { replace: true, partitions: { field: 'ClientId', count: 0 } })).rejects.toThrow(
        /partitions.count must be a whole number from 1 to 1024, got 0/,
      );
      await expect(createPostgresTable(table, { replace: true, partitions: { field: 'Client', count: 2 } })).rejects.toThrow(
        /partitions.field: the schema has no scalar field "Client"/,
      );
    } finally {
      await db.close();
    }
    // The first PGlite of a run also makes the run's data directory (test/support/sql-pglite.ts).
  }, 120_000);

  it('wepql db-seed refuses a --partitions that is not a whole number from 1 to 1024', async () => {
    for (const bad of ['0', '1025', '2.5', 'x']) {
      await expect(dbSeed(['--database-url', 'postgres://127.0.0.1:1/none', '--partitions', bad])).rejects.toThrow(UsageError);
    }
  });
});
