/**
 * Admission in front of a data source: a bounded queue per statement class
 * (token pages that seek go before first-page rows, which go before counts),
 * a deadline per request, and single-flight for identical first pages. A
 * request that cannot start within its wait is refused with a "busy" error
 * (HTTP 503 with `Retry-After`, docs/reference.md §"Envelopes") rather than
 * left waiting; one that starts carries the time it has left to each
 * statement, and its work is abandoned when its client goes away. While
 * statements wait for a slot, a running request older than its budget is
 * cut (answered busy, its statements cancelled), so above saturation every
 * request is answered or refused within the budget, not at its deadline.
 *
 * No timers run while nothing waits; the state is a few counters and three
 * arrays, so one admission serves every request of a server.
 */
import { BusyError } from './busy.js';

/**
 * What a statement does, in the order slots are given out: a `seek` (a
 * `next-page`/`prev-page` from a token's keys, an index range read) first,
 * then `rows` (a first page or a page jump), then `count`.
 *
 * @example
 * const cls: StatementClass = 'seek';
 */
export type StatementClass = 'seek' | 'rows' | 'count';

/** The classes in the order they are served. */
const CLASSES: readonly StatementClass[] = ['seek', 'rows', 'count'];

/**
 * Options of `createAdmission`.
 *
 * @example
 * const options: AdmissionOptions = { concurrency: 8, maxWaitMs: 2000, deadlineMs: 10_000 };
 */
export interface AdmissionOptions {
  /**
   * Statements that run at once, all classes together; default 8. For a SQL
   * source, at most the pool's size (less one when its cancels need a pooled
   * connection); more only queues inside the pool, where nothing is bounded.
   */
  readonly concurrency?: number;
  /** Statements that may wait per class; one more is refused at once. Default 64 per class. */
  readonly queue?: number | Partial<Readonly<Record<StatementClass, number>>>;
  /** The longest a statement waits for its turn before its request is refused; default 2,000 ms. */
  readonly maxWaitMs?: number;
  /**
   * The time a request has from its arrival, waiting included; default
   * 10,000 ms. Each statement is given what is left (a source passes it on
   * as a statement timeout), and a request still running at its deadline is
   * abandoned and answered as busy.
   */
  readonly deadlineMs?: number;
  /**
   * The time a request may take from its arrival while other statements
   * wait for a slot; default `maxWaitMs`. Past it, a running request is cut
   * as soon as a statement waits (at once if one already does): its
   * statements are cancelled and it is answered busy, so a slot frees for
   * the waiting. With no one waiting a request runs on to its deadline.
   */
  readonly budgetMs?: number;
  /** Whether identical first pages that arrive while one is running share its execution; default true. */
  readonly singleFlight?: boolean;
}

/**
 * One request's hold on its time: the signal its work watches (aborted when
 * its client goes away or its deadline passes) and the deadline itself.
 *
 * @example
 * const ticket = admission.ticket(clientGone); try { … } finally { ticket.close(); }
 */
export interface RequestTicket {
  /** Aborted when the request's answer is no longer wanted; `reason` is a `BusyError` when the deadline passed. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds at which the request's time is up. */
  readonly deadline: number;
  /**
   * Call once the request is answered: stops the deadline's timer and aborts
   * whatever of its work still runs (a count whose page was refused).
   */
  close(): void;
}

/**
 * The admission state of one server (or one route).
 *
 * @example
 * const admission = createAdmission({ concurrency: 8 });
 * const release = await admission.acquire('seek', ticket); try { await read(); } finally { release(); }
 */
export interface Admission {
  /** Starts a request's clock; `signal` (the client going away) aborts its ticket too. */
  ticket(signal?: AbortSignal): RequestTicket;
  /**
   * Waits for a slot of `cls`; resolves with the function that gives it
   * back. Rejects with a `BusyError` when the class's queue is full or no
   * slot frees within the wait, and with the ticket's abort reason when it
   * is aborted first.
   */
  acquire(cls: StatementClass, ticket: RequestTicket): Promise<() => void>;
  /**
   * Runs `work` once for every caller with the same key while it runs
   * (single-flight); each caller gets its result. The shared work's ticket is
   * aborted only when every caller's is; a caller whose own ticket is aborted
   * stops waiting at once.
   */
  shared<T>(key: string, ticket: RequestTicket, work: (ticket: RequestTicket) => Promise<T>): Promise<T>;
  /** What is running and waiting now, and how many statements were refused so far (for metrics and tests). */
  stats(): AdmissionStats;
}

/**
 * A look at an admission's state.
 *
 * @example
 * const { running, waiting, refused, joined }: AdmissionStats = admission.stats();
 */
