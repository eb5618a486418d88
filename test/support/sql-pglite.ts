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
        return db;
      } finally {
        rmSync(`${file}.lock`, { force: true });
      }
    }
  }
  return PGlite.create({ loadDataDir: fresh });
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
