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
import { describeHttpListContract, employees } from './http-list-contract.js';

describeHttpListContract('reference server', async ({ records, authToken, secret, now }) => {
  const app = createListServer({ records, authToken, secret, now });
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
