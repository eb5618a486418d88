/**
 * The Express, Fastify and Hono adapters, each in a small application of its
 * real framework on 127.0.0.1 (bearer check as the application's middleware,
 * unknown clients refused through `resolveClient`), run through the same HTTP
 * list contract as the reference server.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { listHandler as expressList } from '../../src/frameworks/express.js';
import { listHandler as fastifyList } from '../../src/frameworks/fastify.js';
import { listHandler as honoList } from '../../src/frameworks/hono.js';
import type { ListRouteOptions } from '../../src/frameworks/list-route.js';
import { createMemoryDataSource } from '../../src/sources/index.js';
import { createTokenCodec } from '../../src/list/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { get, withQuery } from '../support/http.js';
import { describeHttpListContract, SHAPE_PATHS } from './http-list-contract.js';
import type { HttpContractContext, RouteShape, SentResponse } from './http-list-contract.js';

const ROUTE = '/api/public/clients/:client_id/employees';
const UNAUTHORIZED = { 'www-authenticate': 'Bearer error="invalid_token"' };

/** The framework route of a contract shape (`:client_id` in all three frameworks). */
const routeOf = (shape: RouteShape) => SHAPE_PATHS[shape].replace('{client_id}', ':client_id');

function routeOptions({
  records,
  secret,
  now,
  shape,
}: Pick<HttpContractContext, 'records' | 'secret' | 'now' | 'shape'>): ListRouteOptions {
  const deleted = { field: 'RowStatus', value: 3 };
  if (shape === 'unscoped') {
    return {
      source: createMemoryDataSource(records, { schema: employeeSchema, deleted, tieBreaker: 'Id' }),
      schema: employeeSchema,
      codec: createTokenCodec({ secret, now }),
    };
  }
  const clients = new Set(records.map((r) => String(r.ClientId)));
  return {
    source: createMemoryDataSource(records, { schema: employeeSchema, clientField: 'ClientId', deleted, tieBreaker: 'Id' }),
    schema: employeeSchema,
    codec: createTokenCodec({ secret, now }),
    resolveClient: (raw) => (clients.has(raw) ? Number(raw) : undefined),
  };
}

const bearerOk = (header: string | undefined, token: string): boolean => {
  const m = header === undefined ? null : /^Bearer +(\S+) *$/i.exec(header);
  return m !== null && m[1] === token;
};

async function startExpress(ctx: HttpContractContext) {
  const app = express();
  app.get(
    routeOf(ctx.shape),
    (req, res, next) => (bearerOk(req.get('authorization'), ctx.authToken) ? next() : res.status(401).set(UNAUTHORIZED).end()),
    expressList(routeOptions(ctx)),
  );
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeIdleConnections();
      }),
  };
}

async function startFastify(ctx: HttpContractContext) {
  const app = Fastify();
  app.addHook('onRequest', async (request, reply) => {
    if (!bearerOk(request.headers.authorization, ctx.authToken)) return reply.code(401).headers(UNAUTHORIZED).send();
  });
  app.get(routeOf(ctx.shape), fastifyList(routeOptions(ctx)));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close(), inject: (path: string, headers: Record<string, string>) => injected(app, path, headers) };
}

/** One GET through Fastify's `inject` (light-my-request: no socket, no `headersDistinct`), read as the suite reads a response. */
async function injected(app: FastifyInstance, path: string, headers: Record<string, string>): Promise<SentResponse> {
  const r = await app.inject({ method: 'GET', url: path, headers });
  return { status: r.statusCode, headers: r.headers, text: r.body, body: r.body === '' ? undefined : JSON.parse(r.body) };
}

async function startHono(ctx: HttpContractContext) {
  const app = new Hono();
  app.use(routeOf(ctx.shape), async (c, next) => {
    if (!bearerOk(c.req.header('authorization'), ctx.authToken)) return c.body(null, 401, UNAUTHORIZED);
    await next();
  });
  app.get(routeOf(ctx.shape), honoList(routeOptions(ctx)));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        (server as import('node:http').Server).closeIdleConnections?.();
      }),
  };
}

const STARTERS = [
  ['Express', startExpress],
  ['Fastify', startFastify],
  ['Hono', startHono],
] as const;

// Fastify users test their apps with `inject`, and serverless adapters serve requests the same way: the suite runs through it too.
for (const [name, start] of STARTERS)
  describeHttpListContract(`${name} adapter`, start, { transports: name === 'Fastify' ? ['socket', 'inject'] : ['socket'] });

