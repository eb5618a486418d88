import { describe, expect, it } from 'vitest';
import { WepqlError, defineSchema } from '../../../src/index.js';
import { quoteIdentifier, toSql, toSqlParts, type SqlDialect, type ToSqlOptions } from '../../../src/sql/index.js';

const schema = defineSchema({
  fields: {
    Id: { type: 'integer' },
    LastName: { type: 'string' },
    FirstName: { type: 'string', nullable: true },
    Salary: { type: 'number' },
    Gender: { type: 'integer', nullable: true },
    CreatedOn: { type: 'datetime' },
    Active: { type: 'boolean' },
    Address: { type: 'object', fields: { Zip: { type: 'string', nullable: true } } },
  },
});

const PG_LAST = 'lower("LastName" COLLATE "pg_unicode_fast")';
const PG_FIRST = 'lower("FirstName" COLLATE "pg_unicode_fast")';
const ESC = "ESCAPE '\\'";

type Row = readonly [filter: string, where: string, params: readonly unknown[]];

const POSTGRES_FILTERS: readonly Row[] = [
  ['LastName.Equal(Smith)', `${PG_LAST} = $1`, ['smith']],
  ['LastName.NotEqual(ÉMILE)', `${PG_LAST} <> $1`, ['émile']],
  ["LastName.StartsWith('a%_\\')", `${PG_LAST} LIKE $1 ${ESC} AND ${PG_LAST} >= $2 AND ${PG_LAST} < $3`, ['a\\%\\_\\\\%', 'a%_\\', 'a%_]']],
  ['LastName.Contains(Sm)', `${PG_LAST} LIKE $1 ${ESC}`, ['%sm%']],
  ['LastName.EndsWith(ith)', `${PG_LAST} LIKE $1 ${ESC}`, ['%ith']],
  ['LastName.NotStartsWith(x)', `${PG_LAST} NOT LIKE $1 ${ESC}`, ['x%']],
  ["LastName.Contains('')", '"LastName" IS NOT NULL', []],
  ["LastName.NotEndsWith('')", 'FALSE', []],
  ['Salary.GreaterThan(1e3)', '"Salary" > $1', [1000]],
  ['Salary.LessThanOrEqual(-2.5)', '"Salary" <= $1', [-2.5]],
  ['Gender.NotEqual(1)', '"Gender" <> $1', [1]],
  ['CreatedOn.LessThan(2024-01-01T02:00+02:00)', '"CreatedOn" < $1::timestamptz', ['2024-01-01T00:00:00.000Z']],
  ['CreatedOn.GreaterThanOrEqual(0001-06-01)', '"CreatedOn" >= $1::timestamptz', ['0001-06-01T00:00:00.000Z']],
  ['Active.Equal(TRUE)', '"Active" = $1', [true]],
  ['Gender.InArray(1,2,3)', '"Gender" = ANY($1::bigint[])', [[1, 2, 3]]],
  ['LastName.InArray(A,b)', `${PG_LAST} = ANY($1::text[])`, [['a', 'b']]],
  ['Gender.InArrayOrNull(1)', '("Gender" IS NULL OR "Gender" = ANY($1::bigint[]))', [[1]]],
  ['Salary.NotInArray(1,2.5)', '"Salary" <> ALL($1::double precision[])', [[1, 2.5]]],
  ['Gender.NotInArrayOrNull(1)', '("Gender" IS NULL OR "Gender" <> ALL($1::bigint[]))', [[1]]],
  ['CreatedOn.InArray(2024-01-01)', '"CreatedOn" = ANY($1::timestamptz[])', [['2024-01-01T00:00:00.000Z']]],
  ['Active.NotInArray(false)', '"Active" <> ALL($1::boolean[])', [[false]]],
  ['FirstName.IsNull()', '"FirstName" IS NULL', []],
  ['FirstName.IsNotNull()', '"FirstName" IS NOT NULL', []],
  [
    "'D'.StartsWithInFields(FirstName,LastName)",
    `(${PG_FIRST} LIKE $1 ${ESC} AND ${PG_FIRST} >= $2 AND ${PG_FIRST} < $3 OR ${PG_LAST} LIKE $4 ${ESC} AND ${PG_LAST} >= $5 AND ${PG_LAST} < $6)`,
    ['d%', 'd', 'e', 'd%', 'd', 'e'],
  ],
  ['5.LessThanInFields(Salary,Gender)', '("Salary" < $1 OR "Gender" < $2)', [5, 5]],
  ['Address.Zip.EndsWith(01)', `lower("Address_Zip" COLLATE "pg_unicode_fast") LIKE $1 ${ESC}`, ['%01']],
  ['Salary.GreaterThan(0);Or(Gender.Equal(1);Gender.Equal(3))', '"Salary" > $1 AND ("Gender" = $2 OR "Gender" = $3)', [0, 1, 3]],
  ['Or(And(Gender.Equal(1);Salary.LessThan(2));Active.Equal(true))', '(("Gender" = $1 AND "Salary" < $2) OR "Active" = $3)', [1, 2, true]],
  ['Or(Gender.Equal(1))', '"Gender" = $1', [1]],
  ['', '', []],
];

