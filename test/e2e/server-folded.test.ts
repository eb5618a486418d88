/**
 * The reference server finds the stored folded columns by itself, as it
 * finds the counter table: on a real PostgreSQL 15 server, an employees
 * table laid out with `foldedColumns` (a `"<column>_folded"` twin of every
 * string column, `GENERATED ALWAYS AS (lower(…)) STORED`, as
 * `wepql db-seed --shards` makes it) is detected, and the server's source
 * then compares and orders strings through the twins, with the same pages
 * as the sample file; a table without them, with one missing, with one kept
 * by hand or computed from another column is not, and the server folds in
 * each statement as before.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlRunner } from '../../src/sources/index.js';
import { createListServer } from '../../src/reference-server/index.js';
import {
  chooseFoldCollation,
  EMPLOYEE_TABLE,
  employeePostgresSource,
  findEmployeeFoldedColumns,
  loadSampleEmployees,
  RECORD_COLUMN,
  seedEmployeeTable,
} from '../../src/sample/employees.js';
import { foldCollationOrDefault } from '../../src/sample/employee-shards.js';
import { createPostgresTable, insertPostgresRecords } from '../../src/sql/dialects/postgres/table.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { get, withQuery } from '../support/http.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

const TOKEN = 'folded-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const unavailable = findPostgresBin() === undefined;
if (unavailable) console.warn(`SKIPPED: folded-column detection on PostgreSQL — ${postgresUnavailableReason()}`);

describe.skipIf(unavailable)('the reference server detects the stored folded columns (PostgreSQL 15)', () => {
  let server: PostgresServer;
  let pool: pg.Pool;
  let run: SqlRunner;
  let foldCollation: string | undefined;
  beforeAll(async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    run = (sql, params) => pool.query(sql, params as unknown[]);
    ({ foldCollation } = await chooseFoldCollation(run));
  }, 120_000);
  afterAll(async () => {
    await pool?.end();
    await server?.stop();
  });

  /** The employees table with a folded twin of every string column, filled with the sample. */
  async function seedFolded(): Promise<void> {
    const table = { query: run, table: EMPLOYEE_TABLE, schema: employeeSchema, recordColumn: RECORD_COLUMN, primaryKey: 'Id' };
    await createPostgresTable(table, { replace: true, foldedColumns: { foldCollation: foldCollationOrDefault(foldCollation) } });
    await insertPostgresRecords(table, loadSampleEmployees());
    await run(`ANALYZE ${EMPLOYEE_TABLE}`, []);
  }

  it('a table seeded without twins: not detected', async () => {
    await seedEmployeeTable(run, loadSampleEmployees());
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
  });

  it('no employees table at all: not detected (no error)', async () => {
    await run(`DROP TABLE IF EXISTS ${EMPLOYEE_TABLE}`, []);
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
  });

  it('twins of every string column: detected, and the server compares through them with the pages of the sample file', async () => {
    await seedFolded();
    expect(await findEmployeeFoldedColumns(run)).toBe(true);

    const sent: string[] = [];
    const recording: SqlRunner = (sql, params) => {
      sent.push(sql);
      return run(sql, params);
    };
    const { source, clientExists } = employeePostgresSource(recording, foldCollation, undefined, undefined, true);
    const fromDb = createListServer({ source, clientExists, authToken: TOKEN });
    const fromFile = createListServer({ records: loadSampleEmployees(), authToken: TOKEN });
    const db = await fromDb.listen();
    const file = await fromFile.listen();
    try {
      const query = { limit: '20', sort: 'LastName=Desc;FirstName=Asc', filter: 'Or(LastName.StartsWith(m);FirstName.Contains(AN))' };
      const path = '/api/public/clients/1/employees';
      const a = await get(withQuery(db.url + path, query), AUTH);
      const b = await get(withQuery(file.url + path, query), AUTH);
      expect(a.status).toBe(200);
      expect(a.body.Data.length).toBe(20);
      expect(a.body.Data).toEqual(b.body.Data);
      expect(a.body.Pagination.TotalRecords).toBe(b.body.Pagination.TotalRecords);
      const next = { 'next-page': 'true' };
      const a2 = await get(withQuery(db.url + path, { ...next, 'data-token': a.body.Pagination.DataToken }), AUTH);
      const b2 = await get(withQuery(file.url + path, { ...next, 'data-token': b.body.Pagination.DataToken }), AUTH);
      expect(a2.body.Data).toEqual(b2.body.Data);
      // Compared and ordered through the twins: no lower() in the statements.
      const statements = sent.filter((s) => !s.startsWith('SELECT 1 FROM'));
      expect(statements.length).toBeGreaterThanOrEqual(3);
      for (const sql of statements) {
        expect(sql).toContain('"LastName_folded"');
        expect(sql).not.toMatch(/lower\(/i);
      }
    } finally {
      await fromDb.close();
      await fromFile.close();
    }
  });

  it('one twin missing, one kept by hand, or one computed from another column: not detected', async () => {
    await seedFolded();
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} DROP COLUMN "Suffix_folded"`, []);
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
    // A plain column a user keeps up to date: nothing guarantees it holds lower("Suffix").
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} ADD COLUMN "Suffix_folded" text COLLATE "C"`, []);
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} DROP COLUMN "Suffix_folded"`, []);
    await run(
      `ALTER TABLE ${EMPLOYEE_TABLE} ADD COLUMN "Suffix_folded" text COLLATE "C" GENERATED ALWAYS AS (lower("NickName")) STORED`,
      [],
    );
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} DROP COLUMN "Suffix_folded"`, []);
    // The real twin but in the database's default collation: it would order by another rule than the seek keys.
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} ADD COLUMN "Suffix_folded" text GENERATED ALWAYS AS (lower("Suffix")) STORED`, []);
    expect(await findEmployeeFoldedColumns(run)).toBe(false);
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} DROP COLUMN "Suffix_folded"`, []);
    await run(`ALTER TABLE ${EMPLOYEE_TABLE} ADD COLUMN "Suffix_folded" text COLLATE "C" GENERATED ALWAYS AS (lower("Suffix")) STORED`, []);
    expect(await findEmployeeFoldedColumns(run)).toBe(true);
  });
});
