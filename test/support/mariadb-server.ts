/**
 * Starts a throw-away MariaDB server from the Debian `mariadb-server`
 * package for the MySQL dialect's tests: `mariadb-install-db` into a
 * temporary directory, `mariadbd` on a free loopback port (and a socket in
 * that directory), stopped and deleted afterwards. When the tests run as
 * root the server is told `--user=root`, since mariadbd otherwise refuses.
 *
 * Under `vitest run` the run shares one server (test/global-setup.ts):
 * `startMariadbServer` then gives the caller a fresh database of its own on
 * it and `stop()` drops that database; `startPrivateMariadbServer` always
 * starts a server of the caller's own.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSharedDatabase, dropSharedDatabase, sharedServersAddress } from './shared-servers.js';

/**
 * A running server.
 *
 * @example
 * const db: MariadbServer = await startMariadbServer(); await db.stop();
 */
export interface MariadbServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** The user the tests connect as (`root`, no password, loopback only). */
  readonly user: 'root';
  /** An empty database created for the caller (`wepql` on a private server). */
  readonly database: string;
  stop(): Promise<void>;
}

const SERVER_CANDIDATES = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld'];
const INSTALL_CANDIDATES = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db'];

function firstExisting(paths: readonly string[]): string | undefined {
  return paths.find((p) => existsSync(p));
}

/**
 * The server and install-db binaries, or undefined when MariaDB is not installed.
 *
 * @example
 * findMariadb(); // { server: '/usr/sbin/mariadbd', installDb: '/usr/bin/mariadb-install-db' }
 */
export function findMariadb(): { readonly server: string; readonly installDb: string } | undefined {
  const server = firstExisting(SERVER_CANDIDATES);
  const installDb = firstExisting(INSTALL_CANDIDATES);
  return server === undefined || installDb === undefined ? undefined : { server, installDb };
}

/**
 * Why `findMariadb` found nothing, for the skip message.
 *
 * @example
 * console.warn(`SKIPPED: ${mariadbUnavailableReason()}`);
 */
export function mariadbUnavailableReason(): string {
  return `no ${SERVER_CANDIDATES.join(' or ')} with ${INSTALL_CANDIDATES.join(' or ')} (install the Debian "mariadb-server" package)`;
}

/**
 * A MariaDB database of the caller's own: a new database on the run's
 * shared server under `vitest run`, else the `wepql` database of a private
 * server (as `startPrivateMariadbServer`). `stop()` drops the database (or
 * stops the private server).
 *
 * @example
 * const db = await startMariadbServer();
 * // … mysql.createConnection({ host: db.host, port: db.port, user: db.user, database: db.database }) …
 * await db.stop();
 */
export async function startMariadbServer(): Promise<MariadbServer> {
  if (sharedServersAddress() === undefined) return startPrivateMariadbServer();
  const db = await createSharedDatabase('mariadb');
  let dropped = false;
  return {
    host: '127.0.0.1',
    port: db.port,
    user: 'root',
    database: db.database,
    async stop() {
      if (dropped) return;
      dropped = true;
      await dropSharedDatabase(db);
    },
  };
}

/**
 * Initialises and starts a server of the caller's own; resolves once it
 * accepts connections and the `wepql` database exists.
 *
 * @example
 * const db = await startPrivateMariadbServer();
 * await db.stop();
 */
export async function startPrivateMariadbServer(): Promise<MariadbServer> {
  const found = findMariadb();
  if (found === undefined) throw new Error(`MariaDB is not available: ${mariadbUnavailableReason()}`);
  const dir = mkdtempSync(join(tmpdir(), 'wepql-mariadb-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'mariadb.sock');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const user = asRoot ? ['--user=root'] : [];
  const init = spawnSync(
    found.installDb,
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...user],
    { encoding: 'utf8', cwd: dir, timeout: 120_000 },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed (${init.status ?? init.signal}):\n${init.stdout}\n${init.stderr}`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(
    found.server,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      `--pid-file=${join(dir, 'mariadb.pid')}`,
      '--bind-address=127.0.0.1',
      `--port=${port}`,
      '--skip-name-resolve',
      '--skip-log-bin',
      '--innodb-buffer-pool-size=32M',
      '--innodb-log-file-size=8M',
      '--innodb-flush-log-at-trx-commit=0',
      // utf8mb4 with its default (case- and accent-insensitive, padding)
      // collation, as most installations have: toSql must pin its own.
      '--character-set-server=utf8mb4',
      `--log-error=${join(dir, 'error.log')}`,
      '--max-prepared-stmt-count=100000',
      ...user,
    ],
    { stdio: 'ignore' },
  );
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => ((exited = true), resolve())));
  // A test run that dies without stop() must not leave a server behind.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const cleanup = (): void => {
    process.off('exit', killOnExit);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, () => exited, 60_000);
    const create = spawnSync('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', 'CREATE DATABASE wepql'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (create.status !== 0) throw new Error(`CREATE DATABASE failed:\n${create.stderr}`);
  } catch (error) {
    child.kill('SIGKILL');
    await exit;
    let log = '';
    try {
      log = readFileSync(join(dir, 'error.log'), 'utf8').slice(-2000);
    } catch {
      // No log written: the message alone must do.
    }
    cleanup();
    throw new Error(`${(error as Error).message}\nmariadbd error log (end):\n${log}`, { cause: error });
  }
  let stopped = false;
  return {
    host: '127.0.0.1',
    port,
    user: 'root',
    database: 'wepql',
    async stop() {
      if (stopped) return;
      stopped = true;
      if (!exited) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        await exit;
        clearTimeout(timer);
      }
      cleanup();
    },
  };
}

async function waitForPort(port: number, gone: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (gone()) throw new Error('mariadbd exited during start-up');
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`mariadbd did not listen on 127.0.0.1:${port} within ${timeoutMs} ms`);
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
