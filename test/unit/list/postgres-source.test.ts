/**
 * The list contract against a real PostgreSQL server started from the Debian
 * `postgresql` package (test/support/postgres-server.ts). Skipped, with a
 * visible warning, where no server binary exists.
 */
import pg from 'pg';
import { describe } from 'vitest';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../../src/sources/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { chooseFoldCollation } from '../../../src/sample/employees.js';
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
    // toSql folds case with PostgreSQL 18's pg_unicode_fast; older servers get
    // a collation of the same code-point order passed as foldCollation.
    const { foldCollation, note } = await chooseFoldCollation(query);
    if (note !== undefined) console.warn(note);
    await createPostgresTable(
      { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' },
      { replace: true },
    );
    await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
    const source = createPostgresDataSource({
      query,
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...(foldCollation === undefined ? {} : { foldCollation }),
      ...SCOPE,
    });
    return {
      source,
      close: async () => {
        await pool?.end();
        await server?.stop();
      },
    };
  });
}
