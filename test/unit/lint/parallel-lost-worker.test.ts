import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { shareBatches, type BatchWork } from '../../../src/cli/lint/parallel.js';
import type { ItemResult, ItemToLint } from '../../../src/cli/lint/outcome.js';

/**
 * parallel.ts promises that a lost worker never loses a batch: a worker that
 * cannot start, or exits mid-batch, hands its batch back (to an idle worker,
 * else to this thread), and every batch is finished exactly once. Real
 * worker threads, running stand-ins for the lint module
 * (test/fixtures/lint-workers/) that speak its messages.
 */
const worker = (name: string) => fileURLToPath(new URL(`../../fixtures/lint-workers/${name}.mjs`, import.meta.url));

/** Batches of two items each, numbered as items; the items stand in for what `toLint` makes. */
function run(batches: number, overrides: Partial<BatchWork> & { readonly exitOnBatch?: number }) {
  const finished = new Map<number, unknown[][]>();
  const { exitOnBatch, ...rest } = overrides;
  const work: BatchWork = {
    queue: Array.from({ length: batches }, (_, b) => b),
    items: (b) => [2 * b, 2 * b + 1] as unknown as ItemToLint[],
    finished: (b, results) => finished.set(b, [...(finished.get(b) ?? []), results]),
    lintOne: (item) => ({ by: 'this thread', item }) as unknown as ItemResult,
    setup: { exitOnBatch } as never,
    threads: 2,
    workersOnly: true,
    ...rest,
  };
  return { work, finished, done: shareBatches(work) };
}

/** Each batch finished once, with its own two items, in order. */
function expectEachOnce(finished: Map<number, unknown[][]>, batches: number): void {
  expect([...finished.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: batches }, (_, b) => b));
  for (const [b, times] of finished) {
    expect(times).toHaveLength(1);
    expect((times[0] as { item: number }[]).map((r) => r.item)).toEqual([2 * b, 2 * b + 1]);
  }
}

describe('lint threads: a lost worker hands its batch back', () => {
  it('a worker that exits mid-batch: its batch and the rest are linted on this thread, each once', async () => {
    const { finished, done } = run(6, { workerFile: worker('serving'), exitOnBatch: 2 });
    const share = await done;
    expectEachOnce(finished, 6);
    // Batches 0 and 1 came from the worker; the one it died on (2) and those after it, from this thread.
    expect(share).toEqual({ byThisThread: 4, byWorkers: 2 });
    expect(finished.get(1)![0]).toEqual([
      { by: 'worker', item: 2 },
      { by: 'worker', item: 3 },
    ]);
    expect(finished.get(2)![0]).toEqual([
      { by: 'this thread', item: 4 },
      { by: 'this thread', item: 5 },
    ]);
  });

  it('a worker that cannot start: every batch is linted on this thread', async () => {
    const { finished, done } = run(4, { workerFile: worker('throwing') });
    expect(await done).toEqual({ byThisThread: 4, byWorkers: 0 });
    expectEachOnce(finished, 4);
  });

  it('of two workers, one exits on its first batch: that batch goes to the other worker, idle or not, or to this thread', async () => {
    // Batch 0 goes to whichever worker is ready first; the exit is on batch 0, so exactly one worker dies on it.
    const { finished, done } = run(8, { workerFile: worker('serving'), exitOnBatch: 0, threads: 3 });
    const share = await done;
    expectEachOnce(finished, 8);
    expect(share.byThisThread + share.byWorkers).toBe(8);
  });
});
