/**
 * `wepql/kysely` and `wepql/drizzle` through the real Kysely and
 * drizzle-orm packages on PostgreSQL (PGlite), SQLite (sql.js) and, when
 * installed, MariaDB (Kysely's MysqlDialect and Drizzle's mysql2 driver over
 * a real server; text outside MySQL's documented folding gap): for
 * generated tables, filters and sorts, the wepql condition ANDed with an
 * application condition of the query builder's own (`wepql_row <> 1`)
 * returns, in order, exactly what `query()` returns without record 1: the
 * fragment composes with the builder's conditions and parameters.
 */
import { PGlite } from '@electric-sql/pglite';
import { and, ne } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { integer as pgInteger, pgTable } from 'drizzle-orm/pg-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { int as mysqlInt, mysqlTable } from 'drizzle-orm/mysql-core';
import { drizzle as drizzleSqlJs } from 'drizzle-orm/sql-js';
import { integer as sqliteInteger, sqliteTable } from 'drizzle-orm/sqlite-core';
import fc from 'fast-check';
import {
  DummyDriver,
  Kysely,
  MysqlDialect,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { Database } from 'sql.js';
import mysql from 'mysql2';
import mysqlPromise from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drizzleOrderBy, drizzleWhere } from '../../src/query-builders/drizzle.js';
import { kyselyOrderBy, kyselyWhere } from '../../src/query-builders/kysely.js';
import type { SqlDialect } from '../../src/sql/index.js';
import type { TypedFilter, TypedSort } from '../../src/index.js';
import { query } from '../../src/index.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb, type MariadbServer } from '../support/mariadb-server.js';
import { mysqlSafe } from '../support/mysql-fold.js';
import { ROW_COLUMN, loadTable, startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';
import { startCaseEngine } from '../support/sql-reused-tables.js';
import { recordsArb, testSchema, typedFilterArb, typedFilterText, typedSortArb, typedSortText } from '../support/typed-arbitraries.js';

const RUNS = 80;
const EXCLUDED = 1;

interface Cases {
  cases: { wepql_row: number };
}

/** A Kysely instance whose driver runs compiled queries on the engine (Kysely ships no PGlite or sql.js driver). */
function kyselyOn(engine: SqlEngine): Kysely<Cases> {
  if (engine.dialect === 'mysql') return new Kysely<Cases>({ dialect: new MysqlDialect({ pool: mysql.createPool(connectionOf(engine)) }) });
  const postgres = engine.dialect === 'postgres';
  return new Kysely<Cases>({
    dialect: {
      createAdapter: () => (postgres ? new PostgresAdapter() : new SqliteAdapter()),
      createIntrospector: (k) => (postgres ? new PostgresIntrospector(k) : new SqliteIntrospector(k)),
      createQueryCompiler: () => (postgres ? new PostgresQueryCompiler() : new SqliteQueryCompiler()),
      createDriver: () =>
        Object.assign(new DummyDriver(), {
          acquireConnection: async () => ({
            executeQuery: async (compiled: CompiledQuery) => ({ rows: await engine.rows(compiled.sql, compiled.parameters) }),
            streamQuery: () => {
              throw new Error('not used');
            },
          }),
        }),
    },
  });
}

function connectionOf(engine: SqlEngine): mysql.PoolOptions {
  const server = (engine as SqlEngine & { server: MariadbServer }).server;
  return {
    host: server.host,
    port: server.port,
    user: server.user,
    database: server.database,
    charset: 'UTF8MB4_GENERAL_CI',
    connectionLimit: 1,
  };
}

const mysqlCases = mysqlTable('cases', { wepql_row: mysqlInt('wepql_row') });
const pgCases = pgTable('cases', { wepql_row: pgInteger('wepql_row') });
const sqliteCases = sqliteTable('cases', { wepql_row: sqliteInteger('wepql_row') });

type Runner = ((filter: TypedFilter, sort: TypedSort | null, caseSensitive: boolean) => Promise<{ rows: number[]; sql: string }>) & {
  close?: () => Promise<void>;
};

function kyselyRunner(engine: SqlEngine): Runner {
  const db = kyselyOn(engine);
  const run: Runner = async (filter, sort, caseSensitive) => {
    const options = { dialect: engine.dialect, schema: testSchema, caseSensitive, tieBreaker: ROW_COLUMN };
    const order = kyselyOrderBy(sort ?? undefined, options);
    const builder = db
      .selectFrom('cases')
      .select('wepql_row')
      .where((eb) => eb.and([eb('wepql_row', '<>', EXCLUDED), kyselyWhere(eb, filter, options)]))
      .$if(order !== undefined, (q) => q.orderBy(order!));
    const rows = await builder.execute();
    return { rows: rows.map((r) => Number(r.wepql_row)), sql: `${builder.compile().sql} ${JSON.stringify(builder.compile().parameters)}` };
  };
  return Object.assign(run, { close: () => db.destroy() });
}

function drizzleRunner(engine: SqlEngine): Runner {
  const options = (caseSensitive: boolean) => ({ dialect: engine.dialect, schema: testSchema, caseSensitive, tieBreaker: ROW_COLUMN });
  if (engine.dialect === 'mysql') {
    const pool = mysqlPromise.createPool(connectionOf(engine));
    const db = drizzleMysql(pool);
    const run: Runner = async (filter, sort, caseSensitive) => {
      const o = options(caseSensitive);
      const builder = db
        .select({ row: mysqlCases.wepql_row })
        .from(mysqlCases)
        .where(and(ne(mysqlCases.wepql_row, EXCLUDED), drizzleWhere(filter, o)))
        .orderBy(...drizzleOrderBy(sort ?? undefined, o));
      const rows = await builder;
      return { rows: rows.map((r) => Number(r.row)), sql: `${builder.toSQL().sql} ${JSON.stringify(builder.toSQL().params)}` };
    };
    return Object.assign(run, { close: () => pool.end() });
  }
  if (engine.dialect === 'postgres') {
    const db = drizzlePglite(engine.native as PGlite);
    return async (filter, sort, caseSensitive) => {
      const o = options(caseSensitive);
      const builder = db
        .select({ row: pgCases.wepql_row })
        .from(pgCases)
        .where(and(ne(pgCases.wepql_row, EXCLUDED), drizzleWhere(filter, o)))
        .orderBy(...drizzleOrderBy(sort ?? undefined, o));
      const rows = await builder;
      return { rows: rows.map((r) => Number(r.row)), sql: `${builder.toSQL().sql} ${JSON.stringify(builder.toSQL().params)}` };
    };
  }
  const db = drizzleSqlJs(engine.native as Database);
  return async (filter, sort, caseSensitive) => {
    const o = options(caseSensitive);
    const builder = db
      .select({ row: sqliteCases.wepql_row })
      .from(sqliteCases)
      .where(and(ne(sqliteCases.wepql_row, EXCLUDED), drizzleWhere(filter, o)))
      .orderBy(...drizzleOrderBy(sort ?? undefined, o));
    const rows = builder.all();
    return { rows: rows.map((r) => Number(r.row)), sql: `${builder.toSQL().sql} ${JSON.stringify(builder.toSQL().params)}` };
  };
}

const starters: Record<SqlDialect, () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs, mysql: startMariadb };
const builders = { kysely: kyselyRunner, drizzle: drizzleRunner } as const;
// MariaDB when installed (test/property/sql-differential.test.ts reports a skip).
const dialects: readonly SqlDialect[] = findMariadb() === undefined ? ['postgres', 'sqlite'] : ['postgres', 'sqlite', 'mysql'];

