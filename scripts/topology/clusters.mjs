/**
 * Local PostgreSQL topologies for the "past one server" tests and for trying
 * them by hand (`npm run topology -- <name>`): separate clusters from the
 * Debian `postgresql` package, each in a temporary directory on a free
 * loopback port, plus `pgbouncer` from the Debian package. Every function
 * returns the URLs to connect to and a `stop()` that stops every process it
 * started and deletes its directories.
 *
 * PostgreSQL refuses to run as root: when this runs as root, directories are
 * given to the `postgres` user and every server command runs through
 * `runuser -u postgres --`.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The `bin` directory of the newest PostgreSQL, or undefined.
 *
 * @returns {string | undefined}
 */
export function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')) && existsSync(join(root, v, 'bin', 'pg_basebackup')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) return undefined;
  if (isRoot() && postgresIds() === undefined) return undefined;
  return join(root, versions[0], 'bin');
}

/**
 * The pgbouncer binary, or undefined.
 *
 * @returns {string | undefined}
 */
export function pgbouncerBin() {
  for (const p of ['/usr/sbin/pgbouncer', '/usr/bin/pgbouncer']) if (existsSync(p)) return p;
  return undefined;
}

/**
 * Whether `postgres_fdw` is installed for the newest PostgreSQL.
 *
 * @returns {boolean}
 */
export function hasPostgresFdw() {
  const bin = postgresBin();
  return bin !== undefined && existsSync(join(bin, '..', 'lib', 'postgres_fdw.so'));
}

/**
 * Why a topology cannot start here, or undefined when it can.
 *
 * @param {'pgbouncer' | 'replica' | 'shards'} name
 * @returns {string | undefined}
 */
export function topologyUnavailable(name) {
  if (postgresBin() === undefined) return 'no PostgreSQL server (install the Debian "postgresql" package)';
  if (name === 'pgbouncer' && pgbouncerBin() === undefined) return 'no pgbouncer (install the Debian "pgbouncer" package)';
  if (name === 'shards' && !hasPostgresFdw()) return 'no postgres_fdw (part of the Debian "postgresql" package)';
  return undefined;
}

