/**
 * Linting a large run on several cores: the items go out in batches to worker
 * threads, each running this same module (the file of the `lint` command in
 * the built CLI) under the run's settings, while this thread lints batches
 * too. The results are recorded in the items' order (outcome.ts `addInOrder`),
 * so the report, the fixes and the exit code are those of a run on one
 * thread, byte for byte. A worker that fails hands its batch back to this
 * thread: the run never depends on threads starting.
 */
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { ParsedArgs } from '../args.js';
import { colorOn, setColor } from '../color.js';
import { startProgress } from '../progress.js';
import type { Inputs } from './items.js';
import { addInOrder, itemLinter, lintItems, startOutcome, toLint, type ItemResult, type ItemToLint, type Outcome } from './outcome.js';
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

/**
 * Marks a worker's `process.argv`: `node:worker_threads` is loaded only by
 * a run that starts threads, and by this module in a worker so marked (the
 * module costs every other run about 2 ms to load).
 */
const WORKER_FLAG = '--wepql-lint-worker';

/** What a worker is started with: the run's arguments (it reads the settings again) and whether to colour. */
export interface WorkerSetup {
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
 * one among them). `WEPQL_LINT_BATCH` sets the items of a batch (250),
 * `WEPQL_LINT_TRACE=1` says on standard error how the batches were shared,
 * and `WEPQL_LINT_WORKERS_ONLY=1` leaves every batch to the workers while
 * any is alive: for tests and measurements, which must see the threads at
 * work whatever the machine's load.
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
  const batches: number[] = [];
  for (let start = 0; start < items.length; start += BATCH) batches.push(start);
  const results: (ItemResult[] | undefined)[] = batches.map(() => undefined);
  const progress = startProgress(items.length, 'filters and sorts');
  const share = await shareBatches({
    queue: batches.map((_, b) => b),
    items: (b) => items.slice(batches[b], batches[b]! + BATCH).map(toLint),
    finished: (b, done) => {
      results[b] = done;
      progress.tick(done.length);
    },
    lintOne: itemLinter(settings, inputs.cache?.findings),
    setup: { wepqlLint: { args, color: colorOn() } },
    threads,
    workersOnly: env.WEPQL_LINT_WORKERS_ONLY === '1',
  });
  progress.done();
  if (env.WEPQL_LINT_TRACE === '1')
    process.stderr.write(
      `wepql lint: ${items.length} items in ${batches.length} batches: ${share.byThisThread} on this thread, ${share.byWorkers} on ${threads - 1} workers\n`,
    );
  const outcome = startOutcome(inputs, settings);
  addInOrder(outcome, inputs, (_item, i) => results[Math.floor(i / BATCH)]![i % BATCH]!);
  return outcome;
}

/** What `shareBatches` needs: the batches to lint, how to lint them here, and how to start the workers. */
export interface BatchWork {
  /** Batch numbers not yet handed out, first to last. */
  readonly queue: number[];
  readonly items: (batch: number) => ItemToLint[];
  readonly finished: (batch: number, results: ItemResult[]) => void;
  readonly lintOne: (item: ItemToLint) => ItemResult;
  readonly setup: WorkerSetup;
  readonly threads: number;
  readonly workersOnly: boolean;
  /**
   * The module each worker runs: this one (the `lint` command's file in the
   * built CLI) unless a test names another, to see a worker lost.
   */
  readonly workerFile?: string;
}

/**
 * Lints the queued batches on this thread and on `threads - 1` workers;
 * says how many each side linted. Every batch is finished exactly once: a
 * worker that fails to start, throws or exits mid-batch hands its batch back
 * (to an idle worker, else to this thread), and when no worker is left this
 * thread lints what remains, `workersOnly` or not.
 *
 * @example
 * const share = await shareBatches({ queue: [0, 1], items, finished, lintOne, setup, threads: 2, workersOnly: false });
 * share.byThisThread + share.byWorkers; // 2
 */
