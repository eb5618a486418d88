import { describe, expect, it } from 'vitest';
import {
  DataTokenExpiredError,
  ListRequestError,
  encodeListRequest,
  orderBy,
  paginate,
  where,
  type ListRequestParams,
  type PageRequestContext,
} from '../../../src/sdk/index.js';
import { WepqlError } from '../../../src/index.js';
import { fakeList } from './fake-list.js';

interface Row {
  Id: number;
  Name: string;
}
const rows = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ Id: i + 1, Name: `n${i + 1}` }));
const URL_ = 'https://api.example.test/api/public/clients/7/employees';
const noSleep = { sleep: async () => {} };

describe('token paging', () => {
  it('follows DataToken with next-page until TotalPages, sending filter and sort only first', async () => {
    const api = fakeList(rows(25));
    const result = await paginate<Row>(api.fetch, {
      url: URL_,
      limit: 10,
      filter: where<Row>().field('Name').startsWith('n'),
      sort: orderBy<Row>('Id'),
      accessToken: 'tok',
    }).toArray();
    expect(result).toEqual(rows(25));
    expect(api.calls.map((c) => c.params)).toEqual([
      { limit: '10', filter: 'Name.StartsWith(n)', sort: 'Id=Asc' },
      { 'next-page': 'true', 'data-token': 't:1:10:0' },
      { 'next-page': 'true', 'data-token': 't:2:10:1' },
    ]);
    expect(api.calls[0]!.headers).toEqual({
      accept: 'application/json',
      'api-version': '1.0',
      'x-api-version': '1.0',
      authorization: 'Bearer tok',
    });
  });

  it('pages() reports page numbers and totals', async () => {
    const api = fakeList(rows(25));
    const pages = [];
    for await (const page of paginate<Row>(api.fetch, { url: URL_, limit: 10 }).pages()) pages.push(page);
    expect(pages.map((p) => [p.pageNo, p.records.length, p.totalPages, p.totalRecords, p.pageSize, p.restarted])).toEqual([
      [1, 10, 3, 25, 10, false],
      [2, 10, 3, 25, 10, false],
      [3, 5, 3, 25, 10, false],
    ]);
  });

  it('sends parameters as x-api-* headers with style: headers', async () => {
    const api = fakeList(rows(3));
    await paginate<Row>(api.fetch, { url: URL_, limit: 2, style: 'headers', includeDeleted: true, headers: { 'X-Trace': '1' } }).toArray();
    expect(api.calls[0]!.url.search).toBe('');
    expect(api.calls[0]!.headers).toMatchObject({ 'x-api-limit': '2', 'x-api-include-deleted': 'true', 'x-trace': '1' });
    expect(api.calls[1]!.headers).toMatchObject({ 'x-api-next-page': 'true', 'x-api-data-token': 't:1:2:0' });
  });

  it('an empty list is one request and no records', async () => {
    const api = fakeList([]);
    expect(await paginate(api.fetch, { url: URL_, limit: 5 }).toArray()).toEqual([]);
    expect(api.calls).toHaveLength(1);
  });

  it('sends nothing until iterated, and each iteration is a new session', async () => {
    const api = fakeList(rows(3));
    const all = paginate<Row>(api.fetch, { url: URL_, limit: 2 });
    expect(api.calls).toHaveLength(0);
    expect(await all.toArray()).toHaveLength(3);
    const again: Row[] = [];
    for await (const r of all) again.push(r);
    expect(again).toEqual(rows(3));
    expect(api.calls.map((c) => c.params['limit'])).toEqual(['2', undefined, '2', undefined]);
  });

  it('stopping early sends no further request', async () => {
    const api = fakeList(rows(25));
    for await (const r of paginate<Row>(api.fetch, { url: URL_, limit: 10 })) if (r.Id === 3) break;
    expect(api.calls).toHaveLength(1);
  });
});

