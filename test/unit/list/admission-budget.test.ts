/**
 * The admission's budget: while statements wait for a slot, a running
 * request older than its budget is cut (its signal aborted with a busy
 * error), so above saturation every request is answered or refused within
 * the budget; with no one waiting a request runs on to its deadline.
 */
import { describe, expect, it } from 'vitest';
import { createAdmission, type RequestTicket } from '../../../src/list/admission.js';
import { BusyError } from '../../../src/list/busy.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Work that holds its slot until its ticket is aborted; resolves with the abort's reason and when it came. */
function holdUntilAborted(ticket: RequestTicket): Promise<{ reason: unknown; at: number }> {
  return new Promise((resolve) => {
    if (ticket.signal.aborted) resolve({ reason: ticket.signal.reason, at: Date.now() });
    ticket.signal.addEventListener('abort', () => resolve({ reason: ticket.signal.reason, at: Date.now() }), { once: true });
  });
}

describe('createAdmission: the budget', () => {
  it('a lone request is not cut at its budget: it runs to its deadline', async () => {
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 100, budgetMs: 100, deadlineMs: 500 });
    const started = Date.now();
    const ticket = admission.ticket();
    const release = await admission.acquire('rows', ticket);
    const { reason, at } = await holdUntilAborted(ticket);
    release();
    ticket.close();
    expect(reason).toBeInstanceOf(BusyError);
    expect((reason as Error).message).toMatch(/deadline of 500 ms/);
    expect(at - started).toBeGreaterThanOrEqual(450);
    expect(admission.stats().cut).toBe(0);
  });

  it('a running request is cut at its budget once a statement waits, and the waiter gets the slot', async () => {
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 1_000, budgetMs: 300, deadlineMs: 10_000 });
    const started = Date.now();
    const first = admission.ticket();
    const release = await admission.acquire('count', first);
    const cut = holdUntilAborted(first).then((r) => (release(), r));
    await sleep(100);
    const second = admission.ticket();
    const granted = admission.acquire('seek', second);
    const { reason, at } = await cut;
    expect(reason).toBeInstanceOf(BusyError);
    expect((reason as Error).message).toMatch(/budget of 300 ms/);
    expect((reason as BusyError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(at - started).toBeGreaterThanOrEqual(280);
    expect(at - started).toBeLessThan(800);
    (await granted)();
    expect(admission.stats()).toMatchObject({ running: 0, cut: 1 });
    first.close();
    second.close();
  });

  it('a request already past its budget is cut as soon as a statement queues behind it', async () => {
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 1_000, budgetMs: 300, deadlineMs: 10_000 });
    const first = admission.ticket();
    const release = await admission.acquire('rows', first);
    await sleep(400);
    expect(first.signal.aborted).toBe(false);
    const second = admission.ticket();
    const granted = admission.acquire('rows', second);
    // Cut in the same turn the statement queued, not at a timer.
    expect(first.signal.aborted).toBe(true);
    expect(first.signal.reason).toBeInstanceOf(BusyError);
    release();
    (await granted)();
    first.close();
    second.close();
  });

  it("a waiter is refused no later than its own budget's end, whatever maxWaitMs says", async () => {
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 5_000, budgetMs: 250, deadlineMs: 10_000 });
    // The holder has no budget to be cut by (a ticket the admission did not make): the slot never frees.
    const holder: RequestTicket = { signal: new AbortController().signal, deadline: Date.now() + 10_000, close: () => {} };
    const release = await admission.acquire('rows', holder);
    const started = Date.now();
    const waiter = admission.ticket();
    const error = await admission.acquire('seek', waiter).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BusyError);
    expect(Date.now() - started).toBeLessThan(1_000);
    release();
    waiter.close();
  });

  it('shared first-page work is cut with its first request, and every caller is answered busy', async () => {
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 1_000, budgetMs: 200, deadlineMs: 10_000 });
    const a = admission.ticket();
    const b = admission.ticket();
    const work = (ticket: RequestTicket) =>
      admission.acquire('rows', ticket).then(async (release) => {
        const { reason } = await holdUntilAborted(ticket);
        release();
        throw reason;
      });
    const answers = [admission.shared('k', a, work), admission.shared('k', b, work)].map((p) => p.catch((e: unknown) => e));
    await sleep(20);
    const waiter = admission.ticket();
    const granted = admission.acquire('seek', waiter);
    const [ea, eb] = await Promise.all(answers);
    expect(ea).toBeInstanceOf(BusyError);
    expect(eb).toBe(ea);
    (await granted)();
    expect(admission.stats()).toMatchObject({ joined: 1, cut: 1 });
    for (const t of [a, b, waiter]) t.close();
  });

  it('shared work that has settled leaves nothing behind: a part still waiting for a slot is refused, a running one is aborted', async () => {
    // A first page reads its count and its rows at once; when one is refused, the answer is busy at once, and the other
    // part must not go on to take a slot and send its statement after the request was answered (seen in load-control:
    // a page statement of a request answered 503 sent during a later case).
    const admission = createAdmission({ concurrency: 1, maxWaitMs: 5_000, deadlineMs: 10_000 });
    const holder = admission.ticket();
    const releaseHolder = await admission.acquire('count', holder);
    let ran = false;
    let straggler: Promise<unknown> = Promise.resolve();
    let running: Promise<{ reason: unknown }> = Promise.resolve({ reason: undefined });
    const request = admission.ticket();
    const answer = admission
      .shared('k', request, async (own) => {
        straggler = admission.acquire('rows', own).then(
          (release) => ((ran = true), release()),
          (e: unknown) => e,
        );
        running = holdUntilAborted(own);
        await sleep(10);
        throw new BusyError('the count queue is full', 1);
      })
      .catch((e: unknown) => e);
    expect(await answer).toBeInstanceOf(BusyError);
    request.close();
    // Settled: the waiting part left the queue and the shared work's ticket is aborted, before any slot frees.
    expect(admission.stats().waiting.rows).toBe(0);
    expect((await running).reason).toBeDefined();
    releaseHolder();
    holder.close();
    await straggler;
    expect(ran).toBe(false);
    expect(admission.stats().running).toBe(0);
  });

  it('rejects a budget that is not a positive number', () => {
    expect(() => createAdmission({ budgetMs: 0 })).toThrow(/budgetMs must be a number above 0/);
  });
});
