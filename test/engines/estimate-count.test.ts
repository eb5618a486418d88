/**
 * `estimateCount` of the SQL sources on the real servers (PostgreSQL 15 and MariaDB): at or below the
 * threshold the total is exact (a count that reads at most threshold + 1 rows); above it, the planner's
 * row estimate (never below threshold + 1), marked estimated; an unfiltered list with a counter table
 * is always exact. The HTTP side (the header, the rows, the SDK) is test/e2e/server-count.test.ts.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilter } from '../../src/index.js';
import type { DataQuery, DataSource } from '../../src/list/index.js';
import {
  createMysqlDataSource,
  createMysqlTable,
  createPostgresDataSource,
  createPostgresTable,
  insertMysqlRecords,
  insertPostgresRecords,
} from '../../src/sources/index.js';
import { adviseIndexes, counterTableOf } from '../../src/sql/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { EMPLOYEE_SCOPE, loadSampleEmployees } from '../../src/sample/employees.js';
import { findMariadb, startMariadbServer } from '../support/mariadb-server.js';
import { findPostgresBin, startPostgresServer } from '../support/postgres-server.js';

const records = loadSampleEmployees();

function query(filter: string): DataQuery {
  return {
    filter: filter === '' ? undefined : analyzeFilter(filter, { schema: employeeSchema }).value!,
    sort: undefined,
    includeDeleted: false,
    clientId: 1,
  };
}

interface Served {
  readonly plain: DataSource;
  readonly counted: DataSource;
  readonly sent: string[];
  stop(): Promise<void>;
}

async function postgres(): Promise<Served> {
  const server = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: 2 });
  const sent: string[] = [];
  const run = (sql: string, params: unknown[]) => {
    sent.push(sql);
    return pool.query(sql, params);
  };
  const table = { query: run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  await createPostgresTable(table, { replace: true });
  await insertPostgresRecords(table, records);
  const ddl = adviseIndexes(employeeSchema, {
    dialect: 'postgres',
    table: 'employees',
    clientField: 'ClientId',
    tieBreaker: 'Id',
    counts: true,
    deleted: EMPLOYEE_SCOPE.deleted,
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (const sql of ddl.counter!.statements) await client.query(sql);
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  await pool.query('ANALYZE employees');
  const options = {
    query: run,
    table: 'employees',
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: 'Record',
    foldCollation: 'C',
    ...EMPLOYEE_SCOPE,
  };
  return {
    plain: createPostgresDataSource(options),
    counted: createPostgresDataSource({ ...options, counterTable: counterTableOf('employees') }),
    sent,
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
}

async function mariadb(): Promise<Served> {
  const server = await startMariadbServer();
  const config = { host: server.host, port: server.port, user: server.user, database: server.database, charset: 'UTF8MB4_GENERAL_CI' };
  const pool = mysql.createPool({ ...config, connectionLimit: 2 });
  const sent: string[] = [];
  const run = async (sql: string, params: unknown[]) => {
    sent.push(sql);
    return (params.length === 0 ? await pool.query(sql) : await pool.execute(sql, params as never[]))[0];
  };
  const table = { run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  await createMysqlTable(table, { replace: true });
  await insertMysqlRecords(table, records);
  await pool.query('ANALYZE TABLE employees');
  const options = { run, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', recordColumn: 'Record', ...EMPLOYEE_SCOPE };
  return {
    plain: createMysqlDataSource(options),
    counted: createMysqlDataSource(options),
    sent,
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
}

const engines: [string, boolean, () => Promise<Served>][] = [
  ['PostgreSQL', findPostgresBin() !== undefined, postgres],
  ['MariaDB', findMariadb() !== undefined, mariadb],
];

for (const [name, available, start] of engines) {
  describe.skipIf(!available)(`estimateCount on ${name}`, () => {
    let served: Served;
    beforeAll(async () => {
      served = await start();
    }, 120_000);
    afterAll(async () => served?.stop());

    it.each(['', 'Gender.Equal(1)', 'LastName.StartsWith(S)', 'Id.LessThan(30)', 'LastName.Equal(NoSuchName)'])(
      'filter %j: exact at or below the threshold, the planner above it',
      async (filter) => {
        const q = query(filter);
        const exact = await served.plain.count(q);
        // A threshold above the total, at it, and below it.
        expect(await served.plain.estimateCount!(q, exact + 5)).toEqual({ total: exact, estimated: false });
        expect(await served.plain.estimateCount!(q, exact)).toEqual({ total: exact, estimated: false });
        if (exact === 0) return;
        served.sent.length = 0;
        const below = await served.plain.estimateCount!(q, exact - 1);
        expect(below.estimated).toBe(true);
        expect(below.total).toBeGreaterThanOrEqual(exact);
        // The planner's estimate of a query over a 1,200-row table analysed moments ago: the right order of magnitude.
        expect(below.total).toBeLessThan(Math.max(10 * exact, 1_300));
        expect(served.sent.some((s) => s.startsWith('EXPLAIN'))).toBe(true);
        expect(served.sent.some((s) => /COUNT\(\*\)/.test(s) && !/LIMIT/.test(s))).toBe(false);
      },
    );

    it.skipIf(name !== 'PostgreSQL')('an unfiltered list with a counter table is counted exactly from the counter', async () => {
      const q = query('');
      served.sent.length = 0;
      const answer = await served.counted.estimateCount!(q, 1);
      expect(answer).toEqual({ total: await served.plain.count(q), estimated: false });
      expect(served.sent.some((s) => s.includes('wepql_counts'))).toBe(true);
      expect(served.sent.some((s) => s.startsWith('EXPLAIN'))).toBe(false);
    });
  });
}