describe.each(dialects)('query builders on %s return what query() returns', (dialect) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    // One table for the file, emptied between cases instead of dropped and created (test/support/sql-reused-tables.ts).
    engine = await startCaseEngine(starters[dialect]);
  });
  afterAll(async () => {
    await engine?.close();
  });

  it.each(['kysely', 'drizzle'] as const)('%s', async (builder) => {
    const run = builders[builder](engine);
    try {
      await fc.assert(
        fc.asyncProperty(
          recordsArb({ maxLength: 16 }),
          typedFilterArb(),
          fc.option(typedSortArb()),
          fc.boolean(),
          async (records, filter, sort, cs) => {
            if (dialect === 'mysql') {
              records = mysqlSafe(records);
              filter = mysqlSafe(filter);
            }
            const rows = records.map((r) => ({ ...r }));
            const index = new Map<unknown, number>(rows.map((r, i) => [r, i]));
            await loadTable(engine, testSchema, rows, { table: 'cases' });
            const got = await run(filter, sort, cs);
            const expected = query(rows, { filter, ...(sort === null ? {} : { sort }), schema: testSchema, caseSensitive: cs })
              .map((r) => index.get(r)!)
              .filter((i) => i !== EXCLUDED);
            if (JSON.stringify(got.rows) !== JSON.stringify(expected)) {
              throw new Error(
                [
                  `${builder} on ${dialect} disagrees with query()${cs ? ' (case-sensitive)' : ''}`,
                  `filter: ${typedFilterText(filter)}`,
                  `sort:   ${sort === null ? '' : typedSortText(sort)}`,
                  `sql:    ${got.sql}`,
                  `rows from the database: ${JSON.stringify(got.rows)}`,
                  `rows from query():      ${JSON.stringify(expected)}`,
                ].join('\n'),
              );
            }
          },
        ),
        { numRuns: dialect === 'mysql' ? RUNS / 2 : RUNS },
      );
    } finally {
      await run.close?.();
    }
  });

  it('an empty filter composes as always-true, and no sort and no tie-breaker adds no ORDER BY', async () => {
    await loadTable(engine, testSchema, [{ Name: 'a' }, { Name: 'b' }, { Name: 'c' }], { table: 'cases' });
    const empty = { filter: { kind: 'typed-filter', clauses: [], source: { kind: 'filter', clauses: [] } } } as unknown as {
      filter: TypedFilter;
    };
    for (const builder of ['kysely', 'drizzle'] as const) {
      const run = builders[builder](engine);
      try {
        expect((await run(empty.filter, null, false)).rows, builder).toEqual([0, 2]);
      } finally {
        await run.close?.();
      }
    }
    expect(kyselyOrderBy(undefined, { dialect, schema: testSchema })).toBeUndefined();
    expect(drizzleOrderBy(undefined, { dialect, schema: testSchema })).toEqual([]);
    expect(drizzleWhere(undefined, { dialect, schema: testSchema })).toBeUndefined();
  });
});

