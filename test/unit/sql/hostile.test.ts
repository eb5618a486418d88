/**
 * Hostile input to toSql: values, field names, column names and trees
 * built from quotes, comment markers, semicolons, backslashes, NUL and LIKE
 * or GLOB metacharacters either fail validation or become a parameterized
 * query that returns exactly what the evaluator returns, on real engines.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnMap, SqlDialect } from '../../../src/sql/index.js';
import type { ResolvedField, TypedFilter, TypedFilterNode } from '../../../src/index.js';
import { NO_SPAN, WepqlError, defineSchema, query } from '../../../src/index.js';
import { toSql } from '../../../src/sql/index.js';
import { startMariadb } from '../../support/mariadb-engine.js';
import { findMariadb } from '../../support/mariadb-server.js';
import { mysqlFoldsLikeJs } from '../../support/mysql-fold.js';
import { ROW_COLUMN, loadTable, selectRows, startPglite, startSqlJs, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({
  fields: {
    Id: { type: 'integer' },
    LastName: { type: 'string', nullable: true },
    Address: { type: 'object', nullable: true, fields: { Zip: { type: 'string', nullable: true } } },
  },
});

const HOSTILE = [
  "'",
  "''",
  "x'; DROP TABLE cases; --",
  "Robert'); DROP TABLE Students;--",
  '--',
  '/*',
  '*/',
  ';',
  '\\',
  '\\\\',
  "\\'",
  '%',
  '_',
  '\\%',
  '%_%',
  '*',
  '?',
  '[',
  '[a]',
  '$1',
  '"',
  '""',
  '`',
  '\u2028',
  'ΣΑΣ',
  'İ',
];

const quote = (v: string): string => `'${v.replaceAll("'", "''")}'`;

const STRING_OPERATORS = [
  'Equal',
  'NotEqual',
  'Contains',
  'StartsWith',
  'EndsWith',
  'NotContains',
  'NotStartsWith',
  'NotEndsWith',
] as const;
const DIALECTS: readonly SqlDialect[] = ['postgres', 'sqlite', 'mysql'];

describe('the SQL text never depends on a value', () => {
  it('only the parameters change (fast-check over any string)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
        fc.constantFrom(...STRING_OPERATORS, 'InArray' as const, 'StartsWithInFields' as const),
        fc.constantFrom(...DIALECTS),
        fc.boolean(),
        (value, operator, dialect, caseSensitive) => {
          const text = (v: string) =>
            operator === 'StartsWithInFields'
              ? `${quote(v)}.StartsWithInFields(LastName,Address.Zip)`
              : `LastName.${operator}(${quote(v)})`;
          const options = { dialect, schema, caseSensitive };
          const benign = toSql({ filter: text('x') }, options);
          let hostile;
          try {
            hostile = toSql({ filter: text(value) }, options);
          } catch (e) {
            // Only text databases reject may fail: U+0000 and unpaired surrogates.
            expect(e).toBeInstanceOf(WepqlError);
            expect((e as WepqlError).diagnostics.map((d) => d.code)).toContain('invalid-character');
            expect(/\u0000|[\uD800-\uDFFF]/.test(value)).toBe(true);
            return;
          }
          // The one shape a value chooses: a StartsWith prefix of nothing but U+10FFFF (after folding) has no
          // successor, so its index range has no upper bound (prefixSuccessor); the value is still only a parameter.
          const unbounded = /^StartsWith/.test(operator) && /^(\u{10FFFF})+$/u.test(value);
          const shape = unbounded ? toSql({ filter: text('\u{10FFFF}') }, options) : benign;
          expect(hostile.where).toBe(shape.where);
          expect(hostile.params.length).toBe(shape.params.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a StartsWith prefix of U+10FFFF only: no upper bound, the same text otherwise (a shrunk counterexample)', () => {
    const options = { dialect: 'postgres' as const, schema, caseSensitive: false };
    const hostile = toSql({ filter: `LastName.StartsWith(${quote('\u{10FFFF}')})` }, options);
    const benign = toSql({ filter: `LastName.StartsWith(x)` }, options);
    expect(`${hostile.where} AND lower("LastName" COLLATE "pg_unicode_fast") < $3`).toBe(benign.where);
    expect(hostile.params).toEqual(['\u{10FFFF}%', '\u{10FFFF}']);
  });

  it.each(['a\u0000b', '\uD800', 'x\uDFFFy'])('refuses %j with invalid-character', (value) => {
    expect(() => toSql({ filter: `LastName.Equal(${quote(value)})` }, { dialect: 'postgres', schema })).toThrow(WepqlError);
  });
});

describe('hostile field names in the filter text fail validation', () => {
  it.each([
    `'x"; DROP TABLE cases; --'.Equal(1)`,
    '"Id".Equal(1)',
    'Id--.Equal(1)',
    'Id;DROP.Equal(1)',
    'Id/*x*/.Equal(1)',
    '__proto__.Equal(1)',
    'constructor.IsNull()',
    'Address.__proto__.IsNull()',
    "Id.Equal(1);'a'.EqualInFields(Id\u0000)",
  ])('%s', (filter) => {
    for (const dialect of DIALECTS) expect(() => toSql({ filter }, { dialect, schema })).toThrow(WepqlError);
  });
});

describe('trees built by code are checked, not trusted', () => {
  const lastName = schema.fields.find((f) => f.name === 'LastName')!;
  const filterOf = (clauses: TypedFilterNode[]): TypedFilter => ({
    kind: 'typed-filter',
    clauses,
    source: { kind: 'filter', clauses: [], span: NO_SPAN },
  });
  const comparison = (field: ResolvedField, value: unknown): TypedFilterNode =>
    ({ kind: 'comparison', operator: 'Equal', field, value, source: undefined }) as unknown as TypedFilterNode;
  const codeOf = (filter: TypedFilter): string => {
    try {
      toSql({ filter }, { dialect: 'postgres', schema });
    } catch (e) {
      return (e as WepqlError).diagnostics[0]!.code;
    }
    return 'none';
  };

  it('refuses a field the schema does not have', () => {
    const forged = { ...lastName, name: 'x"; DROP TABLE cases; --', path: ['x"; DROP TABLE cases; --'] };
    expect(codeOf(filterOf([comparison(forged, 'a')]))).toBe('unknown-field');
  });

  it('refuses a value of the wrong type', () => {
    expect(codeOf(filterOf([comparison(lastName, { toString: () => "'; DROP" })]))).toBe('invalid-value');
    expect(codeOf(filterOf([comparison(schema.fields[0]!, Number.NaN)]))).toBe('invalid-value');
  });

  it('stops at maxDepth on a tree nested 100000 deep, without a stack overflow', () => {
    let node: TypedFilterNode = comparison(lastName, 'a');
    for (let i = 0; i < 100_000; i++)
      node = { kind: 'group', operator: 'Or', children: [node], source: undefined } as unknown as TypedFilterNode;
    expect(codeOf(filterOf([node]))).toBe('nesting-too-deep');
  });
});

const starters: Record<SqlDialect, () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs, mysql: startMariadb };
// MariaDB when installed (test/property/sql-differential.test.ts reports the skip).
const ENGINE_DIALECTS: readonly SqlDialect[] = findMariadb() === undefined ? ['postgres', 'sqlite'] : ['postgres', 'sqlite', 'mysql'];

