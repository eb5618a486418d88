import { describe, expect, it } from 'vitest';
import { createWorkLane } from '../../../src/sources/memory-lane.js';

/** Work of `slices` slices that yields after each. */
function* work(slices: number, log: string[], name: string): Generator<void, string, void> {
  for (let i = 0; i < slices; i++) {
    log.push(name);
    yield;
  }
  return name;
}

describe('createWorkLane', () => {
  it('gives clients turns: one client queuing many jobs does not hold back another', async () => {
    const lane = createWorkLane({ sliceMs: 0 });
    const log: string[] = [];
    const finished: string[] = [];
    const a = Array.from({ length: 10 }, (_, i) => lane.run('client A', work(3, log, `A${i}`)).result.then((n) => finished.push(n)));
    const b = lane.run('client B', work(3, log, 'B')).result.then((n) => finished.push(n));
    await Promise.all([...a, b]);
    // B's three slices alternate with A's: B is done after A's first job, not after all ten.
    expect(finished.indexOf('B')).toBeLessThanOrEqual(2);
    expect(log.slice(0, 6)).toEqual(['A0', 'B', 'A0', 'B', 'A0', 'B']);
    // Within one client, first come, first served.
    expect(finished.filter((n) => n !== 'B')).toEqual(Array.from({ length: 10 }, (_, i) => `A${i}`));
  });

  it('runs background work only when nothing else waits, unless a request promotes it', async () => {
    const lane = createWorkLane({ sliceMs: 0 });
    const log: string[] = [];
    const bg = lane.background(work(3, log, 'bg'));
    const fg = lane.run('c', work(2, log, 'fg')).result;
    await fg;
    expect(log.filter((x) => x === 'bg').length).toBeLessThanOrEqual(1);
    await bg.result;
    const later = lane.background(work(5, log, 'later'));
    const busy = lane.run('c', work(20, log, 'busy'));
    later.promote('d');
    await later.result;
    expect(log.filter((x) => x === 'busy').length).toBeLessThan(20);
    await busy.result;
  });

  it('rejects a job that throws and goes on with the others', async () => {
    const lane = createWorkLane();
    const failing = lane.run(
      'c',
      (function* (): Generator<void, number, void> {
        yield;
        throw new Error('boom');
      })(),
    );
    const ok = lane.run('c', work(1, [], 'ok'));
    await expect(failing.result).rejects.toThrow('boom');
    await expect(ok.result).resolves.toBe('ok');
  });

  it('drops aborted work before its next slice and ends it (return), whether it was running, queued or never queued', async () => {
    const lane = createWorkLane({ sliceMs: 0 });
    const ended: string[] = [];
    const log: string[] = [];
    /** Endless work whose iterator records being ended (`return`), started or not. */
    function endable(name: string): Iterator<void, string> {
      return {
        next: () => {
          log.push(name);
          return { done: false, value: undefined };
        },
        return: () => {
          ended.push(name);
          return { done: true, value: name };
        },
      };
    }
    const running = new AbortController();
    const runningTask = lane.run('a', endable('running'), running.signal);
    const queued = new AbortController();
    const queuedTask = lane.run('a', endable('queued'), queued.signal);
    await expect.poll(() => log.length, { interval: 1 }).toBeGreaterThan(2);
    running.abort(new Error('gone'));
    queued.abort(new Error('gone too'));
    await expect(runningTask.result).rejects.toThrow('gone');
    await expect(queuedTask.result).rejects.toThrow('gone too');
    const before = new AbortController();
    before.abort(new Error('gone before'));
    await expect(lane.run('a', endable('never'), before.signal).result).rejects.toThrow('gone before');
    // The queued and running work are ended at their next turn.
    await expect.poll(() => [...ended].sort()).toEqual(['never', 'queued', 'running']);
    expect(log.filter((n) => n !== 'running')).toEqual([]);
  });
});