function isRoot() {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function postgresIds() {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

/** Runs a PostgreSQL or pgbouncer tool as the user that may run servers; throws with its output on failure. */
function runTool(command, args, cwd) {
  const ids = isRoot() ? postgresIds() : undefined;
  const r = spawnSync(ids === undefined ? command : 'runuser', ids === undefined ? args : ['-u', 'postgres', '--', command, ...args], {
    encoding: 'utf8',
    cwd,
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A new temporary directory the server user owns. */
function ownedTempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ids = isRoot() ? postgresIds() : undefined;
  if (ids !== undefined) chownSync(dir, ids.uid, ids.gid);
  return dir;
}

/**
 * A free loopback port.
 *
 * @returns {Promise<number>}
 */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

/** Resolves once something accepts connections on the port (or rejects after `ms`). */
function waitForPort(port, ms) {
  const deadline = Date.now() + ms;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = createConnection({ port, host: '127.0.0.1' });
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`nothing listens on 127.0.0.1:${port} after ${ms} ms`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/** Stops what `stops` holds, last started first, ignoring what is already gone; then deletes the directories. */
function stopper(stops, dirs) {
  let stopped = false;
  const stopAll = () => {
    if (stopped) return;
    stopped = true;
    process.off('exit', stopAll);
    for (const stop of [...stops].reverse()) {
      try {
        stop();
      } catch {
        // Already gone.
      }
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  // pg_ctl and pgbouncer start daemons: a run that dies without stop() must not leave them behind.
  process.once('exit', stopAll);
  return stopAll;
}

/** By `bin` directory: the data directory the process's first `initdb` made, kept untouched. */
const freshData = new Map();

/**
 * Makes `data` a new data directory as `initdb` makes it (UTF8, C.UTF-8, superuser `postgres`, trust
 * authentication on loopback), owned by the server user. The process's first call runs `initdb` into a
 * directory of its own, kept untouched until the process exits; every call copies that (`cp -a`, as the
 * server user). `initdb` costs about 1.4 s of CPU, a copy about 0.2 s, and a test run starts four clusters
 * or more (its shared server, two shards, a replica's primary).
 *
 * @param {string} bin   the PostgreSQL `bin` directory
 * @param {string} data  where the data directory goes: must not exist; its parent belongs to the server user
 */
export function initDataDirectory(bin, data) {
  let fresh = freshData.get(bin);
  if (fresh === undefined || !existsSync(fresh)) {
    const dir = ownedTempDir('wepql-initdb-');
    fresh = join(dir, 'data');
    try {
      // C.UTF-8 so that lower() folds non-ASCII letters, as the in-memory evaluator does.
      runTool(join(bin, 'initdb'), ['-D', fresh, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'], dir);
    } catch (error) {
      rmSync(dir, { recursive: true, force: true });
      throw error;
    }
    freshData.set(bin, fresh);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  runTool('cp', ['-a', fresh, data], dirname(data));
}

/**
 * @typedef {object} Cluster
 * @property {string} name
 * @property {number} port
 * @property {string} url      `postgres://postgres@127.0.0.1:<port>/postgres`
 * @property {string} data     the data directory
 * @property {() => void} stop
 */

const SERVER_SETTINGS = [
  '-c fsync=off',
  '-c synchronous_commit=off',
  '-c full_page_writes=off',
  '-c max_connections=200',
  '-c wal_level=replica',
  '-c max_wal_senders=5',
  '-c hot_standby=on',
];

/** Starts a server on an existing data directory; returns its stop function. */
async function startServer(bin, dir, data, port, extra = []) {
  const options = [`-p ${port}`, '-h 127.0.0.1', `-k ${dir}`, ...SERVER_SETTINGS, ...extra].join(' ');
  runTool(join(bin, 'pg_ctl'), ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '120', 'start'], dir);
  return () => runTool(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], dir);
}

/**
 * Initialises and starts one cluster (C.UTF-8, trust authentication on
 * loopback, replication allowed).
 *
 * @param {string} name   a label for messages and the directory name
 * @returns {Promise<Cluster>}
 */
export async function startCluster(name) {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(`cannot start ${name}: ${topologyUnavailable('replica')}`);
  const dir = ownedTempDir(`wepql-${name}-`);
  const data = join(dir, 'data');
  initDataDirectory(bin, data);
  const port = await freePort();
  const stops = [await startServer(bin, dir, data, port)];
  return { name, port, url: `postgres://postgres@127.0.0.1:${port}/postgres`, data, stop: stopper(stops, [dir]) };
}

/**
 * A primary and one hot standby fed by streaming replication
 * (`pg_basebackup -R`, so the standby's `primary_conninfo` names the
 * primary). `wait()` resolves once the standby has replayed everything the
 * primary had written when it was called.
 *
 * @returns {Promise<{ primary: Cluster, standby: Cluster, caughtUp: (query: (sql: string) => Promise<{rows: any[]}>, standbyQuery: (sql: string) => Promise<{rows: any[]}>) => Promise<void>, stop: () => void }>}
 */
export async function startPrimaryWithStandby() {
  const bin = postgresBin();
  if (bin === undefined) throw new Error(`cannot start a replica: ${topologyUnavailable('replica')}`);
  const primary = await startCluster('primary');
  const dir = ownedTempDir('wepql-standby-');
  const data = join(dir, 'data');
  try {
    runTool(
      join(bin, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(primary.port), '-U', 'postgres', '-D', data, '-R', '-X', 'stream', '-c', 'fast'],
      dir,
    );
  } catch (e) {
    primary.stop();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const port = await freePort();
  // hot_standby_feedback off and a short max_standby_streaming_delay: a long standby query that
  // conflicts with replay is cancelled quickly, as on a busy production replica.
  const stopStandby = await startServer(bin, dir, data, port, ['-c max_standby_streaming_delay=1s', '-c hot_standby_feedback=off']);
  const standby = {
    name: 'standby',
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    data,
    stop: stopper([stopStandby], [dir]),
  };
  return {
    primary,
    standby,
    caughtUp: waitForReplay,
    stop() {
      standby.stop();
      primary.stop();
    },
  };
}

/**
 * Resolves once the standby has replayed everything the primary had
 * written when it was called (30 s at most).
 *
 * @param {(sql: string) => Promise<{rows: any[]}>} primaryQuery
 * @param {(sql: string) => Promise<{rows: any[]}>} standbyQuery
 * @returns {Promise<void>}
 */
export async function waitForReplay(primaryQuery, standbyQuery) {
  const lsn = (await primaryQuery('SELECT pg_current_wal_lsn()::text AS lsn')).rows[0].lsn;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = await standbyQuery(`SELECT pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn AS done`);
    if (r.rows[0].done === true) return;
    if (Date.now() > deadline) throw new Error(`the standby did not replay ${lsn} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * pgbouncer in transaction mode in front of a cluster: every database of the
 * cluster, reachable at the returned port. Server connections are handed to
 * a client for one transaction only, so no session state survives between
 * statements.
 *
 * @param {Cluster} upstream
 * @param {{ poolSize?: number }} [options]
 * @returns {Promise<{ port: number, url: (database: string) => string, stop: () => void }>}
 */
export async function startPgbouncer(upstream, options = {}) {
  const binary = pgbouncerBin();
  if (binary === undefined) throw new Error(`cannot start pgbouncer: ${topologyUnavailable('pgbouncer')}`);
  const dir = ownedTempDir('wepql-pgbouncer-');
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(join(dir, 'userlist.txt'), '"postgres" ""\n');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=127.0.0.1 port=${upstream.port}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${dir}`,
      'auth_type = trust',
      `auth_file = ${join(dir, 'userlist.txt')}`,
      'pool_mode = transaction',
      `default_pool_size = ${options.poolSize ?? 4}`,
      'max_client_conn = 500',
      'ignore_startup_parameters = extra_float_digits,options',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const ids = isRoot() ? postgresIds() : undefined;
  if (ids !== undefined) for (const f of ['pgbouncer.ini', 'userlist.txt']) chownSync(join(dir, f), ids.uid, ids.gid);
  const child = spawn(ids === undefined ? binary : 'runuser', ids === undefined ? [ini] : ['-u', 'postgres', '--', binary, ini], {
    cwd: dir,
    stdio: 'ignore',
  });
  const stopBouncer = () => {
    if (child.exitCode === null) {
      // runuser passes SIGTERM on to pgbouncer.
      child.kill('SIGTERM');
      // Give it a moment; a run that exits right after still kills it through the process group.
      spawnSync('sleep', ['0.1']);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  };
  try {
    await waitForPort(port, 15_000);
  } catch (e) {
    stopBouncer();
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    port,
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    stop: stopper([stopBouncer], [dir]),
  };
}
