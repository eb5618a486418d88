/**
 * A `wepql lint` run loads the Node modules it uses and no other: `node:crypto`
 * (whose load initializes OpenSSL) only when `--cache` hashes, and
 * `node:worker_threads` only when the run starts threads. A module
 * preloaded into the built binary's process (test/fixtures/builtin-probe/probe.mjs)
 * lists the modules loaded by its exit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempDirs } from '../support/temp-dirs.js';

const PROBE = fileURLToPath(new URL('../fixtures/builtin-probe/probe.mjs', import.meta.url));
const probed = { NODE_OPTIONS: `--import ${pathToFileURL(PROBE).href}` };
const dirs = tempDirs('wepql-builtins-');

function loadedBy(stderr: string): string[] {
  // The last report is the process's own (a worker thread reports as it ends too).
  const line = stderr
    .split('\n')
    .filter((l) => l.startsWith('builtin-probe '))
    .at(-1);
  expect(line, stderr).toBeDefined();
  return JSON.parse(line!.slice('builtin-probe '.length)) as string[];
}

describe('the Node modules a lint run loads', () => {
  const dir = dirs();
  writeFileSync(join(dir, 'a.wepql'), 'LastName.StartsWith(Sm);Gender.Equal(1)\nLastName.Equal(Jones)\n');

  it('a plain run loads neither node:crypto nor node:worker_threads', () => {
    const r = runCli(['lint', 'a.wepql'], { cwd: dir, env: probed });
    expect(r.code, r.stderr).toBe(0);
    const loaded = loadedBy(r.stderr);
    expect(loaded).toContain('fs');
    expect(loaded).not.toContain('crypto');
    expect(loaded).not.toContain('worker_threads');
  });

  it('--cache loads node:crypto, to hash', () => {
    const r = runCli(['lint', '--cache', '--cache-location', join(dir, 'cache'), 'a.wepql'], { cwd: dir, env: probed });
    expect(r.code, r.stderr).toBe(0);
    expect(loadedBy(r.stderr)).toContain('crypto');
  });

  it('a run on two threads loads node:worker_threads, and its worker lints', () => {
    const r = runCli(['lint', 'a.wepql'], {
      cwd: dir,
      env: { ...probed, WEPQL_LINT_THREADS: '2', WEPQL_LINT_BATCH: '1', WEPQL_LINT_WORKERS_ONLY: '1', WEPQL_LINT_TRACE: '1' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/0 on this thread, 2 on 1 workers/);
    expect(loadedBy(r.stderr)).toContain('worker_threads');
  });
});