/** Each framework's app around one list route, with a given source and no auth, for the error paths. */
async function startPlain(name: string, options: ListRouteOptions, route = ROUTE) {
  if (name === 'Express') {
    const app = express();
    app.get(route, expressList(options));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }
  if (name === 'Fastify') {
    const app = Fastify();
    app.get(route, fastifyList(options));
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    return { url, close: () => app.close() };
  }
  const app = new Hono();
  app.get(route, honoList(options));
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(STARTERS.map(([name]) => [name]))('%s adapter: failures', (name) => {
  it('answers a failing data source with the bare 500 envelope and reports the error to onError', async () => {
    const seen: unknown[] = [];
    const failing = { count: async () => Promise.reject(new Error('database down')), page: async () => [] };
    const app = await startPlain(name, {
      source: failing,
      schema: employeeSchema,
      codec: createTokenCodec({ secret: 'adapter secret, 16+ bytes' }),
      onError: (e) => seen.push(e),
    });
    try {
      const r = await get(`${app.url}/api/public/clients/1/employees?limit=5`);
      expect(r.status).toBe(500);
      expect(r.body).toEqual({ Status: 0, Code: '500', ErrorCode: null, Message: 'The list could not be read.', StackTrace: '' });
      expect(String(seen[0])).toContain('database down');
    } finally {
      await app.close();
    }
  });

  it('answers a throwing resolveClient with a 500 envelope, not a crash', async () => {
    const seen: unknown[] = [];
    const app = await startPlain(name, {
      ...routeOptions({ records: [], shape: 'client', secret: 'adapter secret, 16+ bytes', now: Date.now }),
      resolveClient: () => {
        throw new Error('directory down');
      },
      onError: (e) => seen.push(e),
    });
    try {
      const r = await get(`${app.url}/api/public/clients/1/employees?limit=5`);
      expect(r.status).toBe(500);
      expect(r.body.Code).toBe('500');
      expect(String(seen[0])).toContain('directory down');
      expect((await get(`${app.url}/api/public/clients/1/employees?limit=5`)).status).toBe(500);
    } finally {
      await app.close();
    }
  });
});

describe.each(STARTERS)('%s adapter: what only the adapter decides', (_name, start) => {
  it('binds tokens to the request path and takes the client id from the path parameter', async () => {
    const app = await start({
      records: [{ Id: 1, ClientId: 7, RowStatus: 1, LastName: 'Seven' }],
      shape: 'client',
      authToken: 't',
      secret: 'adapter secret, 16+ bytes',
      now: Date.now,
    });
    try {
      const r = await get(`${app.url}/api/public/clients/7/employees?limit=1`, { authorization: 'Bearer t' });
      expect(r.status).toBe(200);
      expect(r.body.Data).toEqual([{ Id: 1, ClientId: 7, RowStatus: 1, LastName: 'Seven' }]);
      expect(r.body.Pagination.TotalRecords).toBe(1);
      const missing = await get(`${app.url}/api/public/clients/8/employees?limit=1`, { authorization: 'Bearer t' });
      expect(missing.status).toBe(404);
      expect(missing.body.Message).toBe('Client 8 was not found.');
    } finally {
      await app.close();
    }
  });
});

const ADAPTERS = { Express: expressList, Fastify: fastifyList, Hono: honoList } as const;
const SECRET = 'adapter secret, 16+ bytes';
const products = [
  { Id: 1, ClientId: 1, RowStatus: 1, LastName: 'Apple' },
  { Id: 2, ClientId: 2, RowStatus: 1, LastName: 'Pear' },
];

describe.each(STARTERS.map(([name]) => [name]))('%s adapter: lists with and without a client (issue 21 #1)', (name) => {
  it('serves a route without a client from a source without clientField, with the default options', async () => {
    const source = createMemoryDataSource(products, { schema: employeeSchema, tieBreaker: 'Id' });
    const app = await startPlain(name, { source, schema: employeeSchema, codec: createTokenCodec({ secret: SECRET }) }, '/products');
    try {
      const first = await get(`${app.url}/products?limit=1`);
      expect(first.status).toBe(200);
      expect(first.body.Data.map((r: { Id: number }) => r.Id)).toEqual([1]);
      const next = await get(withQuery(`${app.url}/products`, { 'data-token': first.body.Pagination.DataToken, 'next-page': 'true' }));
      expect(next.body.Data.map((r: { Id: number }) => r.Id)).toEqual([2]);
    } finally {
      await app.close();
    }
  });

  it('refuses client options on a source without clientField when the handler is created', () => {
    const source = createMemoryDataSource(products, { schema: employeeSchema, tieBreaker: 'Id' });
    const codec = createTokenCodec({ secret: SECRET });
    expect(() => ADAPTERS[name as keyof typeof ADAPTERS]({ source, schema: employeeSchema, codec, resolveClient: (raw) => raw })).toThrow(
      /resolveClient is given, but the data source was created without clientField/,
    );
    expect(() => ADAPTERS[name as keyof typeof ADAPTERS]({ source, schema: employeeSchema, codec, clientParam: 'company' })).toThrow(
      TypeError,
    );
  });

  it.each([
    [
      'a client route on a source without clientField',
      ROUTE,
      false,
      /has a client_id path parameter, but the data source was created without clientField/,
    ],
    [
      'a route without a client on a source with clientField',
      '/products',
      true,
      /has no client_id path parameter, but the data source serves one client's rows/,
    ],
  ])('names %s on its first request, through onError (no per-row 404)', async (_title, route, scoped, message) => {
    const seen: unknown[] = [];
    const source = createMemoryDataSource(products, {
      schema: employeeSchema,
      tieBreaker: 'Id',
      ...(scoped ? { clientField: 'ClientId' } : {}),
    });
    const app = await startPlain(
      name,
      { source, schema: employeeSchema, codec: createTokenCodec({ secret: SECRET }), onError: (e) => seen.push(e) },
      route,
    );
    try {
      const r = await get(`${app.url}${route.replace(':client_id', '1')}?limit=5`);
      expect(r.status).toBe(500);
      expect(r.body.Code).toBe('500');
      expect(String(seen[0])).toMatch(message);
    } finally {
      await app.close();
    }
  });
});

describe('fastify-inject-drops-headers', () => {
  // light-my-request's request has no headersDistinct; `wepql/fastify` read only that, so every
  // version and x-api-* header sent through inject (or a serverless adapter) went unread.
  const records = [
    { Id: 1, ClientId: 1, RowStatus: 1, LastName: 'One', Gender: 1 },
    { Id: 2, ClientId: 1, RowStatus: 1, LastName: 'Two', Gender: 2 },
    { Id: 3, ClientId: 1, RowStatus: 1, LastName: 'Three', Gender: 1 },
  ];
  async function app() {
    const fastify = Fastify();
    fastify.get(ROUTE, fastifyList(routeOptions({ records, shape: 'client', secret: SECRET, now: Date.now })));
    await fastify.ready();
    return fastify;
  }
  const path = '/api/public/clients/1/employees?limit=5';

  it.each([['api-version'], ['x-api-version']])('answers %s: 2.0 through inject with 400 UnsupportedApiVersion', async (name) => {
    const fastify = await app();
    try {
      const r = await fastify.inject({ method: 'GET', url: path, headers: { [name]: '2.0' } });
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ Code: 'UnsupportedApiVersion', Message: expect.stringContaining("API version '2.0'") });
    } finally {
      await fastify.close();
    }
  });

  it('reads x-api-filter, x-api-sort and x-api-limit through inject', async () => {
    const fastify = await app();
    try {
      const r = await fastify.inject({
        method: 'GET',
        url: '/api/public/clients/1/employees',
        headers: { 'x-api-filter': 'Gender.Equal(1)', 'x-api-sort': 'Id=Desc', 'x-api-limit': '1' },
      });
      expect(r.statusCode).toBe(200);
      expect(r.json().Data.map((e: { Id: number }) => e.Id)).toEqual([3]);
      expect(r.json().Pagination).toMatchObject({ TotalRecords: 2, PageSize: 1 });
      const bad = await fastify.inject({ method: 'GET', url: path, headers: { 'x-api-filter': 'Gender.Equals(1)' } });
      expect(bad.statusCode).toBe(400);
      expect(Object.keys(bad.json().ValidationErrors)).toEqual(['filter']);
    } finally {
      await fastify.close();
    }
  });

  it('reads a header an onRequest hook set, as request.headers holds it', async () => {
    const fastify = Fastify();
    fastify.addHook('onRequest', async (request) => {
      request.headers['x-api-filter'] = 'Gender.Equal(2)';
    });
    fastify.get(ROUTE, fastifyList(routeOptions({ records, shape: 'client', secret: SECRET, now: Date.now })));
    try {
      const r = await fastify.inject({ method: 'GET', url: path });
      expect(r.json().Data.map((e: { Id: number }) => e.Id)).toEqual([2]);
    } finally {
      await fastify.close();
    }
  });
});