describe('expired data tokens', () => {
  it('restart from page one, jump to the page of the first record not yet yielded, and yield each record once', async () => {
    const api = fakeList(rows(25), { refuseToken: (i) => i === 2 });
    const pages = [];
    for await (const page of paginate<Row>(api.fetch, { url: URL_, limit: 10 }).pages()) pages.push(page);
    expect(pages.flatMap((p) => p.records)).toEqual(rows(25));
    expect(pages.map((p) => [p.pageNo, p.restarted])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(api.calls.map((c) => c.params)).toEqual([
      { limit: '10' },
      { 'next-page': 'true', 'data-token': 't:1:10:0' },
      { 'next-page': 'true', 'data-token': 't:2:10:1' },
      { limit: '10' },
      { page: '3', 'data-token': 't:1:10:3' },
    ]);
  });

  it('restart after the first page re-reads page one and skips what was yielded', async () => {
    const api = fakeList(rows(15), { refuseToken: (i) => i === 1 });
    expect(await paginate<Row>(api.fetch, { url: URL_, limit: 10 }).toArray()).toEqual(rows(15));
    expect(api.calls.map((c) => c.params)).toEqual([
      { limit: '10' },
      { 'next-page': 'true', 'data-token': 't:1:10:0' },
      { limit: '10' },
      { page: '2', 'data-token': 't:1:10:2' },
    ]);
  });

  it('a refused jump counts as another restart', async () => {
    const api = fakeList(rows(25), { refuseToken: (i) => i === 2 || i === 4 });
    expect(await paginate<Row>(api.fetch, { url: URL_, limit: 10 }).toArray()).toEqual(rows(25));
    expect(api.calls).toHaveLength(7);
  });

  it("onExpired: 'throw' throws DataTokenExpiredError with what was yielded", async () => {
    const api = fakeList(rows(25), { refuseToken: (i) => i === 2 });
    const seen: Row[] = [];
    const error = await (async () => {
      try {
        for await (const r of paginate<Row>(api.fetch, { url: URL_, limit: 10, onExpired: 'throw' })) seen.push(r);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(DataTokenExpiredError);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error).toBeInstanceOf(WepqlError);
    expect(error).toMatchObject({ recordsYielded: 20, pageNo: 3, status: 400, code: 'BadRequest' });
    expect(seen).toEqual(rows(20));
  });

  it('gives up after maxRestarts', async () => {
    const api = fakeList(rows(25), { refuseToken: () => true });
    await expect(paginate<Row>(api.fetch, { url: URL_, limit: 10, maxRestarts: 2 }).toArray()).rejects.toThrow(
      /data token was refused asking for page 2 .* after 2 restarts; 10 records had been yielded/,
    );
  });

  it("the reference server's reason header: 'expired' restarts, other reasons throw", async () => {
    const expired = fakeList(rows(5), {
      refuseToken: (i) => i === 1,
      tokenErrorHeader: 'expired: the data token expired at 2024-01-01T00:01:00.000Z',
    });
    expect(await paginate(expired.fetch, { url: URL_, limit: 2 }).toArray()).toHaveLength(5);
    const forged = fakeList(rows(5), { refuseToken: (i) => i === 1, tokenErrorHeader: 'bad-signature: the token was altered' });
    const error = await paginate(forged.fetch, { url: URL_, limit: 2 })
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error).not.toBeInstanceOf(DataTokenExpiredError);
    expect(error.status).toBe(400);
  });

  it('a DataValidationError about the data token also counts as expiry', async () => {
    const body = {
      Status: 3,
      Code: 'DataValidationError',
      ErrorCode: '',
      Message: 'data-token: [the token expired]',
      StackTrace: '',
      ValidationErrors: { 'data-token': [['outOfRangeError', 'the token expired']] },
    };
    const api = fakeList(rows(5), { fail: (i) => (i === 1 ? { status: 400, body } : undefined) });
    expect(await paginate<Row>(api.fetch, { url: URL_, limit: 2 }).toArray()).toEqual(rows(5));
  });
});

describe('skip paging', () => {
  it.each<[string, number, number, string[]]>([
    ['25 records, limit 10', 25, 10, ['0', '10', '20']],
    ['20 records, limit 10 (a last empty page)', 20, 10, ['0', '10', '20']],
    ['0 records', 0, 10, ['0']],
  ])('%s', async (_title, count, limit, skips) => {
    const api = fakeList(rows(count));
    const pages = [];
    for await (const p of paginate<Row>(api.fetch, { url: URL_, limit, mode: 'skip', filter: 'Id.GreaterThan(0)' }).pages()) pages.push(p);
    expect(pages.flatMap((p) => p.records)).toEqual(rows(count));
    expect(api.calls.map((c) => c.params['skip'])).toEqual(skips);
    expect(api.calls.every((c) => c.params['filter'] === 'Id.GreaterThan(0)' && c.params['limit'] === String(limit))).toBe(true);
    expect(pages.map((p) => p.skip)).toEqual(skips.slice(0, pages.length).map(Number));
  });
});

describe('retries', () => {
  it('401 once: reauthenticate is called once and the new token is used from then on', async () => {
    let reauths = 0;
    const api = fakeList(rows(5), { fail: (i) => (i === 1 ? { status: 401 } : undefined) });
    const result = await paginate<Row>(api.fetch, {
      url: URL_,
      limit: 2,
      accessToken: 'old',
      reauthenticate: async () => `new${++reauths}`,
    }).toArray();
    expect(result).toEqual(rows(5));
    expect(reauths).toBe(1);
    expect(api.calls.map((c) => c.headers['authorization'])).toEqual(['Bearer old', 'Bearer old', 'Bearer new1', 'Bearer new1']);
    expect(api.calls[2]!.params).toEqual(api.calls[1]!.params);
  });

  it('reauthenticate may return headers', async () => {
    const api = fakeList(rows(1), { fail: (i) => (i === 0 ? { status: 401 } : undefined) });
    await paginate(api.fetch, {
      url: URL_,
      reauthenticate: async () => new Headers({ Authorization: 'Basic x', 'X-Session': 's' }),
    }).toArray();
    expect(api.calls[1]!.headers).toMatchObject({ authorization: 'Basic x', 'x-session': 's' });
  });

  it('401 twice in a row throws ListRequestError 401 after one reauthentication', async () => {
    let reauths = 0;
    const api = fakeList(rows(5), { fail: (i) => (i < 2 ? { status: 401 } : undefined) });
    const error = await paginate(api.fetch, { url: URL_, reauthenticate: async () => `t${++reauths}` })
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error.status).toBe(401);
    expect(reauths).toBe(1);
  });

  it('401 without reauthenticate throws at once', async () => {
    const api = fakeList(rows(5), { fail: () => ({ status: 401 }) });
    await expect(paginate(api.fetch, { url: URL_ }).toArray()).rejects.toMatchObject({ status: 401 });
    expect(api.calls).toHaveLength(1);
  });

  it('500 once then success: one backoff, then the records', async () => {
    const sleeps: number[] = [];
    const api = fakeList(rows(5), {
      fail: (i) =>
        i === 1 ? { status: 500, body: { Status: 0, Code: '500', ErrorCode: null, Message: 'boom', StackTrace: '' } } : undefined,
    });
    const result = await paginate<Row>(api.fetch, {
      url: URL_,
      limit: 2,
      retry: { baseDelayMs: 100, sleep: async (ms) => void sleeps.push(ms) },
    }).toArray();
    expect(result).toEqual(rows(5));
    expect(sleeps).toEqual([100]);
    expect(api.calls).toHaveLength(4);
  });

  it('500 three times: ListRequestError after 3 attempts with exponential backoff', async () => {
    const sleeps: number[] = [];
    const api = fakeList(rows(5), {
      fail: () => ({ status: 500, body: { Status: 0, Code: '500', ErrorCode: null, Message: 'boom', StackTrace: '' } }),
    });
    const error = await paginate(api.fetch, { url: URL_, retry: { baseDelayMs: 100, sleep: async (ms) => void sleeps.push(ms) } })
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error).toMatchObject({ status: 500, code: '500', errorCode: null });
    expect(error.message).toMatch(/answered 500: 500: boom/);
    expect(api.calls).toHaveLength(3);
    expect(sleeps).toEqual([100, 200]);
  });

  it('retry.attempts: 1 turns retrying off', async () => {
    const api = fakeList(rows(5), { fail: () => ({ status: 500 }) });
    await expect(paginate(api.fetch, { url: URL_, retry: { attempts: 1, ...noSleep } }).toArray()).rejects.toMatchObject({ status: 500 });
    expect(api.calls).toHaveLength(1);
  });

  it('400 validation errors are not retried and carry ValidationErrors', async () => {
    const body = {
      Status: 3,
      Code: 'DataValidationError',
      ErrorCode: '',
      Message: 'filter: [unknown field Nope]',
      StackTrace: '',
      ValidationErrors: { filter: [['regularExpressionError', 'unknown field Nope']] },
    };
    const api = fakeList(rows(5), { fail: () => ({ status: 400, body }) });
    const error = await paginate(api.fetch, { url: URL_, filter: 'Nope.Equal(1)', retry: noSleep })
      .toArray()
      .catch((e) => e);
    expect(error).toMatchObject({ status: 400, code: 'DataValidationError', validationErrors: body.ValidationErrors });
    expect(api.calls).toHaveLength(1);
  });
});

