/**
 * Adding an engine is adding one folder (docs/architecture.md, "Add a
 * dialect"): a `Dialect` object built outside src/ (test/support/bracket-dialect/)
 * goes through `toSql`, the index advisor, the shared table code and the SQL
 * data source — the whole list contract on sql.js — with nothing in src/
 * naming it. Its spelling (`[name]`, `?NNN`) differs from every shipped
 * dialect's, so a stage that picked an engine by name would write SQLite's instead.
 */
import { describe, expect, it } from 'vitest';
import {
  counterTableDdl,
  createSqlTable,
  dialectOf,
  indexesFor,
  insertSqlRecords,
  quoteIdentifier,
  toSql,
  toSqlParts,
} from '../../../src/sql/index.js';
import { createSqlDataSource } from '../../../src/sources/sql-source.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { startSqlJs } from '../../support/sql-engines.js';
import { BRACKET_DIALECT } from '../../support/bracket-dialect/dialect.js';
import { describeListContract, employees, SCOPE } from '../list/list-contract.js';

describe('a dialect of ones own', () => {
  it('compiles with its own quoting and placeholders', () => {
    const { where, orderBy, params } = toSql(
      { filter: "LastName.StartsWith('Sm');Gender.InArray(1,2);HCE.Equal(true)", sort: 'LastName=Desc' },
      { dialect: BRACKET_DIALECT, schema: employeeSchema, tieBreaker: 'Id', paramStart: 3 },
    );
    expect(where).toBe(
      "wepql_lower(CAST([LastName] AS BLOB)) LIKE ?3 ESCAPE '\\' AND wepql_lower(CAST([LastName] AS BLOB)) >= ?4" +
        ' AND wepql_lower(CAST([LastName] AS BLOB)) < ?5 AND [Gender] IN (SELECT value FROM json_each(?6)) AND [HCE] = ?7',
    );
    expect(orderBy).toBe('wepql_lower(CAST([LastName] AS BLOB)) DESC NULLS LAST, [Id] ASC');
    expect(params).toEqual(['sm%', 'sm', 'sn', '[1,2]', 1]);
    expect(toSqlParts({ filter: 'Id.Equal(5)' }, { dialect: BRACKET_DIALECT, schema: employeeSchema }).where).toEqual([
      { sql: '[Id] = ' },
      { param: 5 },
    ]);
  });

  it('is taken as it is where a dialect name is accepted, and names no engine in its SQL', () => {
    expect(dialectOf(BRACKET_DIALECT)).toBe(BRACKET_DIALECT);
    expect(quoteIdentifier('a]b', BRACKET_DIALECT)).toBe('[a]]b]');
    const indexes = indexesFor(employeeSchema, {
      dialect: BRACKET_DIALECT,
      table: 'employees',
      clientField: 'ClientId',
      tieBreaker: 'Id',
      sorts: ['LastName=Asc'],
      concurrently: true,
      include: ['RowStatus'],
    });
    for (const index of indexes) {
      expect(index.sql).toMatch(/^CREATE INDEX IF NOT EXISTS \[employees_wepql_[0-9a-f]{8}\] ON \[employees\] \(\[ClientId\], /);
      expect(index.sql).not.toMatch(/"|CONCURRENTLY|INCLUDE/);
    }
    // Its storage has no counter table, so the advisor and counterTableDdl refuse one, naming it.
    expect(() => counterTableDdl(employeeSchema, { dialect: BRACKET_DIALECT, table: 'employees', clientField: 'ClientId' })).toThrow(
      /counter tables do not exist on bracket/,
    );
  });

  it('refuses a name no registry holds', () => {
    expect(() => toSql({}, { dialect: 'bracket' as never, schema: employeeSchema })).toThrow(
      /unknown SQL dialect "bracket"; expected "postgres", "sqlite" or "mysql"/,
    );
  });
});

describeListContract('a fake dialect (Bracket SQL on sql.js) through the shared table code and the SQL data source', async () => {
  const engine = await startSqlJs();
  const statements: string[] = [];
  const run = (sql: string, params: unknown[]) => {
    statements.push(sql);
    return engine.rows(sql, params);
  };
  const table = { table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  const created = await createSqlTable(BRACKET_DIALECT, run, table, { replace: true });
  expect(created).toMatch(/^CREATE TABLE \[employees\] \(\[Id\] INTEGER PRIMARY KEY, .*\[Record\] TEXT NOT NULL\)$/);
  expect(await insertSqlRecords(BRACKET_DIALECT, run, table, employees)).toBe(employees.length);
  expect(statements.find((s) => s.startsWith('INSERT'))).toMatch(/VALUES \(\?1, \?2, /);
  const source = createSqlDataSource({
    dialect: BRACKET_DIALECT,
    run,
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    ...SCOPE,
  });
  return {
    source,
    close: async () => {
      // Every statement the source sent was written in the fake dialect's spelling.
      expect(statements.filter((s) => s.startsWith('SELECT')).every((s) => !s.includes('"'))).toBe(true);
      await engine.close();
    },
  };
});
