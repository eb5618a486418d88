/**
 * The MySQL dialect's text: backtick quoting, `?` placeholders, folding
 * pinned to explicit collations, the `!` LIKE escape, NULL placement by
 * MySQL's own order, and what it refuses; and that the text means the same
 * under the SQL modes that change how MySQL reads it (`NO_BACKSLASH_ESCAPES`,
 * `ANSI_QUOTES`) on a real MariaDB. Generated filters on a real server are
 * in test/property/sql-differential.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WepqlError, defineSchema, query } from '../../../src/index.js';
import { quoteIdentifier, toSql, type ToSqlOptions } from '../../../src/sql/index.js';
import { startMariadb } from '../../support/mariadb-engine.js';
import { findMariadb } from '../../support/mariadb-server.js';
import { ROW_COLUMN, loadTable, selectRows, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({
  fields: {
    Id: { type: 'integer' },
    LastName: { type: 'string', nullable: true },
    HCE: { type: 'boolean' },
    CreatedOn: { type: 'datetime' },
  },
});
const options: ToSqlOptions = { dialect: 'mysql', schema, tieBreaker: 'Id' };

function codes(run: () => unknown): string[] {
  try {
    run();
  } catch (e) {
    if (e instanceof WepqlError) return e.diagnostics.map((d) => d.code);
    throw e;
  }
  throw new Error('expected a WepqlError');
}

describe('toSql with dialect mysql', () => {
  it('folds, escapes and binds', () => {
    const sql = toSql(
      { filter: "LastName.StartsWith('50%_!');HCE.Equal(true);CreatedOn.GreaterThan(2024-01-01)", sort: 'LastName=Desc' },
      options,
    );
    expect(sql.where).toBe(
      "LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` LIKE ? ESCAPE '!'" +
        ' AND LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` >= ?' +
        ' AND LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` < ?' +
        ' AND `HCE` = ? AND `CreatedOn` > ?',
    );
    expect(sql.params).toEqual(['50!%!_!!%', '50%_!', '50%_"', 1, Date.UTC(2024, 0, 1)]);
    expect(sql.orderBy).toBe('LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` DESC, `Id` ASC');
  });

  it('compares case-sensitively under the binary collation, and lists with IN', () => {
    const sql = toSql(
      { filter: 'LastName.NotInArrayOrNull(A,b)' },
      { ...options, caseSensitive: true, binaryCollation: 'utf8mb4_0900_bin' },
    );
    expect(sql.where).toBe(
      "(`LastName` IS NULL OR `LastName` COLLATE `utf8mb4_0900_bin` NOT IN (SELECT wepql_list.v FROM JSON_TABLE(?, '$[*]' COLUMNS (v LONGTEXT CHARACTER SET utf8mb4 PATH '$')) AS wepql_list))",
    );
    expect(sql.params).toEqual(['["A","b"]']);
  });

  it('takes another fold collation', () => {
    const sql = toSql({ sort: 'LastName=Asc' }, { ...options, foldCollation: 'utf8mb4_0900_ai_ci' });
    expect(sql.orderBy).toBe('LOWER(`LastName` COLLATE `utf8mb4_0900_ai_ci`) COLLATE `utf8mb4_nopad_bin` ASC, `Id` ASC');
  });

  it('quotes names with backticks', () => {
    expect(quoteIdentifier('a`b"c', 'mysql')).toBe('`a``b"c`');
    const sql = toSql({ filter: 'Id.Equal(1)' }, { ...options, columns: { Id: 'x`; DROP TABLE t; --' } });
    expect(sql.where).toBe('`x``; DROP TABLE t; --` = ?');
  });

  it.each([
    ['a name over 64 characters', { columns: { LastName: 'a'.repeat(65) } }, 'invalid-sql-option'],
    ['a name ending in a space', { columns: { LastName: 'a ' } }, 'invalid-sql-option'],
    ['a name outside the BMP', { columns: { LastName: 'a😀' } }, 'invalid-sql-option'],
    ['a collation that is not a name', { foldCollation: 5 }, 'invalid-sql-option'],
    ['a binary collation that is not a name', { binaryCollation: null }, 'invalid-sql-option'],
  ])('refuses %s', (_title, extra, code) => {
    const merged = { ...options, ...extra } as unknown as ToSqlOptions;
    expect(codes(() => toSql({ filter: 'LastName.Equal(a)' }, merged))).toEqual([code]);
  });
});

describe.skipIf(findMariadb() === undefined)('the same rows under every SQL mode (MariaDB)', () => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await startMariadb();
  });
  afterAll(async () => {
    await engine?.close();
  });

  const records = ['50%', '50_', 'a!b', 'a\\b', "o'k", '"q"', '`t`', 'plain', 'A!B'].map((LastName, Id) => ({
    Id,
    LastName,
    HCE: Id % 2 === 0,
    CreatedOn: `2024-01-0${(Id % 9) + 1}T0${Id % 10}:00:00+01:00`,
  }));
  const filters = [
    "LastName.Contains('!')",
    "LastName.StartsWith('a!')",
    "LastName.EndsWith('%')",
    "LastName.Contains('_')",
    "LastName.Contains('\\')",
    "LastName.NotContains('''')",
    'LastName.Equal(\'"q"\')',
    "LastName.InArray('`t`','a!b')",
    'CreatedOn.GreaterThan(2024-01-04)',
  ];

  it.each(['', 'NO_BACKSLASH_ESCAPES', 'ANSI_QUOTES', 'NO_BACKSLASH_ESCAPES,ANSI_QUOTES,PIPES_AS_CONCAT'])('sql_mode %j', async (mode) => {
    await engine.run(`SET SESSION sql_mode = '${mode}'`);
    const columns = { CreatedOn: { json: 'doc', path: ['created'] } } as const;
    await loadTable(engine, schema, records, { table: 'modes', columns });
    for (const filter of filters) {
      for (const caseSensitive of [false, true]) {
        const fragment = toSql({ filter, sort: 'LastName=Desc' }, { ...options, caseSensitive, columns, tieBreaker: ROW_COLUMN });
        const expected = query(records, { filter, sort: 'LastName=Desc', schema, caseSensitive }).map((r) => records.indexOf(r));
        expect(await selectRows(engine, 'modes', fragment), `${filter} caseSensitive=${caseSensitive}`).toEqual(expected);
      }
    }
  });
});
