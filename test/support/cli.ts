/**
 * Runs the BUILT `wepql` binary (dist/cli/main.js) the way a user would, for
 * CLI tests. The test run builds first (`npm test` runs `npm run build`).
 */
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { assertFreshDist } from './dist.js';

/** Absolute path of the built CLI entry. */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
/** The repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What a CLI run produced. */
export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `wepql ...args` with optional standard input and working directory.
 *
 * @example
 * const r = runCli(['fmt', 'a.equal(1)']);
 */
export function runCli(args: readonly string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {}): CliResult {
  assertFreshDist();
  const r = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? '',
    encoding: 'utf8',
    env: { ...process.env, ...options.env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * Runs `wepql ...args` without blocking this process: for tests whose servers
 * (or databases) live in the test's own process and must keep answering.
 *
 * @example
 * const r = await spawnCli(['db-seed', '--rows', '100'], { DATABASE_URL: url });
 */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  assertFreshDist();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
