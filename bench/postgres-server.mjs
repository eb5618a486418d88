// A throw-away PostgreSQL server for benchmarks (as test/support/postgres-server.ts does for
// tests): initdb into a temporary directory, start on a free loopback port, stop and delete.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

/** Starts a server; `stop()` stops it and deletes its files. */
export async function startPostgres() {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'wepql-bench-pg-'));
  const root = process.getuid?.() === 0;
  const id = (flag) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
  if (root) chownSync(dir, id('-u'), id('-g'));
  const run = (tool, args) => {
    const r = root
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { encoding: 'utf8', cwd: dir })
      : spawnSync(join(bin, tool), args, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr}`);
  };
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '120', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
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
