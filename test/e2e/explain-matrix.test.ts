/**
 * Every request of the list matrix on the real PostgreSQL server, through
 * EXPLAIN: the SQL `toSql` writes (the data source's WHERE, ORDER BY and
 * seek, and the deferred join of a page jump) meets the indexes
 * `adviseIndexes` advises (`include: ['RowStatus']`, `trigram: true`) the
 * way a DBA would want — the sorted first page and every seek page walk
 * the sort index with no Sort node, StartsWith is an Index Cond range on
 * that same index, Contains uses the trigram index, an Equal or a range on
 * the sort's first key narrows the sort index, a page jump walks past its
 * offset in an Index Only Scan, and the COUNT of a first page is an Index
 * Only Scan after VACUUM.
 *
 * The table is small (a few thousand rows), where a sequential scan is
 * often cheapest; `SET enable_seqscan = off` prices it out so that the
 * plans show the indexes *can* serve each request. It does not force any
 * particular index: the planner still picks among them by cost, falls back
 * to a Sort or a Filter when an index's expression or order does not match
 * the query exactly, and that is what these tests would catch.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlRunner } from '../../src/sources/index.js';
import { adviseIndexes, toSql, type AdvisedIndex, type SqlFragment, type ToSqlOptions } from '../../src/sql/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation, EMPLOYEE_TABLE } from '../../src/sample/employees.js';
import { seedGeneratedEmployees } from '../../src/sample/generate-employees.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

const ROWS = 20_000;
const LIMIT = 50;
const SCOPE = 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)';
const SORTS = ['LastName=Asc', 'CreatedOn=Desc', 'VeteranStatus=Asc;LastName=Asc'];
const FILTERS = [
  'LastName.StartsWith(Sm)',
  'LastName.Equal(Smith)',
  'Ssn.Contains(4242)',
  'CreatedOn.GreaterThanOrEqual(1990-01-01);CreatedOn.LessThan(1995-01-01)',
  'VeteranStatus.InArray(1,2,3)',
];

interface Plan {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly 'Index Cond'?: string;
  readonly 'Parent Relationship'?: string;
  readonly 'Subplan Name'?: string;
  readonly 'Heap Fetches'?: number;
  readonly Plans?: readonly Plan[];
}
const flatten = (plan: Plan): Plan[] => [plan, ...(plan.Plans ?? []).flatMap(flatten)];
const summary = (plan: Plan): string =>
  flatten(plan)
    .map((n) => `${n['Node Type']}${n['Index Name'] ? ` on ${n['Index Name']}` : ''}${n['Index Cond'] ? ` [${n['Index Cond']}]` : ''}`)
    .join(' > ');

describe.skipIf(findPostgresBin() === undefined)('the list matrix on PostgreSQL 15, through EXPLAIN', () => {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  let client: pg.PoolClient | undefined;
  let options: ToSqlOptions;
  let indexes: readonly AdvisedIndex[];
  const query: SqlRunner = (sql, params) => client!.query(sql, params);

  beforeAll(async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 1 });
    client = await pool.connect();
    await seedGeneratedEmployees(query, ROWS);
    const { foldCollation } = await chooseFoldCollation(query);
    const fold = foldCollation === undefined ? {} : { foldCollation };
    const advice = adviseIndexes(employeeSchema, {
      dialect: 'postgres',
      table: EMPLOYEE_TABLE,
      clientField: 'ClientId',
      include: ['RowStatus'],
      tieBreaker: 'Id',
      sorts: SORTS,
      filters: FILTERS,
      trigram: true,
      ...fold,
    });
    indexes = advice.indexes;
    for (const index of indexes) {
      if (index.prerequisite !== undefined) await query(index.prerequisite, []);
      await query(index.sql, []);
    }
    // VACUUM sets the visibility map, without which no scan is index-only. A page stays unmarked
    // while another snapshot (the autovacuum launcher's ANALYZE after the load) may still need its
    // old versions, so vacuum until every page is all-visible, as a quiet production table is.
    for (let attempt = 0; attempt < 20; attempt++) {
      await query(`VACUUM ANALYZE ${EMPLOYEE_TABLE}`, []);
      const { rows } = await query(`SELECT relallvisible, relpages FROM pg_class WHERE relname = $1`, [EMPLOYEE_TABLE]);
      const { relallvisible, relpages } = rows[0] as { relallvisible: number; relpages: number };
      if (relallvisible >= relpages) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await query('SET enable_seqscan = off', []);
    options = { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id', ...fold };
  }, 120_000);
  afterAll(async () => {
    client?.release();
    await pool?.end();
    await server?.stop();
  });

  const indexFor = (serves: string): string => {
    const found = indexes.find((i) => i.serves.split(', ').includes(serves));
    if (found === undefined) throw new Error(`no advised index serves ${serves}: ${indexes.map((i) => i.serves).join(' | ')}`);
    return found.name;
  };
  const explain = async (sql: string, params: readonly unknown[]): Promise<Plan> => {
    const { rows } = await query(`EXPLAIN (FORMAT JSON) ${sql}`, [...params]);
    return ((rows[0] as Record<string, unknown>)['QUERY PLAN'] as { Plan: Plan }[])[0]!.Plan;
  };
  const select = (f: SqlFragment, limit = true) =>
    `SELECT "Record" FROM ${EMPLOYEE_TABLE} WHERE ${f.where}${f.orderBy ? ` ORDER BY ${f.orderBy}` : ''}${limit ? ` LIMIT ${LIMIT}` : ''}`;
  const pagePlan = async (filter: string, sort: string, seek?: Parameters<typeof toSql>[0]['seek']) => {
    const fragment = toSql({ filter: filter === '' ? SCOPE : `${SCOPE};${filter}`, sort, ...(seek ? { seek } : {}) }, options);
    return explain(select(fragment), fragment.params);
  };
  /** The page is read from `index` in order: an index scan on it, and no Sort and no sequential scan anywhere. */
  const expectOrderedBy = (plan: Plan, index: string, what: string) => {
    const nodes = flatten(plan);
    expect(
      nodes.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Sort'),
      `${what}: ${summary(plan)}`,
    ).toBe(false);
    expect(
      nodes.some((n) => n['Index Name'] === index && /^Index (Only )?Scan$/.test(n['Node Type'])),
      `${what} reads ${index}: ${summary(plan)}`,
    ).toBe(true);
  };
  const indexCond = (plan: Plan, index: string): string => flatten(plan).find((n) => n['Index Name'] === index)?.['Index Cond'] ?? '';

  it('first page sorted: the sort index, in order', async () => {
    expectOrderedBy(await pagePlan('', 'LastName=Asc'), indexFor('sort LastName=Asc'), 'first page');
  });

  it('StartsWith with its sort: a range in the Index Cond of the sort index, no Sort', async () => {
    const plan = await pagePlan('LastName.StartsWith(Sm)', 'LastName=Asc');
    const index = indexFor('sort LastName=Asc');
    expectOrderedBy(plan, index, 'StartsWith');
    expect(indexCond(plan, index), summary(plan)).toMatch(/>= .*AND .*< /);
  });

  it('Equal on the sort key: an Index Cond on the sort index, no Sort', async () => {
    const plan = await pagePlan('LastName.Equal(Smith)', 'LastName=Asc');
    const index = indexFor('sort LastName=Asc');
    expectOrderedBy(plan, index, 'Equal');
    expect(indexCond(plan, index), summary(plan)).toMatch(/= /);
  });

  it('Contains with a sort: the trigram index finds the rows', async () => {
    // A rare substring: for a common one, walking the sort index until the page is full is cheaper, and the planner knows it.
    const plan = await pagePlan('Ssn.Contains(4242)', 'LastName=Asc');
    const trigram = indexFor('Ssn.Contains');
    expect(indexes.find((i) => i.name === trigram)!.sql).toMatch(/USING gin .*gin_trgm_ops/);
    expect(
      flatten(plan).some((n) => n['Index Name'] === trigram),
      summary(plan),
    ).toBe(true);
    expect(
      flatten(plan).some((n) => n['Node Type'] === 'Seq Scan'),
      summary(plan),
    ).toBe(false);
  });

  it('a datetime range with its sort: an Index Cond range on the sort index, no Sort', async () => {
    const plan = await pagePlan('CreatedOn.GreaterThanOrEqual(1990-01-01);CreatedOn.LessThan(1995-01-01)', 'CreatedOn=Desc');
    const index = indexFor('sort CreatedOn=Desc');
    expectOrderedBy(plan, index, 'datetime range');
    expect(indexCond(plan, index), summary(plan)).toMatch(/"CreatedOn" >= .*"CreatedOn" < /);
  });

  // A selective list (VeteranStatus runs 0–999; Gender has only the sample's three codes, which any list covers mostly).
  it('InArray on the sort key: the sort index, no Sort', async () => {
    const plan = await pagePlan('VeteranStatus.InArray(1,2,3)', 'VeteranStatus=Asc;LastName=Asc');
    const index = indexFor('sort VeteranStatus=Asc;LastName=Asc');
    expect(
      flatten(plan).some((n) => n['Node Type'] === 'Seq Scan'),
      summary(plan),
    ).toBe(false);
    expect(indexCond(plan, index), summary(plan)).toMatch(/"VeteranStatus" = ANY/);
  });

  it('next-page and prev-page seek: one row comparison in the Index Cond, both directions, no Sort', async () => {
    const index = indexFor('sort LastName=Asc');
    const next = await pagePlan('', 'LastName=Asc', { after: ['Miller', 4000] });
    expectOrderedBy(next, index, 'next-page');
    expect(indexCond(next, index), summary(next)).toMatch(/> ROW/);
    // As the data source asks backwards: the non-NULL keys first (one row comparison), the NULL ones only if the page is not full.
    const prev = await pagePlan('', 'LastName=Asc', { before: ['Miller', 4000], firstKey: 'not-null' });
    expectOrderedBy(prev, index, 'prev-page');
    expect(indexCond(prev, index), summary(prev)).toMatch(/< ROW/);
  });

  it('page=N jump as a deferred join: the offset is walked in an Index Only Scan, and the rows equal plain OFFSET', async () => {
    const offset = 40 * LIMIT;
    const jump = toSql(
      { filter: SCOPE, sort: 'LastName=Asc' },
      { ...options, deferredJoin: { table: EMPLOYEE_TABLE, limit: LIMIT, offset } },
    );
    const plan = await explain(select(jump, false), jump.params);
    const index = indexFor('sort LastName=Asc');
    const scans = flatten(plan).filter((n) => n['Index Name'] === index);
    expect(
      scans.map((n) => n['Node Type']),
      summary(plan),
    ).toEqual(['Index Only Scan']);
    expect(
      flatten(plan).some((n) => n['Node Type'] === 'Seq Scan'),
      summary(plan),
    ).toBe(false);
    const plain = toSql({ filter: SCOPE, sort: 'LastName=Asc' }, options);
    const expected = await query(`${select(plain, false)} LIMIT ${LIMIT} OFFSET ${offset}`, [...plain.params]);
    const got = await query(select(jump, false), [...jump.params]);
    expect(got.rows.length).toBe(LIMIT);
    expect(got.rows).toEqual(expected.rows);
  });

  it('COUNT of a first page: an Index Only Scan after VACUUM, the scope tested on the included RowStatus', async () => {
    const count = toSql({ filter: SCOPE }, options);
    const plan = await explain(`SELECT COUNT(*) FROM ${EMPLOYEE_TABLE} WHERE ${count.where}`, count.params);
    const nodes = flatten(plan);
    expect(
      nodes.some((n) => n['Node Type'] === 'Index Only Scan' && indexes.some((i) => i.name === n['Index Name'])),
      summary(plan),
    ).toBe(true);
    expect(
      nodes.some((n) => n['Node Type'] === 'Seq Scan' || n['Node Type'] === 'Bitmap Heap Scan'),
      summary(plan),
    ).toBe(false);
    const analyzed = await query(`EXPLAIN (ANALYZE, FORMAT JSON) SELECT COUNT(*) FROM ${EMPLOYEE_TABLE} WHERE ${count.where}`, [
      ...count.params,
    ]);
    const run = flatten(((analyzed.rows[0] as Record<string, unknown>)['QUERY PLAN'] as { Plan: Plan }[])[0]!.Plan);
    expect(run.find((n) => n['Node Type'] === 'Index Only Scan')?.['Heap Fetches']).toBe(0);
  });

  it('the advisor says what it did not index', () => {
    const { skipped } = adviseIndexes(employeeSchema, {
      dialect: 'postgres',
      table: EMPLOYEE_TABLE,
      clientField: 'ClientId',
      tieBreaker: 'Id',
      filters: ['LastName.Contains(mit);Gender.NotEqual(1)'],
    });
    expect(skipped.map((s) => s.condition)).toEqual(['LastName.Contains', 'Gender.NotEqual']);
    expect(skipped[0]!.reason).toMatch(/trigram/);
  });
});
