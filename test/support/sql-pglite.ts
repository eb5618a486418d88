/**
 * PGlite without its `initdb` on every start. `PGlite.create()` runs
 * PostgreSQL's `initdb` in WebAssembly before it answers: measured alone,
 * 7–10 s of CPU per instance, against about 3 s for an instance started
 * from a copy of that fresh data directory (`loadDataDir`). A test run
 * made one or more instances per file, a dozen files each paying the
 * `initdb` again.
 *
 * `createPglite` (which `startPglite` in sql-engines.ts uses too) starts
 * PGlite from a data directory `initdb` made once per test run: the first
 * instance of the run is created as always and its untouched data directory
 * dumped to a file in the run's temporary folder (test/global-setup.ts
 * points `TMPDIR` at it and removes it after the run); every later
 * instance, in any worker, starts from that file. Outside a vitest run (no
 * shared-server coordinator) it caches nothing and is `PGlite.create()`.
 *
 * Within a run, an instance a file closes is not closed but put back, reset
 * (no transaction, no session state, an empty `public` schema), and lent to
 * the next file of the same worker that asks: 23 test files make one, each
 * start costing ~2.4 CPU-seconds even from the fresh data directory (a
 * 40 MB tarball untarred into PGlite's in-memory filesystem, PostgreSQL's
 * start). One that a file changed beyond what the reset undoes (a role, a
 * setting of the database) is closed for real, as is one whose memory grew
 * large; test/engines/pglite-reuse.test.ts holds both promises.
 *
 * The first instance is made by one worker only: the workers of a run start
 * their first files together, and two files that each found no file yet
 * both paid the `initdb` (two engine files run side by side: 8.2 and 6.1
 * CPU-seconds in PGlite's `initdb` alone, in the one profile). The maker
 * holds a lock file beside the dump while it works; another worker waits
 * for the dump (sleeping, not spinning), and makes its own only if the
 * maker died or gave up without writing one.
 */
import { PGlite } from '@electric-sql/pglite';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedServersAddress } from './shared-servers.js';

const DUMP_NAME = 'wepql-pglite-initdb.tar';

/** The run's fresh data directory, read once per process. */
let fresh: Blob | undefined;

/**
 * A PGlite instance of the caller's own, started from the run's fresh data
 * directory when there is one (the first caller of the run makes it, from
 * the instance it then gets, untouched).
 *
 * @example
 * const db = await createPglite();
 * await db.query('SELECT 1 AS x'); // { rows: [{ x: 1 }] }
 */
export async function createPglite(): Promise<PGlite> {
  if (sharedServersAddress() === undefined) return PGlite.create();
  const reused = idle.pop();
  if (reused !== undefined) return lend(reused);
  const file = join(tmpdir(), DUMP_NAME);
  if (fresh === undefined) {
    fresh = await readDump(file);
    if (fresh === undefined) {
      // Not made yet in this run, nor being made: make it (the rename keeps the file whole).
      try {
        const db = await PGlite.create();
        const bytes = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
        const part = `${file}.${process.pid}`;
        writeFileSync(part, bytes);
        renameSync(part, file);
        fresh = new Blob([bytes]);
        return lend(db);
      } finally {
        rmSync(`${file}.lock`, { force: true });
      }
    }
  }
  return lend(await PGlite.create({ loadDataDir: fresh }));
}

/**
 * Instances files of this worker closed, put back as fresh, for the next
 * file that asks (vitest's shared project runs the files of a worker in one
 * process, one after another). PGlite's start from the fresh data directory
 * costs ~2.4 CPU-seconds (the data directory untarred into its in-memory
 * filesystem, PostgreSQL's start in WebAssembly); putting one back costs a
 * few milliseconds.
 */
const idle: PGlite[] = [];

/** At most this many instances wait in `idle`: a file rarely holds more than two at once. */
const IDLE_MAX = 2;

/**
 * An instance whose WebAssembly memory grew past this is closed, not kept:
 * the memory never shrinks, and a worker should not carry one file's
 * million rows to the end of the run.
 */
const KEEP_MEMORY_MAX = 512 * 1024 * 1024;

/**
 * What a file could leave behind that `reset` does not undo and a later
 * file would see: the schemas (temporary ones aside, which `DISCARD ALL`
 * empties), the count of objects in the catalogs a test can add to, and
 * every setting not at its default. An instance is kept only if its print
 * after `reset` is the print it had when it was made.
 */
