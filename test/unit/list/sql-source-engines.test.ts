/**
 * The SQL data source (`createSqlDataSource`, behind `createPostgresDataSource`
 * and `createMysqlDataSource`) at the edges where engines and drivers
 * differ, each a regression test named after its finding: walks with
 * `limit=1` through keys the engine stores more exactly than JavaScript
 * reads them (microseconds, NaN and infinities, ancient years), through
 * long shared prefixes on MariaDB, and lists with and without a client —
 * on PGlite, sql.js, a real PostgreSQL 15 server (`pg` driver) and a real
 * MariaDB server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeSort, defineSchema, WepqlError } from '../../../src/index.js';
import type { DataQuery, DataSource, SeekWindow } from '../../../src/list/index.js';
import { createSqlDataSource } from '../../../src/sources/sql-source.js';
import { chooseFoldCollation } from '../../../src/sample/employees.js';
import type { SqlDialect } from '../../../src/sql/index.js';
import { startMariadb } from '../../support/mariadb-engine.js';
import { findMariadb } from '../../support/mariadb-server.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { ROW_COLUMN, loadTable, startPglite, startSqlJs, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({
  fields: {
    Id: { type: 'integer' },
    ClientId: { type: 'integer' },
    D: { type: 'datetime', nullable: true },
    N: { type: 'number', nullable: true },
    S: { type: 'string', nullable: true },
  },
});

interface Engine {
  readonly engine: SqlEngine;
  readonly foldCollation?: string;
}

const runner = (engine: SqlEngine) => (sql: string, params: unknown[]) => engine.rows(sql, params);

function sourceOn(e: Engine, table: string, scoped: boolean, seen?: { sql: string; params: unknown[] }[]): DataSource {
  const run = runner(e.engine);
  return createSqlDataSource({
    dialect: e.engine.dialect,
    run: seen === undefined ? run : (sql, params) => (seen.push({ sql, params }), run(sql, params)),
    table,
    schema,
    tieBreaker: ROW_COLUMN,
    ...(scoped ? { clientField: 'ClientId' } : {}),
    ...(e.foldCollation === undefined ? {} : { foldCollation: e.foldCollation }),
  });
}

const query = (sort: string, clientId?: number): DataQuery => ({
  filter: undefined,
  sort: analyzeSort(sort, { schema }).value,
  includeDeleted: false,
  ...(clientId === undefined ? {} : { clientId }),
});

const ids = (rows: readonly unknown[]) => rows.map((r) => (r as { Id: number }).Id);

/**
 * Walks `next` from the first page to the end, with the keys through JSON as a token carries them,
 * then `prev` from every page to the one before; checks both against one ORDER BY read by offset.
 */
async function walk(source: DataSource, q: DataQuery, limit: number): Promise<number[][]> {
  const all = ids(await source.page(q, { offset: 0, limit: 1000 }));
  const carried = (key: unknown) => JSON.parse(JSON.stringify(key)) as never;
  const read = (window: SeekWindow) => source.keyedPage!(q, window);
  const pages: number[][] = [];
  const firstKeys: unknown[] = [];
  let page = await read({ offset: 0, limit });
  while (page.rows.length > 0) {
    pages.push(ids(page.rows));
    firstKeys.push(page.keys!.first);
    if (pages.length > all.length + 1) throw new Error(`the walk does not end: ${JSON.stringify(pages)}`);
    page = await read({ offset: 0, limit, after: carried(page.keys!.last) });
  }
  expect(pages.flat(), 'next-page walks the rows of one ORDER BY').toEqual(all);
  for (let i = pages.length - 1; i >= 1; i--) {
    expect(ids((await read({ offset: 0, limit, before: carried(firstKeys[i]) })).rows), `prev-page to page ${i}`).toEqual(pages[i - 1]);
  }
  return pages;
}

