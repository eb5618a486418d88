/**
 * vitest's global setup (vitest.config.ts `globalSetup`), run once per
 * project in the main process before any test file: starts the
 * shared-server coordinator (test/support/server-coordinator.ts) and passes
 * its address to the test files through `provide`. No database server
 * starts until a file asks for one, so a run of files that need none pays
 * nothing — except under `npm test` (`WEPQL_TEST_SERVERS_EAGER=1`, set by
 * test/support/run-tests.mjs for the whole suite), where PostgreSQL and
 * MariaDB start at once, and the packed install beside them, while the first files run. The projects of
 * vitest.config.ts share ONE coordinator (the first setup starts it, the
 * last teardown stops it and whatever it started), so a run still has one
 * PostgreSQL and one MariaDB.
 *
 * The coordinator runs in a process of its own (`serveCoordinator`, bundled
 * by esbuild into .tmp/ at the start of the run): starting a server
 * (`initdb`, `pg_ctl -w start`, `mariadb-install-db`, a topology's base
 * backups) and the packed install wait on synchronous child processes, and
 * in vitest's main process each such wait froze the event loop every
 * worker asks for its modules and reports through — every file in the run
 * stood still for the seconds a server took to start. Its stdin is the
 * lifeline: closed by the teardown, or by the system when this process
 * dies, it stops what it started and exits.
 *
 * Temporary folders: the setup points `TMPDIR` (which `os.tmpdir()` reads,
 * in the workers it starts and in every program they spawn) at a folder of
 * the run's own, and the teardown removes it — a run leaves nothing in
 * /tmp, even when a test forgets its folder or a worker dies. Before
 * removing it, the teardown lists the `wepql-*` folders tests left behind
 * (by prefix: which helper to fix); `WEPQL_KEEP_TMP=1` keeps the folder to
 * look into.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startServerCoordinator, type ServerCoordinator } from './support/server-coordinator.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

// Kept on globalThis: vitest may load this module once per project.
interface Shared {
  coordinator: Promise<ServerCoordinator>;
  users: number;
  tmp: string;
  outerTmp: string | undefined;
}
const key = Symbol.for('wepql.test.globalSetup');
const slot = globalThis as typeof globalThis & { [key]?: Shared };

function start(): Shared {
  const outerTmp = process.env['TMPDIR'];
  const tmp = mkdtempSync(join(tmpdir(), 'wepql-run-'));
  // As open as /tmp: the PostgreSQL helpers run the server as another user, in a folder made here.
  chmodSync(tmp, 0o1777);
  process.env['TMPDIR'] = tmp;
  return { coordinator: startCoordinatorProcess(tmp), users: 0, tmp, outerTmp };
}

/**
 * The coordinator's process: this module bundled with what it imports from
 * test/ and scripts/ (packages stay imports, resolved from the repository's
 * node_modules: the bundle is written under .tmp/), started with `node`; its
 * first line on stdout is the address.
 */
async function startCoordinatorProcess(tmp: string): Promise<ServerCoordinator> {
  const { build } = await import('esbuild');
  const outfile = join(ROOT, '.tmp', `coordinator-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: `import { serveCoordinator } from './global-setup.ts'; await serveCoordinator();`,
      resolveDir: join(ROOT, 'test'),
      sourcefile: 'coordinator-main.ts',
      loader: 'ts',
    },
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    // The modules find the repository (and the files next to them) through import.meta.url: each keeps its own.
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(b) {
          b.onLoad({ filter: /\.(ts|mjs)$/ }, async (args) => {
            const { readFile } = await import('node:fs/promises');
            const text = await readFile(args.path, 'utf8');
            return {
              contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
              loader: args.path.endsWith('.ts') ? 'ts' : 'js',
            };
          });
        },
      },
    ],
  });
  const child = spawn(process.execPath, [outfile], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, TMPDIR: tmp } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = createInterface({ input: child.stdout });
  const address = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    void exited.then((code) => reject(new Error(`the shared-server coordinator exited (${code}) before it listened`)));
  });
  // Whatever it prints later (a server's warning) goes to this process's output.
  lines.on('line', (line) => console.log(line));
  return {
    address,
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      await exited;
      clearTimeout(timer);
      rmSync(outfile, { force: true });
    },
  };
}

/**
 * The coordinator process's main: serves until its stdin ends, then stops
 * the servers it started. Prints the address as its first line.
 *
 * @example
 * // the bundle startCoordinatorProcess runs: await serveCoordinator();
 */
export async function serveCoordinator(): Promise<void> {
  const coordinator = await startServerCoordinator({ eager: process.env['WEPQL_TEST_SERVERS_EAGER'] === '1' });
  process.stdout.write(`${coordinator.address}\n`);
  process.stdin.resume();
  await new Promise((resolve) => process.stdin.once('end', resolve).once('close', resolve));
  await coordinator.close();
  process.exit(0);
}

/**
 * The `wepql-*` folders left in the run's temporary folder, counted by
 * prefix (the name up to its random tail), largest first.
 */
function leftovers(tmp: string): [prefix: string, count: number][] {
  const counts = new Map<string, number>();
  for (const entry of readdirSync(tmp, { withFileTypes: true })) {
    if (!entry.isDirectory() || !entry.name.startsWith('wepql-')) continue;
    const prefix = entry.name.replace(/-?[A-Za-z0-9]{6}$/, '');
    counts.set(prefix, (counts.get(prefix) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

async function stop(shared: Shared): Promise<void> {
  try {
    await (await shared.coordinator).close();
  } finally {
    if (shared.outerTmp === undefined) delete process.env['TMPDIR'];
    else process.env['TMPDIR'] = shared.outerTmp;
    const left = leftovers(shared.tmp);
    if (left.length > 0) {
      const total = left.reduce((sum, [, n]) => sum + n, 0);
      console.warn(
        `temporary folders the tests left behind (removed with ${shared.tmp}): ${total} — ${left.map(([p, n]) => `${p} ${n}`).join(', ')}`,
      );
    }
    if (process.env['WEPQL_KEEP_TMP'] === '1') console.warn(`WEPQL_KEEP_TMP=1: kept ${shared.tmp}`);
    else rmSync(shared.tmp, { recursive: true, force: true });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const shared = (slot[key] ??= start());
  shared.users++;
  const coordinator = await shared.coordinator;
  project.provide('wepqlTestServers', coordinator.address);
  return async () => {
    if (--shared.users > 0) return;
    delete slot[key];
    await stop(shared);
  };
}
