/**
 * The reference server over real HTTP on 127.0.0.1, started in process on a
 * free port with an injected clock, serving examples/employees.json: the
 * shared HTTP list contract, then what only the reference server does
 * (its own routing: 404 without a body, 405).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListServer } from '../../src/reference-server/index.js';
import type { ListServer } from '../../src/reference-server/index.js';
import { get } from '../support/http.js';
import { SHAPE_PATHS, describeHttpListContract, employees } from './http-list-contract.js';
import { createMemoryDataSource } from '../../src/sources/memory-source.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';

describeHttpListContract('reference server', async ({ records, shape, authToken, secret, now }) => {
  const app = createListServer({ records, path: SHAPE_PATHS[shape], authToken, secret, now });
  const { url } = await app.listen();
  return { url, close: () => app.close() };
});

const TOKEN = 'e2e-bearer-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
let app: ListServer;
let base: string;
let list: string;

beforeAll(async () => {
  app = createListServer({ records: employees, authToken: TOKEN });
  ({ url: base } = await app.listen());
  list = `${base}/api/public/clients/1/employees`;
});
afterAll(async () => {
  await app.close();
});

describe('routes of the reference server', () => {
  it('answers an unknown route with 404 and no body, and other methods with 405', async () => {
    const r = await get(`${base}/api/public/clients/1/payrolls`, AUTH);
    expect(r.status).toBe(404);
    expect(r.text).toBe('');
    const post = await get(list, AUTH, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('paths of the reference server, with and without a client (issue 21 #1)', () => {
  const scopedSource = createMemoryDataSource(employees, { schema: employeeSchema, clientField: 'ClientId', tieBreaker: 'Id' });
  const plainSource = createMemoryDataSource(employees, { schema: employeeSchema, tieBreaker: 'Id' });
  it.each([
    [
      'a client path on a source without clientField',
      { path: SHAPE_PATHS.client, source: plainSource, clientExists: async (): Promise<boolean> => true },
      /names a client, but the data source was created without clientField/,
    ],
    [
      'a path without a client on a source with clientField',
      { path: SHAPE_PATHS.unscoped, source: scopedSource },
      /has no \{client_id\} segment, but the data source serves one client's rows/,
    ],
    [
      'clientExists on a path without a client',
      { path: SHAPE_PATHS.unscoped, records: employees, clientExists: async (): Promise<boolean> => true },
      /clientExists is given, but the path/,
    ],
    ['a custom source on a client path without clientExists', { source: scopedSource }, /needs clientExists/],
    ['a path with a pattern of its own', { path: '/api/:id/list' }, /segments are literal text/],
  ])('refuses %s when it is created', (_title, options, message) => {
    expect(() => createListServer(options)).toThrow(message);
  });

  it('serves a path without a client from records, every record in one list', async () => {
    const server = createListServer({ records: employees, path: '/api/public/people', authToken: TOKEN });
    const { url } = await server.listen();
    try {
      const r = await get(`${url}/api/public/people?limit=1&include-deleted=true`, AUTH);
      expect(r.status).toBe(200);
      expect(r.body.Pagination.TotalRecords).toBe(employees.length);
      expect((await get(`${url}/api/public/clients/1/employees`, AUTH)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