export interface AdmissionStats {
  readonly running: number;
  readonly waiting: Readonly<Record<StatementClass, number>>;
  /** Statements refused (queue full or wait over) since creation. */
  readonly refused: number;
  /** Running requests cut past their budget because statements waited, since creation. */
  readonly cut: number;
  /** Requests that joined a running identical first page instead of running their own. */
  readonly joined: number;
}

interface Waiter {
  readonly grant: () => void;
  readonly refuse: (error: unknown) => void;
}

/** How the admission that made a ticket can cut it: its budget's end and the abort of its work. */
interface Cuttable {
  readonly budgetEnd: number;
  readonly cut: (reason: BusyError) => void;
}

/** The tickets an admission made (request tickets and shared first pages' tickets), with how to cut them. */
const cuttable = new WeakMap<RequestTicket, Cuttable>();

/**
 * Work that several waiters share: it is aborted (through `controller`) once
 * every waiter that can go away has gone.
 *
 * @example
 * const shared: SharedWork<number> = { result: countRows(controller.signal), controller, callers: 0 };
 */
export interface SharedWork<T> {
  readonly result: Promise<T>;
  readonly controller: AbortController;
  /** Waiters now waiting (kept by `joinShared`). */
  callers: number;
}

type Flight = SharedWork<unknown>;

/**
 * Creates the admission state for one server; the framework adapters and
 * the reference server make one per route with these defaults.
 *
 * @example
 * const admission = createAdmission({ concurrency: 7, maxWaitMs: 1000 });
 * await handleListRequest(input, { source, schema, codec, route, admission });
 */
export function createAdmission(options: AdmissionOptions = {}): Admission {
  const { concurrency, maxWaitMs, deadlineMs, budgetMs, queueLimit } = admissionSettings(options);
  const queues: Record<StatementClass, Waiter[]> = { seek: [], rows: [], count: [] };
  const flights = singleFlights(options.singleFlight !== false);
  let running = 0;
  let refused = 0;
  let serviceMs = 50; // the mean time a slot is held, smoothed: it sizes Retry-After

  const waiting = (): number => queues.seek.length + queues.rows.length + queues.count.length;
  // Retry after the time the queue ahead takes to drain, at the recent pace: 1 to 60 s.
  const busy = (why: string): BusyError =>
    new BusyError(why, (refused++, Math.min(60, Math.max(1, Math.ceil(((waiting() / concurrency + 1) * serviceMs) / 1000)))));
  const holders = budgetHolders(waiting, () => busy(`the request ran past its budget of ${budgetMs} ms while others waited`));

  // Frees go to the first class with a waiter: seek, then rows, then count.
  const dispatch = (): void => {
    for (let cls = nextClass(queues); running < concurrency && cls !== undefined; cls = nextClass(queues)) {
      running++;
      queues[cls].shift()!.grant();
    }
  };

  const slot = (ticket: RequestTicket) => {
    holders.hold(ticket);
    return slotOf((heldMs) => {
      serviceMs += (heldMs - serviceMs) / 8;
      holders.release(ticket);
      running--;
      dispatch();
    });
  };

  return {
    ticket: (clientSignal) =>
      startTicket(clientSignal, deadlineMs, budgetMs, () => busy(`the request ran past its deadline of ${deadlineMs} ms`)),

    acquire(cls, ticket) {
      if (ticket.signal.aborted) return Promise.reject(ticket.signal.reason);
      if (running < concurrency && waiting() === 0) {
        running++;
        return Promise.resolve(slot(ticket));
      }
      if (queues[cls].length >= queueLimit[cls]) return Promise.reject(busy(`the ${cls} queue is full (${queueLimit[cls]} waiting)`));
      const waitMs = waitAllowed(ticket, maxWaitMs);
      if (waitMs <= 0) return Promise.reject(busy('the request has no time left to wait'));
      const refusal = () => busy(`no ${cls} slot freed within ${Math.round(waitMs)} ms`);
      const granted = waitInQueue(queues[cls], ticket, waitMs, () => slot(ticket), refusal);
      holders.shed();
      return granted;
    },

    shared: (key, ticket, work) => flights.run(key, ticket, work),

    stats: () => ({ running, waiting: waitingOf(queues), refused, joined: flights.joined, cut: holders.cut }),
  };
}

/** The options of `createAdmission` checked, with their defaults. */
function admissionSettings(options: AdmissionOptions) {
  const maxWaitMs = positive(options.maxWaitMs ?? 2_000, 'maxWaitMs');
  return {
    concurrency: positive(options.concurrency ?? 8, 'concurrency'),
    maxWaitMs,
    deadlineMs: positive(options.deadlineMs ?? 10_000, 'deadlineMs'),
    budgetMs: positive(options.budgetMs ?? maxWaitMs, 'budgetMs'),
    queueLimit: queueLimits(options.queue),
  };
}

