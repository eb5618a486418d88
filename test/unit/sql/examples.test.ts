/**
 * The worked examples of docs/sql.md run against the BUILT library (dist/,
 * `npm run build`) and end by checking that the database and `query()`
 * agree; this keeps them working.
 *
 * They run as they are, one after another in one Node process (as
 * docs-blocks.test.ts runs the docs' plain programs): one start of Node,
 * the package, sql.js and the drivers instead of one each. Each program's
 * output and exit code are its own (the runner marks where each begins and
 * ends, and takes `process.exitCode` back after each). The PostgreSQL
 * example's `PGlite.create()` starts from a copy of the run's fresh data
 * directory (test/support/sql-pglite.ts) — the directory `initdb` makes,
 * which it would otherwise make again, 7–10 CPU-seconds of its 11.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../../support/dist.js';
import { findMariadb, startMariadbServer, type MariadbServer } from '../../support/mariadb-server.js';
import { freshDataDirFile } from '../../support/sql-pglite.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
// A real MariaDB from Debian's mariadb-server (test/property/sql-differential.test.ts reports a skip).
const hasMariadb = findMariadb() !== undefined;
const programs = [
  'employees-postgres.mjs',
  'employees-sqlite.mjs',
  'employees-drizzle.mjs',
  ...(hasMariadb ? ['employees-mysql.mjs'] : []),
];

/**
 * Imports each program named on its command line in turn, between markers
 * that carry its exit code and what it threw. With WEPQL_PGLITE_DATA_DIR
 * set, `PGlite.create()` without arguments starts from that dumped data
 * directory, or makes it when it is the run's first (freshDataDirFile).
 * Inside the repository, so that its bare imports resolve here.
 */
const RUNNER = `import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const dump = process.env.WEPQL_PGLITE_DATA_DIR;
if (dump) {
  const { PGlite } = await import('@electric-sql/pglite');
  const create = PGlite.create.bind(PGlite);
  PGlite.create = async (...args) => {
    if (args.length > 0) return create(...args);
    if (existsSync(dump)) return create({ loadDataDir: new Blob([readFileSync(dump)]) });
    // First in the run: initdb as always, and its untouched data directory left for the run's later instances.
    const db = await create();
    writeFileSync(dump + '.' + process.pid, new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()));
    renameSync(dump + '.' + process.pid, dump);
    return db;
  };
}
for (const file of process.argv.slice(2)) {
  process.stdout.write('\\n@@begin@@\\n');
  let error = '';
  try { await import(pathToFileURL(file).href); }
  catch (e) { error = String(e?.stack ?? e); }
  process.stdout.write('\\n@@end@@' + JSON.stringify({ exitCode: process.exitCode ?? 0, error }) + '\\n');
  process.exitCode = undefined;
}
process.exit(0);
`;

interface Ran {
  readonly out: string;
  readonly exitCode: number;
  readonly error: string;
}

const ran = new Map<string, Ran>();
let mariadb: MariadbServer | undefined;
mkdirSync(join(root, '.tmp'), { recursive: true });
const work = mkdtempSync(join(root, '.tmp', 'sql-examples-'));

// The examples import the built package (npm test builds dist/ first).
beforeAll(async () => {
  assertFreshDist();
  const env: NodeJS.ProcessEnv = { ...process.env };
  const dump = freshDataDirFile();
  if (dump !== undefined) env['WEPQL_PGLITE_DATA_DIR'] = dump;
  if (hasMariadb) {
    mariadb = await startMariadbServer();
    env['MYSQL_URL'] = `mysql://${mariadb.user}@${mariadb.host}:${mariadb.port}/${mariadb.database}`;
  }
  const runner = join(work, 'run-examples.mjs');
  writeFileSync(runner, RUNNER);
  const r = spawnSync(process.execPath, [runner, ...programs.map((p) => `examples/sql/${p}`)], {
    cwd: root,
    encoding: 'utf8',
    env,
    timeout: 170_000,
  });
  const parts = r.stdout.split('\n@@begin@@\n').slice(1);
  if (parts.length !== programs.length)
    throw new Error(`the examples did not all run (${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  parts.forEach((part, i) => {
    const at = part.lastIndexOf('\n@@end@@');
    const { exitCode, error } = JSON.parse(part.slice(at + '\n@@end@@'.length)) as { exitCode: number; error: string };
    ran.set(programs[i]!, { out: part.slice(0, at), exitCode, error: error === '' ? '' : `${error}\n${r.stderr}` });
  });
}, 180_000);

afterAll(async () => {
  await mariadb?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The program's standard output, once it has ended without throwing and with exit code 0. */
function outputOf(file: string): string {
  const { out, exitCode, error } = ran.get(file)!;
  expect(error).toBe('');
  expect(exitCode, out).toBe(0);
  return out;
}

describe('examples/sql', () => {
  it.each([
    ['employees-postgres.mjs', 'all three agree'],
    ['employees-sqlite.mjs', 'SQLite and query() agree'],
  ])('%s', (file, verdict) => {
    const out = outputOf(file);
    expect(out).toContain(verdict);
    expect(out).toContain('ORDER BY');
  });

  it('employees-drizzle.mjs', () => {
    const out = outputOf('employees-drizzle.mjs');
    expect(out).toContain('Drizzle and query() agree');
    expect(out).toContain('order by wepql_lower(CAST("LastName" AS BLOB))');
  });

  it.skipIf(!hasMariadb)('employees-mysql.mjs', () => {
    const out = outputOf('employees-mysql.mjs');
    expect(out).toContain('MySQL and query() agree');
    expect(out).toContain("ESCAPE '!'");
  });
});
