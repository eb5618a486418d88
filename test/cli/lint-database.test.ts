/**
 * `wepql lint` over saved filters stored in a real PostgreSQL server
 * (test/support/postgres-server.ts): findings by row id, --fix writing rows
 * back, the config file's `database` source (read only with
 * --allow-database), and identifiers quoted rather than spliced. Runs in the
 * test's process (test/support/cli-in-process.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { tempDirs } from '../support/temp-dirs.js';

const dbDir = tempDirs('wepql-lint-db-');
const cfgDir = tempDirs('wepql-lint-db-cfg-');
const exfilDir = tempDirs('wepql-lint-db-exfil-');

const V1 = { fields: { Id: { type: 'integer' }, Surname: { type: 'string' }, Gender: { type: 'integer', nullable: true } } };
const V2 = {
  fields: { Id: { type: 'integer' }, LastName: { type: 'string', renamedFrom: 'Surname' }, Gender: { type: 'integer', nullable: true } },
};

if (findPostgresBin() === undefined) {
  console.warn(`SKIPPED: wepql lint --database-url against PostgreSQL — ${postgresUnavailableReason()}`);
  describe.skip('wepql lint --database-url (PostgreSQL not installed)', () => {});
} else {
  describe('wepql lint --database-url', () => {
    let server: PostgresServer;
    let client: pg.Client;
    const dir = dbDir();
    writeFileSync(join(dir, 'v1.json'), JSON.stringify(V1));
    writeFileSync(join(dir, 'v2.json'), JSON.stringify(V2));

    beforeAll(async () => {
      server = await startPostgresServer();
      client = new pg.Client({ connectionString: server.url });
      await client.connect();
    }, 120_000);
    afterAll(async () => {
      await client?.end();
      await server?.stop();
    });

    const seed = async (table: string) => {
      await client.query(`DROP TABLE IF EXISTS "${table}"`);
      await client.query(`CREATE TABLE "${table}" (view_id integer PRIMARY KEY, "filter text" text, sort text)`);
      await client.query(
        `INSERT INTO "${table}" VALUES (1, 'Surname.StartsWith(Sm)', 'Surname=Asc'), (2, 'Gender.Equal(1)', NULL), (3, 'Nope.Equal(1)', NULL), (4, NULL, 'Id=Desc')`,
      );
    };

    it('reports findings by row id and column: a filter finding and a sort finding on one row carry their column names', async () => {
      await seed('saved views');
      const r = await runCliInProcess(
        [
          'lint',
          '--no-config',
          '--schema',
          'v2.json',
          '--previous-schema',
          'v1.json',
          '--format',
          'json',
          '--database-url',
          server.url,
          '--table',
          'saved views',
          '--column',
          'filter text',
          '--sort-column',
          'sort',
          '--id-column',
          'view_id',
        ],
        { cwd: dir },
      );
      expect(r.code).toBe(1);
      const findings = JSON.parse(r.stdout) as { file: string; kind: string; code: string }[];
      expect(findings.map((f) => [f.file, f.kind, f.code])).toEqual([
        ['saved views#1.filter text', 'filter', 'field-renamed'],
        ['saved views#1.sort', 'sort', 'field-renamed'],
        ['saved views#3.filter text', 'filter', 'unknown-field'],
      ]);
      expect(r.stderr).toContain('4 rows, 3 filters and 2 sorts checked: 1 error, 2 warnings');
    });

    it('--fix writes renamed fields back to their rows and leaves the other rows alone', async () => {
      await seed('views_fix');
      const r = await runCliInProcess(
        [
          'lint',
          '--no-config',
          '--schema',
          'v2.json',
          '--previous-schema',
          'v1.json',
          '--fix',
          '--database-url',
          server.url,
          '--table',
          'views_fix',
          '--column',
          'filter text',
          '--sort-column',
          'sort',
          '--id-column',
          'view_id',
        ],
        { cwd: dir },
      );
      expect(r.code).toBe(1);
      const rows = (await client.query('SELECT view_id, "filter text" AS f, sort FROM views_fix ORDER BY view_id')).rows;
      expect(rows).toEqual([
        { view_id: 1, f: 'LastName.StartsWith(Sm)', sort: 'LastName=Asc' },
        { view_id: 2, f: 'Gender.Equal(1)', sort: null },
        { view_id: 3, f: 'Nope.Equal(1)', sort: null },
        { view_id: 4, f: null, sort: 'Id=Desc' },
      ]);
    });

    it('reads the database source from wepql.config.json (URL from DATABASE_URL), and a missing table is a usage error', async () => {
      await seed('views_cfg');
      const cfg = cfgDir();
      writeFileSync(join(cfg, 'v2.json'), JSON.stringify(V2));
      writeFileSync(
        join(cfg, 'wepql.config.json'),
        JSON.stringify({ schema: 'v2.json', database: { table: 'views_cfg', column: 'filter text', idColumn: 'view_id' } }),
      );
      const r = await runCliInProcess(['lint', '--allow-database', '--format', 'json'], { cwd: cfg, env: { DATABASE_URL: server.url } });
      expect(JSON.parse(r.stdout).map((f: { file: string; code: string }) => [f.file, f.code])).toEqual([
        ['views_cfg#1.filter text', 'unknown-field'],
        ['views_cfg#3.filter text', 'unknown-field'],
      ]);
      const missing = await runCliInProcess(
        ['lint', '--no-config', '--database-url', server.url, '--table', 'nope"; DROP TABLE views_cfg; --', '--column', 'f'],
        { cwd: dir },
      );
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read nope');
      expect((await client.query('SELECT count(*)::int AS n FROM views_cfg')).rows[0].n).toBe(4);
    });

    it('config-database-exfiltration: a cloned config\'s "database" reads nothing without --allow-database', async () => {
      await client.query('DROP TABLE IF EXISTS api_keys');
      await client.query('CREATE TABLE api_keys (id integer PRIMARY KEY, key text)');
      await client.query("INSERT INTO api_keys VALUES (1, 'sk_live_4f9a2c'), (2, 'sk_live_77b1e0')");
      const cfg = exfilDir();
      writeFileSync(join(cfg, 'wepql.config.json'), JSON.stringify({ database: { table: 'api_keys', column: 'key' } }));
      const r = await runCliInProcess(['lint'], { cwd: cfg, env: { DATABASE_URL: server.url } });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stdout + r.stderr).not.toContain('sk_live');
      expect(r.stderr).toContain('a config alone never reads a database: pass --allow-database');
      expect(r.stderr).toContain('"api_keys"');
      // The user's own flag is the consent: then the table is read, as asked.
      const allowed = await runCliInProcess(['lint', '--allow-database', '--format', 'json'], {
        cwd: cfg,
        env: { DATABASE_URL: server.url },
      });
      expect(allowed.stderr).toContain('2 rows, 2 filters checked');
    });
  });
}
