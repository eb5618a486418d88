/**
 * The list contract over real HTTP on 127.0.0.1, run against every server
 * that serves the employee list: the reference server and the Express,
 * Fastify and Hono adapters. Not a test file itself: each server's test calls
 * `describeHttpListContract` with a function that starts it.
 *
 * Each server runs it in both shapes of list route: client-scoped
 * (`/api/public/clients/{client_id}/employees`, a source with `clientField`)
 * and without a client (`/api/public/employees` serving client 1's records
 * from a source without `clientField`), with the same expectations.
 *
 * What the suite expects of the application around the list route: a bearer
 * token check (401, no body, `WWW-Authenticate: Bearer error="invalid_token"`)
 * and, on the client-scoped shape, a 404 envelope for an unknown client.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { get, withQuery } from '../support/http.js';

/** The fields of examples/employees.json the suite reads. */
export interface Employee {
  Id: number;
  ClientId: number;
  RowStatus: number;
  LastName: string;
  Gender?: number;
}

/** The two shapes of list route: per client, or one list without a client. */
export type RouteShape = 'client' | 'unscoped';

/** The path each shape is served at (`{client_id}` marks the client segment). */
export const SHAPE_PATHS: Record<RouteShape, string> = {
  client: '/api/public/clients/{client_id}/employees',
  unscoped: '/api/public/employees',
};

/** What a server under test is started with. */
export interface HttpContractContext {
  /** examples/employees.json (client-scoped shape), or only client 1's employees (unscoped shape). */
  readonly records: readonly Employee[];
  /** Which shape of route to serve, at `SHAPE_PATHS[shape]`. */
  readonly shape: RouteShape;
  /** The bearer token the application must require. */
  readonly authToken: string;
  /** The data token secret. */
  readonly secret: string;
  /** The clock data tokens must use (the suite moves it forward). */
  readonly now: () => number;
}

/** A response as the suite reads it, whichever way the request was sent. */
export interface SentResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  readonly text: string;
  readonly body: any;
}

/** A started server: its base address and how to stop it. */
export interface StartedServer {
  readonly url: string;
  close(): Promise<void>;
  /**
   * Serves one GET without a socket, as the framework's own test tool does
   * (Fastify's `inject`): `path` is the path and query, `headers` the request
   * headers. When given, the whole suite runs a second time through it.
   */
  readonly inject?: (path: string, headers: Record<string, string>) => Promise<SentResponse>;
}

/** How the suite sends its requests: over a real socket, or through the server's `inject`. */
export type Transport = 'socket' | 'inject';

/** The base address requests through `inject` are addressed to (no socket, so no port). */
const INJECT_BASE = 'http://localhost';

export const employees: Employee[] = JSON.parse(readFileSync(new URL('../../examples/employees.json', import.meta.url), 'utf8'));
const client1 = employees.filter((e) => e.ClientId === 1 && e.RowStatus !== 3).sort((a, b) => a.Id - b.Id);
const TOKEN = 'e2e-bearer-token';

/** One GET whose headers may repeat (an array value sends one header line per element). */
function getWithRepeatedHeaders(url: string, headers: Record<string, string | string[]>): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text === '' ? undefined : JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}
const AUTH = { authorization: `Bearer ${TOKEN}` };

/**
 * One request in absolute form (`GET http://host:port/path HTTP/1.1`, as a
 * client talks to a proxy), read until the server closes the connection.
 */
