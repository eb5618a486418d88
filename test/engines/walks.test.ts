/**
 * One meaning on every engine, paged: the same random tables, filters and
 * sorts as engines.test.ts, served by each data source — memory, the
 * PostgreSQL source on PGlite and on a real PostgreSQL 15 server, the MySQL
 * source on a real MariaDB — and walked by keyset (`keyedPage` with the
 * keys of the page before) forward to the end and back to the start. Both
 * walks must list exactly the records `query()` returns, in order (the
 * records hold an `Id`, the tie-breaker, in insertion order). SQL sources
 * rebuild records from the columns, so every value read back — datetimes
 * in years 0001–0099 included — is read through the engine's client.
 * A disagreement is allowed only where docs/sql.md's folding tables say the
 * engine folds differently.
 */
import fc from 'fast-check';
import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../src/index.js';
import { analyzeFilter, analyzeSort, defineSchema, query } from '../../src/index.js';
import type { DataQuery, DataSource, KeyedPage } from '../../src/list/index.js';
import {
  createMemoryDataSource,
  createPostgresDataSource,
  createPostgresTable,
  insertPostgresRecords,
  createMysqlDataSource,
  createMysqlTable,
  insertMysqlRecords,
} from '../../src/sources/index.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { touchesFoldGap, type FoldEngine } from '../support/fold-gaps.js';
import { findMariadb, mariadbUnavailableReason, startMariadbServer, type MariadbServer } from '../support/mariadb-server.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { TEST_SCHEMA_DEFINITION, typedFilterText, typedSortText } from '../support/typed-arbitraries.js';
import { ENGINES_RUNS, ENGINES_SEED, caseArb, valuesOf, type Case } from './cases.js';
import { createPglite } from '../support/sql-pglite.js';

/** The test schema with the tie-breaker the sources need. */
const walkSchema: Schema = defineSchema({ fields: { ...TEST_SCHEMA_DEFINITION.fields, Id: { type: 'integer' } } });
const RUNS = Math.max(10, Math.round(ENGINES_RUNS / 2));

interface Walker {
  readonly name: string;
  readonly fold: FoldEngine | undefined;
  /** Loads the records (replacing the table) and returns a source over them. */
  load(records: readonly Record<string, unknown>[], caseSensitive: boolean): Promise<DataSource>;
  close(): Promise<void>;
}

/** The typed query of a case, analysed against the walk schema (undefined when its text does not read back). */
function dataQuery(c: Case): DataQuery | undefined {
  const filterText = typedFilterText(c.filter);
  const sortText = c.sort === null ? '' : typedSortText(c.sort);
  const filter = filterText === '' ? undefined : analyzeFilter(filterText, { schema: walkSchema });
  const sort = sortText === '' ? undefined : analyzeSort(sortText, { schema: walkSchema });
  if ((filter !== undefined && filter.value === undefined) || (sort !== undefined && sort.value === undefined)) return undefined;
  return { filter: filter?.value, sort: sort?.value, includeDeleted: true };
}

const idsOf = (rows: readonly unknown[]): number[] => rows.map((r) => Number((r as { Id: unknown }).Id));

/** Walks forward by `after` keys to the end, then back by `before` keys to the start. */
async function walk(source: DataSource, q: DataQuery, limit: number): Promise<{ forward: number[]; backward: number[] }> {
  const forward: number[] = [];
  const pages: KeyedPage[] = [];
  let page = await source.keyedPage!(q, { offset: 0, limit });
  for (let offset = 0; page.rows.length > 0 && pages.length < 200;) {
    pages.push(page);
    forward.push(...idsOf(page.rows));
    offset += page.rows.length;
    page = await source.keyedPage!(q, { offset, limit, after: page.keys!.last });
  }
  const backward: number[] = [];
  let at = pages.at(-1);
  let offset = forward.length - (at?.rows.length ?? 0);
  while (at !== undefined && at.rows.length > 0 && offset > 0) {
    const before = await source.keyedPage!(q, { offset: Math.max(0, offset - limit), limit, before: at.keys!.first });
    backward.unshift(...idsOf(before.rows));
    offset -= before.rows.length;
    at = before;
  }
  if (pages.length > 0) backward.push(...idsOf(pages.at(-1)!.rows));
  return { forward, backward };
}

function columnsRecords(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return records.map((r, i) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(r))
      Object.defineProperty(out, key, { value: r[key], enumerable: true, writable: true, configurable: true });
    out.Id = i + 1;
    return out;
  });
}

const postgres = findPostgresBin() !== undefined;
const mariadb = findMariadb() !== undefined;
if (!postgres) console.warn(`SKIPPED: engine walks on PostgreSQL 15 — ${postgresUnavailableReason()}`);
if (!mariadb) console.warn(`SKIPPED: engine walks on MariaDB — ${mariadbUnavailableReason()}`);

