// A throw-away PostgreSQL server for benchmarks (as test/support/postgres-server.ts does for
// tests): initdb into a temporary directory, start on a free loopback port, stop and delete.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CLI = new URL('../dist/cli/main.js', import.meta.url).pathname;

function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('no /usr/lib/postgresql (install the Debian "postgresql" package) and no DATABASE_URL');
  const v = readdirSync(root)
    .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
    .sort((a, b) => b - a)[0];
  if (v === undefined) throw new Error('no PostgreSQL under /usr/lib/postgresql');
  return join(root, v, 'bin');
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts a server; `stop()` stops it and deletes its files. With `keep` (a directory), the server's
 * files live there and stay after `stop()`, and a later call starts the server they hold again.
 */
export async function startPostgres(keep) {
  const bin = postgresBin();
  const dir = keep ?? mkdtempSync(join(tmpdir(), 'wepql-bench-pg-'));
  if (keep !== undefined) mkdirSync(keep, { recursive: true });
  const root = process.getuid?.() === 0;
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  if (root) chownSync(dir, id('-u'), id('-g'));
  const run = (tool, args) => {
    const r = root
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { encoding: 'utf8', cwd: dir })
      : spawnSync(join(bin, tool), args, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr}`);
  };
  if (!existsSync(join(dir, 'data', 'PG_VERSION'))) {
    run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  }
  const port = await freePort();
  const opts = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '120', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
      } finally {
        if (keep === undefined) rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Runs the built `wepql` CLI; throws with its stderr when it fails. */
export function cli(args) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wepql ${args[0]} failed: ${r.stderr}`);
  return r.stdout;
}

/** The filters `npm run bench:load` sends, which `seededPostgres` indexes for. */
export const LOAD_FILTERS = [
  'LastName.StartsWith(sm)',
  'Gender.Equal(1)',
  'CreatedOn.GreaterThan(2000-01-01)',
  'EmployeeNumber.LessThan(100)',
  'BirthOn.GreaterThan(1990-01-01)',
];

/**
 * A server holding `rows` seeded employees, indexed for both 10^6-row benchmarks (`wepql db-index
 * --sort LastName=Asc --sort CreatedOn=Desc --filters (the load's filters) --counts --apply`, then
 * `VACUUM ANALYZE`). With WEPQL_BENCH_PGDATA set to a directory, the seeded server is kept there and
 * the next benchmark with the same row count starts it again instead of seeding (about 6 minutes
 * at 10^6 rows on a loaded machine): `bench:load` and `bench:million` then seed once between them.
 * Resolves with the server and the seconds seeding and indexing took (when this run did them).
 */
export async function seededPostgres(rows) {
  const keep = process.env.WEPQL_BENCH_PGDATA || undefined;
  const marker = keep === undefined ? undefined : join(keep, 'seeded.json');
  if (marker !== undefined && existsSync(marker)) {
    const seeded = JSON.parse(readFileSync(marker, 'utf8'));
    if (seeded.rows === rows) return { server: await startPostgres(keep), ...seeded, reused: true };
    rmSync(keep, { recursive: true, force: true });
  }
  const server = await startPostgres(keep);
  const t0 = performance.now();
  cli(['db-seed', '--database-url', server.url, '--rows', String(rows)]);
  const seedS = (performance.now() - t0) / 1000;
  const filters = join(tmpdir(), `wepql-bench-filters-${process.pid}.txt`);
  writeFileSync(filters, `${LOAD_FILTERS.join('\n')}\n`);
  const t1 = performance.now();
  const indexOut = cli([
    'db-index',
    '--database-url',
    server.url,
    '--sort',
    'LastName=Asc',
    '--sort',
    'CreatedOn=Desc',
    '--filters',
    filters,
    '--counts',
    '--apply',
  ]);
  rmSync(filters);
  // db-seed ends with VACUUM ANALYZE; the indexes db-index adds are then in the statistics too.
  psql(server.url, 'VACUUM ANALYZE employees');
  const indexS = (performance.now() - t1) / 1000;
  const seeded = { rows, seedS, indexS, indexOut };
  if (marker !== undefined) writeFileSync(marker, JSON.stringify(seeded));
  return { server, ...seeded, reused: false };
}

function psql(url, sql) {
  const r = spawnSync(join(postgresBin(), 'psql'), [url, '-v', 'ON_ERROR_STOP=1', '-c', sql], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`psql failed: ${r.stderr}`);
}

/** Starts a bench server process (bench/<script>, which prints `listening <url>`); resolves with its base URL, pid and a stop function. */
export function startServer(script, args) {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const listening = (chunk) => {
      out += chunk;
      const m = /listening (\S+)/.exec(out);
      if (m === null) return;
      // Whatever it prints later is read and dropped, not gathered.
      child.stdout.off('data', listening).resume();
      resolve({ url: m[1], pid: child.pid, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    };
    child.stdout.on('data', listening);
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
