import { describe, expect, it } from 'vitest';
import { headersToRecord } from '../../../src/sdk/http.js';
import { withRetries } from '../../../src/sdk/index.js';

type Seen = { url: string; method: string; headers: Record<string, string>; body: unknown };

function scripted(statuses: number[]) {
  const seen: Seen[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    seen.push({ url, method: init.method ?? 'GET', headers: init.headers as Record<string, string>, body: init.body });
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)]!;
    return new Response(status === 401 ? null : '{}', { status });
  };
  return { fetch, seen };
}

describe("withRetries follows the API's rules: 401 → reauthenticate once; 500 → backoff, idempotent methods only", () => {
  it.each<[string, string, number[], number, number]>([
    ['GET 500,500,200', 'GET', [500, 500, 200], 3, 200],
    ['GET 500,500,500', 'GET', [500, 500, 500], 3, 500],
    ['DELETE 500,200', 'DELETE', [500, 200], 2, 200],
    ['PUT 500,200', 'PUT', [500, 200], 2, 200],
    ['POST 500,200 (never retried)', 'POST', [500, 200], 1, 500],
    ['PATCH 500,200 (never retried)', 'PATCH', [500, 200], 1, 500],
    ['GET 503 (only 500 is retried)', 'GET', [503, 200], 1, 503],
    ['GET 404', 'GET', [404, 200], 1, 404],
  ])('%s', async (_title, method, statuses, calls, final) => {
    const api = scripted(statuses);
    const sleeps: number[] = [];
    const wrapped = withRetries(api.fetch, { retry: { baseDelayMs: 10, sleep: async (ms) => void sleeps.push(ms) } });
    const response = await wrapped('https://x.test/r', { method, body: method === 'GET' ? undefined : '{"a":1}' });
    expect(response.status).toBe(final);
    expect(api.seen).toHaveLength(calls);
    expect(sleeps).toEqual([10, 20].slice(0, calls - 1));
    if (method === 'PUT') expect(api.seen.map((s) => s.body)).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('401 re-authenticates once, repeats (POST too), and keeps the new credentials for later calls', async () => {
    const api = scripted([401, 201, 200]);
    let n = 0;
    const wrapped = withRetries(api.fetch, { reauthenticate: async () => `fresh${++n}` });
    expect((await wrapped('https://x.test/a', { method: 'POST', headers: { Authorization: 'Bearer stale' }, body: '{}' })).status).toBe(
      201,
    );
    expect((await wrapped('https://x.test/b', { headers: [['authorization', 'Bearer stale']] })).status).toBe(200);
    expect(api.seen.map((s) => s.headers['authorization'])).toEqual(['Bearer stale', 'Bearer fresh1', 'Bearer fresh1']);
    expect(n).toBe(1);
  });

  it('a second 401 in a row is returned, not retried again', async () => {
    const api = scripted([401, 401, 200]);
    const wrapped = withRetries(api.fetch, { reauthenticate: async () => 'x' });
    expect((await wrapped('https://x.test/a')).status).toBe(401);
    expect(api.seen).toHaveLength(2);
  });

  it('a streamed body is sent once, never repeated', async () => {
    const api = scripted([500, 200]);
    const wrapped = withRetries(api.fetch, { retry: { sleep: async () => {} } });
    const body = new ReadableStream({ start: (c) => c.close() });
    expect((await wrapped('https://x.test/a', { method: 'PUT', body, duplex: 'half' } as RequestInit)).status).toBe(500);
    expect(api.seen).toHaveLength(1);
  });
});

describe('headersToRecord', () => {
  it.each<[string, Parameters<typeof headersToRecord>[0], Record<string, string>]>([
    ["'abc'", 'abc', { authorization: 'Bearer abc' }],
    ["{ 'X-A': '1' }", { 'X-A': '1' }, { 'x-a': '1' }],
    ["new Headers({ 'X-B': '2' })", new Headers({ 'X-B': '2' }), { 'x-b': '2' }],
    ["[['X-C', '3']]", [['X-C', '3']], { 'x-c': '3' }],
    ['undefined', undefined, {}],
  ])('%s', (_title, input, expected) => {
    expect(headersToRecord(input)).toEqual(expected);
  });
});
