/**
 * Linting a large run on several cores: the items go out in batches to worker
 * threads, each running this same module (the file of the `lint` command in
 * the built CLI) under the run's settings, while this thread lints batches
 * too. The results are recorded in the items' order (outcome.ts `addItem`),
 * so the report, the fixes and the exit code are those of a run on one
 * thread, byte for byte. A worker that fails hands its batch back to this
 * thread: the run never depends on threads starting.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { ParsedArgs } from '../args.js';
import { colorOn, setColor } from '../color.js';
import { startProgress } from '../progress.js';
import type { Inputs } from './items.js';
import { addItem, itemLinter, lintItems, startOutcome, toLint, type ItemResult, type ItemToLint, type Outcome } from './outcome.js';
import { readSettings, type Settings } from './settings.js';

/**
 * The fewest items for which threads are started without being asked: below
 * it a worker's start (about a Node start's worth of CPU) and its own
 * warm-up of the linter cost more than its share of the work saves.
 */
const MIN_ITEMS_FOR_THREADS = 2000;
/**
 * The fewest cores on which threads are started without being asked. On 2
 * cores they do not pay: a cold run already keeps the second core busy with
 * V8's optimizing compiler, and a worker, cold too, lints its items at about
 * half the main thread's speed (bench/results/startup.md: 1,000 files on 2
 * threads took more CPU and no less time than on one).
 */
const MIN_CORES_FOR_THREADS = 4;
/** Items a thread lints between two looks at its messages: small enough to share the tail of the work evenly. */
const DEFAULT_BATCH = 250;
/** More threads than this stop paying (each warms up the linter on its own, and V8 compiles on the cores left). */
const MAX_THREADS = 4;

/** What a worker is started with. */
interface WorkerSetup {
  readonly wepqlLint: { readonly args: ParsedArgs; readonly color: boolean };
}

type FromWorker = { readonly ready: true } | { readonly batch: number; readonly results: ItemResult[] };
interface ToWorker {
  readonly batch: number;
  readonly items: readonly ItemToLint[];
}

/**
 * How many threads lint a run of `count` items: `WEPQL_LINT_THREADS` when
 * set (1 lints on this thread alone); otherwise, for runs of at least
 * MIN_ITEMS_FOR_THREADS items on a machine of at least MIN_CORES_FOR_THREADS
 * cores, one for every two cores, up to four; else 1. Always 1 when a schema
 * or policy comes from standard input (a worker could not read it again).
 *
 * @example
 * threadsFor(10_000, settings, {}); // 1 on 2 cores, 4 on 8
 * threadsFor(10_000, settings, { WEPQL_LINT_THREADS: '2' }); // 2
 */
export function threadsFor(count: number, settings: Settings, env: NodeJS.ProcessEnv): number {
  const fromStdin = [settings.schemaPath, settings.previousPath, settings.policyPath].includes('-');
  // Run from the TypeScript sources (the test runner), a worker could not load this module.
  if (fromStdin || count < 2 || import.meta.url.endsWith('.ts')) return 1;
  const asked = env.WEPQL_LINT_THREADS === undefined ? NaN : Number(env.WEPQL_LINT_THREADS);
  if (Number.isInteger(asked) && asked >= 1) return Math.min(asked, count);
  const cores = availableParallelism();
  if (count < MIN_ITEMS_FOR_THREADS || cores < MIN_CORES_FOR_THREADS) return 1;
  // Half the cores: the other half is where V8 compiles what the threads run hot.
  return Math.min(Math.floor(cores / 2), MAX_THREADS);
}

/**
 * Lints every item as `lintItems` does, spread over `threads` threads (this
 * one among them). `WEPQL_LINT_BATCH` sets the items of a batch (250), and
 * `WEPQL_LINT_TRACE=1` says on standard error how the batches were shared:
 * both for tests and measurements, which must see the threads at work.
 *
 * @example
 * const outcome = await lintItemsOnThreads(inputs, settings, args, threadsFor(inputs.items.length, settings, process.env));
 */
