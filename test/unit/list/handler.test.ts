import { describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest, TOKEN_ERROR_HEADER } from '../../../src/list/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import type { DataSource, ListHandlerOptions } from '../../../src/list/index.js';
import { employees, SCOPE } from './list-contract.js';

const ROUTE = '/api/public/clients/1/employees';
let clock = 1_700_000_000_000;
const codec = createTokenCodec({ secret: 'handler test secret, 16+ bytes', now: () => clock });
const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id' });
const options: ListHandlerOptions = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
const client1 = employees.filter((e) => e.ClientId === 1 && e.RowStatus !== 3);

interface Body {
  Data: { Id: number }[];
  Message: string;
  Code: string;
  Pagination?: { PageNo: number; PageSize: number; TotalRecords: number; TotalPages: number; DataToken: string };
  ValidationErrors?: Record<string, [string, string][]>;
}
const call = async (query: Record<string, string>, headers: Record<string, string> = {}, o: Partial<ListHandlerOptions> = {}) => {
  const r = await handleListRequest({ query, headers }, { ...options, ...o });
  return { ...r, body: r.body as Body };
};

describe('handleListRequest', () => {
  it('answers a first page with the success envelope and a token', async () => {
    const r = await call({ limit: '100' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ Status: 1, Code: '200', ErrorCode: '', Message: 'OK', StackTrace: '' });
    expect(Object.keys(r.body)).toEqual(['Data', 'Status', 'Code', 'ErrorCode', 'Message', 'StackTrace', 'Pagination']);
    expect(r.body.Pagination).toMatchObject({
      PageNo: 1,
      PageSize: 100,
      TotalRecords: client1.length,
      TotalPages: Math.ceil(client1.length / 100),
    });
    expect(r.body.Data.map((e) => e.Id)).toEqual(client1.slice(0, 100).map((e) => e.Id));
  });

  it('counts once: later pages take the totals from the token', async () => {
    let counts = 0;
    const counting: DataSource = { count: async (q) => (counts++, source.count(q)), page: (q, w) => source.page(q, w) };
    const first = await call({ limit: '50' }, {}, { source: counting });
    const second = await call({ 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true' }, {}, { source: counting });
    expect(second.body.Pagination).toMatchObject({ PageNo: 2, TotalRecords: first.body.Pagination!.TotalRecords });
    expect(counts).toBe(1);
  });

  it('refuses an expired token with the page-out-of-range body and says why in a header', async () => {
    const first = await call({ limit: '10' });
    clock += 60_000;
    const r = await call({ 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      Status: 3,
      Code: 'BadRequest',
      ErrorCode: 'InternalServerError',
      Message: 'Page Number out of range. [0-0]',
      StackTrace: '',
    });
    expect(r.headers[TOKEN_ERROR_HEADER]).toMatch(/^expired: /);
  });

  it("refuses a token of another client's list", async () => {
    const first = await call({ limit: '10' });
    const r = await call(
      { 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true' },
      {},
      { route: '/api/public/clients/2/employees', clientId: 2 },
    );
    expect(r.status).toBe(400);
    expect(r.headers[TOKEN_ERROR_HEADER]).toMatch(/^wrong-route: /);
  });

  it('accepts a first page only when the token of its last page fits too (page numbers grow the token)', async () => {
    const query = { limit: '1', filter: 'LastName.IsNotNull()' };
    const pageOne = (await call(query)).body.Pagination!;
    expect(pageOne.TotalPages).toBeGreaterThanOrEqual(100);
    let maxLength = 100;
    let tight = createTokenCodec({ secret: 'handler test secret, 16+ bytes', now: () => clock, maxLength });
    const refused = await call(query, {}, { codec: tight });
    expect(refused.status).toBe(400);
    expect(refused.body.ValidationErrors!.filter![0]![0]).toBe('tooLongError');
    // The smallest maxLength that takes the first page must carry the walk to the last page and back.
    let first = refused;
    while (first.status !== 200) {
      tight = createTokenCodec({ secret: 'handler test secret, 16+ bytes', now: () => clock, maxLength: ++maxLength });
      first = await call(query, {}, { codec: tight });
    }
    const total = first.body.Pagination!.TotalPages;
    const last = await call({ 'data-token': first.body.Pagination!.DataToken, page: String(total) }, {}, { codec: tight });
    expect(last.body.Pagination!.PageNo).toBe(total);
    const back = await call({ 'data-token': last.body.Pagination!.DataToken, page: String(total - 1) }, {}, { codec: tight });
    expect(back.status).toBe(200);
    expect(back.body.Pagination!.PageNo).toBe(total - 1);
    // No margin: one character less and the first page is refused.
    const shorter = createTokenCodec({ secret: 'handler test secret, 16+ bytes', now: () => clock, maxLength: maxLength - 1 });
    expect((await call(query, {}, { codec: shorter })).status).toBe(400);
  });

  it.each([
    ['prev-page from page 1', { 'prev-page': 'true' }],
    ['page=0', { page: '0' }],
    ['page past the last', { page: '999' }],
    ['page=-1', { page: '-1' }],
    ['an enormous page', { page: '99999999999999999999999' }],
  ])('answers %s with the range of the token', async (_title, move) => {
    const first = await call({ limit: '100' });
    const last = first.body.Pagination!.TotalPages;
    const r = await call({ 'data-token': first.body.Pagination!.DataToken, ...move });
    expect(r.status).toBe(400);
    expect(r.body.Message).toBe(`Page Number out of range. [1-${last}]`);
  });

  it('serves page 1 of an empty list and refuses page 2 with [1-1]', async () => {
    const first = await call({ limit: '10', filter: 'Id.Equal(-5)' });
    expect(first.body.Data).toEqual([]);
    expect(first.body.Pagination).toMatchObject({ PageNo: 1, TotalRecords: 0, TotalPages: 0 });
    const again = await call({ 'data-token': first.body.Pagination!.DataToken, page: '1' });
    expect(again.status).toBe(200);
    const next = await call({ 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true' });
    expect(next.body.Message).toBe('Page Number out of range. [1-1]');
  });

  it("accepts resent parameters equal to the token's and refuses different ones", async () => {
    const first = await call({ limit: '10', filter: 'Gender.Equal(1)', sort: 'LastName=Asc' });
    const token = first.body.Pagination!.DataToken;
    const same = await call({
      'data-token': token,
      'next-page': 'true',
      filter: 'Gender.Equal(1)',
      limit: '10',
      'include-deleted': 'false',
    });
    expect(same.status).toBe(200);
    const other = await call({ 'data-token': token, 'next-page': 'true', filter: 'Gender.Equal(2)', sort: 'Id=Desc', limit: '20' });
    expect(other.status).toBe(400);
    expect(Object.keys(other.body.ValidationErrors!)).toEqual(['filter', 'sort', 'limit']);
    expect(other.body.ValidationErrors!.limit![0]).toEqual([
      'outOfRangeError',
      'limit differs from the one in data-token (10); filter, sort, limit and include-deleted come from data-token; start again from page one (without data-token) to change them',
    ]);
  });

  it('refuses filters too long to fit in a token even compressed, pointing to skip paging', async () => {
    // Pseudo-random CJK names barely compress (three UTF-8 bytes each), so they cannot fit in 8,192 characters.
    let seed = 7;
    const letter = () => String.fromCodePoint(0x4e00 + ((seed = (seed * 48271) % 2147483647) % 20000));
    const names = Array.from({ length: 400 }, () => Array.from({ length: 8 }, letter).join(''));
    const filter = `LastName.InArray(${names.join(',')})`;
    expect(filter.length).toBeLessThanOrEqual(8192);
    const r = await call({ limit: '10', filter });
    expect(r.status).toBe(400);
    expect(r.body.ValidationErrors!.filter![0]![0]).toBe('tooLongError');
    expect(r.body.ValidationErrors!.filter![0]![1]).toMatch(/use skip paging/);
    expect((await call({ limit: '10', skip: '0', filter })).status).toBe(200);
  });

  it.each([
    [{ 'api-version': '2.0' }, '2.0'],
    [{ 'X-Api-Version': '1.1' }, '1.1'],
    [{ 'api-version': '1.0', 'x-api-version': '2.0' }, '2.0'],
  ])('refuses version headers %j', async (headers, version) => {
    const r = await handleListRequest(
      { query: { limit: '5' }, headers, url: 'http://example.test/api/public/clients/1/employees?limit=5' },
      options,
    );
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      Status: 3,
      Code: 'UnsupportedApiVersion',
      ErrorCode: '',
      Message: `The HTTP resource that matches the request URI 'http://example.test/api/public/clients/1/employees?limit=5' does not support the API version '${version}'.`,
      StackTrace: '',
    });
  });

  it('serves version 1.0 and requests without version headers', async () => {
    expect((await call({ limit: '5' }, { 'api-version': '1.0', 'x-api-version': '1.0' })).status).toBe(200);
    expect((await call({ limit: '5' })).status).toBe(200);
    expect((await call({ limit: '5' }, { 'api-version': '9' }, { apiVersions: false })).status).toBe(200);
  });

  it('turns a failing data source into a 500 envelope and reports the error', async () => {
    const errors: unknown[] = [];
    const broken: DataSource = {
      count: async () => {
        throw new Error('connection refused');
      },
      page: async () => [],
    };
    const r = await call({ limit: '5' }, {}, { source: broken, onError: (e) => errors.push(e) });
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ Status: 0, Code: '500', ErrorCode: null, Message: 'The list could not be read.', StackTrace: '' });
    expect(String(errors[0])).toContain('connection refused');
  });

  it('takes a fetch Request', async () => {
    const r = await handleListRequest(new Request(`http://x${ROUTE}?limit=3&sort=Id%3DDesc`), options);
    expect((r.body as Body).Data.map((e) => e.Id)).toEqual(
      client1
        .map((e) => e.Id)
        .sort((a, b) => b - a)
        .slice(0, 3),
    );
  });

  it.each(['0x5', '5e0', '5.0', '5 apples'])(
    'finding 15: refuses a resent limit of %j in token mode, as a first page does',
    async (limit) => {
      expect((await call({ limit })).status).toBe(400);
      const first = await call({ limit: '5' });
      const r = await call({ 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true', limit });
      expect(r.status).toBe(400);
      expect(r.body.ValidationErrors!.limit![0]![0]).toBe('intValueError');
      const same = await call({ 'data-token': first.body.Pagination!.DataToken, 'next-page': 'true', limit: ' 5 ' });
      expect(same.status).toBe(200);
    },
  );

  it('finding 5: every first page a filter near the length cap is served on can be walked to its last page', async () => {
    const limits = { maxLength: 1 << 20, maxListValues: 10_000 };
    const wide = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', limits });
    let served = 0;
    for (let n = 0; n < 60; n++) {
      // Ids that do not compress well, lengthened one value at a time across the cap.
      const values = Array.from({ length: 1560 + n * 2 }, (_, i) => 100_000 + ((i * 7919) % 900_000));
      const query = { limit: '1', filter: `Id.NotInArray(${values.join(',')})` };
      const first = await call(query, {}, { limits, source: wide });
      if (first.status !== 200) {
        expect(JSON.stringify(first.body).slice(0, 400)).toContain('tooLongError');
        continue;
      }
      served++;
      const total = first.body.Pagination!.TotalPages;
      const last = await call({ 'data-token': first.body.Pagination!.DataToken, page: String(total) }, {}, { limits, source: wide });
      expect(last.status).toBe(200);
      const back = await call({ 'data-token': last.body.Pagination!.DataToken, 'prev-page': 'true' }, {}, { limits, source: wide });
      // Seeking back needs the last page's keys in its token; when they did not fit, the move pages by count.
      expect(back.status).toBe(200);
      expect(back.body.Pagination!.PageNo).toBe(total - 1);
      const jump = await call({ 'data-token': last.body.Pagination!.DataToken, page: String(total - 1) }, {}, { limits, source: wide });
      expect(jump.status).toBe(200);
    }
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThan(60);
  });
});
