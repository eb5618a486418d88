/**
 * vitest's global setup (vitest.config.ts `globalSetup`), run once per
 * project in the main process before any test file: starts the
 * shared-server coordinator (test/support/server-coordinator.ts) and passes
 * its address to the test files through `provide`. No database server
 * starts until a file asks for one, so a run of files that need none pays
 * nothing. The projects of vitest.config.ts share ONE coordinator (the
 * first setup starts it, the last teardown stops it and whatever it
 * started), so a run still has one PostgreSQL and one MariaDB.
 *
 * Temporary folders: the setup points `TMPDIR` (which `os.tmpdir()` reads,
 * in the workers it starts and in every program they spawn) at a folder of
 * the run's own, and the teardown removes it — a run leaves nothing in
 * /tmp, even when a test forgets its folder or a worker dies. Before
 * removing it, the teardown lists the `wepql-*` folders tests left behind
 * (by prefix: which helper to fix); `WEPQL_KEEP_TMP=1` keeps the folder to
 * look into.
 */
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startServerCoordinator, type ServerCoordinator } from './support/server-coordinator.js';

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
  return { coordinator: startServerCoordinator(), users: 0, tmp, outerTmp };
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
