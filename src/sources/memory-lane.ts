/**
 * The work lane of the memory source: filtering and sorting a large array
 * are split into slices of a few milliseconds, run one at a time, with the
 * event loop free between two slices. A request that needs no such work (a
 * token page over a cached order, a warm first page) is answered between two
 * slices, so it waits at most one slice however many cold queries run; and
 * the slices rotate between owners, one client's queue of cold queries
 * taking turns with everyone else's rather than going first. The memory
 * source names two owners per client identity (its id read as the client
 * field's type, so `1` and `01` are one client): its cold queries, and the
 * work its token pages wait for.
 *
 * Work is a generator that does a bounded amount between two `yield`s and
 * yields whenever `due()` says its slice is spent. Background work (the full
 * sort that later pages seek in) runs only when no request is waiting, until
 * a request needs it and promotes it.
 */

/**
 * A piece of work in progress.
 *
 * @example
 * const task = lane.run('client 1', filterJob()); const matches = await task.result;
 */
export interface LaneTask<T> {
  readonly result: Promise<T>;
  /** Moves background work into `owner`'s turn, because a request now waits for it. */
  promote(owner: string): void;
}

/**
 * A cooperative scheduler of sliced work.
 *
 * @example
 * const lane = createWorkLane(); await lane.run('client 1', (function* () { while (more()) { step(); if (lane.due()) yield; } })()).result;
 */
export interface WorkLane {
  /**
   * Queues work that a request waits for, in `owner`'s turn. When `signal`
   * is aborted the work is dropped before its next slice (its iterator's
   * `return` is called) and the result rejects with the abort reason.
   */
  run<T>(owner: string, work: Iterator<void, T>, signal?: AbortSignal): LaneTask<T>;
  /** Queues work no request waits for yet; it runs when the lane is otherwise idle. */
  background<T>(work: Iterator<void, T>): LaneTask<T>;
  /** True when the running slice has used its time: the work should yield. */
  due(): boolean;
}

interface Job {
  readonly work: Iterator<void, unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
  owner: string | undefined;
  queued: boolean;
  /** Set once its signal aborted: the job is skipped when its turn comes. */
  dropped: boolean;
}

/**
 * Milliseconds of work per slice: long enough to amortise the hop, short enough for a waiting request.
 *
 * @example
 * createWorkLane({ sliceMs: SLICE_MS / 2 });
 */
export const SLICE_MS = 4;

/**
 * Creates a work lane.
 *
 * @example
 * const lane = createWorkLane({ sliceMs: 2 });
 */
export function createWorkLane(options: { readonly sliceMs?: number } = {}): WorkLane {
  const lane = new Lane(options.sliceMs ?? SLICE_MS);
  return {
    run: (owner, work, signal) => lane.start(owner, work, signal),
    background: (work) => lane.start(undefined, work),
    due: () => lane.due(),
  };
}

class Lane {
  readonly #sliceMs: number;
  readonly #rotation: string[] = []; // owners with waiting work, next first
  readonly #queues = new Map<string, Job[]>();
  readonly #idle: Job[] = []; // background work
  #sliceEnd = 0;
  #scheduled = false;

  constructor(sliceMs: number) {
    this.#sliceMs = sliceMs;
  }

  due(): boolean {
    return now() >= this.#sliceEnd;
  }

  start<T>(owner: string | undefined, work: Iterator<void, T>, signal?: AbortSignal): LaneTask<T> {
    let job!: Job;
    const result = new Promise<T>((resolve, reject) => {
      job = { work, resolve: resolve as (v: unknown) => void, reject, owner, queued: false, dropped: false };
    });
    if (signal?.aborted === true) {
      // Dropped before its first slice: ended all the same, as the interface promises.
      work.return?.();
      job.reject(signal.reason);
      return { result, promote: () => {} };
    }
    if (signal !== undefined) {
      const drop = () => {
        job.dropped = true;
        job.reject(signal.reason);
      };
      signal.addEventListener('abort', drop, { once: true });
      const settled = () => signal.removeEventListener('abort', drop);
      result.then(settled, settled);
    }
    this.#enqueue(job, false);
    return { result, promote: (to: string) => this.#promote(job, to) };
  }

  #promote(job: Job, owner: string): void {
    const at = job.owner === undefined && job.queued ? this.#idle.indexOf(job) : -1;
    if (at < 0) return;
    this.#idle.splice(at, 1);
    job.owner = owner;
    this.#enqueue(job, false);
  }

  /**
   * Queues a job: new work at the back of its owner's queue; an unfinished
   * job (`resumed`) back at its head — first come, first served within one
   * client — while its owner goes to the back of the rotation.
   */
  #enqueue(job: Job, resumed: boolean): void {
    job.queued = true;
    if (job.owner === undefined) {
      if (resumed) this.#idle.unshift(job);
      else this.#idle.push(job);
    } else {
      let queue = this.#queues.get(job.owner);
      if (queue === undefined) this.#queues.set(job.owner, (queue = []));
      if (queue.length === 0) this.#rotation.push(job.owner);
      if (resumed) queue.unshift(job);
      else queue.push(job);
    }
    this.#kick();
  }

  #take(): Job | undefined {
    const owner = this.#rotation.shift();
    if (owner === undefined) return this.#idle.shift();
    const queue = this.#queues.get(owner)!;
    const job = queue.shift()!;
    if (queue.length > 0) this.#rotation.push(owner);
    else this.#queues.delete(owner);
    return job;
  }

  #slice(): void {
    this.#scheduled = false;
    const job = this.#take();
    if (job === undefined) return;
    job.queued = false;
    if (job.dropped) {
      // Its request went away: end the work without another slice.
      job.work.return?.();
      this.#kick();
      return;
    }
    this.#sliceEnd = now() + this.#sliceMs;
    let step: IteratorResult<void, unknown>;
    try {
      step = job.work.next();
    } catch (error) {
      job.reject(error);
      this.#kick();
      return;
    }
    if (step.done) {
      job.resolve(step.value);
      this.#kick();
    } else this.#enqueue(job, true);
  }

  #kick(): void {
    if (this.#scheduled || (this.#rotation.length === 0 && this.#idle.length === 0)) return;
    this.#scheduled = true;
    nextTurn(() => this.#slice());
  }
}

const now: () => number = typeof performance !== 'undefined' ? () => performance.now() : () => Date.now();

/**
 * Runs `callback` on a later turn of the event loop, after pending I/O:
 * `setImmediate` where there is one (Node), else a `MessageChannel` message
 * (browsers, without `setTimeout`'s 4 ms clamp), else `setTimeout`.
 */
const nextTurn: (callback: () => void) => void = (() => {
  const g = globalThis as { setImmediate?: (f: () => void) => unknown; MessageChannel?: typeof MessageChannel };
  if (typeof g.setImmediate === 'function') return (f) => void g.setImmediate!(f);
  if (typeof g.MessageChannel === 'function') {
    const channel = new g.MessageChannel();
    const waiting: (() => void)[] = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    return (f) => {
      waiting.push(f);
      channel.port2.postMessage(0);
    };
  }
  return (f) => void setTimeout(f, 0);
})();

/**
 * The lane shared by every memory source of this process (one thread, one queue).
 *
 * @example
 * createMemoryDataSource(records, { schema, lane: sharedWorkLane }); // the default
 */
export const sharedWorkLane: WorkLane = createWorkLane();
