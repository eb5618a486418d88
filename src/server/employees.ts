/**
 * The sample employee list behind the reference server and `wepql db-seed`:
 * where the sample file is, how its table looks in PostgreSQL, and how the
 * server reads it back.
 */
import { readFileSync } from 'node:fs';
import type { DataSource } from '../list/data-source.js';
import { createPostgresDataSource } from '../list/postgres-source.js';
import type { SqlRunner } from '../list/postgres-source.js';
import { createPostgresTable, insertPostgresRecords } from '../list/postgres-table.js';
import { employeeSchema } from '../schemas/employee.js';

/**
 * The table `wepql db-seed` creates and the server reads.
 *
 * @example
 * `SELECT COUNT(*) FROM "${EMPLOYEE_TABLE}"`;
 */
export const EMPLOYEE_TABLE = 'employees';
/**
 * The `json` column that keeps each record whole, so the server returns it exactly as stored.
 *
 * @example
 * `SELECT "${RECORD_COLUMN}" FROM employees`;
 */
export const RECORD_COLUMN = 'Record';
/**
 * How the sample marks soft-deleted employees (examples/generate-employees.mjs: RowStatus 3).
 *
 * @example
 * createMemoryDataSource(records, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' });
 */
export const EMPLOYEE_SCOPE = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;

/**
 * Reads examples/employees.json (found relative to this module, in the
 * source tree and in `dist/` alike).
 *
 * @example
 * loadSampleEmployees().length; // 1200
 */
export function loadSampleEmployees(): unknown[] {
  const file = new URL('../../examples/employees.json', import.meta.url);
  const records: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(records)) throw new Error(`${file.pathname} does not hold a JSON array`);
  return records;
}

/**
 * `toSql` folds case with PostgreSQL 18's `pg_unicode_fast` collation. On an
 * older server this creates a stand-in of that name in the `public` schema:
 * libc's `C.UTF-8`, which orders by code point like the real one and
 * lower-cases like `toLowerCase` except for a few letters (`İ`, final `Σ`).
 * Returns the server version number and whether the stand-in was created.
 *
 * @example
 * await ensureCaseFoldingCollation((sql, params) => pool.query(sql, params)); // { version: 150018, standIn: true }
 */
export async function ensureCaseFoldingCollation(query: SqlRunner): Promise<{ version: number; standIn: boolean }> {
  const { rows } = await query('SHOW server_version_num', []);
  const version = Number((rows[0] as { server_version_num: string }).server_version_num);
  if (version >= 180000) return { version, standIn: false };
  await query(`CREATE COLLATION IF NOT EXISTS public.pg_unicode_fast (provider = libc, locale = 'C.UTF-8')`, []);
  return { version, standIn: true };
}

/**
 * Creates (replacing) the employees table and fills it with records.
 *
 * @example
 * await seedEmployeeTable(query, loadSampleEmployees()); // 1200
 */
export async function seedEmployeeTable(query: SqlRunner, records: readonly unknown[]): Promise<number> {
  const table = { query, table: EMPLOYEE_TABLE, schema: employeeSchema, recordColumn: RECORD_COLUMN, primaryKey: 'Id' };
  await createPostgresTable(table, { replace: true });
  const count = await insertPostgresRecords(table, records);
  await query(`CREATE INDEX ON "${EMPLOYEE_TABLE}" ("ClientId")`, []);
  return count;
}

/**
 * The server's PostgreSQL source and client check over the seeded table.
 *
 * @example
 * const { source, clientExists } = employeePostgresSource((sql, params) => pool.query(sql, params));
 */
export function employeePostgresSource(query: SqlRunner): { source: DataSource; clientExists: (id: number) => Promise<boolean> } {
  const source = createPostgresDataSource({
    query,
    table: EMPLOYEE_TABLE,
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: RECORD_COLUMN,
    ...EMPLOYEE_SCOPE,
  });
  const clientExists = async (id: number): Promise<boolean> =>
    (await query(`SELECT 1 FROM "${EMPLOYEE_TABLE}" WHERE "ClientId" = $1 LIMIT 1`, [id])).rows.length > 0;
  return { source, clientExists };
}
