/**
 * The advised indexes are the ones the database uses: with the statements
 * of `indexesFor` (through `wepql db-index --apply` on the real server),
 * EXPLAIN of the data source's own queries names the advised index — for a
 * sorted first page, a seek page, a StartsWith filter, an integer Equal and
 * a datetime range — and never a sequential scan. Sequential scans are
 * priced out (`enable_seqscan = off`) so that the small test table cannot
 * make them cheaper; the planner still falls back to one, or to another
 * index, when an index's expression does not match the query exactly, which
 * is what these tests would catch. The commands run in the test's process
 * (test/support/cli-in-process.ts): what is tested is what they write to the
 * database and print; the built program's db-seed and db-index keep spawned
 * tests in test/cli and test/topology.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataQuery, DataSource } from '../../../src/list/index.js';
import type { SqlRunner } from '../../../src/sources/index.js';
import { createPostgresDataSource } from '../../../src/sources/index.js';
import { indexesFor } from '../../../src/sql/index.js';
import { analyzeFilter, analyzeSort } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, EMPLOYEE_TABLE, RECORD_COLUMN } from '../../../src/sample/employees.js';
import { generatedEmployee, seedGeneratedEmployees } from '../../../src/sample/generate-employees.js';
import { runCliInProcess } from '../../support/cli-in-process.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { createPglite } from '../../support/sql-pglite.js';

const SORT = 'LastName=Asc';
const FILTERS = ['LastName.StartsWith(Sm)', 'Gender.Equal(1)', 'BirthOn.GreaterThanOrEqual(1990-01-01);BirthOn.LessThan(1990-03-01)'];

interface Plan {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly Plan[];
}
function nodes(plan: Plan): Plan[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/** Runs the source's statement through EXPLAIN and returns the plan's nodes. */
function explainingRunner(query: SqlRunner, plans: Plan[][]): SqlRunner {
  return async (sql, params) => {
    const explained = await query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const raw = (explained.rows[0] as Record<string, unknown>)['QUERY PLAN'];
    const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Plan }[];
    plans.push(nodes(json[0]!.Plan));
    return query(sql, params);
  };
}

function q(filter: string, sort: string): DataQuery {
  return {
    filter: filter === '' ? undefined : analyzeFilter(filter, { schema: employeeSchema }).value!,
    sort: sort === '' ? undefined : analyzeSort(sort, { schema: employeeSchema }).value!,
    includeDeleted: false,
    clientId: 1,
  };
}

async function checkPlans(query: SqlRunner, foldCollation: string | undefined): Promise<void> {
  const advised = indexesFor(employeeSchema, {
    dialect: 'postgres',
    table: EMPLOYEE_TABLE,
    clientField: 'ClientId',
    include: ['RowStatus'],
    tieBreaker: 'Id',
    sorts: [SORT],
    filters: FILTERS,
    ...(foldCollation === undefined ? {} : { foldCollation }),
  });
  const nameFor = (serves: string) => advised.find((i) => i.serves.includes(serves))!.name;
  const plans: Plan[][] = [];
  const source: DataSource = createPostgresDataSource({
    query: explainingRunner(query, plans),
    table: EMPLOYEE_TABLE,
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: RECORD_COLUMN,
    ...(foldCollation === undefined ? {} : { foldCollation }),
    ...EMPLOYEE_SCOPE,
  });
  const expectIndex = (index: string, what: string) => {
    const plan = plans.pop()!;
    const summary = plan.map((n) => `${n['Node Type']}${n['Index Name'] ? ` on ${n['Index Name']}` : ''}`).join(' > ');
    expect(
      plan.some((n) => n['Node Type'] === 'Seq Scan'),
      `${what}: ${summary}`,
    ).toBe(false);
    expect(
      plan.some((n) => n['Index Name'] === index),
      `${what} should use ${index}: ${summary}`,
    ).toBe(true);
  };

  const page1 = await source.keyedPage!(q('', SORT), { offset: 0, limit: 50 });
  expect(page1.rows.length).toBe(50);
  expectIndex(nameFor('sort LastName=Asc'), 'sorted first page');
  const page2 = await source.keyedPage!(q('', SORT), { offset: 50, limit: 50, after: page1.keys!.last });
  expect(page2.rows.length).toBe(50);
  expectIndex(nameFor('sort LastName=Asc'), 'seek page');
  await source.keyedPage!(q('', SORT), { offset: 0, limit: 50, before: page2.keys!.first });
  expectIndex(nameFor('sort LastName=Asc'), 'seek page backwards');
  expect(await source.count(q(FILTERS[0]!, ''))).toBeGreaterThan(0);
  expectIndex(nameFor('LastName.StartsWith'), 'StartsWith');
  expect(await source.count(q(FILTERS[1]!, ''))).toBeGreaterThan(0);
  expectIndex(nameFor('Gender.Equal'), 'integer Equal');
  expect(await source.count(q(FILTERS[2]!, ''))).toBeGreaterThan(0);
  expectIndex(nameFor('BirthOn.GreaterThanOrEqual'), 'datetime range');
  // A deep page=N jump in the default order (no sort): the skipped rows are walked in the default
  // order's index alone, never the primary key with a table visit per skipped row to test the scope.
  const ids = (rows: readonly unknown[]) => rows.map((r) => (r as { Id: number }).Id);
  const walked = ids(await source.page(q('', ''), { offset: 0, limit: 2550 })).slice(2500);
  plans.pop();
  expect(ids(await source.page(q('', ''), { offset: 2500, limit: 50 }))).toEqual(walked);
  const jumpPlan = plans[plans.length - 1]!;
  expectIndex(nameFor('default order (no sort)'), 'page jump in the default order');
  expect(
    jumpPlan.some((n) => n['Node Type'] === 'Index Only Scan' && n['Index Name'] === nameFor('default order (no sort)')),
    'the skipped rows are read from the index alone',
  ).toBe(true);
}