const SQ_LAST = 'wepql_lower(CAST("LastName" AS BLOB))';
const SQ_FIRST = 'wepql_lower(CAST("FirstName" AS BLOB))';

const SQLITE_FILTERS: readonly Row[] = [
  ['LastName.Equal(Smith)', `${SQ_LAST} = ?`, ['smith']],
  ["LastName.StartsWith('a%_\\')", `${SQ_LAST} LIKE ? ${ESC} AND ${SQ_LAST} >= ? AND ${SQ_LAST} < ?`, ['a\\%\\_\\\\%', 'a%_\\', 'a%_]']],
  [
    'LastName.StartsWith(z\u{10FFFF}\u{10FFFF})',
    `${SQ_LAST} LIKE ? ${ESC} AND ${SQ_LAST} >= ? AND ${SQ_LAST} < ?`,
    ['z\u{10FFFF}\u{10FFFF}%', 'z\u{10FFFF}\u{10FFFF}', '{'],
  ],
  ['LastName.StartsWith(\u{10FFFF})', `${SQ_LAST} LIKE ? ${ESC} AND ${SQ_LAST} >= ?`, ['\u{10FFFF}%', '\u{10FFFF}']],
  ['LastName.NotContains(Sm)', `${SQ_LAST} NOT LIKE ? ${ESC}`, ['%sm%']],
  ["LastName.StartsWith('')", '"LastName" IS NOT NULL', []],
  ['Salary.GreaterThan(1e3)', '"Salary" > ?', [1000]],
  ['CreatedOn.LessThan(2024-01-01T02:00+02:00)', '"CreatedOn" < ?', [1704067200000]],
  ['Active.Equal(TRUE)', '"Active" = ?', [1]],
  ['Gender.InArray(1,2,3)', '"Gender" IN (SELECT value FROM json_each(?))', ['[1,2,3]']],
  ['LastName.NotInArrayOrNull(A,b)', `("LastName" IS NULL OR ${SQ_LAST} NOT IN (SELECT value FROM json_each(?)))`, ['["a","b"]']],
  ['Active.InArray(true)', '"Active" IN (SELECT value FROM json_each(?))', ['[1]']],
  ['CreatedOn.NotInArray(2024-01-01)', '"CreatedOn" NOT IN (SELECT value FROM json_each(?))', ['[1704067200000]']],
  [
    "'D'.StartsWithInFields(FirstName,LastName)",
    `(${SQ_FIRST} LIKE ? ${ESC} AND ${SQ_FIRST} >= ? AND ${SQ_FIRST} < ? OR ${SQ_LAST} LIKE ? ${ESC} AND ${SQ_LAST} >= ? AND ${SQ_LAST} < ?)`,
    ['d%', 'd', 'e', 'd%', 'd', 'e'],
  ],
  ['Salary.GreaterThan(0);Or(Gender.Equal(1);Gender.IsNull())', '"Salary" > ? AND ("Gender" = ? OR "Gender" IS NULL)', [0, 1]],
];

const CASE_SENSITIVE: readonly (readonly [SqlDialect, string, string, readonly unknown[]])[] = [
  ['postgres', 'LastName.Contains(S%m)', `"LastName" COLLATE "C" LIKE $1 ${ESC}`, ['%S\\%m%']],
  ['postgres', 'LastName.InArray(Sm)', '"LastName" COLLATE "C" = ANY($1::text[])', [['Sm']]],
  ['sqlite', 'LastName.Contains(S*m?[)', '"LastName" COLLATE BINARY GLOB ?', ['*S[*]m[?][[]*']],
  ['sqlite', 'LastName.NotStartsWith(Sm)', '"LastName" COLLATE BINARY NOT GLOB ?', ['Sm*']],
  [
    'sqlite',
    'LastName.StartsWith(S\u{D7FF})',
    '"LastName" COLLATE BINARY GLOB ? AND "LastName" COLLATE BINARY >= ? AND "LastName" COLLATE BINARY < ?',
    ['S\u{D7FF}*', 'S\u{D7FF}', 'S\u{E000}'],
  ],
  ['sqlite', 'LastName.Equal(Sm)', '"LastName" COLLATE BINARY = ?', ['Sm']],
];

