import type { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../../src/sources/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { describeListContract, employees, SCOPE } from './list-contract.js';
import { createPglite } from '../../support/sql-pglite.js';

/**
 * One PGlite for both contracts, started and seeded on first use: the
 * contract only reads, and the two sources read the same table — one the
 * whole records from its json column, the other the schema's columns.
 * Starting PGlite and loading the sample costs seconds of CPU each time.
 */
let database: Promise<PGlite> | undefined;
function seeded(): Promise<PGlite> {
  database ??= (async () => {
    const db = await createPglite();
    const query = (sql: string, params: unknown[]) => db.query(sql, params);
    await createPostgresTable({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' });
    await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
    return db;
  })();
  return database;
}

afterAll(async () => {
  await (await database)?.close();
});

describeListContract('PGlite, whole records from a json column', async () => {
  const db = await seeded();
  const source = createPostgresDataSource({
    query: (sql, params) => db.query(sql, params),
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    ...SCOPE,
  });
  return { source };
});

describeListContract(
  'PGlite, records rebuilt from the columns',
  async () => {
    const db = await seeded();
    const source = createPostgresDataSource({
      query: (sql, params) => db.query(sql, params),
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      ...SCOPE,
    });
    return { source };
  },
  { rebuilt: true },
);

describe('createPostgresDataSource', () => {
  it('sends every user value as a parameter and uses COUNT(*), LIMIT and OFFSET', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const source = createPostgresDataSource({
      query: async (sql, params) => {
        seen.push({ sql, params });
        return { rows: sql.startsWith('SELECT COUNT') ? [{ n: '7' }] : [] };
      },
      table: ['payroll', 'employees'],
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...SCOPE,
    });
    const { analyzeFilter } = await import('../../../src/index.js');
    const filter = analyzeFilter("LastName.Equal('x''; DROP TABLE employees; --')", { schema: employeeSchema }).value;
    const q = { filter, sort: undefined, includeDeleted: false, clientId: 1 };
    expect(await source.count(q)).toBe(7);
    await source.page(q, { offset: 20, limit: 10 });
    expect(seen[0]!.sql).toMatch(/^SELECT COUNT\(\*\) AS "n" FROM "payroll"\."employees" WHERE /);
    // A jump is a deferred join: the skipped rows are walked in a subquery over the sort index only; the client equality stays first outside.
    expect(seen[1]!.sql).toMatch(
      /^SELECT "Record" AS "record" FROM "payroll"\."employees" WHERE "ClientId" = \$1 AND "Id" IN \(SELECT "wepql_key" FROM \(SELECT "Id" AS "wepql_key" FROM "payroll"\."employees" WHERE "ClientId" = \$2 AND .* ORDER BY "Id" ASC LIMIT \$\d+ OFFSET \$\d+\) AS "wepql_page"\) ORDER BY "Id" ASC$/,
    );
    await source.page(q, { offset: 0, limit: 10 });
    expect(seen[2]!.sql).toMatch(
      /^SELECT "Record" AS "record" FROM "payroll"\."employees" WHERE .* ORDER BY "Id" ASC LIMIT \$\d+ OFFSET \$\d+$/,
    );
    for (const { sql } of seen) expect(sql).not.toContain('DROP');
    expect(seen[1]!.params.slice(-2)).toEqual([10, 20]);
    expect(seen[1]!.params).toContain("x'; drop table employees; --");
  });
});