describe.skipIf(findPostgresBin() === undefined)(
  'advised indexes on the real PostgreSQL server (wepql db-seed --rows, db-index --apply)',
  () => {
    let server: PostgresServer | undefined;
    let pool: pg.Pool | undefined;
    let dir: string;
    beforeAll(async () => {
      server = await startPostgresServer();
      pool = new pg.Pool({ connectionString: server.url, max: 2 });
      dir = mkdtempSync(join(tmpdir(), 'wepql-index-'));
    }, 60_000);
    afterAll(async () => {
      await pool?.end();
      await server?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('db-seed fills, db-index creates, and EXPLAIN names the advised index', async () => {
      const seed = await runCliInProcess(['db-seed', '--database-url', server!.url, '--rows', '20000']);
      expect(seed.code, seed.stderr).toBe(0);
      expect(seed.stdout).toMatch(/with 20000 employees/);
      const saved = join(dir, 'saved.txt');
      writeFileSync(saved, `# the list's saved filters\n${FILTERS.join('\n')}\n`);
      const printed = await runCliInProcess(['db-index', '--database-url', server!.url, '--sort', SORT, '--filters', saved]);
      // StartsWith on the sort's first key is served by the sort index (toSql writes it as a range too).
      // The sort's, the default order's (always advised, whatever --sort names), Gender's and BirthOn's.
      expect(printed.stdout.match(/^CREATE INDEX /gm)?.length).toBe(4);
      expect(printed.stdout).toMatch(
        /^-- serves default order \(no sort\)\nCREATE INDEX IF NOT EXISTS "employees_wepql_[0-9a-f]{8}" ON "employees" \("ClientId", "Id"\) INCLUDE \("RowStatus"\);$/m,
      );
      expect(printed.stdout).toMatch(/^-- serves sort LastName=Asc, LastName\.StartsWith\n/m);
      expect(printed.stdout).toMatch(/INCLUDE \("RowStatus", "LastName"\)/);
      // What no index serves is said, and --trigram serves it.
      const substrings = join(dir, 'substrings.txt');
      writeFileSync(substrings, 'LastName.Contains(mit)\nGender.NotEqual(1)\n');
      const unserved = await runCliInProcess(['db-index', '--fold-collation', 'wepql_fold', '--filters', substrings]);
      expect(unserved.code, unserved.stderr).toBe(0);
      expect(unserved.stdout).toMatch(/^-- not indexed: LastName\.Contains: a b-tree cannot find a substring; .*--trigram/m);
      expect(unserved.stdout).toMatch(/^-- not indexed: Gender\.NotEqual: /m);
      const trigram = await runCliInProcess(['db-index', '--fold-collation', 'wepql_fold', '--filters', substrings, '--trigram']);
      expect(trigram.stdout).toMatch(
        /^CREATE EXTENSION IF NOT EXISTS pg_trgm;\n-- serves LastName\.Contains\nCREATE INDEX IF NOT EXISTS "employees_wepql_[0-9a-f]{8}" ON "employees" USING gin \(lower\("LastName" COLLATE "wepql_fold"\) gin_trgm_ops\);$/m,
      );
      expect(trigram.stdout).not.toMatch(/not indexed: LastName/);
      const applied = await runCliInProcess(['db-index', '--database-url', server!.url, '--sort', SORT, '--filters', saved, '--apply']);
      expect(applied.code, applied.stderr).toBe(0);
      const p = pool!;
      const client = await p.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const query: SqlRunner = (sql, params) => client.query(sql, params);
        await checkPlans(query, (await chooseFoldCollation(query)).foldCollation);
      } finally {
        client.release();
      }
    }, 180_000);
  },
);

describe('advised indexes on PGlite', () => {
  it('EXPLAIN names the advised index', async () => {
    const db = await createPglite();
    try {
      const query: SqlRunner = (sql, params) => db.query(sql, params);
      await seedGeneratedEmployees(query, 3000);
      // The generator inside the database and its JavaScript twin give the same records.
      const stored = await db.query<{ Record: unknown }>(
        `SELECT "Record" FROM ${EMPLOYEE_TABLE} WHERE "Id" IN (1, 2, 1500, 3000) ORDER BY "Id"`,
      );
      expect(stored.rows.map((r) => r.Record)).toEqual([1, 2, 1500, 3000].map(generatedEmployee));
      const { foldCollation } = await chooseFoldCollation(query);
      for (const index of indexesFor(employeeSchema, {
        dialect: 'postgres',
        table: EMPLOYEE_TABLE,
        clientField: 'ClientId',
        include: ['RowStatus'],
        tieBreaker: 'Id',
        sorts: [SORT],
        filters: FILTERS,
        ...(foldCollation === undefined ? {} : { foldCollation }),
      })) {
        await db.query(index.sql);
      }
      await db.query(`ANALYZE ${EMPLOYEE_TABLE}`);
      await db.query('SET enable_seqscan = off');
      await checkPlans(query, foldCollation);
    } finally {
      await db.close();
    }
  }, 180_000);
});
