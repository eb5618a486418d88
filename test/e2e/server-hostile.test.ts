/**
 * The reference server against requests a browser would never send: each
 * gets a clear 4xx (or the request is served as meant), never a 500 or a
 * crash, and the server keeps answering afterwards.
 */
import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListServer } from '../../src/server/index.js';
import type { ListServer } from '../../src/server/index.js';
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

  it('refuses raw UTF-8 bytes in the target with a 400 (Node\'s parser), and keeps serving', async () => {
    const r = await rawRequest(base, "GET /api/public/clients/1/employees?limit=1000&filter=LastName.Equal('Müller') HTTP/1.1", AUTH);
    expect(r.status).toBe(400);
    expect((await get(withQuery(list, { limit: '1', filter: "LastName.Equal('Müller')" }), AUTH)).body.Data.map((e: Employee) => e.Id)).toEqual(
      muller().slice(0, 1),
    );
  });

  it('answers bad percent-encoding and bad UTF-8 with a validation error', async () => {
    for (const query of ['limit=%', 'limit=%FF', 'limit=5&skip=%E0%A4']) {
      const r = await get(`${list}?${query}`, AUTH);
      expect(r.status, query).toBe(400);
      expect(r.body.Code, query).toBe('DataValidationError');
    }
  });

  it('answers a header section past Node\'s limit with 431, and keeps serving', async () => {
    const r = await rawRequest(base, `GET /api/public/clients/1/employees?limit=1&filter=${'a'.repeat(70_000)} HTTP/1.1`, AUTH);
    expect(r.status).toBe(431);
    expect((await get(withQuery(list, { limit: '1' }), AUTH)).status).toBe(200);
  });
});

describe('repeated and hostile parameters', () => {
  it('refuses two different x-api-filter header lines instead of gluing them into one filter', async () => {
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

  it('accepts the same x-api-* header sent twice with one value, like a repeated query parameter', async () => {
    const r = await getWithRepeatedHeaders(list, { ...AUTH, 'x-api-limit': ['3', '3'] });
    expect(r.status).toBe(200);
    expect(r.body.Data).toHaveLength(3);
  });

  it('keeps a single header value that contains ", " whole', async () => {
    const r = await getWithRepeatedHeaders(withQuery(list, { limit: '1000' }), { ...AUTH, 'x-api-filter': 'LastName.InArray(Smith, Jones)' });
    const expected = employees.filter((e) => e.ClientId === 1 && e.RowStatus !== 3 && ['smith', 'jones'].includes(e.LastName.toLowerCase()));
    expect(expected.length).toBeGreaterThan(0);
    expect(r.status).toBe(200);
    expect(r.body.Pagination.TotalRecords).toBe(expected.length);
  });

  it.each([['__proto__=1&limit=2'], ['constructor=x&limit=2'], ['__proto__[limit]=7&limit=2'], ['x-api-limit=9&limit=2']])(
    'ignores %s beyond the list parameters',
    async (query) => {
      const r = await get(`${list}?${query}`, AUTH);
      expect(r.status).toBe(200);
      expect(r.body.Data).toHaveLength(2);
    },
  );
});