/** How long a statement of `ticket` may wait for a slot: no longer than the wait, its deadline and its budget allow. */
function waitAllowed(ticket: RequestTicket, maxWaitMs: number): number {
  const budgetEnd = cuttable.get(ticket)?.budgetEnd ?? Infinity;
  return Math.min(maxWaitMs, ticket.deadline - Date.now(), budgetEnd - Date.now());
}

/** Identical first pages running at once share one execution (none shared when `enabled` is false). */
function singleFlights(enabled: boolean) {
  const flights = enabled ? new Map<string, Flight>() : undefined;
  const state = {
    /** Requests that joined a running flight. */
    joined: 0,
    run<T>(key: string, ticket: RequestTicket, work: (ticket: RequestTicket) => Promise<T>): Promise<T> {
      const flight = flights?.get(key);
      if (flight !== undefined) state.joined++;
      return joinShared(flight ?? startFlight(flights, key, ticket, work), ticket.signal) as Promise<T>;
    },
  };
  return state;
}

/** The tickets holding slots (a ticket holding two counts twice), and the cutting of those past their budget. */
interface BudgetHolders {
  hold(ticket: RequestTicket): void;
  release(ticket: RequestTicket): void;
  /** While statements wait, cuts the holders past their budget; then wakes at the next budget's end, if any. */
  shed(): void;
  /** Requests cut so far. */
  readonly cut: number;
}

function budgetHolders(waiting: () => number, overBudget: () => BusyError): BudgetHolders {
  const held = new Map<RequestTicket, number>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const holders = {
    cut: 0,
    hold: (ticket: RequestTicket) => void held.set(ticket, (held.get(ticket) ?? 0) + 1),
    release(ticket: RequestTicket): void {
      const left = held.get(ticket)! - 1;
      if (left === 0) held.delete(ticket);
      else held.set(ticket, left);
    },
    shed(): void {
      clearTimeout(timer);
      timer = undefined;
      if (waiting() === 0) return;
      const now = Date.now();
      let next = Infinity;
      for (const ticket of [...held.keys()]) {
        const c = cuttable.get(ticket);
        if (c === undefined || ticket.signal.aborted) continue;
        if (c.budgetEnd <= now) {
          holders.cut++;
          c.cut(overBudget());
        } else next = Math.min(next, c.budgetEnd);
      }
      if (next === Infinity) return;
      timer = setTimeout(holders.shed, next - now);
      (timer as { unref?: () => void }).unref?.();
    },
  };
  return holders;
}

function nextClass(queues: Record<StatementClass, Waiter[]>): StatementClass | undefined {
  return CLASSES.find((c) => queues[c].length > 0);
}

function waitingOf(queues: Record<StatementClass, Waiter[]>): Record<StatementClass, number> {
  return { seek: queues.seek.length, rows: queues.rows.length, count: queues.count.length };
}

/** A slot's release function: gives the slot back once, with the time it was held. */
function slotOf(release: (heldMs: number) => void): () => void {
  const started = Date.now();
  let given = false;
  return () => {
    if (given) return;
    given = true;
    release(Date.now() - started);
  };
}

/**
 * The abort reason of every answered request's signal: one error made once, since a stack taken
 * per request (the costliest part of closing a ticket) would only show where tickets close.
 */
const ANSWERED = new Error('the request was answered');

/**
 * A request's ticket: aborted when its client goes away or its deadline
 * passes (with `deadlineError()`), when it is cut past its budget, or once answered.
 */
function startTicket(
  clientSignal: AbortSignal | undefined,
  deadlineMs: number,
  budgetMs: number,
  deadlineError: () => BusyError,
): RequestTicket {
  const controller = new AbortController();
  const arrival = Date.now();
  const deadline = arrival + deadlineMs;
  const onClientGone = () => controller.abort(clientSignal?.reason ?? new Error('the client went away'));
  if (clientSignal?.aborted) onClientGone();
  else clientSignal?.addEventListener('abort', onClientGone, { once: true });
  const timer = setTimeout(() => controller.abort(deadlineError()), deadlineMs);
  const ticket: RequestTicket = {
    signal: controller.signal,
    deadline,
    close() {
      clearTimeout(timer);
      clientSignal?.removeEventListener('abort', onClientGone);
      if (!controller.signal.aborted) controller.abort(ANSWERED);
    },
  };
  cuttable.set(ticket, { budgetEnd: arrival + budgetMs, cut: (reason) => controller.abort(reason) });
  return ticket;
}