const startRealPostgres = async (): Promise<{ engine: SqlEngine; foldCollation?: string; server: PostgresServer; pool: pg.Pool }> => {
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const engine: SqlEngine = {
    dialect: 'postgres',
    run: async (sql, params = []) => void (await pool.query(sql, [...params])),
    rows: async (sql, params = []) => (await pool.query(sql, [...params])).rows as Record<string, unknown>[],
    close: async () => {
      await pool.end();
      await server.stop();
    },
  };
  const { foldCollation } = await chooseFoldCollation((sql, params) => pool.query(sql, params));
  return { engine, server, pool, ...(foldCollation === undefined ? {} : { foldCollation }) };
};

const startPgliteEngine = async (): Promise<Engine> => {
  const engine = await startPglite();
  const { foldCollation } = await chooseFoldCollation(async (sql, params) => ({ rows: await engine.rows(sql, params) }));
  return { engine, ...(foldCollation === undefined ? {} : { foldCollation }) };
};

const hasPostgres = findPostgresBin() !== undefined;
const hasMariadb = findMariadb() !== undefined;

/**
 * One engine of each kind for the whole file, started on first use and closed when the file ends: the describe
 * blocks below use tables of distinct names, and each start cost seconds of CPU (a PGlite instance about 3 s), a
 * database created and a pool or a connection opened.
 */
const started = new Map<string, Promise<Engine>>();
const shared =
  (key: string, start: () => Promise<Engine>): (() => Promise<Engine>) =>
  () => {
    let engine = started.get(key);
    if (engine === undefined) started.set(key, (engine = start()));
    return engine;
  };
afterAll(async () => {
  for (const engine of started.values()) await (await engine.catch(() => undefined))?.engine.close();
});
const pgliteShared = shared('PGlite', startPgliteEngine);
const postgresShared = shared('PostgreSQL', startRealPostgres);
const mariadbShared = shared('MariaDB', async () => ({ engine: await startMariadb() }));

const starters: Record<string, () => Promise<Engine>> = {
  PGlite: pgliteShared,
  'sql.js': async () => ({ engine: await startSqlJs() }),
  ...(hasPostgres ? { 'PostgreSQL 15 (pg driver)': postgresShared } : {}),
  ...(hasMariadb ? { MariaDB: mariadbShared } : {}),
};
if (!hasPostgres) console.warn('SKIPPED: SQL data source findings on a real PostgreSQL server (not installed)');
if (!hasMariadb) console.warn('SKIPPED: SQL data source findings on a real MariaDB server (not installed)');

const ANCIENT = ['0001-01-01T00:00:00.000Z', '0099-12-31T23:59:59.999Z', '0100-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z'];