function postgresWalker(
  name: string,
  fold: FoldEngine,
  connect: () => Promise<{ query: (sql: string, params: unknown[]) => Promise<{ rows: readonly unknown[] }>; close: () => Promise<void> }>,
): () => Promise<Walker> {
  return async () => {
    const { query: run, close } = await connect();
    const { foldCollation } = await chooseFoldCollation(run);
    let made = false;
    return {
      name,
      fold,
      async load(records, caseSensitive) {
        const table = { query: run, table: 'walk', schema: walkSchema, primaryKey: 'Id' };
        // Made once, then emptied between cases: the same table, without a drop and a create per case.
        if (made) await run('DELETE FROM "walk"', []);
        else await createPostgresTable(table, { replace: true });
        made = true;
        await insertPostgresRecords(table, records);
        return createPostgresDataSource({
          query: run,
          table: 'walk',
          schema: walkSchema,
          tieBreaker: 'Id',
          caseSensitive,
          ...(foldCollation ? { foldCollation } : {}),
        });
      },
      close,
    };
  };
}

const WALKERS: readonly { name: string; available: boolean; start: () => Promise<Walker> }[] = [
  {
    name: 'memory',
    available: true,
    start: async () => ({
      name: 'memory',
      fold: undefined,
      load: async (records, caseSensitive) => createMemoryDataSource(records, { schema: walkSchema, tieBreaker: 'Id', caseSensitive }),
      close: async () => {},
    }),
  },
  {
    name: 'PGlite',
    available: true,
    start: postgresWalker('PGlite', 'pglite', async () => {
      const db = await createPglite();
      return { query: async (sql, params) => db.query(sql, params), close: async () => db.close() };
    }),
  },
  {
    name: 'PostgreSQL 15',
    available: postgres,
    start: async () => {
      const server: PostgresServer = await startPostgresServer();
      const pool = new pg.Pool({ connectionString: server.url, max: 2 });
      const walker = await postgresWalker('PostgreSQL 15', 'postgres15', async () => ({
        query: async (sql, params) => pool.query(sql, params),
        close: async () => {
          await pool.end();
          await server.stop();
        },
      }))();
      return walker;
    },
  },
  {
    name: 'MariaDB',
    available: mariadb,
    start: async () => {
      const server: MariadbServer = await startMariadbServer();
      const connection = await mysql.createConnection({
        host: server.host,
        port: server.port,
        user: server.user,
        database: server.database,
        charset: 'UTF8MB4_GENERAL_CI',
        maxPreparedStatements: 64,
      });
      const run = async (sql: string, params: unknown[]) =>
        params.length === 0 ? (await connection.query(sql))[0] : (await connection.execute(sql, params as never[]))[0];
      let made = false;
      return {
        name: 'MariaDB',
        fold: 'mariadb',
        async load(records, caseSensitive) {
          // Made once, then emptied between cases: InnoDB created and deleted a tablespace file per case.
          if (made) await run('DELETE FROM `walk`', []);
          else await createMysqlTable({ run, table: 'walk', schema: walkSchema, primaryKey: 'Id' }, { replace: true });
          made = true;
          await insertMysqlRecords({ run, table: 'walk', schema: walkSchema }, records);
          return createMysqlDataSource({ run, table: 'walk', schema: walkSchema, tieBreaker: 'Id', caseSensitive });
        },
        async close() {
          await connection.end();
          await server.stop();
        },
      };
    },
  },
];

describe.each(WALKERS)('$name pages by keyset to what query() returns', ({ name, available, start }) => {
  let walker: Walker | undefined;
  beforeAll(async () => {
    if (available) walker = await start();
  });
  afterAll(async () => {
    await walker?.close();
  });

  it.skipIf(!available)(`on ${RUNS} random cases, forward and back`, async () => {
    const tally = { agree: 0, allowed: 0, disagree: 0, skipped: 0 };
    let first: string | undefined;
    const cases = fc.sample(fc.tuple(caseArb, fc.integer({ min: 1, max: 3 })), { numRuns: RUNS, seed: ENGINES_SEED + 1 });
    for (const [c, limit] of cases) {
      const q = dataQuery(c);
      if (q === undefined) {
        tally.skipped++;
        continue;
      }
      const records = columnsRecords(c.records);
      const source = await walker!.load(records, c.caseSensitive);
      const expected = idsOf(
        query(records, {
          ...(q.filter ? { filter: q.filter } : {}),
          ...(q.sort ? { sort: q.sort } : {}),
          schema: walkSchema,
          caseSensitive: c.caseSensitive,
        }),
      );
      const { forward, backward } = await walk(source, q, limit);
      if (JSON.stringify(forward) === JSON.stringify(expected) && JSON.stringify(backward) === JSON.stringify(expected)) tally.agree++;
      else if (walker!.fold !== undefined && !c.caseSensitive && touchesFoldGap(walker!.fold, [c.records, c.filter.clauses.map(valuesOf)]))
        tally.allowed++;
      else {
        tally.disagree++;
        first ??= [
          `${name}: a keyset walk (limit ${limit}) differs from query()`,
          `filter: ${typedFilterText(c.filter)}`,
          `sort:   ${c.sort === null ? '' : typedSortText(c.sort)}`,
          `query():  ${JSON.stringify(expected)}`,
          `forward:  ${JSON.stringify(forward)}`,
          `backward: ${JSON.stringify(backward)}`,
          `data: ${JSON.stringify(records)}`,
        ].join('\n');
      }
    }
    console.log(
      `engine walks on ${name} (seed ${ENGINES_SEED + 1}): ${tally.agree} agree, ${tally.allowed} differ where docs/sql.md's table allows, ${tally.disagree} disagree, ${tally.skipped} skipped`,
    );
    expect(tally.disagree, first).toBe(0);
  });
});