describe('toSql filter → WHERE and parameters', () => {
  it.each(POSTGRES_FILTERS)('postgres: %s', (filter, where, params) => {
    expect(toSql({ filter }, { dialect: 'postgres', schema })).toEqual({ where, orderBy: '', params });
  });
  it.each(SQLITE_FILTERS)('sqlite: %s', (filter, where, params) => {
    expect(toSql({ filter }, { dialect: 'sqlite', schema })).toEqual({ where, orderBy: '', params });
  });
  it.each(CASE_SENSITIVE)('%s, case-sensitive: %s', (dialect, filter, where, params) => {
    expect(toSql({ filter }, { dialect, schema, caseSensitive: true })).toEqual({ where, orderBy: '', params });
  });
});

describe('toSql sort → ORDER BY', () => {
  it.each([
    ['postgres', 'LastName=Asc;CreatedOn=Desc', undefined, `${PG_LAST} ASC NULLS FIRST, "CreatedOn" DESC NULLS LAST`],
    ['postgres', 'Active=Desc', 'Id', '"Active" DESC NULLS LAST, "Id" ASC'],
    ['postgres', '', 'Id', '"Id" ASC'],
    ['sqlite', 'LastName=Desc;Gender', 'Id', `${SQ_LAST} DESC NULLS LAST, "Gender" ASC NULLS FIRST, "Id" ASC`],
    ['sqlite', 'Address.Zip=Asc', undefined, 'wepql_lower(CAST("Address_Zip" AS BLOB)) ASC NULLS FIRST'],
  ] as const)('%s: %s (tie-breaker %s)', (dialect, sort, tieBreaker, orderBy) => {
    expect(toSql({ sort }, { dialect, schema, ...(tieBreaker ? { tieBreaker } : {}) })).toEqual({ where: '', orderBy, params: [] });
  });

  it('orders case-sensitively by code point with COLLATE "C" / BINARY', () => {
    expect(toSql({ sort: 'LastName=Asc' }, { dialect: 'postgres', schema, caseSensitive: true }).orderBy).toBe(
      '"LastName" COLLATE "C" ASC NULLS FIRST',
    );
    expect(toSql({ sort: 'LastName=Asc' }, { dialect: 'sqlite', schema, caseSensitive: true }).orderBy).toBe(
      '"LastName" COLLATE BINARY ASC NULLS FIRST',
    );
  });

  it('returns empty fragments for an absent filter and sort', () => {
    expect(toSql({}, { dialect: 'postgres', schema })).toEqual({ where: '', orderBy: '', params: [] });
  });
});

describe('toSql options', () => {
  it('numbers PostgreSQL placeholders from paramStart', () => {
    expect(toSql({ filter: 'Gender.Equal(1);LastName.Equal(a)' }, { dialect: 'postgres', schema, paramStart: 3 })).toEqual({
      where: `"Gender" = $3 AND ${PG_LAST} = $4`,
      orderBy: '',
      params: [1, 'a'],
    });
  });

  it('maps fields to columns and JSON paths', () => {
    const options: ToSqlOptions = {
      dialect: 'postgres',
      schema,
      columns: { LastName: 'last_name', Gender: { column: 'sex' }, 'Address.Zip': { json: 'address', path: ['zip'] } },
    };
    expect(toSql({ filter: 'LastName.Equal(a);Gender.IsNull()' }, options).where).toBe(
      'lower("last_name" COLLATE "pg_unicode_fast") = $1 AND "sex" IS NULL',
    );
    expect(toSql({ filter: 'Address.Zip.IsNull()' }, options).where).toBe(
      `(CASE WHEN jsonb_typeof(("address" -> 'zip')) = 'string' THEN (("address" -> 'zip') #>> '{}') END) IS NULL`,
    );
    expect(toSql({ filter: 'Address.Zip.IsNull()' }, { ...options, dialect: 'sqlite' }).where).toBe(
      `(CASE WHEN json_type("address", '$.zip') = 'text' THEN json_extract("address", '$.zip') END) IS NULL`,
    );
  });

  it('accepts a syntax tree or a typed tree as well as text', async () => {
    const { analyzeFilter } = await import('../../../src/validate/analyze.js');
    const analyzed = analyzeFilter('Gender.Equal(2)', { schema });
    const expected = { where: '"Gender" = ?', orderBy: '', params: [2] };
    expect(toSql({ filter: analyzed.ast }, { dialect: 'sqlite', schema })).toEqual(expected);
    expect(toSql({ filter: analyzed.value! }, { dialect: 'sqlite', schema })).toEqual(expected);
  });

  it('gives query builders the parts with parameters in place', () => {
    expect(toSqlParts({ filter: 'Gender.InArray(1,2)', sort: 'Id=Desc' }, { dialect: 'sqlite', schema })).toEqual({
      where: [{ sql: '"Gender" IN (SELECT value FROM json_each(' }, { param: '[1,2]' }, { sql: '))' }],
      orderBy: [{ sql: '"Id" DESC NULLS LAST' }],
    });
  });
});

