/**
 * The list contract against a real PostgreSQL server started from the Debian
 * `postgresql` package (test/support/postgres-server.ts). Skipped, with a
 * visible warning, where no server binary exists.
 */
import pg from 'pg';
import { describe } from 'vitest';
import { createPostgresDataSource, createPostgresTable, employeeSchema, insertPostgresRecords } from '../../../src/index.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer } from '../../support/postgres-server.js';
import type { PostgresServer } from '../../support/postgres-server.js';
import { describeListContract, employees, SCOPE } from './list-contract.js';

const available = findPostgresBin() !== undefined;
if (!available) {
  console.warn(`SKIPPED: list contract on a real PostgreSQL server — ${postgresUnavailableReason()}`);
  describe.skip('list contract: PostgreSQL server (not installed)', () => {});
} else {
  let server: PostgresServer | undefined;
  let pool: pg.Pool | undefined;
  describeListContract('PostgreSQL server via pg.Pool', async () => {
    server = await startPostgresServer();
    pool = new pg.Pool({ connectionString: server.url, max: 4 });
    const query = (sql: string, params: unknown[]) => pool!.query(sql, params);
    const version = Number((await pool.query('SHOW server_version_num')).rows[0].server_version_num);
    if (version < 180000) {
      // toSql folds case with the PostgreSQL 18 collation pg_unicode_fast. Older
      // servers get a stand-in with the same code-point order and libc's
      // lower-casing, which differs from toLowerCase only in rare letters (İ, final Σ).
      console.warn(`PostgreSQL ${version}: creating a stand-in for the PostgreSQL 18 collation pg_unicode_fast (C.UTF-8, libc)`);
      await pool.query(`CREATE COLLATION IF NOT EXISTS public.pg_unicode_fast (provider = libc, locale = 'C.UTF-8')`);
    }
    await createPostgresTable({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
    await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
    const source = createPostgresDataSource({ query, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', recordColumn: 'Record', ...SCOPE });
    return {
      source,
      close: async () => {
        await pool?.end();
        await server?.stop();
      },
    };
  });
}
