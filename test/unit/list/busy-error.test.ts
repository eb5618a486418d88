/**
 * One busy error: whatever throws `BusyError` — the admission queue, a
 * statement out of time, a source that cannot read now — is answered 503
 * with its `Retry-After` and the busy envelope by one mapping; only a busy
 * error with a cause (a source giving up on an error of its own) is reported.
 */
import { describe, expect, it } from 'vitest';
import { BusyError, createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import type { DataSource } from '../../../src/list/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const BUSY = /^\{"Status":0,"Code":"503","ErrorCode":null,"Message":"The server is busy; retry after (\d+) s\.","StackTrace":""\}$/;
const codec = createTokenCodec({ secret: 'busy error test secret, 16+ bytes' });

async function answerWhenThrowing(error: unknown) {
  const reported: unknown[] = [];
  const source: DataSource = {
    count: () => Promise.reject(error),
    page: () => Promise.reject(error),
  };
  const r = await handleListRequest(
    { query: { limit: '5' }, headers: {} },
    { source, schema: employeeSchema, codec, route: '/api/public/employees', onError: (e) => void reported.push(e) },
  );
  return { ...r, reported };
}

describe('BusyError', () => {
  it('busy-error-cause: a source that gives up on an error of its own is answered 503 with its Retry-After, and reported', async () => {
    const cause = new Error('canceling statement due to conflict with recovery');
    const error = new BusyError('the database cancelled the read twice', 3, { cause });
    expect(error.cause).toBe(cause);
    const r = await answerWhenThrowing(error);
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('3');
    expect(JSON.stringify(r.body)).toMatch(BUSY);
    expect(JSON.stringify(r.body)).toContain('retry after 3 s');
    expect(r.reported).toEqual([error]);
  });

  it('busy-error-load: a refusal under load (no cause) is answered 503 and not reported', async () => {
    const r = await answerWhenThrowing(new BusyError('no rows slot freed within 2000 ms', 2));
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('2');
    expect(JSON.stringify(r.body)).toMatch(BUSY);
    expect(r.reported).toEqual([]);
  });

  it('any other error is a 500, reported', async () => {
    const error = new Error('relation "employees" does not exist');
    const r = await answerWhenThrowing(error);
    expect(r.status).toBe(500);
    expect(r.headers['retry-after']).toBeUndefined();
    expect(r.reported).toEqual([error]);
  });
});
