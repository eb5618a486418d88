/**
 * The MySQL dialect's text: backtick quoting, `?` placeholders, folding
 * pinned to explicit collations, the `!` LIKE escape, NULL placement by
 * MySQL's own order, and what it refuses. What the text returns on a real
 * server is tested in test/property/sql-differential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { WepqlError, defineSchema } from '../../../src/index.js';
import { quoteIdentifier, toSql, type ToSqlOptions } from '../../../src/sql/index.js';

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
    const sql = toSql({ filter: "LastName.StartsWith('50%_!');HCE.Equal(true);CreatedOn.GreaterThan(2024-01-01)", sort: 'LastName=Desc' }, options);
    expect(sql.where).toBe(
      "LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` LIKE ? ESCAPE '!' AND `HCE` = ? AND `CreatedOn` > ?",
    );
    expect(sql.params).toEqual(['50!%!_!!%', 1, Date.UTC(2024, 0, 1)]);
    expect(sql.orderBy).toBe('LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` DESC, `Id` ASC');
  });

  it('compares case-sensitively under the binary collation, and lists with IN', () => {
    const sql = toSql({ filter: 'LastName.NotInArrayOrNull(A,b)' }, { ...options, caseSensitive: true, binaryCollation: 'utf8mb4_0900_bin' });
    expect(sql.where).toBe('(`LastName` IS NULL OR `LastName` COLLATE `utf8mb4_0900_bin` NOT IN (?, ?))');
    expect(sql.params).toEqual(['A', 'b']);
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
    ['a JSON column', { columns: { LastName: { json: 'doc', path: ['last'] } } }, 'invalid-sql-option'],
    ['a collation that is not a name', { foldCollation: 5 }, 'invalid-sql-option'],
    ['a binary collation that is not a name', { binaryCollation: null }, 'invalid-sql-option'],
  ])('refuses %s', (_title, extra, code) => {
    const merged = { ...options, ...extra } as unknown as ToSqlOptions;
    expect(codes(() => toSql({ filter: 'LastName.Equal(a)' }, merged))).toEqual([code]);
  });
});
