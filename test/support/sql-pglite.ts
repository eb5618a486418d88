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
 */
import { PGlite } from '@electric-sql/pglite';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
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
    try {
      fresh = new Blob([readFileSync(file)]);
    } catch {
      // Not made yet in this run: make it (two workers may both do so; the rename keeps the file whole).
      const db = await PGlite.create();
      const bytes = new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer());
      const part = `${file}.${process.pid}`;
      writeFileSync(part, bytes);
      renameSync(part, file);
      fresh = new Blob([bytes]);
      return db;
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
