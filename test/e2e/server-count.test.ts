/**
 * The count strategy over real HTTP: the reference server over the employees table in PGlite and
 * in a real PostgreSQL 15 server, once counting exactly and once with `{ estimateAbove }` or a cache
 * of totals. A total above the threshold is the planner's estimate and every page of its walk is
 * answered with `x-wepql-total: estimated`; a total at or below it is exact and unmarked; the rows
 * of every page are the same as the exact server's. The SDK walks a list whose estimate is too low
 * or too high to its true end.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from '../../src/list/index.js';
import { createMemoryDataSource, type SqlRunner } from '../../src/sources/index.js';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import {
  chooseFoldCollation,
  employeePostgresSource,
  EMPLOYEE_SCOPE,
  loadSampleEmployees,
  seedEmployeeTable,
} from '../../src/sample/employees.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { paginate } from '../../src/sdk/index.js';
import { get, withQuery, type HttpResult } from '../support/http.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { createPglite } from '../support/sql-pglite.js';

const TOKEN = 'count-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const SECRET = 'count-secret-of-32-characters-long';
const THRESHOLD = 20;
const HEADER = 'x-wepql-total';

/** First pages of client 1: filters that match more than THRESHOLD rows, fewer, and none; sorts and page sizes. */
const FIRST_PAGES: readonly Record<string, string>[] = [
  { limit: '7' },
  { limit: '7', sort: 'LastName=Asc' },
  { limit: '50', sort: 'CreatedOn=Desc', 'include-deleted': 'true' },
  { limit: '5', filter: 'Gender.Equal(1)' },
  { limit: '5', filter: 'LastName.StartsWith(S)', sort: 'FirstName=Asc' },
  { limit: '3', filter: 'Id.LessThan(40)' },
  { limit: '3', filter: 'LastName.Equal(NoSuchName)' },
];

interface Engine {
  readonly name: string;
  readonly run: SqlRunner;
  readonly foldCollation: string | undefined;
  stop(): Promise<void>;
}

/**
 * One seeded PGlite for the file, made on first use: every case only reads
 * the table, and starting PGlite and seeding it costs seconds of CPU each
 * time. Closed when the file ends; `stop()` leaves it to the next user.
 */
let pglite: Promise<{ db: PGlite; engine: Engine }> | undefined;
async function pgliteEngine(): Promise<Engine> {
  pglite ??= (async () => {
    const db = await createPglite();
    const run: SqlRunner = (sql, params) => db.query(sql, params);
    await seedEmployeeTable(run, loadSampleEmployees());
    const { foldCollation } = await chooseFoldCollation(run);
    return { db, engine: { name: 'PGlite', run, foldCollation, stop: async () => {} } };
  })();
  return (await pglite).engine;
}
afterAll(async () => {
  await (await pglite)?.db.close();
});