const PRINT_SQL = `SELECT concat_ws(' | ',
  (SELECT string_agg(nspname, ',' ORDER BY nspname) FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_temp\\_%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%'),
  (SELECT count(*) FROM pg_class), (SELECT count(*) FROM pg_proc), (SELECT count(*) FROM pg_type),
  (SELECT count(*) FROM pg_collation), (SELECT count(*) FROM pg_extension), (SELECT count(*) FROM pg_authid),
  (SELECT count(*) FROM pg_db_role_setting), (SELECT count(*) FROM pg_database), (SELECT count(*) FROM pg_operator),
  (SELECT count(*) FROM pg_cast), (SELECT count(*) FROM pg_ts_config), (SELECT count(*) FROM pg_event_trigger),
  (SELECT count(*) FROM pg_foreign_server), (SELECT count(*) FROM pg_publication),
  (SELECT string_agg(name || '=' || setting || '@' || source, ',' ORDER BY name) FROM pg_settings WHERE source <> 'default')) AS print`;

/** Each lent instance's print when it was made, and its own `close` (the lent one puts it back). */
const made = new WeakMap<PGlite, { readonly print: string; readonly close: () => Promise<void> }>();

/** Hands `db` to a file, its `close` replaced by one that puts it back in `idle` when it is still as it was made. */
async function lend(db: PGlite): Promise<PGlite> {
  if (!made.has(db)) {
    const close = db.close.bind(db);
    made.set(db, { print: await printOf(db), close });
    Object.defineProperty(db, 'close', { configurable: true, writable: true, value: () => putBack(db) });
  }
  return db;
}

async function printOf(db: PGlite): Promise<string> {
  return (await db.query<{ print: string }>(PRINT_SQL)).rows[0]!.print;
}

/**
 * Resets `db` to a fresh instance's state (no transaction, no session
 * state, an empty `public` schema) and keeps it when its print says
 * nothing else is left; closes it otherwise.
 */
async function putBack(db: PGlite): Promise<void> {
  const own = made.get(db)!;
  let keep = false;
  try {
    if (idle.length < IDLE_MAX && memoryOf(db) <= KEEP_MEMORY_MAX) {
      // One statement per call: several in one simple query are one implicit transaction, in which DISCARD ALL
      // cannot run; ROLLBACK first ends a transaction the file left open.
      await db.exec('ROLLBACK');
      await db.exec('DISCARD ALL');
      await db.exec(
        'DROP SCHEMA public CASCADE; CREATE SCHEMA public AUTHORIZATION pg_database_owner; GRANT USAGE ON SCHEMA public TO PUBLIC',
      );
      keep = (await printOf(db)) === own.print;
    }
  } catch {
    keep = false;
  }
  if (keep) idle.push(db);
  else await own.close();
}

/** The bytes of `db`'s WebAssembly memory (0 where PGlite does not show it). */
function memoryOf(db: PGlite): number {
  const module = (db as unknown as { mod?: { HEAPU8?: Uint8Array } }).mod;
  return module?.HEAPU8?.byteLength ?? 0;
}

/**
 * Where the run's fresh data directory (a `dumpDataDir` tarball) is or will
 * be, for a program the test starts that makes its own PGlite: it can start
 * from a copy of the file (`PGlite.create({ loadDataDir })`) instead of
 * paying `initdb` again, or, first in the run, write it as `createPglite`
 * does (its untouched data directory, to a part file renamed into place);
 * `undefined` outside a vitest run.
 *
 * @example
 * const file = freshDataDirFile(); // '/tmp/wepql-run-…/wepql-pglite-initdb.tar'
 */
export function freshDataDirFile(): string | undefined {
  return sharedServersAddress() === undefined ? undefined : join(tmpdir(), DUMP_NAME);
}

/** Whether the process `pid` is alive (a lock whose holder died is stale). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The run's dump, waiting while another worker makes it; undefined when
 * the caller is to make it (it then holds `file`.lock, which it removes
 * when done, whether it wrote the dump or not).
 */
async function readDump(file: string): Promise<Blob | undefined> {
  const lock = `${file}.lock`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      // Not there yet.
    }
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return undefined;
    } catch {
      // Another worker holds the lock.
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(lock, 'utf8'));
    } catch {
      // Removed in between: look again.
    }
    // A holder that died (or a lock not yet holding its pid past the deadline) leaves the making to the caller, without the lock.
    if ((Number.isInteger(holder) && holder > 0 && !alive(holder)) || Date.now() > deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
