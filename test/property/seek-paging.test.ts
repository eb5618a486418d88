/**
 * Seek (keyset) paging equals offset paging. On generated tables (nulls,
 * wrong-typed values, duplicates, case variants, Unicode, every type) and
 * random mixed Asc/Desc sorts: walking `toSql`'s seek predicate forward
 * from page 1 yields exactly the rows of one ORDER BY, page by page, and
 * walking it backward from the last page yields the same pages — on PGlite,
 * sql.js, the real PostgreSQL server and a real MariaDB server. The memory source, through
 * `handleListRequest`, walks `next-page` and `prev-page` to the same rows
 * as `query()`.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Seek, SeekKey, SqlDialect } from '../../src/sql/index.js';
import type { TypedSort } from '../../src/index.js';
import { toSql } from '../../src/sql/index.js';
import { createMemoryDataSource } from '../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../src/list/index.js';
import { query } from '../../src/index.js';
import { readField } from '../../src/schema/read-field.js';
import { recordValueAs } from '../../src/schema/values.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb } from '../support/mariadb-server.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { ROW_COLUMN, loadTable, selectSql, startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';
import { startCaseEngine } from '../support/sql-reused-tables.js';
import { recordsArb, testSchema, typedSortArb, typedSortText } from '../support/typed-arbitraries.js';

const RUNS = 60;

/** A record's seek key as the database stores it: each sort field read as its type (datetimes as epoch ms), then its row index. */
function keyOf(records: readonly unknown[], sort: TypedSort, row: number): SeekKey {
  return [...sort.keys.map((k) => recordValueAs(readField(records[row], k.field.path), k.field.type)), row];
}

async function checkSeekEqualsOffset(
  engine: SqlEngine,
  records: readonly Record<string, unknown>[],
  sort: TypedSort,
  limit: number,
  caseSensitive: boolean,
  foldCollation: string | undefined,
  split: boolean,
): Promise<void> {
  await loadTable(engine, testSchema, records, { table: 'seek' });
  const options = {
    dialect: engine.dialect,
    schema: testSchema,
    caseSensitive,
    tieBreaker: ROW_COLUMN,
    ...(foldCollation === undefined ? {} : { foldCollation }),
  };
  const read = async (seek?: Seek, max = limit): Promise<number[]> => {
    const fragment = toSql({ sort, ...(seek === undefined ? {} : { seek }) }, options);
    const rows = await engine.rows(`${selectSql('seek', fragment, engine.dialect)} LIMIT ${max}`, fragment.params);
    const ids = rows.map((r) => Number(r[ROW_COLUMN]));
    return seek !== undefined && 'before' in seek ? ids.reverse() : ids;
  };
  // As the PostgreSQL data source reads a walk towards smaller first keys: non-NULL first keys, then NULL ones.
  const readSplit = async (seek: Seek): Promise<number[]> => {
    const key = 'after' in seek ? seek.after : seek.before;
    if (!split || key[0] === null || (sort.keys[0]!.direction === 'Asc') === 'after' in seek) return read(seek);
    const rows = await read({ ...seek, firstKey: 'not-null' });
    if (rows.length === limit) return rows;
    const rest = await read({ ...seek, firstKey: 'null' }, limit - rows.length);
    return 'before' in seek ? [...rest, ...rows] : [...rows, ...rest];
  };
  const all = await read(undefined, records.length + 1);
  const context = () => `sort ${typedSortText(sort)}, limit ${limit}, split ${split}, order ${JSON.stringify(all)}`;
  const pages: number[][] = [];
  for (let page = await read(); page.length > 0; page = await readSplit({ after: keyOf(records, sort, page[page.length - 1]!) })) {
    pages.push(page);
    if (pages.length > records.length + 1) throw new Error(`the forward walk does not end: ${context()}`);
  }
  expect(pages, context()).toEqual(Array.from(pages, (_, i) => all.slice(i * limit, (i + 1) * limit)));
  expect(pages.flat(), context()).toEqual(all);
  for (let i = pages.length - 1; i > 0; i--) {
    expect(await readSplit({ before: keyOf(records, sort, pages[i]![0]!) }), context()).toEqual(pages[i - 1]);
  }
  if (pages.length > 0) expect(await readSplit({ before: keyOf(records, sort, pages[0]![0]!) })).toEqual([]);
}