describe.each(Object.keys(starters))('the SQL data source on %s', (name) => {
  let e: Engine;
  beforeAll(async () => {
    e = await starters[name]!();
  }, 120_000);
  afterAll(async () => {
    // The shared engines close when the file ends.
    if (name === 'sql.js') await e?.engine.close();
  });

  it('PGlite ancient dates: years 0001, 0099, 0100 and 9999 page Asc and Desc with limit=1, rebuilt rows keep them', async () => {
    // Row indexes run against the Ids, so a walk that fell back on the tie-breaker would show.
    const records = ANCIENT.map((d, i) => ({ Id: i + 1, ClientId: 1, D: d })).reverse();
    await loadTable(e.engine, schema, records, { table: 'ancient' });
    const source = sourceOn(e, 'ancient', false);
    expect(await walk(source, query('D=Asc'), 1)).toEqual([[1], [2], [3], [4]]);
    expect(await walk(source, query('D=Desc'), 1)).toEqual([[4], [3], [2], [1]]);
    const rows = (await source.page(query('D=Asc'), { offset: 0, limit: 10 })) as { D: string }[];
    expect(rows.map((r) => r.D)).toEqual(ANCIENT);
  });

  it('PGlite and sql.js drop a leading U+FEFF from text they read: keys and rebuilt rows keep it, and a walk never repeats a row', async () => {
    // PGlite's client and sql.js decode a text value that starts with U+FEFF as a byte-order mark; the source reads strings behind an `x`.
    const texts = ['\uFEFF;(', '\uFEFF;(', ']i', '\uFEFFa', 'a'];
    const records = texts.map((S, i) => ({ Id: i + 1, ClientId: 1, S })).reverse();
    await loadTable(e.engine, schema, records, { table: 'bom' });
    const source = sourceOn(e, 'bom', false);
    const all = ids(await source.page(query('S=Asc'), { offset: 0, limit: 10 }));
    expect((await walk(source, query('S=Asc'), 1)).flat()).toEqual(all);
    await walk(source, query('S=Desc'), 2);
    const rows = (await source.page(query('S=Asc'), { offset: 0, limit: 10 })) as { Id: number; S: string }[];
    for (const r of rows) expect(r.S).toBe(texts[r.Id - 1]);
  });

  it('ancient dates in a JSON column page and read back alike', async () => {
    // JSON column mappings are PostgreSQL and SQLite only; JSON datetimes need PostgreSQL 16+ (docs/sql.md), so not the real 15 server.
    if (e.engine.dialect === 'mysql' || name.startsWith('PostgreSQL 15')) return;
    const columns = { D: { json: 'doc', path: ['d'] } } as const;
    const records = ANCIENT.map((d, i) => ({ Id: i + 1, ClientId: 1, D: d })).reverse();
    await loadTable(e.engine, schema, records, { table: 'ancient_json', columns });
    const source = createSqlDataSource({
      dialect: e.engine.dialect,
      run: runner(e.engine),
      table: 'ancient_json',
      schema,
      columns,
      tieBreaker: ROW_COLUMN,
      ...(e.foldCollation === undefined ? {} : { foldCollation: e.foldCollation }),
    });
    expect(await walk(source, query('D=Desc'), 1)).toEqual([[4], [3], [2], [1]]);
    const rows = (await source.page(query('D=Asc'), { offset: 0, limit: 10 })) as { D: string }[];
    expect(rows.map((r) => r.D)).toEqual(ANCIENT);
  });

  it('unscoped lists: a source without clientField serves every row; with it, one client', async () => {
    const records = [1, 2, 3, 4, 5].map((id) => ({ Id: id, ClientId: id % 2 === 0 ? 2 : 1, S: `s${6 - id}` }));
    await loadTable(e.engine, schema, records, { table: 'clients' });
    const unscoped = sourceOn(e, 'clients', false);
    expect(await unscoped.count(query('S=Asc'))).toBe(5);
    expect(await walk(unscoped, query('S=Asc'), 2)).toEqual([[5, 4], [3, 2], [1]]);
    const seen: { sql: string; params: unknown[] }[] = [];
    const scoped = sourceOn(e, 'clients', true, seen);
    expect(await scoped.count(query('S=Asc', 2))).toBe(2);
    expect(await walk(scoped, query('S=Asc', 1), 2)).toEqual([[5, 3], [1]]);
    expect(await walk(scoped, query('S=Desc', 2), 1)).toEqual([[2], [4]]);
    // Every statement (count, pages, seeks both ways, the NULL split) carries the client scope as its first equality.
    expect(seen.length).toBeGreaterThan(8);
    for (const { sql, params } of seen) {
      expect(sql).toMatch(/ WHERE ("ClientId"|`ClientId`) = (\$1|\?)( AND |$| ORDER | LIMIT )/);
      expect([1, 2]).toContain(params[0]);
    }
  });

  it("partitionOf: a client's every statement (count, pages, seeks, a jump's keys and rows) reads the table it names, quoted", async () => {
    const records = [1, 2, 3, 4, 5, 6].map((id) => ({ Id: id, ClientId: id % 2 === 0 ? 2 : 1, S: `s${7 - id}` }));
    // The whole table holds client 1 only and client 2's "partition" holds client 2 only: a statement reading the
    // wrong one finds nothing.
    await loadTable(
      e.engine,
      schema,
      records.filter((r) => r.ClientId === 1),
      { table: 'routed' },
    );
    await loadTable(
      e.engine,
      schema,
      records.filter((r) => r.ClientId === 2),
      { table: 'part "2"' },
    );
    const named = (id: string | number) => (id === 2 ? 'part "2"' : undefined);
    for (const partitionOf of [named, async (id: string | number) => (id === 2 ? ['part "2"'] : undefined)]) {
      const seen: { sql: string; params: unknown[] }[] = [];
      const run = runner(e.engine);
      const source = createSqlDataSource({
        dialect: e.engine.dialect,
        run: (sql, params) => (seen.push({ sql, params }), run(sql, params)),
        table: 'routed',
        schema,
        tieBreaker: ROW_COLUMN,
        clientField: 'ClientId',
        partitionOf,
        ...(e.foldCollation === undefined ? {} : { foldCollation: e.foldCollation }),
      });
      expect(await source.count(query('S=Asc', 2))).toBe(3);
      expect(await walk(source, query('S=Asc', 2), 2)).toEqual([[6, 4], [2]]);
      expect(ids(await source.page(query('S=Asc', 2), { offset: 1, limit: 1 }))).toEqual([4]);
      expect(ids((await source.keyedPage!(query('S=Desc', 2), { offset: 2, limit: 2 })).rows)).toEqual([6]);
      const routed = seen.splice(0);
      expect(routed.length).toBeGreaterThan(5);
      for (const { sql } of routed) {
        expect(sql).toMatch(/ FROM ("part ""2"""|`part "2"`) /);
        expect(sql).not.toMatch(/routed/);
      }
      // A client it does not name reads the table.
      expect(await walk(source, query('S=Asc', 1), 2)).toEqual([[5, 3], [1]]);
      for (const { sql } of seen) expect(sql).toMatch(/ FROM ("routed"|`routed`) /);
    }
  });

  it('unscoped lists: a client id on a source without clientField is a configuration error naming the fix', async () => {
    const unscoped = sourceOn(e, 'clients', false);
    for (const call of [() => unscoped.count(query('S=Asc', 1)), () => unscoped.page(query('S=Asc', 1), { offset: 0, limit: 1 })]) {
      const error = await call().then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(error).toBeInstanceOf(WepqlError);
      expect((error as Error).message).toMatch(
        /configuration error: .*without clientField.*Pass clientField .* or serve the list on a route without a client id/,
      );
    }
  });
});

