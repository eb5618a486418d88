/**
 * Runs a `wepql` command inside the test's own process: the CLI's
 * `runWepql` (src/cli/main.ts, the same call the `wepql` program makes)
 * with the working folder, environment and standard input of a run, its
 * stdout and stderr captured, and both streams seen as pipes (not
 * terminals), as under runCli. For tests of what a command does — its
 * output, its exit code, the files it writes — where starting a process
 * (~0.5 s of CPU each, seconds on a loaded machine) is not the thing
 * tested; what only a process shows (the built binary, the shell, pipes,
 * signals, terminal detection, the environment a program is started with)
 * stays with runCli (test/support/cli.ts), and every command keeps tests
 * that spawn it.
 *
 * A run restores everything it changes (working folder, environment,
 * standard streams), and fails — rejects, so the test fails — when the
 * command itself left something process-wide behind: `process.exitCode`,
 * a listener on the process or its standard streams, a changed
 * environment variable, a pending timer. That is what lets a file of
 * in-process runs share a worker with other files.
 *
 * Runs one command at a time (a run changes the process's working folder,
 * environment and standard streams), and only in a worker process
 * (vitest's forks pool: `process.chdir` is not allowed in a thread).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { Readable } from 'node:stream';
import { setColor } from '../../src/cli/color.js';
import type { CliResult } from './cli.js';
import { ROOT } from './cli.js';

type Write = typeof process.stdout.write;

/** How a run is started: standard input, working folder (the repository root by default), environment changes. */
export interface InProcessOptions {
  readonly input?: string;
  readonly cwd?: string;
  /** Variables set for the run; `undefined` removes one. */
  readonly env?: NodeJS.ProcessEnv;
}

let queue: Promise<unknown> = Promise.resolve();

function capture(stream: NodeJS.WriteStream): { text(): string; restore(): void } {
  const write = stream.write;
  const isTTY = Object.getOwnPropertyDescriptor(stream, 'isTTY');
  let text = '';
  stream.write = ((chunk: string | Uint8Array, encoding?: unknown, callback?: unknown): boolean => {
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => (done as () => void)());
    return true;
  }) as Write;
  // A pipe, whatever the worker's own stream is: colour and the progress line decide on this.
  Object.defineProperty(stream, 'isTTY', { value: false, configurable: true, writable: true });
  return {
    text: () => text,
    restore: () => {
      stream.write = write;
      if (isTTY === undefined) delete (stream as { isTTY?: boolean }).isTTY;
      else Object.defineProperty(stream, 'isTTY', isTTY);
    },
  };
}

/** What a command could leave behind in this process, taken before and after a run. */
interface ProcessState {
  readonly exitCode: typeof process.exitCode;
  readonly listeners: ReadonlyMap<string, number>;
  readonly env: string;
}

/**
 * The timers a run started and that have neither fired nor been cleared.
 * Only timers made in the run's own async context count: the test's
 * process has timers of its own (vitest's, the servers a test runs) that
 * come and go while a command runs.
 */
const runTimers = new AsyncLocalStorage<Set<NodeJS.Timeout>>();

function trackTimers(): () => void {
  const { setTimeout: set, setInterval: every, clearTimeout: clear, clearInterval: clearEvery } = globalThis;
  const track = (start: typeof set) =>
    Object.assign(
      ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
        const pending = runTimers.getStore();
        if (pending === undefined) return start(callback, ms, ...args);
        const timer: NodeJS.Timeout = start(
          (...a: unknown[]) => {
            if (start === set) pending.delete(timer);
            callback(...a);
          },
          ms,
          ...args,
        );
        pending.add(timer);
        return timer;
      }) as typeof set,
      start,
    );
  const untrack = (stop: typeof clear) => (timer?: NodeJS.Timeout | string | number) => {
    if (typeof timer === 'object') runTimers.getStore()?.delete(timer);
    stop(timer);
  };
  globalThis.setTimeout = track(set);
  globalThis.setInterval = track(every as unknown as typeof set) as unknown as typeof every;
  globalThis.clearTimeout = untrack(clear);
  globalThis.clearInterval = untrack(clearEvery);
  return () => {
    Object.assign(globalThis, { setTimeout: set, setInterval: every, clearTimeout: clear, clearInterval: clearEvery });
  };
}

