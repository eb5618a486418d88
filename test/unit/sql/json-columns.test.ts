/**
 * Fields inside a JSON column read exactly as the evaluator reads record
 * values: a JSON value of the wrong type is NULL, datetimes follow docs/reference.md §"Types and values"
 * (fraction cut to milliseconds, no zone = UTC, offsets up to ±23:59).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnMap, SqlDialect } from '../../../src/sql/index.js';
import { defineSchema, query } from '../../../src/index.js';
import { toSql } from '../../../src/sql/index.js';
import { startMariadb } from '../../support/mariadb-engine.js';
import { findMariadb } from '../../support/mariadb-server.js';
import { ROW_COLUMN, loadTable, selectRows, startPglite, startSqlJs, type SqlEngine } from '../../support/sql-engines.js';

const schema = defineSchema({
  fields: {
    S: { type: 'string', nullable: true },
    N: { type: 'number', nullable: true },
    I: { type: 'integer', nullable: true },
    B: { type: 'boolean', nullable: true },
    D: { type: 'datetime', nullable: true },
  },
});
const columns: ColumnMap = Object.fromEntries(schema.fields.map((f) => [f.name, { json: 'doc', path: ['data', f.name.toLowerCase()] }]));

const VALUES: Record<string, readonly unknown[]> = {
  S: ['a', 'A', '', '1', 1, true, null, {}, ['a']],
  N: [1, 1.5, -0, 1e300, '1', true, null, [1]],
  I: [1, 3.0, 1.5, 9007199254740991, 9007199254740992, -9007199254740991, '2', false],
  B: [true, false, 'true', 1, 0, null],
  D: [
    '2024-01-01',
    '2024-01-01T00:00:00.9999999Z',
    '2024-01-01T00:00:01Z',
    '2024-01-01T00:00:00.0005',
    '2024-01-01T23:59+23:59',
    '2024-01-02T00:00-15:59',
    '2024-01-01T01:00+01:00',
    '2024-02-29T12:00:00.5+05:30',
    '2023-02-29',
    '2000-02-29',
    '1900-02-29',
    '0001-01-01T00:00:00Z',
    '0099-12-31T23:59:59.999-00:01',
    '1969-12-31T23:59:59.999Z',
    '9999-12-31T23:59:59.999+23:59',
    '2024-01-01t00:00z',
    '2024-02-30',
    '2024-01-01T24:00',
    '2024-1-1',
    // Other scripts' digits are not datetime digits (docs/reference.md §"Types and values"), in the date or in the offset.
    '\u0662\u0660\u0662\u0664-01-01',
    '2024-01-01T00:00+\u0660\u0662:\u0660\u0660',
    // Years 0001–9999 only, offsets included: out of range is null in every engine.
    '0000-01-01',
    '0000-06-01T00:00:00Z',
    '0001-01-01T00:30+01:00',
    '0001-01-01T00:00Z',
    '9999-12-31T23:30-01:00',
    '9999-12-31T23:59:59.999Z',
    'soon',
    1704067200000,
    null,
  ],
};

const records = Object.entries(VALUES).flatMap(([field, values]) => values.map((value) => ({ [field]: value })));

const FILTERS = [
  'S.IsNull()',
  'S.Equal(a)',
  'S.InArray(1,a)',
  'N.IsNotNull()',
  'N.GreaterThan(1)',
  'N.Equal(0)',
  'I.IsNotNull()',
  'I.InArray(3,9007199254740991)',
  'B.Equal(true)',
  'B.IsNull()',
  'D.IsNotNull()',
  'D.Equal(2024-01-01T00:00:00.999Z)',
  'D.Equal(2024-01-01)',
  'D.LessThan(2024-01-01T00:00:01Z)',
  'D.InArray(2023-12-31T00:01Z,2024-01-02T15:59Z)',
  'D.LessThan(0002-01-01)',
  'D.GreaterThan(9999-01-01)',
];

const starters: Record<SqlDialect, () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs, mysql: startMariadb };
// MariaDB when installed (test/property/sql-differential.test.ts reports a skip).
const DIALECTS: readonly SqlDialect[] = findMariadb() === undefined ? ['postgres', 'sqlite'] : ['postgres', 'sqlite', 'mysql'];

describe.each(DIALECTS)('JSON columns on %s', (dialect) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await starters[dialect]();
  });
  afterAll(async () => {
    await engine?.close();
  });

  it.each(FILTERS)('%s', async (filter) => {
    const rows = records.map((r) => ({ ...r }));
    await loadTable(engine, schema, rows, { table: 'json_cases', columns });
    const fragment = toSql({ filter }, { dialect, schema, columns, tieBreaker: ROW_COLUMN });
    const expected = query(rows, { filter, schema }).map((r) => rows.indexOf(r));
    expect(await selectRows(engine, 'json_cases', fragment)).toEqual(expected);
  });

  it.each(['D=Asc', 'I=Desc;N=Asc', 'S=Asc;B=Desc'])('sorts by %s', async (sort) => {
    const rows = records.map((r) => ({ ...r }));
    await loadTable(engine, schema, rows, { table: 'json_cases', columns });
    const fragment = toSql({ sort }, { dialect, schema, columns, tieBreaker: ROW_COLUMN });
    expect(await selectRows(engine, 'json_cases', fragment)).toEqual(query(rows, { sort, schema }).map((r) => rows.indexOf(r)));
  });
});

describe('JSON datetimes on PostgreSQL', () => {
  it('match digits with [0-9], never \\d, which matches every Unicode digit under an ICU collation', () => {
    const { where } = toSql({ filter: 'D.IsNotNull()' }, { dialect: 'postgres', schema, columns });
    expect(where).toContain('[0-9]{4}');
    expect(where).not.toContain('\\d');
  });
});