describe.each(ENGINE_DIALECTS)('hostile values and names on %s return what query() returns', (dialect) => {
  // MySQL's documented case-folding gap (İ, final sigma) is not what this file tests.
  const values = dialect === 'mysql' ? HOSTILE.filter(mysqlFoldsLikeJs) : HOSTILE;
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await starters[dialect]();
  });
  afterAll(async () => {
    await engine?.close();
  });

  const records = [
    ...values.map((v, i) => ({ Id: i, LastName: v, Address: { Zip: `${v}${v}` } })),
    { Id: 100, LastName: 'plain', Address: null },
    { Id: 101 },
  ];

  // One table per column layout, loaded once; each check only queries it.
  const loaded = new Set<string>();
  async function check(filter: string, columns?: ColumnMap): Promise<void> {
    const table = columns === undefined ? 'cases' : 'cases_mapped';
    if (!loaded.has(table)) {
      await loadTable(engine, schema, records, { table, ...(columns ? { columns } : {}) });
      loaded.add(table);
    }
    for (const caseSensitive of [false, true]) {
      const fragment = toSql({ filter }, { dialect, schema, caseSensitive, tieBreaker: ROW_COLUMN, ...(columns ? { columns } : {}) });
      const expected = query(records, { filter, schema, caseSensitive }).map((r) => records.indexOf(r));
      expect(await selectRows(engine, table, fragment), `${filter} caseSensitive=${caseSensitive}`).toEqual(expected);
    }
  }

  it.each(values)('value %j under every string operator', async (value) => {
    for (const operator of STRING_OPERATORS) await check(`LastName.${operator}(${quote(value)})`);
    await check(`LastName.InArray(${quote(value)},'plain')`);
    await check(`LastName.NotInArrayOrNull(${quote(value)})`);
    await check(`${quote(value)}.ContainsInFields(LastName,Address.Zip)`);
  });

  it('hostile column names are quoted, and the table survives', async () => {
    const columns: ColumnMap = {
      LastName: 'x"; DROP TABLE cases; --',
      'Address.Zip': { column: 'a b"c/*' },
      Id: "id'--",
    };
    await check("LastName.Contains('''');Or(Address.Zip.IsNull();Id.GreaterThan(3))", columns);
    const fragment = toSql({ sort: 'LastName=Desc;Address.Zip=Asc' }, { dialect, schema, columns, tieBreaker: ROW_COLUMN });
    const expected = query(records, { sort: 'LastName=Desc;Address.Zip=Asc', schema }).map((r) => records.indexOf(r));
    expect(await selectRows(engine, 'cases_mapped', fragment)).toEqual(expected);
    // The statements ran as data: both tables are still there and whole.
    for (const table of ['cases', 'cases_mapped']) {
      await check('Id.IsNotNull()', table === 'cases' ? undefined : columns);
      expect((await engine.rows(`SELECT count(*) AS n FROM ${table}`)).map((r) => Number(r.n))).toEqual([records.length]);
    }
  });
});
