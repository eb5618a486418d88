/**
 * The paging client against misbehaving servers over real HTTP on
 * 127.0.0.1: each one would make a naive client loop, duplicate records,
 * truncate silently or hang. Every case must end with a clear error or the
 * whole list.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PagingError, paginate } from '../../src/sdk/index.js';
import type { PageSource } from '../../src/sdk/index.js';

interface Row {
  readonly Id: number;
}
const rows = (from: number, count: number): Row[] => Array.from({ length: count }, (_, i) => ({ Id: from + i }));

type Handler = (params: URLSearchParams, call: number) => unknown | undefined;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** Serves `handler`'s body as JSON on a free loopback port; `undefined` never answers. */
async function serve(handler: Handler): Promise<{ url: string; calls: URLSearchParams[] }> {
  const calls: URLSearchParams[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const params = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams;
    calls.push(params);
    const body = handler(params, calls.length - 1);
    if (body === undefined) return; // hold the request open
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/api/public/clients/1/employees`, calls };
}

const envelope = (data: unknown[], pagination?: Record<string, unknown>) => ({
  Data: data,
  Status: 1,
  Code: '200',
  ErrorCode: '',
  Message: 'OK',
  StackTrace: '',
  ...(pagination === undefined ? {} : { Pagination: pagination }),
});

async function pagingError(run: Promise<unknown>): Promise<PagingError> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PagingError);
  return error as PagingError;
}

describe('paginate stops where a naive client would not', () => {
  it('skip paging against a server that ignores skip stops with skip-ignored after one page', async () => {
    const api = await serve(() => envelope(rows(1, 10)));
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10, mode: 'skip' }).toArray());
    expect(error.problem).toBe('skip-ignored');
    expect(error.message).toMatch(/the page at skip 10 repeats the page before it: the server ignores skip/);
    expect(error.recordsYielded).toBe(10);
    expect(api.calls.map((c) => c.get('skip'))).toEqual(['0', '10']);
  });

  it('skip paging against a server that cycles between two pages stops with page-repeated', async () => {
    const api = await serve((p) => envelope(rows((Number(p.get('skip')) / 10) % 2 === 0 ? 1 : 11, 10)));
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10, mode: 'skip' }).toArray());
    expect(error.problem).toBe('page-repeated');
    expect(error.recordsYielded).toBe(20);
    expect(api.calls.map((c) => c.get('skip'))).toEqual(['0', '10', '20']);
  });

  it('a DataToken handed back again stops with token-repeated', async () => {
    const api = await serve((_p, call) =>
      envelope(rows(call * 10 + 1, 10), { PageNo: call + 1, PageSize: 10, TotalRecords: 1e6, TotalPages: 1e5, DataToken: 'same' }),
    );
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray());
    expect(error.problem).toBe('token-repeated');
    expect(error.message).toMatch(/handed back a DataToken already followed/);
    expect(api.calls).toHaveLength(2);
  });

  it('DataTokens that cycle (a, b, a) stop with token-repeated', async () => {
    const api = await serve((_p, call) =>
      envelope(rows(call * 10 + 1, 10), {
        PageNo: call + 1,
        PageSize: 10,
        TotalRecords: 1e6,
        TotalPages: 1e5,
        DataToken: call % 2 === 0 ? 'a' : 'b',
      }),
    );
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray());
    expect(error.problem).toBe('token-repeated');
    expect(error.recordsYielded).toBe(30);
    expect(api.calls.map((c) => c.get('data-token'))).toEqual([null, 'a', 'b']);
  });

  it('fresh tokens that bring a page already seen stop with page-repeated', async () => {
    const api = await serve((_p, call) =>
      envelope(rows(1, 10), { PageNo: call + 1, PageSize: 10, TotalRecords: 1e6, TotalPages: 1e5, DataToken: `t${call}` }),
    );
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray());
    expect(error.problem).toBe('page-repeated');
    expect(error.message).toMatch(/page 2 of .* holds the same records as an earlier page/);
    expect(error.recordsYielded).toBe(10);
  });

  it('a server that never answers times out with timeoutMs', async () => {
    const api = await serve(() => undefined);
    const started = Date.now();
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10, timeoutMs: 200 }).toArray());
    expect(error.problem).toBe('timeout');
    expect(error.message).toMatch(/did not answer within 200 ms/);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('maxPages caps the requests of one iteration', async () => {
    const api = await serve((_p, call) =>
      envelope(rows(call * 10 + 1, 10), { PageNo: call + 1, PageSize: 10, TotalRecords: 100, TotalPages: 10, DataToken: `t${call}` }),
    );
    const seen: Row[] = [];
    const run = (async () => {
      for await (const row of paginate<Row>(fetch, { url: api.url, limit: 10, maxPages: 3 })) seen.push(row);
    })();
    const error = await pagingError(run);
    expect(error.problem).toBe('page-cap');
    expect(error.message).toMatch(/more than maxPages \(3\) pages/);
    expect(seen).toEqual(rows(1, 30));
    expect(api.calls).toHaveLength(3);
  });

  it('toArray() collects a page of 130,000 records', async () => {
    const big = rows(1, 130_000);
    const api = await serve(() => envelope(big, { PageNo: 1, PageSize: 130_000, TotalRecords: 130_000, TotalPages: 1, DataToken: 't' }));
    const all = await paginate<Row>(fetch, { url: api.url, limit: 130_000 }).toArray();
    expect(all.length).toBe(130_000);
    expect(all[129_999]).toEqual({ Id: 130_000 });
  });

  it('without TotalPages, full pages ask for more and a short page ends: nothing is cut off', async () => {
    const all = rows(1, 25);
    const api = await serve((p) => {
      const page = p.get('data-token') === null ? 1 : Number(p.get('data-token')) + 1;
      return envelope(all.slice((page - 1) * 10, page * 10), { PageNo: page, PageSize: 10, DataToken: String(page) });
    });
    expect(await paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray()).toEqual(all);
    expect(api.calls).toHaveLength(3);
  });

  it('a full page without Pagination in token paging is an error, not the end of the list', async () => {
    const api = await serve(() => envelope(rows(1, 10)));
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray());
    expect(error.problem).toBe('no-next-page');
    expect(error.message).toMatch(/page 1 of .* is not the last but came without Pagination \(use skip paging/);
  });

  it('a short page without Pagination is the whole list', async () => {
    const api = await serve(() => envelope(rows(1, 4)));
    expect(await paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray()).toEqual(rows(1, 4));
  });

  it('a page before TotalPages without a DataToken is an error', async () => {
    const api = await serve(() => envelope(rows(1, 10), { PageNo: 1, PageSize: 10, TotalRecords: 30, TotalPages: 3 }));
    const error = await pagingError(paginate<Row>(fetch, { url: api.url, limit: 10 }).toArray());
    expect(error.problem).toBe('no-next-page');
    expect(error.message).toMatch(/without a DataToken/);
  });
});

describe('the default timeout', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is 30 seconds, and the signal given to the transport is aborted', async () => {
    vi.useFakeTimers();
    let signal: AbortSignal | undefined;
    const source: PageSource = {
      fetchPage: (_request, context) => {
        signal = context.signal;
        return new Promise(() => {});
      },
    };
    const run = paginate<Row>(source, { limit: 10 }).toArray();
    const settled = run.then(
      () => 'resolved',
      (e: unknown) => e,
    );
    await vi.advanceTimersByTimeAsync(29_999);
    expect(signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(PagingError);
    expect((error as PagingError).message).toMatch(/within 30000 ms/);
    expect(signal?.aborted).toBe(true);
  });

  it.each<[string, number]>([
    ['0', 0],
    ['-5', -5],
    ['NaN', Number.NaN],
  ])('timeoutMs: %s is refused', (_title, timeoutMs) => {
    expect(() => paginate(fetch, { url: 'http://127.0.0.1:9/', timeoutMs })).toThrow(/timeoutMs must be a number of milliseconds above 0/);
  });

  it('maxPages: 0 is refused', () => {
    expect(() => paginate(fetch, { url: 'http://127.0.0.1:9/', maxPages: 0 })).toThrow(/maxPages must be a whole number of at least 1/);
  });
});
