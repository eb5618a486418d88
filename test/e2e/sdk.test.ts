/**
 * The SDK client against the reference list server over real HTTP on
 * 127.0.0.1: every page in both paging modes and both parameter styles
 * adds up to the whole filtered list; an expired token (injected clock)
 * restarts or throws; a 500 injected once by a wrapping fetch is retried;
 * a 401 re-authenticates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DataTokenExpiredError,
  ListRequestError,
  orderBy,
  paginate,
  where,
  type Employee,
  type FetchInit,
  type ListPage,
} from '../../src/sdk/index.js';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import { loadSampleEmployees } from '../../src/sample/employees.js';

let app: ListServer;
let url: string;
let now = Date.parse('2024-06-01T00:00:00Z');
let whole: Employee[];

const filter = where<Employee>().or(
  (b) => b.field('LastName').inArray("O'Brien", "O'Connor", 'Müller', '李', 'van der Berg'),
  (b) => b.field('Gender').isNull(),
  (b) => b.field('BirthOn').greaterThan(new Date('1990-01-01')).field('Deceased').equal(false),
);
const sort = orderBy<Employee>('LastName', 'asc').thenBy('Id', 'desc');

beforeAll(async () => {
  app = createListServer({
    records: loadSampleEmployees(),
    authToken: 'e2e-token',
    secret: 'e2e-secret-of-32-characters-long',
    now: () => now,
  });
  url = `${(await app.listen()).url}/api/public/clients/1/employees`;
  // The whole filtered list in one page, for comparison.
  const response = await fetch(
    `${url}?limit=1000&filter=${encodeURIComponent(filter.toString())}&sort=${encodeURIComponent(sort.toString())}`,
    {
      headers: { authorization: 'Bearer e2e-token' },
    },
  );
  expect(response.status).toBe(200);
  whole = ((await response.json()) as { Data: Employee[] }).Data;
});

afterAll(async () => {
  await app?.close();
});

const base = () => ({ url, filter, sort, accessToken: 'e2e-token' });

describe('every page adds up to the whole filtered list', () => {
  it('the filter selects a useful slice', () => {
    expect(whole.length).toBeGreaterThan(40);
    expect(whole.length).toBeLessThan(551);
    expect(whole.some((e) => e.LastName === "O'Brien")).toBe(true);
  });

  it.each<['token' | 'skip', 'query' | 'headers', number]>([
    ['token', 'query', 13],
    ['token', 'headers', 7],
    ['skip', 'query', 13],
    ['skip', 'headers', 25],
    ['token', 'query', 1000],
  ])('mode %s, style %s, limit %i', async (mode, style, limit) => {
    const records = await paginate<Employee>(fetch, { ...base(), mode, style, limit }).toArray();
    expect(records.map((e) => e.Id)).toEqual(whole.map((e) => e.Id));
    expect(records).toEqual(whole);
  });
});

describe('expired data tokens (injected clock)', () => {
  // Moves the server's clock past the 60 s token lifetime after the second answer.
  const agingFetch = () => {
    let calls = 0;
    const seen: string[] = [];
    const wrapped = async (input: string, init: FetchInit): Promise<Response> => {
      seen.push(input);
      const response = await fetch(input, init);
      if (++calls === 2) now += 61_000;
      return response;
    };
    return { wrapped, seen };
  };

  it('restart from page one and continue without repeating or losing records', async () => {
    const { wrapped, seen } = agingFetch();
    const pages: ListPage<Employee>[] = [];
    for await (const page of paginate<Employee>(wrapped, { ...base(), limit: 10 }).pages()) pages.push(page);
    expect(pages.flatMap((p) => p.records)).toEqual(whole);
    expect(pages.filter((p) => p.restarted).map((p) => p.pageNo)).toEqual([3]);
    // first page, next, refused next, first page again, jump to page 3, …
    expect(new URL(seen[3]!).searchParams.get('limit')).toBe('10');
    expect(new URL(seen[4]!).searchParams.get('page')).toBe('3');
  });

  it("onExpired: 'throw' throws DataTokenExpiredError naming the reason", async () => {
    const { wrapped } = agingFetch();
    const seen: Employee[] = [];
    const error = await (async () => {
      for await (const e of paginate<Employee>(wrapped, { ...base(), limit: 10, onExpired: 'throw' })) seen.push(e);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataTokenExpiredError);
    expect(error).toMatchObject({ reason: 'expired', recordsYielded: 20, pageNo: 3, status: 400, code: 'BadRequest' });
    expect(seen).toEqual(whole.slice(0, 20));
  });
});

describe('retries against the real server', () => {
  it('a 500 injected once by a wrapping fetch is retried after a backoff', async () => {
    let calls = 0;
    const flaky = async (input: string, init: FetchInit): Promise<Response> => {
      if (++calls === 2) {
        return new Response(JSON.stringify({ Status: 0, Code: '500', ErrorCode: null, Message: 'injected', StackTrace: '' }), {
          status: 500,
        });
      }
      return fetch(input, init);
    };
    const sleeps: number[] = [];
    const records = await paginate<Employee>(flaky, {
      ...base(),
      limit: 20,
      retry: { baseDelayMs: 50, sleep: async (ms) => void sleeps.push(ms) },
    }).toArray();
    expect(records).toEqual(whole);
    expect(sleeps).toEqual([50]);
  });

  it('a 401 calls reauthenticate once and carries on with the new token', async () => {
    let reauths = 0;
    const records = await paginate<Employee>(fetch, {
      ...base(),
      accessToken: 'expired-access-token',
      limit: 50,
      reauthenticate: async () => {
        reauths++;
        return 'e2e-token';
      },
    }).toArray();
    expect(records).toEqual(whole);
    expect(reauths).toBe(1);
  });

  it('an unsupported api-version is a ListRequestError with the server envelope', async () => {
    const error = await paginate(fetch, { ...base(), apiVersion: '2.0' })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error).toMatchObject({ status: 400, code: 'UnsupportedApiVersion' });
  });

  it('a filter the server refuses is a ListRequestError with ValidationErrors', async () => {
    const error = await paginate(fetch, { ...base(), filter: 'Salary.GreaterThan(1)' })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ListRequestError);
    expect(error).toMatchObject({ status: 400, code: 'DataValidationError' });
    expect(Object.keys((error as ListRequestError).validationErrors ?? {})).toEqual(['filter']);
  });
});
