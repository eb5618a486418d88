/**
 * Starts a throw-away PostgreSQL server from the Debian `postgresql`
 * package for the data-source contract tests: a data directory from
 * `initdb` (a copy of the process's first one, `initDataDirectory` of
 * scripts/topology/clusters.mjs) in a temporary directory, `pg_ctl start` on a free loopback port, `pg_ctl stop` and
 * delete afterwards. PostgreSQL refuses to run as root, so when the tests
 * run as root the directory is given to the `postgres` user and every
 * command runs through `runuser -u postgres --`.
 *
 * Under `vitest run` the run shares one server (test/global-setup.ts):
 * `startPostgresServer` then gives the caller a fresh database of its own on
 * it and `stop()` drops that database; `startPrivatePostgresServer` always
 * starts a server of the caller's own.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initDataDirectory } from '../../scripts/topology/clusters.mjs';
import { createSharedDatabase, dropSharedDatabase, sharedServersAddress } from './shared-servers.js';

/**
 * A running server.
 *
 * @example
 * const pg: PostgresServer = await startPostgresServer(); await pg.stop();
 */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * The `bin` directory of the newest installed PostgreSQL, or undefined when
 * there is none (or when it cannot run here: root without a `postgres` user).
 *
 * @example
 * findPostgresBin(); // '/usr/lib/postgresql/15/bin', or undefined
 */
export function findPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_ctl')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) return undefined;
  if (isRoot() && postgresUid() === undefined) return undefined;
  return join(root, versions[0]!, 'bin');
}

/**
 * Why `findPostgresBin` found nothing, for the skip message.
 *
 * @example
 * console.warn(`SKIPPED: ${postgresUnavailableReason()}`);
 */
export function postgresUnavailableReason(): string {
  if (!existsSync('/usr/lib/postgresql')) return 'no /usr/lib/postgresql/*/bin/initdb (install the Debian "postgresql" package)';
  if (isRoot() && postgresUid() === undefined) return 'running as root but there is no "postgres" user to run the server as';
  return 'no complete PostgreSQL installation under /usr/lib/postgresql';
}

/**
 * A PostgreSQL database of the caller's own: a new database on the run's
 * shared server under `vitest run`, else a private server (as
 * `startPrivatePostgresServer`). `url` names that database; `stop()` drops
 * it (or stops the private server).
 *
 * @example
 * const pg = await startPostgresServer();
 * // … new pg.Client({ connectionString: pg.url }) …
 * await pg.stop();
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  if (sharedServersAddress() === undefined) return startPrivatePostgresServer();
  const db = await createSharedDatabase('postgres');
  let dropped = false;
  return {
    url: `postgres://${db.user}@${db.host}:${db.port}/${db.database}`,
    port: db.port,
    async stop() {
      if (dropped) return;
      dropped = true;
      await dropSharedDatabase(db);
    },
  };
}

/**
 * Initialises and starts a server of the caller's own; resolves once it
 * accepts connections. `url` names its `postgres` database.
 *
 * @example
 * const pg = await startPrivatePostgresServer();
 * await pg.stop();
 */
export async function startPrivatePostgresServer(): Promise<PostgresServer> {
  const bin = findPostgresBin();
  if (bin === undefined) throw new Error(`PostgreSQL is not available: ${postgresUnavailableReason()}`);
  const dir = mkdtempSync(join(tmpdir(), 'wepql-pg-'));
  const data = join(dir, 'data');
  const ids = isRoot() ? postgresUid() : undefined;
  if (ids !== undefined) chownSync(dir, ids.uid, ids.gid);
  const run = (tool: string, args: string[]): void => {
    const command = ids === undefined ? join(bin, tool) : 'runuser';
    const argv = ids === undefined ? args : ['-u', 'postgres', '--', join(bin, tool), ...args];
    const r = spawnSync(command, argv, { encoding: 'utf8', cwd: dir, timeout: 60_000 });
    if (r.status !== 0) {
      throw new Error(`${tool} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
    }
  };
  // A copy of the process's first initdb (C.UTF-8, so that lower() folds non-ASCII letters, as the in-memory
  // evaluator does): the coordinator starts this server and the topologies' clusters, each paid an initdb.
  initDataDirectory(bin, data);
  const port = await freePort();
  // Many test files hold pools on a shared server at once: room for them.
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '120', 'start']);
  // pg_ctl starts a daemon: a run that dies without stop() must not leave it behind.
  const stopOnExit = (): void => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
    } catch {
      // Already gone.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', stopOnExit);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopOnExit);
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresUid(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