const postgresStarters: Record<string, () => Promise<Engine>> = {
  PGlite: pgliteShared,
  ...(hasPostgres ? { 'the real PostgreSQL 15 server': postgresShared } : {}),
};

describe.each(Object.keys(postgresStarters))('the SQL data source on %s: full-precision seek keys', (name) => {
  let pgEngine: Engine;
  beforeAll(async () => {
    pgEngine = await postgresStarters[name]!();
  }, 120_000);

  it('PostgreSQL timestamps with microseconds: a walk never repeats a row', async () => {
    await loadTable(
      pgEngine.engine,
      schema,
      [3, 1, 2].map((id) => ({ Id: id, ClientId: 1 })),
      { table: 'micro' },
    );
    // Written as `now()` writes them: one millisecond, three microseconds.
    await pgEngine.engine.run(`UPDATE "micro" SET "D" = date_trunc('milliseconds', now()) + "Id" * interval '1 microsecond'`);
    const source = sourceOn(pgEngine, 'micro', false);
    expect(await walk(source, query('D=Asc'), 1)).toEqual([[1], [2], [3]]);
    expect(await walk(source, query('D=Desc'), 1)).toEqual([[3], [2], [1]]);
    expect(await walk(source, query('D=Desc'), 2)).toEqual([[3, 2], [1]]);
  });

  it('PostgreSQL NaN and ±Infinity doubles: a walk orders them as the engine does, never with a null key', async () => {
    await loadTable(
      pgEngine.engine,
      schema,
      [1, 2, 3, 4, 5, 6].map((id) => ({ Id: id, ClientId: 1 })),
      { table: 'doubles' },
    );
    await pgEngine.engine.run(
      `UPDATE "doubles" SET "N" = (ARRAY['-Infinity', '-1.5', '0', 'Infinity', 'NaN', NULL]::double precision[])["Id"]`,
    );
    const source = sourceOn(pgEngine, 'doubles', false);
    expect((await walk(source, query('N=Asc'), 1)).flat()).toEqual([6, 1, 2, 3, 4, 5]);
    expect((await walk(source, query('N=Desc'), 1)).flat()).toEqual([5, 4, 3, 2, 1, 6]);
    expect((await walk(source, query('N=Desc;D=Asc'), 2)).flat()).toEqual([5, 4, 3, 2, 1, 6]);
    const page = await source.keyedPage!(query('N=Desc'), { offset: 0, limit: 2 });
    expect(page.keys?.first[0]).toBe('NaN');
    expect(page.keys?.last[0]).toBe('Infinity');
  });

  it("PostgreSQL 'infinity' timestamps: a walk orders them as the engine does, rows show them as text", async () => {
    await loadTable(
      pgEngine.engine,
      schema,
      [1, 2, 3, 4].map((id) => ({ Id: id, ClientId: 1 })),
      { table: 'infinite' },
    );
    await pgEngine.engine.run(
      `UPDATE "infinite" SET "D" = (ARRAY['-infinity', '2020-01-01T00:00:00Z', 'infinity', NULL]::timestamptz[])["Id"]`,
    );
    const source = sourceOn(pgEngine, 'infinite', false);
    expect((await walk(source, query('D=Asc'), 1)).flat()).toEqual([4, 1, 2, 3]);
    expect((await walk(source, query('D=Desc'), 1)).flat()).toEqual([3, 2, 1, 4]);
    const rows = (await source.page(query('D=Asc'), { offset: 0, limit: 4 })) as { D?: string }[];
    expect(rows.map((r) => r.D)).toEqual([undefined, '-infinity', '2020-01-01T00:00:00.000Z', 'infinity']);
  });
});

