/**
 * Regression tests for two findings of a differential run across engines,
 * each named after it: lists too long for SQLite (a filter within every
 * default limit bound 128,000 `?` placeholders, which sql.js refuses and
 * MySQL's dialect also wrote), and sql.js dropping a leading U+FEFF in
 * `wepql_lower`'s argument (its TextDecoder strips a byte-order mark).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilter, defineSchema, query, type TypedFilter } from '../../../src/index.js';
import { toSql } from '../../../src/sql/index.js';
import { sqliteLower } from '../../../src/sql/dialects/sqlite/functions.js';
import { dialectEngines } from '../../support/mariadb-engine.js';
import { ROW_COLUMN, loadTable, selectRows, startPglite, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({
  fields: {
    Id: { type: 'integer' },
    S: { type: 'string', nullable: true },
    N: { type: 'number' },
    D: { type: 'datetime' },
    B: { type: 'boolean' },
    G: { type: 'integer', nullable: true },
  },
});

const DAY = 86_400_000;
const records = Array.from({ length: 400 }, (_, i) => ({
  Id: i,
  ...(i % 11 === 0 ? {} : { S: `Name${i % 97}${i % 3 === 0 ? 'É' : 'é'}` }),
  N: (i % 37) / 4,
  D: new Date(Date.UTC(2020, 0, 1) + (i % 53) * DAY).toISOString(),
  B: i % 2 === 0,
  ...(i % 13 === 0 ? {} : { G: i % 89 }),
}));

/**
 * 256 list conditions of 500 values each, of every type and list operator, ANDed in pairs inside
 * one OR: each list holds 499 values no record has and one (`k`-th) that some records have.
 */
function longListFilter(): TypedFilter {
  const list = (target: string, filler: (j: number) => string) => [...Array.from({ length: 499 }, (_, j) => filler(j)), target].join(',');
  const day = (n: number) => new Date(Date.UTC(2020, 0, 1) + n * DAY).toISOString();
  const conditions = Array.from({ length: 256 }, (_, k) => {
    switch (k % 6) {
      case 0:
        return `G.InArray(${list(String(k % 89), (j) => String(1000 + j))})`;
      case 1:
        return `S.InArrayOrNull(${list(`NAME${k % 97}é`, (j) => `zz${j}`)})`;
      case 2:
        return `D.NotInArray(${list(day(k % 53), (j) => day(4000 + j))})`;
      case 3:
        return `N.InArray(${list(String((k % 3) / 4), (j) => String(5000 + j / 4))})`;
      case 4:
        return `B.InArray(${list('true', () => 'true')})`;
      default:
        // Every G the records have but one: NotInArrayOrNull keeps that one and the nulls.
        return `G.NotInArrayOrNull(${list('0', (j) => String(j % 89 === k % 89 ? 1000 + j : j % 89))})`;
    }
  });
  // Pairs ANDed inside one OR, so most conditions decide some rows.
  const pairs = Array.from({ length: 128 }, (_, p) => `And(${conditions[2 * p]};${conditions[2 * p + 1]})`);
  const text = `Or(${pairs.join(';')})`;
  // Only the text is long: the tree is within every default limit that toSql checks again.
  const analyzed = analyzeFilter(text, { schema, limits: { maxLength: text.length } });
  if (analyzed.value === undefined) throw new Error(JSON.stringify(analyzed.diagnostics.slice(0, 3)));
  return analyzed.value;
}

// PGlite from the run's fresh data directory (test/support/sql-pglite.ts).
const engines = dialectEngines('engine edges').map(([dialect, start]) => [dialect, dialect === 'postgres' ? startPglite : start] as const);

describe.each(engines)('on %s', (dialect, start) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await start();
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('lists too long for SQLite: 256 conditions × 500 values bind one parameter per list and return what query() returns', async () => {
    const filter = longListFilter();
    const fragment = toSql({ filter, sort: 'Id=Asc' }, { dialect, schema, tieBreaker: ROW_COLUMN });
    expect(fragment.params.length).toBe(256);
    await loadTable(engine, schema, records, { table: 'lists' });
    const rows = records.map((r) => ({ ...r }));
    const index = new Map<unknown, number>(rows.map((r, i) => [r, i]));
    const expected = query(rows, { filter, sort: 'Id=Asc', schema }).map((r) => index.get(r)!);
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(records.length);
    expect(await selectRows(engine, 'lists', fragment)).toEqual(expected);
  }, 120_000);

  it('sql.js drops a leading U+FEFF: the exact records of the finding sort and match as in memory', async () => {
    const data = [
      { Id: 1, S: ']i' },
      { Id: 2, S: '\uFEFF;(' },
    ];
    await loadTable(engine, schema, data, { table: 'bom' });
    const run = async (filter: string | undefined, sort: string) => {
      const fragment = toSql({ ...(filter === undefined ? {} : { filter }), sort }, { dialect, schema, tieBreaker: ROW_COLUMN });
      return (await selectRows(engine, 'bom', fragment)).map((i) => data[i]!.Id);
    };
    const memory = (filter: string | undefined, sort: string) =>
      query(data, { ...(filter === undefined ? {} : { filter }), sort, schema }).map((r) => r.Id);
    expect(memory(undefined, 'S=Asc')).toEqual([1, 2]);
    expect(await run(undefined, 'S=Asc')).toEqual([1, 2]);
    expect(memory("S.Equal('\uFEFF;(')", 'Id=Asc')).toEqual([2]);
    expect(await run("S.Equal('\uFEFF;(')", 'Id=Asc')).toEqual([2]);
    expect(await run("S.StartsWith('\uFEFF')", 'Id=Asc')).toEqual([2]);
    expect(await run("S.InArray('\uFEFF;(',x)", 'Id=Asc')).toEqual([2]);
  });
});

describe('wepql_lower', () => {
  it('reads a BLOB argument as UTF-8 with a leading U+FEFF kept', () => {
    expect(sqliteLower(new TextEncoder().encode('\uFEFF;(Ä'))).toBe('\uFEFF;(ä');
    expect(sqliteLower('\uFEFFÄ')).toBe('\uFEFFä');
    expect(sqliteLower(null)).toBe(null);
    expect(sqliteLower(5)).toBe(null);
  });
});
