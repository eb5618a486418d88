/**
 * The memory source's own deadline, for a handler without an admission
 * queue: a request whose lane work is still waiting for its turns or running
 * in slices when its time is up is answered busy (503 in the contract's
 * error envelope, with `Retry-After`) and its lane work is dropped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import type { ListHandlerOptions } from '../../../src/list/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import type { LaneTask, WorkLane } from '../../../src/sources/memory-lane.js';
import { createWorkLane } from '../../../src/sources/memory-lane.js';
import { employees, SCOPE } from './list-contract.js';

const ROUTE = '/api/public/clients/1/employees';
const BUSY = /^\{"Status":0,"Code":"503","ErrorCode":null,"Message":"The server is busy; retry after (\d+) s\.","StackTrace":""\}$/;
/** 40,000 records of client 1, so a cold filter takes many slices. */
const many = Array.from({ length: 40_000 }, (_, i) => ({ ...employees[i % employees.length]!, Id: i + 1, ClientId: 1 }));
const codec = createTokenCodec({ secret: 'memory deadline test secret, 16+ bytes' });

/** What became of the work a request queued: its slices, and whether it was ended early (`return`) or finished. */
interface Traced {
  slices: number;
  returned: boolean;
  done: boolean;
}

/** A lane that traces each piece of work a request waits for; `slowMs` more per slice makes that work take long. */
function tracingLane(inner: WorkLane, traced: Traced[], slowMs = 0): WorkLane {
  return {
    run<T>(owner: string, work: Iterator<void, T>, signal?: AbortSignal): LaneTask<T> {
      const t: Traced = { slices: 0, returned: false, done: false };
      traced.push(t);
      const wrapped: Iterator<void, T> = {
        next: () => {
          t.slices++;
          const until = performance.now() + slowMs;
          while (performance.now() < until) {
            /* spin: a slow record reader */
          }
          const step = work.next();
          if (step.done === true) t.done = true;
          return step;
        },
        return: (value?: T) => {
          t.returned = true;
          return work.return?.(value) ?? { done: true, value: value as T };
        },
      };
      return inner.run(owner, wrapped, signal);
    },
    background: (work) => inner.background(work),
    due: () => inner.due(),
  };
}

/** Other clients' long work: each slice spins for the lane's slice, until stopped. */
function hogLane(lane: WorkLane, owners: number): () => void {
  const stop = new AbortController();
  for (let i = 0; i < owners; i++) {
    const hog = (function* (): Generator<void, void, void> {
      for (;;) {
        while (!lane.due()) {
          /* spin: a slice of someone's filter */
        }
        yield;
      }
    })();
    lane.run(`hog ${i}`, hog, stop.signal).result.catch(() => {});
  }
  return () => stop.abort(new Error('test over'));
}

let stopHogs: (() => void) | undefined;
afterEach(() => {
  stopHogs?.();
  stopHogs = undefined;
});

function handlerOptions(lane: WorkLane, deadlineMs: number): ListHandlerOptions {
  const source = createMemoryDataSource(many, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', lane, deadlineMs });
  // No admission: the source's own deadline is the only bound on the request's time.
  return { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
}

describe('memory source deadline (no admission queue)', () => {
  it('memory-deadline-503: work still waiting or running in slices at the deadline is dropped and answered busy', async () => {
    const traced: Traced[] = [];
    const lane = createWorkLane({ sliceMs: 1 });
    // Another client keeps the lane busy (the request's work takes every other slice), and each of the
    // request's slices costs 10 ms more: its filter, some 40 slices, cannot end within 150 ms.
    stopHogs = hogLane(lane, 1);
    const options = handlerOptions(tracingLane(lane, traced, 10), 150);
    const started = performance.now();
    const r = await handleListRequest(
      { query: { limit: '10', filter: 'EmployeeNumber.GreaterThan(3)', sort: 'LastName=Asc' }, headers: {} },
      options,
    );
    const ms = performance.now() - started;
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(JSON.stringify(r.body)).toMatch(BUSY);
    // Answered at its deadline, not when its work would have ended.
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(2_000);
    // The request's work had begun (it ran in slices) and was ended early, not finished.
    expect(traced.length).toBeGreaterThan(0);
    expect(traced.some((t) => t.slices > 0)).toBe(true);
    const slicesAtAnswer = traced.map((t) => t.slices);
    // The drop happens at the work's next turn; on a loaded machine that turn may come after a 100 ms timer.
    await expect.poll(() => traced.every((t) => t.returned), { timeout: 5_000, interval: 20 }).toBe(true);
    expect(traced.every((t) => !t.done)).toBe(true);
    // Dropped: no further slice of it ran after the answer.
    expect(traced.map((t) => t.slices)).toEqual(slicesAtAnswer);
  });

  it('memory-deadline-waiting: work that never got a slice before the deadline is dropped too', async () => {
    const traced: Traced[] = [];
    const lane = createWorkLane({ sliceMs: 40 });
    // Two other clients, 40 ms slices: the request waits 80 ms for its first turn, past its 30 ms deadline.
    stopHogs = hogLane(lane, 2);
    const options = handlerOptions(tracingLane(lane, traced), 30);
    const r = await handleListRequest({ query: { limit: '10', filter: 'EmployeeNumber.GreaterThan(4)' }, headers: {} }, options);
    expect(r.status).toBe(503);
    expect(JSON.stringify(r.body)).toMatch(BUSY);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(traced.length).toBeGreaterThan(0);
    expect(traced.every((t) => t.slices === 0 && !t.done)).toBe(true);
  });

  it('memory-deadline-in-time: the same request on an idle lane is answered within its deadline', async () => {
    const traced: Traced[] = [];
    const options = handlerOptions(tracingLane(createWorkLane({ sliceMs: 2 }), traced), 5_000);
    const r = await handleListRequest(
      { query: { limit: '10', filter: 'EmployeeNumber.GreaterThan(3)', sort: 'LastName=Asc' }, headers: {} },
      options,
    );
    expect(r.status).toBe(200);
    expect((r.body as { Data: unknown[] }).Data).toHaveLength(10);
    expect(traced.some((t) => t.done)).toBe(true);
  });

  it('rejects a deadline that is not a positive number', () => {
    expect(() => createMemoryDataSource(many, { schema: employeeSchema, deadlineMs: 0 })).toThrow(/deadlineMs/);
  });
});
