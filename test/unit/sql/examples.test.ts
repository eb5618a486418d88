/**
 * The worked examples of docs/sql.md run against the BUILT library (dist/,
 * `npm run build`) and end by checking that the database and `query()`
 * agree; this keeps them working.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../../support/dist.js';
import { findMariadb, startMariadbServer } from '../../support/mariadb-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

// The examples import the built package (npm test builds dist/ first).
beforeAll(assertFreshDist);

describe('examples/sql', () => {
  it.each([
    ['employees-postgres.mjs', 'all three agree'],
    ['employees-sqlite.mjs', 'SQLite and query() agree'],
  ])('%s', (file, verdict) => {
    const out = execFileSync(process.execPath, [`examples/sql/${file}`], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    expect(out).toContain(verdict);
    expect(out).toContain('ORDER BY');
  });

  it('employees-drizzle.mjs', () => {
    const out = execFileSync(process.execPath, ['examples/sql/employees-drizzle.mjs'], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    expect(out).toContain('Drizzle and query() agree');
    expect(out).toContain('order by wepql_lower(CAST("LastName" AS BLOB))');
  });

  // A real MariaDB from Debian's mariadb-server (test/property/sql-differential.test.ts reports a skip).
  it.skipIf(findMariadb() === undefined)(
    'employees-mysql.mjs',
    async () => {
      const server = await startMariadbServer();
      try {
        const out = execFileSync(process.execPath, ['examples/sql/employees-mysql.mjs'], {
          cwd: root,
          encoding: 'utf8',
          timeout: 90_000,
          env: { ...process.env, MYSQL_URL: `mysql://${server.user}@${server.host}:${server.port}/${server.database}` },
        });
        expect(out).toContain('MySQL and query() agree');
        expect(out).toContain("ESCAPE '!'");
      } finally {
        await server.stop();
      }
    },
    120_000,
  );
});
