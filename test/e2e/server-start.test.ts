/**
 * The BUILT server, started the way `npm start` starts it
 * (`node dist/reference-server/main.js`), on a free port: once over the sample file,
 * and once over PostgreSQL after `wepql db-seed` (where a server binary is
 * installed). Needs `npm run build` first, as `npm test` does.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../support/dist.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';
import { get } from '../support/http.js';
import { builtCli } from '../support/srv-cli.js';
import type { CliResult } from '../support/cli.js';

const root = new URL('../../', import.meta.url).pathname;
const main = `${root}dist/reference-server/main.js`;
const cli = `${root}dist/cli/main.js`;
const running: ChildProcess[] = [];
/** The server over the sample file that the cases which only read it share, started on first use. */
const sharedChildren: ChildProcess[] = [];
const SAMPLE_TOKEN = 'start-test-token';
let sample: Promise<{ url: string; output: () => string }> | undefined;
const sampleServer = () => (sample ??= start({ WEPQL_DEMO_TOKEN: SAMPLE_TOKEN }, sharedChildren));

beforeAll(assertFreshDist);

afterAll(async () => {
  for (const child of sharedChildren.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
});

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGTERM');
});

/** Starts the built server and resolves with its address once it prints it; `children` is who stops it (the case's, by default). */
function start(env: Record<string, string>, children = running): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('try:')) {
        clearTimeout(timer);
        resolve({ url: m[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

/** Stops the servers a case started and waits until they have exited (they hold connections to its database). */
async function stopServers(): Promise<void> {
  for (const child of running.splice(0)) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

describe('npm start (dist/reference-server/main.js)', () => {
  it('prints its address, the token and three curl lines, and serves a page', async () => {
    const { url, output } = await sampleServer();
    expect(output()).toContain(`bearer token: ${SAMPLE_TOKEN}`);
    expect(output().match(/^ {2}curl /gm)).toHaveLength(3);
    const r = await get(`${url}/api/public/clients/2/employees?limit=3`, { authorization: `Bearer ${SAMPLE_TOKEN}` });
    expect(r.status).toBe(200);
    expect(r.body.Data).toHaveLength(3);
    expect(r.body.Data.every((e: { ClientId: number }) => e.ClientId === 2)).toBe(true);
    expect(r.body.Pagination.PageSize).toBe(3);
  });

  // The curl lines are meant to be pasted into a shell: run each one as printed.
  it.skipIf(spawnSync('curl', ['--version']).status !== 0)('prints curl lines that work when pasted, the third one paging on', async () => {
    const { output } = await sampleServer();
    const lines = output()
      .split('\n')
      .filter((line) => line.startsWith('  curl '))
      .map((line) => line.trim());
    expect(lines).toHaveLength(3);
    const bodies = lines.map((line) => {
      const r = spawnSync('sh', ['-c', line], { encoding: 'utf8', timeout: 20_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { Status: number; Data: unknown[]; Pagination: { PageNo: number; PageSize: number } };
    });
    expect(bodies.map((b) => b.Status)).toEqual([1, 1, 1]);
    expect(bodies.map((b) => b.Pagination.PageNo)).toEqual([1, 1, 2]);
    expect(bodies[2]!.Data).toHaveLength(5);
  });

  it('generates a bearer token when WEPQL_DEMO_TOKEN is unset', async () => {
    const { url, output } = await start({ WEPQL_DEMO_TOKEN: '' });
    const token = /bearer token: (\S+)/.exec(output())![1]!;
    expect(token.length).toBeGreaterThanOrEqual(20);
    expect((await get(`${url}/api/public/clients/1/employees?limit=1`, { authorization: `Bearer ${token}` })).status).toBe(200);
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be a port number'],
    [{ WEPQL_TOKEN_TTL_S: '-1' }, 'WEPQL_TOKEN_TTL_S must be a positive number'],
    // Issue 19 #12: an infinite lifetime (400 nines read as a number) used to crash start-up with a stack.
    [{ WEPQL_TOKEN_TTL_S: '9'.repeat(400) }, 'WEPQL_TOKEN_TTL_S must be a positive number of seconds up to 31536000'],
    [{ WEPQL_TOKEN_TTL_S: '1e999' }, 'WEPQL_TOKEN_TTL_S must be a positive number'],
    [{ WEPQL_TOKEN_TTL_S: '40000000' }, 'WEPQL_TOKEN_TTL_S must be a positive number of seconds up to 31536000'],
    [{ PORT: '70000' }, 'PORT must be a port number'],
    [{ WEPQL_SECRET: 'short' }, 'WEPQL_SECRET must be at least 16 bytes'],
    [{ WEPQL_DEMO_TOKEN: 'two words' }, 'WEPQL_DEMO_TOKEN must be a bearer token'],
    [{ WEPQL_DEMO_TOKEN: "it's" }, 'WEPQL_DEMO_TOKEN must be a bearer token'],
  ])('refuses the settings %j', (env, message) => {
    const r = spawnSync(process.execPath, [main], { env: { ...process.env, PORT: '0', ...env }, encoding: 'utf8', timeout: 20_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('names PORT when the port is taken (issue 21 #7), one line and exit 2', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr!.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
        child.once('close', (status) => resolve({ status, stderr }));
      });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(
        `wepql server: port ${port} on 127.0.0.1 is already in use; set PORT to another port (PORT=0 picks a free one)\n`,
      );
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  });

  it('reports an unreachable DATABASE_URL in one line, no stack (exit 1)', () => {
    const r = spawnSync(process.execPath, [main], {
      env: { ...process.env, PORT: '0', DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^wepql server: cannot use DATABASE_URL: .*ECONNREFUSED/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('wepql db-seed', () => {
  it('needs a database URL (exit 2)', () => {
    const r = spawnSync(process.execPath, [cli, 'db-seed'], { env: { ...process.env, DATABASE_URL: '' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('give --database-url URL or set DATABASE_URL');
  });

  it('reports a database it cannot reach (exit 1)', () => {
    const r = spawnSync(process.execPath, [cli, 'db-seed', '--database-url', 'postgres://nobody@127.0.0.1:1/none'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^wepql db-seed: .*ECONNREFUSED/);
  });
});

if (findPostgresBin() === undefined) {
  console.warn(`SKIPPED: npm start with DATABASE_URL — ${postgresUnavailableReason()}`);
  describe.skip('npm start with DATABASE_URL (PostgreSQL not installed)', () => {});
} else {
  describe('npm start with DATABASE_URL after wepql db-seed', () => {
    // One database seeded with the default 1,200 employees serves the first two cases: the first only reads it, the
    // second then adds the counter table and changes rows. Each had seeded its own, the same way. The servers under
    // test are processes; db-seed and db-index, tools here (their processes are test/cli's), run the built CLI in this
    // process (test/support/srv-cli.ts).
    let seeded: Promise<{ pg: PostgresServer; seed: CliResult }> | undefined;
    const seededDatabase = () =>
      (seeded ??= startPostgresServer().then(async (pg) => ({ pg, seed: await builtCli(['db-seed', '--database-url', pg.url]) })));
    afterAll(async () => {
      await (await seeded)?.pg.stop();
    });

    it('serves the same pages from PostgreSQL as from the sample file', async () => {
      const { pg, seed } = await seededDatabase();
      try {
        expect(seed.stdout + seed.stderr).toContain('created table "employees" with 1200 employees');
        expect(seed.code).toBe(0);
        const fromDb = await start({ WEPQL_DEMO_TOKEN: 'db', DATABASE_URL: pg.url });
        expect(fromDb.output()).toContain('data: PostgreSQL table "employees"');
        const fromFile = await sampleServer();
        const path = '/api/public/clients/1/employees?limit=25&sort=LastName%3DDesc&filter=Or(Gender.Equal(1)%3BLastName.StartsWith(m))';
        const a = await get(fromDb.url + path, { authorization: 'Bearer db' });
        const b = await get(fromFile.url + path, { authorization: `Bearer ${SAMPLE_TOKEN}` });
        expect(a.status).toBe(200);
        expect(a.body.Data.length).toBe(25);
        expect(a.body.Data).toEqual(b.body.Data);
        expect(a.body.Pagination.TotalRecords).toBe(b.body.Pagination.TotalRecords);
        const next = await get(fromDb.url + `/api/public/clients/1/employees?next-page=true&data-token=${a.body.Pagination.DataToken}`, {
          authorization: 'Bearer db',
        });
        expect(next.body.Pagination.PageNo).toBe(2);
        expect((await get(fromDb.url + '/api/public/clients/42/employees?limit=1', { authorization: 'Bearer db' })).status).toBe(404);
      } finally {
        await stopServers();
      }
    });

    it('db-index --counts installs the counter table, and the server reads unfiltered totals from it with no setting', async () => {
      const { pg, seed } = await seededDatabase();
      try {
        expect(seed.code, seed.stderr).toBe(0);
        const printed = await builtCli(['db-index', '--counts', '--fold-collation', 'wepql_fold']);
        expect(printed.stdout).toMatch(/^BEGIN;\nCREATE TABLE IF NOT EXISTS "employees_wepql_counts" /m);
        const applied = await builtCli(['db-index', '--database-url', pg.url, '--counts', '--apply']);
        expect(applied.code, applied.stderr).toBe(0);
        expect(applied.stdout).toMatch(/counter table "employees_wepql_counts" with its triggers, backfilled in/);
        const server = await start({ WEPQL_DEMO_TOKEN: 'db', DATABASE_URL: pg.url });
        expect(server.output()).toContain('unfiltered totals from the counter table "employees_wepql_counts"');
        const { default: pgDriver } = await import('pg');
        const client = new pgDriver.Client({ connectionString: pg.url });
        await client.connect();
        try {
          const total = async () =>
            (await get(`${server.url}/api/public/clients/1/employees?limit=5`, { authorization: 'Bearer db' })).body.Pagination
              .TotalRecords;
          const exact = async () =>
            Number(
              (await client.query(`SELECT COUNT(*) AS n FROM employees WHERE "ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`))
                .rows[0].n,
            );
          expect(await total()).toBe(await exact());
          // The server reads the counter: a change only the counter sees shows in the total.
          await client.query(`UPDATE employees_wepql_counts SET n = n + 7 WHERE "ClientId" = 1 AND NOT deleted AND slot = 0`);
          expect(await total()).toBe((await exact()) + 7);
          await client.query(`UPDATE employees_wepql_counts SET n = n - 7 WHERE "ClientId" = 1 AND NOT deleted AND slot = 0`);
          await client.query(
            `DELETE FROM employees WHERE "ClientId" = 1 AND "Id" IN (SELECT "Id" FROM employees WHERE "ClientId" = 1 LIMIT 3)`,
          );
          expect(await total()).toBe(await exact());
        } finally {
          await client.end();
        }
      } finally {
        await stopServers();
      }
    }, 120_000);

    // db-seed-gender-like-sample: generated rows carry the sample's Gender codes (1–3), so the example
    // the server prints (`LastName.StartsWith(Sm);Gender.Equal(1)`) finds rows; db-seed ends with
    // VACUUM ANALYZE, so counts are index-only from the first request.
    it('db-seed-gender-like-sample: the printed example finds rows in generated data', async () => {
      const pg = await startPostgresServer();
      try {
        const seed = await builtCli(['db-seed', '--database-url', pg.url, '--rows', '3000']);
        expect(seed.code, seed.stderr).toBe(0);
        const server = await start({ WEPQL_DEMO_TOKEN: 'db', DATABASE_URL: pg.url });
        const printed = /filter=([^']+)'/.exec(server.output())![1]!;
        expect(printed).toBe('LastName.StartsWith(Sm);Gender.Equal(1)');
        const list = `${server.url}/api/public/clients/1/employees?limit=5&filter=`;
        const example = await get(list + encodeURIComponent(printed), { authorization: 'Bearer db' });
        expect(example.status).toBe(200);
        expect(example.body.Pagination.TotalRecords).toBeGreaterThan(0);
        const byCode = await Promise.all(
          [1, 2, 3, 4].map(async (code) => (await get(list + `Gender.Equal(${code})`, { authorization: 'Bearer db' })).body),
        );
        const totals = byCode.map((b: { Pagination: { TotalRecords: number } }) => b.Pagination.TotalRecords);
        // Client 1 holds about 98% of 3,000 rows; a seventh of Genders are null; 3 codes share the rest.
        for (const total of totals.slice(0, 3)) expect(total).toBeGreaterThan(600);
        expect(totals[3]).toBe(0);
        const { default: pgDriver } = await import('pg');
        const client = new pgDriver.Client({ connectionString: pg.url });
        await client.connect();
        try {
          const vacuumed = await client.query(`SELECT relpages, relallvisible FROM pg_class WHERE relname = 'employees'`);
          const { relpages, relallvisible } = vacuumed.rows[0] as { relpages: number; relallvisible: number };
          expect(relpages).toBeGreaterThan(0);
          expect(relallvisible).toBe(relpages);
        } finally {
          await client.end();
        }
      } finally {
        await stopServers();
        await pg.stop();
      }
    }, 120_000);
  });
}