function processState(): ProcessState {
  const listeners = new Map<string, number>();
  const emitters = { process, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin } as const;
  for (const [label, emitter] of Object.entries(emitters)) {
    for (const event of emitter.eventNames()) listeners.set(`${label} '${String(event)}'`, emitter.listenerCount(event));
  }
  return {
    exitCode: process.exitCode,
    listeners,
    env: JSON.stringify(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  };
}

/** What differs between two states, as sentences; empty when nothing was left behind. */
function leftBehind(before: ProcessState, after: ProcessState): string[] {
  const found: string[] = [];
  if (after.exitCode !== before.exitCode) found.push(`process.exitCode set to ${String(after.exitCode)}`);
  for (const [name, count] of after.listeners) {
    const was = before.listeners.get(name) ?? 0;
    if (count > was) found.push(`${count - was} more ${name} listener(s)`);
  }
  if (after.env !== before.env) found.push('process.env changed');
  return found;
}

/** A command line's entry: `runWepql`, or a stand-in in the tests of this runner. */
export type CommandEntry = (argv: readonly string[]) => Promise<number>;

async function runOnce(run: CommandEntry, args: readonly string[], options: InProcessOptions): Promise<CliResult> {
  const before = processState();
  const cwd = process.cwd();
  const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
  const saved = Object.keys(options.env ?? {}).map((name) => [name, process.env[name]] as const);
  process.chdir(options.cwd ?? ROOT);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  Object.defineProperty(process, 'stdin', { value: Readable.from([Buffer.from(options.input ?? '')]), configurable: true });
  const out = capture(process.stdout);
  const err = capture(process.stderr);
  const pending = new Set<NodeJS.Timeout>();
  const untrack = trackTimers();
  let result: CliResult;
  try {
    const code = await runTimers.run(pending, () => run(args));
    result = { code, stdout: out.text(), stderr: err.text() };
  } finally {
    out.restore();
    err.restore();
    Object.defineProperty(process, 'stdin', stdin);
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    process.chdir(cwd);
    untrack();
    // runWepql decides colour afresh each run; off is where the module starts, and where other files find it.
    setColor(false);
  }
  const leaks = leftBehind(before, processState());
  // A timer that would keep a real `wepql` from exiting; an unref'd one would not.
  const timers = [...pending].filter((timer) => timer.hasRef()).length;
  if (timers > 0) leaks.push(`${timers} pending timer(s)`);
  if (leaks.length > 0) {
    process.exitCode = before.exitCode;
    throw new Error(`wepql ${args.join(' ')} left behind in the test's process: ${leaks.join('; ')}`);
  }
  return result;
}

/**
 * `wepql ...args` run in this process, with optional standard input,
 * working folder (the repository root by default) and environment
 * changes, as runCli takes them: the same result, without a process.
 * Rejects when the command leaves process-wide state behind.
 *
 * @example
 * const r = await runCliInProcess(['explain', 'a.equal(1)']); // { code: 0, stdout: 'a is 1\n', stderr: '' }
 */
export async function runCliInProcess(args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  const { runWepql } = await import('../../src/cli/main.js');
  return runEntryInProcess(runWepql, args, options);
}

/**
 * runCliInProcess for any entry shaped as `runWepql`: how this runner's own
 * test shows that a command which leaves state behind fails its test.
 *
 * @example
 * await runEntryInProcess(async () => { process.exitCode = 3; return 0; }, []); // rejects: process.exitCode set to 3
 */
export function runEntryInProcess(entry: CommandEntry, args: readonly string[], options: InProcessOptions = {}): Promise<CliResult> {
  const run = queue.then(() => runOnce(entry, args, options));
  queue = run.catch(() => undefined);
  return run;
}
