/**
 * The reference server against requests a browser would never send: each
 * gets a clear 4xx (or the request is served as meant), never a 500 or a
 * crash, and the server keeps answering afterwards.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListServer } from '../../src/reference-server/index.js';
import type { ListServer } from '../../src/reference-server/index.js';
import { get, rawRequest, withQuery } from '../support/http.js';

interface Employee {
  Id: number;
  ClientId: number;
  RowStatus: number;
  LastName: string;
}
const employees: Employee[] = JSON.parse(readFileSync(new URL('../../examples/employees.json', import.meta.url), 'utf8'));
const TOKEN = 'hostile-bearer-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let app: ListServer;
let base: string;
let list: string;

beforeAll(async () => {
  app = createListServer({ records: employees, authToken: TOKEN, secret: 'hostile secret of 16+ bytes' });
  ({ url: base } = await app.listen());
  list = `${base}/api/public/clients/1/employees`;
});
afterAll(async () => {
  await app.close();
});

const muller = () => employees.filter((e) => e.ClientId === 1 && e.RowStatus !== 3 && e.LastName === 'Müller').map((e) => e.Id);

describe('malformed request targets', () => {
  it.each([['GET http://[ HTTP/1.1'], ['GET http://a@[/api/public/clients/1/employees HTTP/1.1']])(
    '%s is a 400 without a body, not a 500',
    async (line) => {
      const r = await rawRequest(base, line, AUTH);
      expect(r.status).toBe(400);
      expect(r.text).toBe('');
    },
  );

  it("refuses raw UTF-8 bytes in the target with a 400 (Node's parser), and keeps serving", async () => {
    const r = await rawRequest(base, "GET /api/public/clients/1/employees?limit=1000&filter=LastName.Equal('Müller') HTTP/1.1", AUTH);
    expect(r.status).toBe(400);
    expect(
      (await get(withQuery(list, { limit: '1', filter: "LastName.Equal('Müller')" }), AUTH)).body.Data.map((e: Employee) => e.Id),
    ).toEqual(muller().slice(0, 1));
  });

  it("answers a header section past Node's limit with 431, and keeps serving", async () => {
    const r = await rawRequest(base, `GET /api/public/clients/1/employees?limit=1&filter=${'a'.repeat(70_000)} HTTP/1.1`, AUTH);
    expect(r.status).toBe(431);
    expect((await get(withQuery(list, { limit: '1' }), AUTH)).status).toBe(200);
  });
});

// Repeated and hostile parameters, and bad percent-encoding, are part of the HTTP list contract
// (http-list-contract.ts), which runs them against this server and every framework adapter.
