/**
 * Runs a `wepql` command inside the test's own process: the CLI's
 * `runWepql` (src/cli/main.ts, the same call the `wepql` program makes)
 * with the working folder, environment and standard input of a run, its
 * stdout and stderr captured. For tests of what a command does — its
 * output, its exit code — where starting a process (~0.5 s of CPU each,
 * seconds on a loaded machine) is not the thing tested; what only a
 * process shows (the built binary, the shell, pipes, signals) stays with
 * runCli (test/support/cli.ts), and every command keeps tests that spawn it.
 *
 * Runs one command at a time (a run changes the process's working folder,
 * environment and standard streams), and only in a worker of its own
 * (vitest's forks pool: `process.chdir` is not allowed in a thread).
 */
import { Readable } from 'node:stream';
import type { CliResult } from './cli.js';
import { ROOT } from './cli.js';

type Write = typeof process.stdout.write;

let queue: Promise<unknown> = Promise.resolve();

function capture(stream: NodeJS.WriteStream): { text(): string; restore(): void } {
  const write = stream.write;
  let text = '';
  stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as Write;
  return {
    text: () => text,
    restore: () => {
      stream.write = write;
    },
  };
}

async function runOnce(args: readonly string[], options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliResult> {
  const { runWepql } = await import('../../src/cli/main.js');
  const cwd = process.cwd();
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  const saved = Object.entries(options.env ?? {}).map(([name]) => [name, process.env[name]] as const);
  process.chdir(options.cwd ?? ROOT);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(options.input ?? '')]), configurable: true });
  const out = capture(process.stdout);
  const err = capture(process.stderr);
  try {
    const code = await runWepql(args);
    return { code, stdout: out.text(), stderr: err.text() };
  } finally {
    out.restore();
    err.restore();
    Object.defineProperty(process, 'stdin', stdin);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    process.chdir(cwd);
  }
}

/**
 * `wepql ...args` run in this process, with optional standard input,
 * working folder (the repository root by default) and environment
 * additions, as runCli takes them: the same result, without a process.
 *
 * @example
 * const r = await runCliInProcess(['explain', 'a.equal(1)']); // { code: 0, stdout: 'a is 1\n', stderr: '' }
 */
export function runCliInProcess(
  args: readonly string[],
  options: { input?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  const run = queue.then(() => runOnce(args, options));
  queue = run.catch(() => undefined);
  return run;
}