export async function shareBatches(work: BatchWork): Promise<{ byThisThread: number; byWorkers: number }> {
  const { queue } = work;
  let byThisThread = 0;
  let byWorkers = 0;
  let wake: (() => void) | undefined;
  const wakeUp = () => {
    wake?.();
    wake = undefined;
  };
  const pool = startWorkers(
    work,
    (batch, results) => {
      byWorkers++;
      work.finished(batch, results);
      wakeUp();
    },
    wakeUp,
  );
  for (;;) {
    if (queue.length > 0 && !(work.workersOnly && pool.alive() > 0)) {
      const b = queue.shift()!;
      work.finished(b, work.items(b).map(work.lintOne));
      byThisThread++;
      // Let the workers' messages in: their results, and their asks for the next batch.
      await new Promise<void>((resolve) => setImmediate(resolve));
      continue;
    }
    if (queue.length === 0 && pool.busy() === 0) break;
    await new Promise<void>((resolve) => (wake = resolve));
  }
  pool.stop();
  return { byThisThread, byWorkers };
}

/**
 * Starts `threads - 1` workers that take batches from `work.queue` as they
 * become free; `done` hears of each result and `lost` of each worker lost
 * (whose batch goes back to the queue, to an idle worker if there is one).
 */
function startWorkers(work: BatchWork, done: (batch: number, results: ItemResult[]) => void, lost: () => void) {
  const inFlight = new Map<Worker, number>();
  const idle = new Set<Worker>();
  const workers: Worker[] = [];
  const feed = (worker: Worker) => {
    const b = work.queue.shift();
    if (b === undefined) return void idle.add(worker);
    idle.delete(worker);
    inFlight.set(worker, b);
    worker.postMessage({ batch: b, items: work.items(b) } satisfies ToWorker);
  };
  const drop = (worker: Worker) => {
    const b = inFlight.get(worker);
    inFlight.delete(worker);
    idle.delete(worker);
    if (workers.includes(worker)) workers.splice(workers.indexOf(worker), 1);
    void worker.terminate();
    if (b !== undefined) {
      work.queue.unshift(b);
      const other = idle.values().next();
      if (other.done !== true) feed(other.value);
    }
    lost();
  };
  const { Worker } = process.getBuiltinModule('node:worker_threads');
  for (let i = 1; i < work.threads; i++) {
    const worker = new Worker(work.workerFile ?? fileURLToPath(import.meta.url), {
      workerData: work.setup,
      argv: [WORKER_FLAG],
      stdout: true,
      stderr: true,
    });
    workers.push(worker);
    worker.on('message', (message: FromWorker) => {
      if ('batch' in message) {
        inFlight.delete(worker);
        done(message.batch, message.results);
      }
      feed(worker);
    });
    worker.on('error', () => drop(worker));
    worker.on('exit', () => drop(worker));
  }
  return {
    alive: () => workers.length,
    busy: () => inFlight.size,
    stop() {
      for (const worker of workers.splice(0)) {
        worker.removeAllListeners('exit');
        void worker.terminate();
      }
    },
  };
}

/** A worker's life: the run's settings read again from its arguments, then batches linted until the run ends. */
async function serveBatches(port: MessagePort, setup: WorkerSetup['wepqlLint']): Promise<void> {
  setColor(setup.color);
  const lintOne = itemLinter(await readSettings(setup.args));
  port.on('message', (message: ToWorker) => {
    const reply: FromWorker = { batch: message.batch, results: message.items.map(lintOne) };
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies FromWorker);
}

if (process.argv.includes(WORKER_FLAG)) {
  const { isMainThread, parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  if (!isMainThread && parentPort !== null && (workerData as Partial<WorkerSetup> | null)?.wepqlLint !== undefined)
    void serveBatches(parentPort, (workerData as WorkerSetup).wepqlLint);
}