const property = (engine: () => SqlEngine, fold: () => string | undefined) =>
  fc.asyncProperty(
    recordsArb({ maxLength: 20 }),
    typedSortArb(),
    fc.integer({ min: 1, max: 6 }),
    fc.boolean(),
    fc.boolean(),
    (records, sort, limit, cs, split) => checkSeekEqualsOffset(engine(), records, sort, limit, cs, fold(), split),
  );

const starters: Record<SqlDialect, () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs, mysql: startMariadb };
// MariaDB (a real server) when installed; test/property/sql-differential.test.ts reports a skip.
const dialects: readonly SqlDialect[] = findMariadb() === undefined ? ['postgres', 'sqlite'] : ['postgres', 'sqlite', 'mysql'];

describe.each(dialects)('seek paging on %s walks the rows of one ORDER BY', (dialect) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    // Each case loads its own rows into one table, emptied between cases rather than dropped and created.
    engine = await startCaseEngine(starters[dialect]);
  });
  afterAll(async () => {
    await engine?.close();
  });
  it('forward page by page, and backward to the same pages', async () => {
    await fc.assert(
      property(
        () => engine,
        () => undefined,
      ),
      { numRuns: dialect === 'mysql' ? RUNS / 2 : RUNS },
    );
  });
});

describe.skipIf(findPostgresBin() === undefined)('seek paging on the real PostgreSQL server', () => {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  let engine: SqlEngine;
  let fold: string | undefined;
  beforeAll(async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 2 });
    const p = pool;
    fold = (await chooseFoldCollation((sql, params) => p.query(sql, params))).foldCollation;
    engine = await startCaseEngine(async () => ({
      dialect: 'postgres' as const,
      run: async (sql: string, params: readonly unknown[] = []) => void (await p.query(sql, [...params])),
      rows: async (sql: string, params: readonly unknown[] = []) => (await p.query(sql, [...params])).rows as Record<string, unknown>[],
      close: async () => {},
    }));
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });
  it('forward page by page, and backward to the same pages', async () => {
    await fc.assert(
      property(
        () => engine,
        () => fold,
      ),
      { numRuns: 40 },
    );
  });
});

describe('the memory source through handleListRequest', () => {
  const route = '/api/things';
  const codec = createTokenCodec({ secret: 'seek paging test secret' });
  it('next-page from page 1 to the end gives query() order; prev-page walks back to the same pages', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ maxLength: 30 }),
        fc.option(typedSortArb()),
        fc.integer({ min: 1, max: 7 }),
        async (records, sort, limit) => {
          const source = createMemoryDataSource(records, { schema: testSchema });
          const options = { source, schema: testSchema, codec, route };
          const sortText = sort === null ? undefined : typedSortText(sort);
          const expected = query(records, { schema: testSchema, ...(sort === null ? {} : { sort }) });
          type Body = { Data: unknown[]; Pagination: { DataToken: string; TotalPages: number; PageNo: number } };
          const first = await handleListRequest(
            { query: { limit: String(limit), ...(sortText === undefined ? {} : { sort: sortText }) } },
            options,
          );
          expect(first.status).toBe(200);
          const firstBody = first.body as Body;
          const pages = [firstBody.Data];
          let token = firstBody.Pagination.DataToken;
          const total = firstBody.Pagination.TotalPages;
          for (let n = 2; n <= total; n++) {
            const next = (await handleListRequest({ query: { 'data-token': token, 'next-page': 'true' } }, options)).body as Body;
            expect(next.Pagination.PageNo).toBe(n);
            pages.push(next.Data);
            token = next.Pagination.DataToken;
          }
          expect(pages.flat()).toEqual(expected);
          for (let n = total - 1; n >= 1; n--) {
            const prev = (await handleListRequest({ query: { 'data-token': token, 'prev-page': 'true' } }, options)).body as Body;
            expect(prev.Data).toEqual(pages[n - 1]);
            token = prev.Pagination.DataToken;
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
