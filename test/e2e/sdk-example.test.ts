/**
 * The example SDK of docs/sdk.md (examples/sdk/employees-client.ts) against
 * the reference server: it lists the same records as one big page, and
 * renews its access token when the server answers 401.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Employee } from '../../src/sdk/index.js';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import { loadSampleEmployees } from '../../src/sample/employees.js';
import { createEmployeesClient, exampleFilter, exampleSort } from '../../examples/sdk/employees-client.js';

let app: ListServer;
let baseUrl: string;
const validToken = 'first-token';

beforeAll(async () => {
  app = createListServer({ records: loadSampleEmployees(), authToken: 'first-token' });
  baseUrl = (await app.listen()).url;
});

afterAll(async () => {
  await app?.close();
});

async function wholeList(): Promise<Employee[]> {
  const q = new URLSearchParams({ limit: '1000', filter: exampleFilter.toString(), sort: exampleSort.toString() });
  const response = await fetch(`${baseUrl}/api/public/clients/2/employees?${q}`, { headers: { authorization: `Bearer ${validToken}` } });
  return ((await response.json()) as { Data: Employee[] }).Data;
}

describe('examples/sdk/employees-client.ts', () => {
  it('prints the texts docs/sdk.md shows', () => {
    expect(exampleFilter.toString()).toBe(
      'Or(And(LastName.StartsWith(Sm);OrigHireDate.GreaterThanOrEqual(2020-01-01T00:00:00.000Z));Gender.IsNull())',
    );
    expect(exampleSort.toString()).toBe('LastName=Asc;CreatedOn=Desc');
  });

  it.each<['token' | 'skip', number]>([
    ['token', 9],
    ['skip', 9],
  ])('lists the whole filtered list, %s paging, pages of %i', async (mode, pageSize) => {
    let logins = 0;
    const api = createEmployeesClient({ baseUrl, getAccessToken: async () => (logins++, validToken) });
    const expected = await wholeList();
    expect(expected.length).toBeGreaterThan(pageSize);
    expect(await api.employees(2, { filter: exampleFilter, sort: exampleSort, pageSize, mode }).toArray()).toEqual(expected);
    const again: Employee[] = [];
    for await (const e of api.employees(2, { filter: exampleFilter, sort: exampleSort, pageSize, mode })) again.push(e);
    expect(again).toEqual(expected);
    expect(logins).toBe(1);
  });

  it('renews the access token once when the server answers 401', async () => {
    let logins = 0;
    const tokens = ['stale-token', 'first-token'];
    const api = createEmployeesClient({ baseUrl, getAccessToken: async () => tokens[logins++]! });
    const pages = [];
    for await (const page of api.employees(2, { pageSize: 50 }).pages()) pages.push(page);
    expect(pages.length).toBeGreaterThan(1);
    expect(logins).toBe(2);
  });
});