describe('malformed answers and options', () => {
  it.each<[string, unknown, RegExp]>([
    ['a 200 without Data', { Status: 1 }, /without a list envelope/],
    ['a 200 that is not JSON', 'not json', /without a list envelope/],
  ])('%s throws ListRequestError', async (_title, body, message) => {
    const fetch = async () => new Response(typeof body === 'string' ? body : JSON.stringify(body), { status: 200 });
    await expect(paginate(fetch, { url: URL_ }).toArray()).rejects.toThrow(message);
  });

  it('a page number other than the one asked for is an error, not a loop', async () => {
    const fetch = async () =>
      new Response(JSON.stringify({ Data: [1], Pagination: { PageNo: 1, PageSize: 1, TotalRecords: 9, TotalPages: 9, DataToken: 't' } }));
    await expect(paginate(fetch, { url: URL_, limit: 1 }).toArray()).rejects.toThrow(/answered page 1 when page 2 was asked for/);
  });

  it.each<[string, () => unknown, RegExp]>([
    ['limit: 0', () => paginate(fakeList([]).fetch, { url: URL_, limit: 0 }), /limit must be a whole number of at least 1/],
    ["mode: 'cursor'", () => paginate(fakeList([]).fetch, { url: URL_, mode: 'cursor' as never }), /mode must be 'token' or 'skip'/],
    ['no url', () => paginate(fakeList([]).fetch, {}), /url is required/],
    ['a relative url outside a browser', () => paginate(fakeList([]).fetch, { url: '/api/x' }), /absolute address/],
    ['a bad filter value', () => paginate(fakeList([]).fetch, { url: URL_, filter: 42 as never }), /filter must be a string/],
    ['a source that is neither', () => paginate({} as never, { url: URL_ }), /fetch-compatible function or an object with fetchPage/],
    ['retry.attempts: 0', () => paginate(fakeList([]).fetch, { url: URL_, retry: { attempts: 0 } }).toArray(), /retry\.attempts/],
  ])('refuses %s', async (_title, make, message) => {
    await expect((async () => make())()).rejects.toThrow(message);
  });

  it('an aborted signal stops before the next request', async () => {
    const api = fakeList(rows(5));
    const controller = new AbortController();
    const seen: unknown[] = [];
    const run = async () => {
      for await (const r of paginate(api.fetch, { url: URL_, limit: 2, signal: controller.signal })) {
        seen.push(r);
        controller.abort();
      }
    };
    await expect(run()).rejects.toThrow();
    expect(api.calls).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });
});

describe('a PageSource instead of fetch', () => {
  it('gets the list parameters and headers, and pages the same way', async () => {
    const api = fakeList(rows(5));
    const requests: ListRequestParams[] = [];
    const source = {
      async fetchPage(request: ListRequestParams, context: PageRequestContext) {
        requests.push(request);
        const { search, headers } = encodeListRequest(request);
        return api.fetch(`${URL_}?${search}`, { headers: { ...context.headers, ...headers } });
      },
    };
    expect(await paginate<Row>(source, { limit: 2, apiVersion: null, filter: 'Id.GreaterThan(0)' }).toArray()).toEqual(rows(5));
    expect(requests).toEqual([
      { filter: 'Id.GreaterThan(0)', limit: 2 },
      { dataToken: 't:1:2:0', page: 'next' },
      { dataToken: 't:2:2:1', page: 'next' },
    ]);
    expect(api.calls[0]!.headers).toEqual({ accept: 'application/json' });
  });
});