describe.skipIf(!hasMariadb)('the SQL data source on the real MariaDB server: ORDER BY compares what the seek compares', () => {
  let e: Engine;
  beforeAll(async () => {
    e = await mariadbShared();
  }, 120_000);

  it('MariaDB max_sort_length: three keys sharing a 1,100-byte prefix walk [1,2,3]', async () => {
    const prefix = 'a'.repeat(1100);
    const records = [3, 1, 2].map((id) => ({ Id: id, ClientId: 1, S: prefix + 'xyz'[id - 1] }));
    await loadTable(e.engine, schema, records, { table: 'prefix' });
    const source = sourceOn(e, 'prefix', false);
    expect(await walk(source, query('S=Asc'), 1)).toEqual([[1], [2], [3]]);
    expect(await walk(source, query('S=Desc'), 1)).toEqual([[3], [2], [1]]);
  });
});

describe('the SQL data source pages alike on every dialect', () => {
  it.each<SqlDialect>(['postgres', 'mysql', 'sqlite'])(
    '%s: a walk towards smaller first keys reads the non-NULL keys first, then the NULL ones',
    async (dialect) => {
      const seen: string[] = [];
      const source = createSqlDataSource({
        dialect,
        run: async (sql) => (seen.push(sql), []),
        table: 't',
        schema,
        tieBreaker: 'Id',
      });
      await source.keyedPage!(query('S=Desc'), { offset: 5, limit: 5, after: ['m', 7] });
      expect(seen).toHaveLength(2);
      expect(seen[0]).not.toMatch(/ IS NULL AND /);
      expect(seen[1]).toMatch(/ WHERE .*S.* IS NULL AND /);
      seen.length = 0;
      await source.keyedPage!(query('S=Asc'), { offset: 5, limit: 5, after: ['m', 7] });
      expect(seen).toHaveLength(1);
    },
  );
});

describe('the SQL data source refuses a bad configuration at construction', () => {
  it.each<SqlDialect>(['postgres', 'mysql', 'sqlite'])('%s: an unknown clientField', (dialect) => {
    expect(() =>
      createSqlDataSource({ dialect, run: async () => [], table: 't', schema, tieBreaker: 'Id', clientField: 'Client' }),
    ).toThrow(/clientField: the schema has no scalar field "Client"/);
  });
});