/** Waits in `queue` for a slot (granted by the dispatcher), refused at `waitMs` with `timeoutError()` or at the ticket's abort. */
function waitInQueue(
  queue: Waiter[],
  ticket: RequestTicket,
  waitMs: number,
  slot: () => () => void,
  timeoutError: () => BusyError,
): Promise<() => void> {
  return new Promise((resolve, reject) => {
    const leave = () => {
      clearTimeout(timer);
      ticket.signal.removeEventListener('abort', onAbort);
      const at = queue.indexOf(waiter);
      if (at >= 0) queue.splice(at, 1);
    };
    const waiter: Waiter = {
      grant: () => (leave(), resolve(slot())),
      refuse: (error) => (leave(), reject(error)),
    };
    const onAbort = () => waiter.refuse(ticket.signal.reason);
    const timer = setTimeout(() => waiter.refuse(timeoutError()), waitMs);
    ticket.signal.addEventListener('abort', onAbort, { once: true });
    queue.push(waiter);
  });
}

/** Starts shared work under a ticket of its own (same deadline), listed in `flights` while it runs (none: single-flight is off). */
function startFlight<T>(
  flights: Map<string, Flight> | undefined,
  key: string,
  ticket: RequestTicket,
  work: (ticket: RequestTicket) => Promise<T>,
): Flight {
  const controller = new AbortController();
  const close = () => void (controller.signal.aborted || controller.abort(ANSWERED));
  const own: RequestTicket = { signal: controller.signal, deadline: ticket.deadline, close };
  // The shared work keeps its first request's budget: cut, it answers every caller busy.
  const budgetEnd = cuttable.get(ticket)?.budgetEnd;
  if (budgetEnd !== undefined) cuttable.set(own, { budgetEnd, cut: (reason) => controller.abort(reason) });
  const result = work(own);
  const flight: Flight = { result, controller, callers: 0 };
  // Settled, the work is answered, as a request's ticket is closed once answered: a part of it still waiting
  // for a slot or running (the rows of a first page whose count was refused) is refused or stopped, not left
  // to take a slot and send its statement after every caller has had its answer.
  const done = () => {
    close();
    if (flights !== undefined && flights.get(key) === flight) flights.delete(key);
  };
  result.then(done, done);
  if (flights !== undefined) flights.set(key, flight);
  return flight;
}

/**
 * One waiter's wait on shared work: it resolves with the shared result, or
 * rejects with the waiter's own abort reason as soon as `signal` is aborted;
 * the shared work is aborted when its last waiter has gone that way. A waiter
 * without a signal stays to the end, and so does the work.
 *
 * @example
 * const matches = await joinShared(entry.filtering, q.signal);
 */
export function joinShared<T>(shared: SharedWork<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) {
    shared.callers++;
    const stay = () => void shared.callers--;
    shared.result.then(stay, stay);
    return shared.result;
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  shared.callers++;
  return new Promise<T>((resolve, reject) => {
    let waiting = true;
    const onAbort = () => {
      if (!waiting) return;
      waiting = false;
      if (--shared.callers === 0) shared.controller.abort(signal.reason);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (done: () => void) => {
      if (!waiting) return;
      waiting = false;
      shared.callers--;
      signal.removeEventListener('abort', onAbort);
      done();
    };
    shared.result.then(
      (value) => settle(() => resolve(value)),
      (error: unknown) => settle(() => reject(error)),
    );
  });
}

function queueLimits(queue: AdmissionOptions['queue']): Record<StatementClass, number> {
  const all = typeof queue === 'number' ? queue : 64;
  const per = typeof queue === 'object' ? queue : {};
  const limits = { seek: per.seek ?? all, rows: per.rows ?? all, count: per.count ?? all };
  for (const cls of CLASSES) {
    if (!(Number.isSafeInteger(limits[cls]) && limits[cls] >= 0)) {
      throw new RangeError(`createAdmission: queue.${cls} must be a whole number of at least 0, got ${String(limits[cls])}`);
    }
  }
  return limits;
}

function positive(value: number, name: string): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new RangeError(`createAdmission: ${name} must be a number above 0, got ${String(value)}`);
  return value;
}

/**
 * The remaining time of a deadline in whole milliseconds (at least 1), or
 * throws a `BusyError` when it has passed: what a source gives a statement
 * as its timeout.
 *
 * @example
 * const timeoutMs = remainingMs(q.deadline); // 2417
 */
export function remainingMs(deadline: number): number {
  const left = Math.floor(deadline - Date.now());
  if (left <= 0) throw new BusyError('the request has no time left for another statement', 1);
  return left;
}
