/**
 * The list contract against a real MariaDB server started from the Debian
 * `mariadb-server` package (test/support/mariadb-server.ts), through
 * `mysql2` prepared statements. Skipped, with a visible warning, where no
 * server binary exists.
 */
import mysql from 'mysql2/promise';
import { afterAll, describe, expect, it } from 'vitest';
import { createMysqlDataSource, createMysqlTable, insertMysqlRecords, type MysqlRunner } from '../../../src/sources/index.js';
import { analyzeFilter } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { findMariadb, mariadbUnavailableReason, startMariadbServer, type MariadbServer } from '../../support/mariadb-server.js';
import { describeListContract, employees, SCOPE } from './list-contract.js';

const available = findMariadb() !== undefined;

// One server for the file (each contract gets its own table), stopped after the last test.
let shared: Promise<MariadbServer> | undefined;
afterAll(async () => {
  if (shared !== undefined) await (await shared).stop();
});

/** `pairs`: the runner returns mysql2's `[rows, fields]` as it is (DDL prepared too); otherwise just the rows. */
async function seeded(pairs: boolean, table: string): Promise<{ run: MysqlRunner; close: () => Promise<void> }> {
  const server = await (shared ??= startMariadbServer());
  const pool = mysql.createPool({
    host: server.host,
    port: server.port,
    user: server.user,
    database: server.database,
    charset: 'UTF8MB4_GENERAL_CI',
    connectionLimit: 4,
  });
  const run: MysqlRunner = pairs
    ? (sql, params) => pool.execute(sql, params as never[])
    : async (sql, params) => (params.length === 0 ? await pool.query(sql) : await pool.execute(sql, params as never[]))[0];
  await createMysqlTable({ run, table, schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
  await insertMysqlRecords({ run, table, schema: employeeSchema, recordColumn: 'Record' }, employees);
  return { run, close: () => pool.end() };
}

if (!available) {
  console.warn(`SKIPPED: list contract on a real MariaDB server — ${mariadbUnavailableReason()}`);
  describe.skip('list contract: MariaDB server (not installed)', () => {});
} else {
  describeListContract('MariaDB server via mysql2, whole records from a JSON column', async () => {
    const { run, close } = await seeded(true, 'employees_json');
    const source = createMysqlDataSource({
      run,
      table: 'employees_json',
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...SCOPE,
    });
    return { source, close };
  });

  describeListContract(
    'MariaDB server via mysql2, records rebuilt from the columns',
    async () => {
      const { run, close } = await seeded(false, 'employees_columns');
      const source = createMysqlDataSource({ run, table: 'employees_columns', schema: employeeSchema, tieBreaker: 'Id', ...SCOPE });
      return { source, close };
    },
    { rebuilt: true },
  );
}

describe('createMysqlDataSource', () => {
  it('sends every user value as a parameter and uses COUNT(*), LIMIT and OFFSET', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const source = createMysqlDataSource({
      run: async (sql, params) => {
        seen.push({ sql, params });
        return sql.startsWith('SELECT COUNT') ? [{ n: 7 }] : [];
      },
      table: ['payroll', 'employees'],
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...SCOPE,
    });
    const filter = analyzeFilter("LastName.Equal('x''; DROP TABLE employees; --')", { schema: employeeSchema }).value;
    const q = { filter, sort: undefined, includeDeleted: false, clientId: 1 };
    expect(await source.count(q)).toBe(7);
    await source.page(q, { offset: 20, limit: 10 });
    expect(seen[0]!.sql).toMatch(/^SELECT COUNT\(\*\) AS `n` FROM `payroll`\.`employees` WHERE /);
    // A jump is a deferred join: the skipped rows are walked in a subquery over the sort index only; the client equality stays first outside.
    expect(seen[1]!.sql).toMatch(
      /^\/\*M!100102 SET STATEMENT max_sort_length=65536 FOR \*\/ SELECT `Record` AS `record` FROM `payroll`\.`employees` WHERE `ClientId` = \? AND `Id` IN \(SELECT `wepql_key` FROM \(SELECT `Id` AS `wepql_key` FROM `payroll`\.`employees` WHERE `ClientId` = \? AND .* ORDER BY `Id` ASC LIMIT \? OFFSET \?\) AS `wepql_page`\) ORDER BY `Id` ASC$/,
    );
    await source.page(q, { offset: 0, limit: 10 });
    expect(seen[2]!.sql).toMatch(
      /^\/\*M!100102 SET STATEMENT max_sort_length=65536 FOR \*\/ SELECT `Record` AS `record` FROM `payroll`\.`employees` WHERE .* ORDER BY `Id` ASC LIMIT \? OFFSET \?$/,
    );
    for (const { sql } of seen) expect(sql).not.toContain('DROP');
    expect(seen[1]!.params.slice(-2)).toEqual(['10', '20']);
    expect(seen[1]!.params).toContain("x'; drop table employees; --");
  });
});