describe('fragments bind every value', () => {
  const hostile = "x'); DROP TABLE cases; --";
  const filter = `Name.Equal('${hostile.replaceAll("'", "''")}');Age.InArray(1,2)`;

  it.each(['postgres', 'sqlite', 'mysql'] as const)('%s: the value is a parameter of Kysely and of Drizzle, never text', (dialect) => {
    const options = { dialect, schema: testSchema };
    // Compiled only, never run: the placeholder style does not matter here.
    const kysely = new Kysely<Cases>({
      dialect: {
        createAdapter: () => new SqliteAdapter(),
        createIntrospector: (k) => new SqliteIntrospector(k),
        createQueryCompiler: () => new SqliteQueryCompiler(),
        createDriver: () => new DummyDriver(),
      },
    });
    const compiled = kysely
      .selectFrom('cases')
      .select('wepql_row')
      .where((eb) => kyselyWhere(eb, filter, options))
      .compile();
    expect(compiled.sql).not.toContain('DROP');
    expect(compiled.parameters).toContain(hostile.toLowerCase());
    const drizzled = drizzleSqlJs({} as Database)
      .select({ row: sqliteCases.wepql_row })
      .from(sqliteCases)
      .where(drizzleWhere(filter, options))
      .toSQL();
    expect(drizzled.sql).not.toContain('DROP');
    expect(drizzled.params).toContain(hostile.toLowerCase());
  });
});