async function postgresEngine(): Promise<Engine> {
  const server: PostgresServer = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  const run: SqlRunner = (sql, params) => pool.query(sql, params as unknown[]);
  await seedEmployeeTable(run, loadSampleEmployees());
  const { foldCollation } = await chooseFoldCollation(run);
  return {
    name: 'PostgreSQL 15',
    run,
    foldCollation,
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
}

/** A reference server over `run`, whose statements are recorded in `sent`. */
async function serve({ run, foldCollation }: Engine, count: Parameters<typeof createListServer>[0]['count'], sent: string[]) {
  const recording: SqlRunner = (sql, params) => {
    sent.push(sql);
    return run(sql, params);
  };
  const { source, clientExists } = employeePostgresSource(recording, foldCollation);
  const app = createListServer({
    source,
    clientExists,
    authToken: TOKEN,
    secret: SECRET,
    ...(count === undefined ? {} : { count }),
    log: (line) => {
      if (line.startsWith('error')) console.error(line);
    },
  });
  const { url } = await app.listen();
  return { app, list: `${url}/api/public/clients/1/employees` };
}

/**
 * The pages of a walk: the first page, then `next-page` `moves` times, then `page=1` and a jump to page `moves + 1`
 * (the same moves on both servers, whatever totals they answered). Without `moves`, as many as the first page's
 * total says (its `TotalPages - 1`): the exact server's walk, whose moves the other walk then makes.
 */
async function walk(list: string, query: Record<string, string>, moves?: number): Promise<HttpResult[]> {
  const first = await get(withQuery(list, query), AUTH);
  expect(first.status).toBe(200);
  moves ??= Math.max(0, (first.body.Pagination.TotalPages as number) - 1);
  const answers = [first];
  let at = first;
  for (let i = 0; i < moves; i++) {
    at = await get(withQuery(list, { 'next-page': 'true', 'data-token': at.body.Pagination.DataToken }), AUTH);
    expect(at.status).toBe(200);
    answers.push(at);
  }
  for (const page of ['1', String(moves + 1)]) {
    const jump = await get(withQuery(list, { page, 'data-token': at.body.Pagination.DataToken }), AUTH);
    expect(jump.status).toBe(200);
    answers.push(jump);
  }
  return answers;
}

const engines: [string, () => Promise<Engine>][] = [['PGlite', pgliteEngine]];
if (findPostgresBin() !== undefined) engines.push(['PostgreSQL 15', postgresEngine]);
else console.warn('SKIPPED the PostgreSQL 15 server cases: no PostgreSQL installation');

describe.each(engines)('count: { estimateAbove } over %s', (_name, start) => {
  let engine: Engine;
  let exact: { app: ListServer; list: string };
  let estimating: { app: ListServer; list: string };
  const sentExact: string[] = [];
  const sentEstimating: string[] = [];
  beforeAll(async () => {
    engine = await start();
    exact = await serve(engine, undefined, sentExact);
    estimating = await serve(engine, { estimateAbove: THRESHOLD }, sentEstimating);
  }, 300_000);
  afterAll(async () => {
    await exact?.app.close();
    await estimating?.app.close();
    await engine?.stop();
  });

  it.each(FIRST_PAGES.map((q) => [JSON.stringify(q), q] as const))(
    '%s: same rows on every page; estimated and marked exactly when more than the threshold match',
    async (_title, query) => {
      // The exact walk's first page gives the total and the moves both walks make.
      const truth = await walk(exact.list, query);
      const total = truth[0]!.body.Pagination.TotalRecords as number;
      const moves = truth.length - 3;
      const answers = await walk(estimating.list, query, moves);
      expect(answers.map((a) => a.body.Data)).toEqual(truth.map((a) => a.body.Data));
      for (const a of truth) expect(a.headers[HEADER]).toBeUndefined();
      if (total <= THRESHOLD) {
        for (const a of answers) {
          expect(a.headers[HEADER]).toBeUndefined();
          expect(a.body.Pagination.TotalRecords).toBe(total);
        }
      } else {
        for (const a of answers) {
          expect(a.headers[HEADER]).toBe('estimated');
          // The bounded count proved more than the threshold; the planner says how many more.
          expect(a.body.Pagination.TotalRecords).toBeGreaterThan(THRESHOLD);
          expect(a.body.Pagination.TotalPages).toBe(Math.ceil(a.body.Pagination.TotalRecords / Number(query.limit)));
        }
      }
    },
  );

  it('an estimated first page reads at most threshold + 1 rows to count, then asks the planner; no COUNT(*) of the whole list', async () => {
    sentEstimating.length = 0;
    const r = await get(withQuery(estimating.list, { limit: '5', sort: 'LastName=Desc' }), AUTH);
    expect(r.headers[HEADER]).toBe('estimated');
    const counts = sentEstimating.filter((s) => s.includes('COUNT(') || s.startsWith('EXPLAIN'));
    expect(counts).toHaveLength(2);
    expect(counts[0]).toMatch(/^SELECT COUNT\(\*\) AS "n" FROM \(SELECT 1 FROM "employees" WHERE .* LIMIT \$\d+\) AS "wepql_matching"$/);
    expect(counts[1]).toMatch(/^EXPLAIN \(FORMAT JSON\) SELECT 1 FROM "employees" WHERE /);
  });

  it('the SDK walks an estimated list to its end: every record of the exact walk, once', async () => {
    const options = { limit: 9, filter: 'Gender.Equal(2)', sort: 'LastName=Asc', accessToken: TOKEN };
    const truth = await paginate(fetch, { url: exact.list, ...options }).toArray();
    const pages = [];
    for await (const page of paginate(fetch, { url: estimating.list, ...options }).pages()) pages.push(page);
    expect(pages.flatMap((p) => p.records)).toEqual(truth);
    expect(truth.length).toBeGreaterThan(THRESHOLD);
    expect(pages.every((p) => p.totalEstimated === true)).toBe(true);
  });
});

describe('count: { cacheTtlMs } over PGlite', () => {
  let engine: Engine;
  let cached: { app: ListServer; list: string };
  const sent: string[] = [];
  beforeAll(async () => {
    engine = await pgliteEngine();
    cached = await serve(engine, { cacheTtlMs: 3_000 }, sent);
  }, 300_000);
  afterAll(async () => {
    await cached?.app.close();
    await engine?.stop();
  });

  it('counts once, answers the same list from the cache (marked estimated) until the time is up, then counts again', async () => {
    const query = { limit: '4', filter: 'Gender.Equal(3)' };
    sent.length = 0;
    const first = await get(withQuery(cached.list, query), AUTH);
    expect(first.headers[HEADER]).toBeUndefined();
    expect(sent.filter((s) => s.includes('COUNT('))).toHaveLength(1);

    sent.length = 0;
    // Another sort of the same filter has the same total.
    const again = await get(withQuery(cached.list, { ...query, sort: 'FirstName=Desc' }), AUTH);
    expect(again.headers[HEADER]).toBe('estimated');
    expect(again.body.Pagination.TotalRecords).toBe(first.body.Pagination.TotalRecords);
    expect(sent.filter((s) => s.includes('COUNT('))).toHaveLength(0);
    const next = await get(withQuery(cached.list, { 'next-page': 'true', 'data-token': again.body.Pagination.DataToken }), AUTH);
    expect(next.headers[HEADER]).toBe('estimated');

    // Another filter, and the list with deleted rows, are totals of their own.
    sent.length = 0;
    await get(withQuery(cached.list, { ...query, 'include-deleted': 'true' }), AUTH);
    expect(sent.filter((s) => s.includes('COUNT('))).toHaveLength(1);

    await new Promise((resolve) => setTimeout(resolve, 3_050));
    sent.length = 0;
    const later = await get(withQuery(cached.list, query), AUTH);
    expect(later.headers[HEADER]).toBeUndefined();
    expect(sent.filter((s) => s.includes('COUNT('))).toHaveLength(1);
  });
});

describe('an estimate too low or too high never ends a walk early, nor makes it endless', () => {
  const records = loadSampleEmployees();
  const memory = createMemoryDataSource(records, { schema: employeeSchema, tieBreaker: 'Id', ...EMPLOYEE_SCOPE });

  async function serveEstimate(estimate: (exact: number) => number): Promise<{ app: ListServer; list: string }> {
    // A data source of a user's own whose estimate is off by a known amount.
    const source: DataSource = {
      clientScoped: true,
      count: (q) => memory.count(q),
      page: (q, w) => memory.page(q, w),
      keyedPage: (q, w) => memory.keyedPage!(q, w),
      async estimateCount(q, exactUpTo) {
        const total = await memory.count(q);
        return total <= exactUpTo ? { total, estimated: false } : { total: estimate(total), estimated: true };
      },
    };
    const app = createListServer({ source, clientExists: async () => true, authToken: TOKEN, count: { estimateAbove: 10 } });
    const { url } = await app.listen();
    return { app, list: `${url}/api/public/clients/1/employees` };
  }

  it.each([
    ['a third of the list', (n: number) => Math.floor(n / 3)],
    ['three times the list', (n: number) => n * 3],
  ])('estimate %s: paginate yields every record once', async (_title, estimate) => {
    const { app, list } = await serveEstimate(estimate);
    try {
      const options = { limit: 10, sort: 'LastName=Asc', accessToken: TOKEN };
      const all = await paginate(fetch, { url: list, ...options }).toArray();
      const truth = await memory.page(
        { filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 },
        { offset: 0, limit: records.length },
      );
      expect(all).toHaveLength(truth.length);
      expect(new Set(all.map((r) => (r as { Id: number }).Id)).size).toBe(truth.length);

      // Past the estimated last page, `next-page` is still served (the walk ends at a short or empty page).
      const first = await get(withQuery(list, { limit: '10' }), AUTH);
      const beyond = await get(
        withQuery(list, { page: String(first.body.Pagination.TotalPages + 1), 'data-token': first.body.Pagination.DataToken }),
        AUTH,
      );
      expect(beyond.status).toBe(200);
      expect(beyond.headers[HEADER]).toBe('estimated');
    } finally {
      await app.close();
    }
  });

  it('an exact total still refuses a page past its last', async () => {
    const app = createListServer({ records, authToken: TOKEN });
    const { url } = await app.listen();
    try {
      const list = `${url}/api/public/clients/1/employees`;
      const first = await get(withQuery(list, { limit: '10' }), AUTH);
      const beyond = await get(
        withQuery(list, { page: String(first.body.Pagination.TotalPages + 1), 'data-token': first.body.Pagination.DataToken }),
        AUTH,
      );
      expect(beyond.status).toBe(400);
      expect(beyond.headers[HEADER]).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it.each([[{ estimateAbove: -1 }], [{ cacheTtlMs: 0 }], [{}], [{ estimateAbove: 1.5 }]])(
    'a count strategy it cannot follow fails when the server is created: %j',
    (count) => {
      expect(() => createListServer({ records, count: count as never })).toThrow(/count/);
    },
  );
});