function absoluteFormGet(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const { hostname, port, host } = new URL(url);
  const head = [
    `GET ${url} HTTP/1.1`,
    `Host: ${host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
    '',
    '',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(head.join('\r\n')));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status === null) reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      else resolve({ status: Number(status[1]), text });
    });
  });
}

/**
 * Registers the HTTP contract tests for one server.
 *
 * @example
 * describeHttpListContract('reference server', async (ctx) => { const app = createListServer({ records: ctx.records, … }); … });
 */
export function describeHttpListContract(
  name: string,
  start: (context: HttpContractContext) => Promise<StartedServer>,
  options: { readonly transports?: readonly Transport[] } = {},
): void {
  for (const transport of options.transports ?? ['socket'])
    for (const shape of ['client', 'unscoped'] as const) describeShape(name, shape, start, transport);
}

function describeShape(
  name: string,
  shape: RouteShape,
  start: (context: HttpContractContext) => Promise<StartedServer>,
  transport: Transport,
): void {
  const scoped = shape === 'client';
  const socket = transport === 'socket';
  const title = `HTTP list contract: ${name}, ${scoped ? 'client-scoped route' : 'route without a client'}${socket ? '' : ', through inject'}`;
  describe(title, () => {
    let clock = 1_700_000_000_000;
    let app: StartedServer;
    let base: string;
    let list: string;

    beforeAll(async () => {
      const records = scoped ? employees : employees.filter((e) => e.ClientId === 1);
      app = await start({ records, shape, authToken: TOKEN, secret: 'e2e secret of 16+ bytes', now: () => clock });
      if (!socket && app.inject === undefined) throw new Error(`${name} has no inject to send requests through`);
      base = socket ? app.url : INJECT_BASE;
      list = `${base}${SHAPE_PATHS[shape].replace('{client_id}', '1')}`;
    });

    /** One GET through the suite's transport. */
    const send = (url: string, headers: Record<string, string> = {}): Promise<SentResponse> => {
      if (socket) return get(url, headers);
      const { pathname, search } = new URL(url);
      return app.inject!(`${pathname}${search}`, headers);
    };
    afterAll(async () => {
      await app.close();
    });

    const ids = (body: { Data: { Id: number }[] }) => body.Data.map((e) => e.Id);

    describe('token paging over HTTP', () => {
      it('walks every page forward, back, and jumps, with one count carried in the token', async () => {
        const limit = 100;
        const pages = Math.ceil(client1.length / limit);
        let r = await send(withQuery(list, { limit: String(limit) }), AUTH);
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(r.body.Pagination).toMatchObject({ PageNo: 1, PageSize: limit, TotalRecords: client1.length, TotalPages: pages });
        const seen = [...ids(r.body)];
        for (let p = 2; p <= pages; p++) {
          r = await send(withQuery(list, { 'data-token': r.body.Pagination.DataToken, 'next-page': 'true' }), AUTH);
          expect(r.body.Pagination.PageNo).toBe(p);
          seen.push(...ids(r.body));
        }
        expect(seen).toEqual(client1.map((e) => e.Id));
        for (let p = pages - 1; p >= 1; p--) {
          // Headers this time: the token and the move as x-api-* headers.
          r = await send(list, { ...AUTH, 'x-api-data-token': r.body.Pagination.DataToken, 'x-api-prev-page': 'true' });
          expect(r.status).toBe(200);
          expect(ids(r.body)).toEqual(client1.slice((p - 1) * limit, p * limit).map((e) => e.Id));
        }
        r = await send(withQuery(list, { 'data-token': r.body.Pagination.DataToken, page: '4' }), AUTH);
        expect(r.body.Pagination.PageNo).toBe(4);
        expect(ids(r.body)).toEqual(client1.slice(300, 400).map((e) => e.Id));
      });

      it('carries filter, sort and include-deleted in the token', async () => {
        const query = { limit: '7', filter: 'Gender.Equal(2)', sort: 'Id=Desc', 'include-deleted': 'true' };
        const expected = employees
          .filter((e) => e.ClientId === 1 && e.Gender === 2)
          .sort((a, b) => b.Id - a.Id)
          .map((e) => e.Id);
        const first = await send(withQuery(list, query), AUTH);
        const second = await send(withQuery(list, { 'data-token': first.body.Pagination.DataToken, 'next-page': '' }), AUTH);
        expect([...ids(first.body), ...ids(second.body)]).toEqual(expected.slice(0, 14));
        expect(second.body.Pagination.TotalRecords).toBe(expected.length);
      });

      it("answers a page out of range with the API's body", async () => {
        const first = await send(withQuery(list, { limit: '500' }), AUTH);
        const r = await send(withQuery(list, { 'data-token': first.body.Pagination.DataToken, page: '3' }), AUTH);
        expect(r.status).toBe(400);
        expect(r.text).toBe(
          '{"Status":3,"Code":"BadRequest","ErrorCode":"InternalServerError","Message":"Page Number out of range. [1-2]","StackTrace":""}',
        );
      });

      it('answers next-page without a token with [0-0]', async () => {
        const r = await send(withQuery(list, { 'next-page': 'true' }), AUTH);
        expect(r.status).toBe(400);
        expect(r.body.Message).toBe('Page Number out of range. [0-0]');
        expect(r.headers['x-wepql-token-error']).toBe('missing: no data-token was sent');
      });

      it('refuses a token once 60 s have passed', async () => {
        const first = await send(withQuery(list, { limit: '10' }), AUTH);
        clock += 59_999;
        const fresh = await send(withQuery(list, { 'data-token': first.body.Pagination.DataToken, 'next-page': 'true' }), AUTH);
        expect(fresh.status).toBe(200);
        clock += 60_000;
        const stale = await send(withQuery(list, { 'data-token': first.body.Pagination.DataToken, 'next-page': 'true' }), AUTH);
        expect(stale.status).toBe(400);
        expect(stale.body.Code).toBe('BadRequest');
        expect(stale.headers['x-wepql-token-error']).toMatch(/^expired: the data token expired at /);
      });

      it('refuses a tampered token', async () => {
        const first = await send(withQuery(list, { limit: '10' }), AUTH);
        const token: string = first.body.Pagination.DataToken;
        const at = 5;
        const tampered = token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
        const r = await send(withQuery(list, { 'data-token': tampered, 'next-page': 'true' }), AUTH);
        expect(r.status).toBe(400);
        expect(r.body.Message).toBe('Page Number out of range. [0-0]');
        expect(r.headers['x-wepql-token-error']).toMatch(/^bad-signature: /);
      });

      it.runIf(scoped)("refuses a token from another client's list", async () => {
        const first = await send(withQuery(list, { limit: '10' }), AUTH);
        const r = await send(
          withQuery(`${base}/api/public/clients/2/employees`, { 'data-token': first.body.Pagination.DataToken, 'next-page': 'true' }),
          AUTH,
        );
        expect(r.status).toBe(400);
        expect(r.headers['x-wepql-token-error']).toMatch(/^wrong-route: /);
      });
    });

    describe('skip paging over HTTP', () => {
      it('pages with skip and never sends Pagination, not even for skip=0', async () => {
        const seen: number[] = [];
        for (let skip = 0; skip < client1.length; skip += 200) {
          const r = await send(withQuery(list, { limit: '200', skip: String(skip) }), AUTH);
          expect(r.status).toBe(200);
          expect(Object.keys(r.body)).toEqual(['Data', 'Status', 'Code', 'ErrorCode', 'Message', 'StackTrace']);
          seen.push(...ids(r.body));
        }
        expect(seen).toEqual(client1.map((e) => e.Id));
      });
    });

    describe('parameters over HTTP', () => {
      it('lets a header win over the query parameter of the same name', async () => {
        const r = await send(withQuery(list, { limit: '5', sort: 'Id=Asc' }), { ...AUTH, 'X-API-Limit': '7', 'x-api-sort': 'Id=Desc' });
        expect(r.body.Data).toHaveLength(7);
        expect(ids(r.body)[0]).toBe(client1[client1.length - 1]!.Id);
      });

      it('reads UTF-8 in x-api-* headers (Node reads header bytes as Latin-1)', async () => {
        const utf8AsLatin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
        const r = await send(withQuery(list, { limit: '1000', 'include-deleted': 'true' }), {
          ...AUTH,
          'x-api-filter': utf8AsLatin1("LastName.Equal('Müller')"),
        });
        const expected = employees.filter((e) => e.ClientId === 1 && e.LastName === 'Müller').map((e) => e.Id);
        expect(expected.length).toBeGreaterThan(0);
        expect(ids(r.body)).toEqual(expected.sort((a, b) => a - b));
      });

      it('answers a bad filter with its ValidationErrors', async () => {
        const r = await send(withQuery(list, { limit: '0', filter: 'LastName.Equalz(Smith);Nope.IsNull()' }), AUTH);
        expect(r.status).toBe(400);
        expect(r.body).toMatchObject({ Status: 3, Code: 'DataValidationError', ErrorCode: '', StackTrace: '' });
        expect(Object.keys(r.body.ValidationErrors)).toEqual(['limit', 'filter']);
        expect(r.body.ValidationErrors.limit).toEqual([['outOfRangeError', 'limit must be between 1 and 1000, got 0']]);
        expect(r.body.ValidationErrors.filter.map((pair: string[]) => pair[0])).toEqual([
          'regularExpressionError',
          'regularExpressionError',
        ]);
        expect(r.body.ValidationErrors.filter[0][1]).toMatch(/Equalz.*Equal/);
        expect(r.body.Message.split('\n')).toHaveLength(3);
        expect(r.body.Message.split('\n')[0]).toBe('limit: [limit must be between 1 and 1000, got 0]');
      });

      it('refuses an unsupported API version, naming the address and the version', async () => {
        const url = withQuery(list, { limit: '5' });
        const r = await send(url, { ...AUTH, 'api-version': '2.0', 'x-api-version': '2.0' });
        expect(r.status).toBe(400);
        expect(r.body).toEqual({
          Status: 3,
          Code: 'UnsupportedApiVersion',
          ErrorCode: '',
          Message: `The HTTP resource that matches the request URI '${url}' does not support the API version '2.0'.`,
          StackTrace: '',
        });
        expect((await send(url, { ...AUTH, 'api-version': '1.0', 'x-api-version': '1.0' })).status).toBe(200);
      });
    });

    describe('what the contract reads, whatever the framework (issue 19 #6, #11)', () => {
      it.each([['2.0'], ['banana']])(
        'answers api-version: %s sent alone with 400 UnsupportedApiVersion, as the reference server does',
        async (version) => {
          const url = withQuery(list, { limit: '5' });
          const r = await send(url, { ...AUTH, 'api-version': version });
          expect(r.status).toBe(400);
          expect(r.body.Code).toBe('UnsupportedApiVersion');
          expect(r.body.Message).toBe(
            `The HTTP resource that matches the request URI '${url}' does not support the API version '${version}'.`,
          );
          expect((await send(url, { ...AUTH, 'x-api-version': version })).status).toBe(400);
          expect((await send(url, { ...AUTH, 'api-version': '1.0' })).status).toBe(200);
        },
      );

      // A request target in absolute form and header lines sent apart exist only on a socket.
      it.runIf(socket)('serves an absolute-form request target (RFC 9112, section 3.2.2) like an origin-form one', async () => {
        const r = await absoluteFormGet(`${list}?limit=3`, AUTH);
        expect(r.status).toBe(200);
        expect(r.text).toContain('"PageSize":3');
      });

      it('binds a token to the matched route, never to a path carried in the Host header', async () => {
        const { host } = new URL(base);
        const other = scoped ? `${base}/api/public/clients/2/employees` : list;
        const first = await send(withQuery(other, { limit: '5' }), AUTH);
        expect(first.status).toBe(200);
        const move = { 'data-token': first.body.Pagination.DataToken, 'next-page': 'true' };
        // A Host that carries the issuing list's path: an address built from it would name that list.
        const r = await send(withQuery(list, move), { ...AUTH, host: `${host}${new URL(other).pathname}?` });
        // Some stacks (Hono's Node server) refuse a Host with a path outright: 400 before the list route runs.
        const refusedByStack = (x: { status: number; headers: Record<string, unknown> }) =>
          x.status === 400 && x.headers['x-wepql-token-error'] === undefined;
        if (scoped) {
          expect(r.status).toBe(400);
          if (!refusedByStack(r)) expect(r.headers['x-wepql-token-error']).toMatch(/^wrong-route: /);
        } else {
          // The same list under a Host with a path: still the list the token was issued for.
          const plain = await send(withQuery(list, move), AUTH);
          expect(plain.status).toBe(200);
          const odd = await send(withQuery(list, move), { ...AUTH, host: `${host}/elsewhere?` });
          if (!refusedByStack(odd)) {
            expect(odd.status).toBe(200);
            expect(odd.body.Data).toEqual(plain.body.Data);
          }
        }
      });
    });

    describe('authentication and routes', () => {
      it.each([
        ['no authorization header', {}],
        ['a wrong token', { authorization: 'Bearer nope' }],
        ['another scheme', { authorization: `Basic ${TOKEN}` }],
        ['an empty bearer', { authorization: 'Bearer ' }],
      ])('answers %s with 401, no body and WWW-Authenticate', async (_title, headers) => {
        const r = await send(withQuery(list, { limit: '5' }), headers as Record<string, string>);
        expect(r.status).toBe(401);
        expect(r.text).toBe('');
        expect(r.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      });

      it('accepts the scheme in any case', async () => {
        expect((await send(withQuery(list, { limit: '1' }), { authorization: `bearer ${TOKEN}` })).status).toBe(200);
      });

      it.runIf(scoped).each([['99'], ['abc']])('answers client %s with the 404 envelope', async (client) => {
        const r = await send(`${base}/api/public/clients/${client}/employees?limit=5`, AUTH);
        expect(r.status).toBe(404);
        expect(r.body).toEqual({ Status: 0, Code: '404', ErrorCode: null, Message: `Client ${client} was not found.`, StackTrace: '' });
      });
    });

    describe('repeated and hostile parameters', () => {
      it('answers bad percent-encoding and bad UTF-8 with a validation error', async () => {
        for (const query of ['limit=%', 'limit=%FF', 'limit=5&skip=%E0%A4']) {
          const r = await send(`${list}?${query}`, AUTH);
          expect(r.status, query).toBe(400);
          expect(r.body.Code, query).toBe('DataValidationError');
        }
      });

      it.runIf(socket)('refuses two different x-api-filter header lines instead of gluing them into one filter', async () => {
        // Joined with ", " these two lines would read as LastName.InArray(Smith, Jones).
        const r = await getWithRepeatedHeaders(withQuery(list, { limit: '5' }), {
          ...AUTH,
          'x-api-filter': ['LastName.InArray(Smith', 'Jones)'],
        });
        expect(r.status).toBe(400);
        expect(r.body.Code).toBe('DataValidationError');
        expect(Object.keys(r.body.ValidationErrors)).toEqual(['filter']);
        expect(r.body.ValidationErrors.filter[0][1]).toContain('more than once');
      });

      it.runIf(socket)('accepts the same x-api-* header sent twice with one value, like a repeated query parameter', async () => {
        const r = await getWithRepeatedHeaders(list, { ...AUTH, 'x-api-limit': ['3', '3'] });
        expect(r.status).toBe(200);
        expect(r.body.Data).toHaveLength(3);
      });

      it('keeps a single header value that contains ", " whole', async () => {
        const r = await send(withQuery(list, { limit: '1000' }), {
          ...AUTH,
          'x-api-filter': 'LastName.InArray(Smith, Jones)',
        });
        const expected = employees.filter(
          (e) => e.ClientId === 1 && e.RowStatus !== 3 && ['smith', 'jones'].includes(e.LastName.toLowerCase()),
        );
        expect(expected.length).toBeGreaterThan(0);
        expect(r.status).toBe(200);
        expect(r.body.Pagination.TotalRecords).toBe(expected.length);
      });

      it.each([['__proto__=1&limit=2'], ['constructor=x&limit=2'], ['__proto__[limit]=7&limit=2'], ['x-api-limit=9&limit=2']])(
        'ignores %s beyond the list parameters',
        async (query) => {
          const r = await send(`${list}?${query}`, AUTH);
          expect(r.status).toBe(200);
          expect(r.body.Data).toHaveLength(2);
        },
      );
    });
  });
}
