/**
 * `foldCollation`: PostgreSQL before 18 has no `pg_unicode_fast`, so users
 * name the collation `lower()` folds with instead of shadowing that name
 * with a stand-in. PGlite is PostgreSQL 18, so the tests compare the
 * default with an explicit `"C"` (ASCII-only `lower()`) and with a created
 * collation whose name needs quoting.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FOLD_COLLATION, toSql, type ToSqlOptions } from '../../../src/sql/index.js';
import { WepqlError, defineSchema, query } from '../../../src/index.js';
import { loadTable, ROW_COLUMN, selectRows, startPglite, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({ fields: { Name: { type: 'string', nullable: true } } });
const records = [{ Name: 'ÄRGER' }, { Name: 'Zoe' }, { Name: 'apple' }, { Name: 'Émile' }, {}, { Name: 'zed' }];

const options = (extra: Partial<ToSqlOptions> = {}): ToSqlOptions => ({ dialect: 'postgres', schema, tieBreaker: ROW_COLUMN, ...extra });

describe('toSql foldCollation: the SQL text', () => {
  it('defaults to pg_unicode_fast, quoted', () => {
    expect(DEFAULT_FOLD_COLLATION).toBe('pg_unicode_fast');
    const sql = toSql({ filter: 'Name.Equal(x)', sort: 'Name=Asc' }, options());
    expect(sql.where).toBe('lower("Name" COLLATE "pg_unicode_fast") = $1');
    expect(sql.orderBy).toBe(`lower("Name" COLLATE "pg_unicode_fast") ASC NULLS FIRST, "${ROW_COLUMN}" ASC`);
  });

  it.each([
    ['C', '"C"'],
    ['pg_c_utf8', '"pg_c_utf8"'],
    ['C.UTF-8', '"C.UTF-8"'],
    ['my "fold"', '"my ""fold"""'],
    ['x"); DROP TABLE t; --', '"x""); DROP TABLE t; --"'],
  ])('names %j as the one identifier %s in WHERE and ORDER BY', (name, quoted) => {
    const sql = toSql({ filter: 'Name.StartsWith(a);Name.InArray(b,c)', sort: 'Name=Desc' }, options({ foldCollation: name }));
    const folded = `lower("Name" COLLATE ${quoted})`;
    expect(sql.where).toBe(`${folded} LIKE $1 ESCAPE '\\' AND ${folded} >= $2 AND ${folded} < $3 AND ${folded} = ANY($4::text[])`);
    expect(sql.orderBy).toBe(`lower("Name" COLLATE ${quoted}) DESC NULLS LAST, "${ROW_COLUMN}" ASC`);
    expect(sql.params).toEqual(['a%', 'a', 'b', ['b', 'c']]);
  });

  it('is not used by case-sensitive comparisons or by SQLite', () => {
    expect(toSql({ filter: 'Name.Equal(x)' }, options({ foldCollation: 'C', caseSensitive: true })).where).toBe('"Name" COLLATE "C" = $1');
    expect(toSql({ filter: 'Name.Equal(x)' }, { dialect: 'sqlite', schema, foldCollation: 'C' }).where).toBe(
      'wepql_lower(CAST("Name" AS BLOB)) = ?',
    );
  });

  it.each<[string, unknown]>([
    ['an empty name', ''],
    ['a name with U+0000', 'a\u0000b'],
    ['a name with an unpaired surrogate', '\uD800'],
    ['a name longer than 63 bytes', 'é'.repeat(32)],
    ['a number', 42],
    ['null', null],
  ])('refuses %s on every dialect', (_, name) => {
    for (const dialect of ['postgres', 'sqlite'] as const) {
      const call = (): unknown => toSql({ filter: 'Name.Equal(x)' }, { dialect, schema, foldCollation: name as string });
      expect(call).toThrow(WepqlError);
      try {
        call();
      } catch (e) {
        expect(['invalid-sql-option', 'invalid-character']).toContain((e as WepqlError).diagnostics[0]!.code);
      }
    }
  });
});

describe('toSql foldCollation on PostgreSQL (PGlite)', () => {
  let pg: SqlEngine;
  beforeAll(async () => {
    pg = await startPglite();
    await loadTable(pg, schema, records, { table: 'names' });
    // A name that only works quoted, standing for a collation a PostgreSQL 15–17 user creates.
    await pg.run(`CREATE COLLATION "wepql fold" (provider = builtin, locale = 'C.UTF-8')`);
  });
  afterAll(async () => {
    await pg?.close();
  });

  const rows = (filter: string | undefined, sort: string | undefined, extra?: Partial<ToSqlOptions>): Promise<number[]> =>
    selectRows(pg, 'names', toSql({ ...(filter ? { filter } : {}), ...(sort ? { sort } : {}) }, options(extra)));
  const expected = (filter: string | undefined, sort: string | undefined): number[] =>
    query(records, { schema, ...(filter ? { filter } : {}), ...(sort ? { sort } : {}) }).map((r) => records.indexOf(r));

  it('the default and a created collation fold like toLowerCase here and order by code point', async () => {
    for (const extra of [{}, { foldCollation: 'wepql fold' }]) {
      for (const filter of ['Name.Equal(ärger)', 'Name.StartsWith(É)', 'Name.NotEqual(zoe)', undefined]) {
        expect(await rows(filter, 'Name=Asc', extra), `${filter} ${JSON.stringify(extra)}`).toEqual(expected(filter, 'Name=Asc'));
      }
      expect(await rows(undefined, 'Name=Desc', extra)).toEqual(expected(undefined, 'Name=Desc'));
    }
  });

  it('the collation named is the one used: "C" lower-cases ASCII only', async () => {
    // Under "C", lower('ÄRGER') is 'Ärger', so the folded parameter 'ärger' does not match.
    expect(await rows('Name.Equal(ärger)', undefined, { foldCollation: 'C' })).toEqual([]);
    expect(await rows('Name.Equal(ZOE)', undefined, { foldCollation: 'C' })).toEqual([1]);
    expect(await rows('Name.Equal(ärger)', undefined)).toEqual([0]);
  });

  it('a collation the server does not have fails the query instead of falling back', async () => {
    await expect(rows('Name.Equal(x)', undefined, { foldCollation: 'no_such_collation' })).rejects.toThrow(/collation/);
  });
});