export async function lintItemsOnThreads(
  inputs: Inputs,
  settings: Settings,
  args: ParsedArgs,
  threads: number,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Outcome> {
  if (threads <= 1) return lintItems(inputs, settings);
  const { items } = inputs;
  const size = Number(env.WEPQL_LINT_BATCH);
  const BATCH = Number.isInteger(size) && size >= 1 ? size : DEFAULT_BATCH;
  let byThisThread = 0;
  let byWorkers = 0;
  const batches: number[] = [];
  for (let start = 0; start < items.length; start += BATCH) batches.push(start);
  const results: (ItemResult[] | undefined)[] = batches.map(() => undefined);
  const queue = batches.map((_, b) => b);
  const progress = startProgress(items.length, 'filters and sorts');
  const batchItems = (b: number) => items.slice(batches[b], batches[b]! + BATCH);
  const finished = (b: number, done: ItemResult[]) => {
    results[b] = done;
    progress.tick(done.length);
  };

  const setup: WorkerSetup = { wepqlLint: { args, color: colorOn() } };
  const inFlight = new Map<Worker, number>();
  const workers: Worker[] = [];
  let wake: (() => void) | undefined;
  const changed = () => {
    wake?.();
    wake = undefined;
  };
  const feed = (worker: Worker) => {
    const b = queue.shift();
    if (b === undefined) return;
    inFlight.set(worker, b);
    const message: ToWorker = { batch: b, items: batchItems(b).map(toLint) };
    worker.postMessage(message);
  };
  const drop = (worker: Worker) => {
    const b = inFlight.get(worker);
    // Its batch goes back to the queue for this thread.
    if (b !== undefined && results[b] === undefined) queue.unshift(b);
    inFlight.delete(worker);
    const at = workers.indexOf(worker);
    if (at >= 0) workers.splice(at, 1);
    void worker.terminate();
    changed();
  };
  for (let i = 1; i < threads; i++) {
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: setup, stdout: true, stderr: true });
    workers.push(worker);
    worker.on('message', (message: FromWorker) => {
      if ('batch' in message) {
        inFlight.delete(worker);
        byWorkers++;
        finished(message.batch, message.results);
        changed();
      }
      feed(worker);
    });
    worker.on('error', () => drop(worker));
    worker.on('exit', () => drop(worker));
  }

  const lintOne = itemLinter(settings);
  for (;;) {
    const b = queue.shift();
    if (b !== undefined) {
      finished(
        b,
        batchItems(b).map((item) => lintOne(toLint(item))),
      );
      byThisThread++;
      // Let the workers' messages in: their results, and their asks for the next batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    if (inFlight.size === 0) break;
    await new Promise<void>((resolve) => (wake = resolve));
  }
  for (const worker of workers.splice(0)) {
    worker.removeAllListeners('exit');
    void worker.terminate();
  }
  progress.done();
  if (env.WEPQL_LINT_TRACE === '1')
    process.stderr.write(
      `wepql lint: ${items.length} items in ${batches.length} batches: ${byThisThread} on this thread, ${byWorkers} on ${threads - 1} workers\n`,
    );

  const outcome = startOutcome(inputs, settings);
  items.forEach((item, i) => addItem(outcome, item, results[Math.floor(i / BATCH)]![i % BATCH]!));
  return outcome;
}

/** A worker's life: the run's settings read again from its arguments, then batches linted until the run ends. */
async function serveBatches(port: NonNullable<typeof parentPort>, setup: WorkerSetup['wepqlLint']): Promise<void> {
  setColor(setup.color);
  const lintOne = itemLinter(await readSettings(setup.args));
  port.on('message', (message: ToWorker) => {
    const reply: FromWorker = { batch: message.batch, results: message.items.map(lintOne) };
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

if (!isMainThread && parentPort !== null && (workerData as Partial<WorkerSetup> | null)?.wepqlLint !== undefined) {
  void serveBatches(parentPort, (workerData as WorkerSetup).wepqlLint);
}