describe('toSql refuses what it cannot compile', () => {
  const codes = (fn: () => unknown): string[] => {
    try {
      fn();
    } catch (e) {
      expect(e).toBeInstanceOf(WepqlError);
      return (e as WepqlError).diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);
    }
    throw new Error('expected a WepqlError');
  };

  it.each([
    ['Nope.Equal(1)', 'unknown-field'],
    ['LastName.GreaterThan(a)', 'operator-not-applicable'],
    ['Salary.Equal(abc)', 'invalid-value'],
    ['LastName.Equal(a', 'missing-close-paren'],
  ])('filter %s → %s', (filter, code) => {
    expect(codes(() => toSql({ filter }, { dialect: 'postgres', schema }))).toContain(code);
  });

  it('reports an invalid sort', () => {
    expect(codes(() => toSql({ sort: 'Nope=Asc' }, { dialect: 'sqlite', schema }))).toContain('unknown-field');
  });

  it.each([
    ['an unknown dialect', { dialect: 'oracle' }, 'invalid-sql-option'],
    ['a column map key that is not a field', { columns: { Lastname: 'x' } }, 'unknown-field'],
    ['a JSON path key that is not an identifier', { columns: { LastName: { json: 'doc', path: ["a'b"] } } }, 'invalid-sql-option'],
    ['an empty JSON path', { columns: { LastName: { json: 'doc', path: [] } } }, 'invalid-sql-option'],
    ['a column name with U+0000', { columns: { LastName: 'a\u0000b' } }, 'invalid-character'],
    ['a PostgreSQL column name over 63 bytes', { columns: { LastName: 'é'.repeat(32) } }, 'invalid-sql-option'],
    ['paramStart 0', { paramStart: 0 }, 'invalid-sql-option'],
  ])('%s', (_title, extra, code) => {
    const options = { dialect: 'postgres', schema, ...extra } as unknown as ToSqlOptions;
    expect(codes(() => toSql({ filter: 'LastName.Equal(a)' }, options))).toEqual([code]);
  });

  it('applies the limits it is given', () => {
    expect(codes(() => toSql({ filter: 'Or(Or(Or(Id.Equal(1))))' }, { dialect: 'sqlite', schema, limits: { maxDepth: 2 } }))).toContain(
      'nesting-too-deep',
    );
    expect(codes(() => toSql({ filter: 'Id.InArray(1,2,3)' }, { dialect: 'sqlite', schema, limits: { maxListValues: 2 } }))).toContain(
      'too-many-list-values',
    );
  });
});

describe('quoteIdentifier', () => {
  it.each([
    ['LastName', 'postgres', '"LastName"'],
    ['a"b', 'postgres', '"a""b"'],
    ['x"; DROP TABLE t; --', 'sqlite', '"x""; DROP TABLE t; --"'],
    ['é'.repeat(100), 'sqlite', `"${'é'.repeat(100)}"`],
  ] as const)('%s (%s) → %s', (name, dialect, quoted) => {
    expect(quoteIdentifier(name, dialect)).toBe(quoted);
  });
  it.each(['', 'a\u0000', '\uD800'])('refuses %j', (name) => {
    expect(() => quoteIdentifier(name, 'postgres')).toThrow(WepqlError);
  });
});
