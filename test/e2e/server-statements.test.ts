/**
 * How many statements the reference server sends a database per request, over real HTTP against
 * the employees table in PGlite (PostgreSQL compiled to WebAssembly): the client check is answered
 * from a bounded, short-lived memory of earlier checks, so a token page is one statement and a first
 * page is its rows and its count, never a `SELECT 1 … LIMIT 1` in front of them.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlRunner } from '../../src/sources/index.js';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import { employeePostgresSource, loadSampleEmployees, seedEmployeeTable } from '../../src/sample/employees.js';
import { get } from '../support/http.js';
import { createPglite } from '../support/sql-pglite.js';

const TOKEN = 'statements-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };

let db: PGlite;
const sent: string[] = [];
const counting: SqlRunner = async (sql, params) => {
  sent.push(sql);
  return db.query(sql, params);
};

/** The statements one request sent. */
async function statementsOf(url: string): Promise<{ readonly status: number; readonly body: any; readonly sql: readonly string[] }> {
  sent.length = 0;
  const r = await get(url, AUTH);
  return { status: r.status, body: r.body, sql: [...sent] };
}

beforeAll(async () => {
  db = await createPglite();
  await seedEmployeeTable((sql, params) => db.query(sql, params), loadSampleEmployees());
}, 60_000);
afterAll(async () => {
  await db.close();
});

describe('statements per request of the reference server over PostgreSQL', () => {
  let app: ListServer;
  let list: string;
  let clock = 1_000_000;
  beforeAll(async () => {
    const { source, clientExists } = employeePostgresSource(counting);
    app = createListServer({ source, clientExists, authToken: TOKEN, now: () => clock, clientCheckTtlMs: 5_000 });
    const { url } = await app.listen();
    list = `${url}/api/public/clients`;
  });
  afterAll(() => app.close());

  it('checks a client once, then a first page is its rows and its count, and a token page one statement', async () => {
    const first = await statementsOf(`${list}/1/employees?limit=5`);
    expect(first.status).toBe(200);
    expect(first.sql.filter((s) => s.startsWith('SELECT 1 '))).toHaveLength(1);
    expect(first.sql).toHaveLength(3);

    const again = await statementsOf(`${list}/1/employees?limit=5&sort=LastName=Asc`);
    expect(again.status).toBe(200);
    expect(again.sql.map((s) => (s.includes('COUNT(') ? 'count' : 'page')).sort()).toEqual(['count', 'page']);

    const next = await statementsOf(`${list}/1/employees?next-page=true&data-token=${encodeURIComponent(again.body.Pagination.DataToken)}`);
    expect(next.status).toBe(200);
    expect(next.body.Pagination.PageNo).toBe(2);
    expect(next.sql).toHaveLength(1);
  });

  it('remembers an unknown client too, and asks again once the answer is older than clientCheckTtlMs', async () => {
    const unknown = await statementsOf(`${list}/42/employees?limit=5`);
    expect(unknown.status).toBe(404);
    expect(unknown.sql).toHaveLength(1);
    expect((await statementsOf(`${list}/42/employees?limit=5`)).sql).toHaveLength(0);
    clock += 5_001;
    expect((await statementsOf(`${list}/42/employees?limit=5`)).sql).toHaveLength(1);
  });

  it('shares one check among concurrent requests for a client not yet known', async () => {
    sent.length = 0;
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(`${list}/2/employees?limit=1`, AUTH)));
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    expect(sent.filter((s) => s.startsWith('SELECT 1 '))).toHaveLength(1);
  });
});

describe('clientCheckTtlMs: 0', () => {
  it('asks on every request', async () => {
    const { source, clientExists } = employeePostgresSource(counting);
    const app = createListServer({ source, clientExists, authToken: TOKEN, clientCheckTtlMs: 0 });
    const { url } = await app.listen();
    try {
      for (let i = 0; i < 2; i++) {
        const r = await statementsOf(`${url}/api/public/clients/1/employees?limit=1`);
        expect(r.sql.filter((s) => s.startsWith('SELECT 1 '))).toHaveLength(1);
      }
    } finally {
      await app.close();
    }
  });

  it('refuses a TTL that is not a number of ms ≥ 0', () => {
    const { source, clientExists } = employeePostgresSource(counting);
    expect(() => createListServer({ source, clientExists, clientCheckTtlMs: -1 })).toThrow(/clientCheckTtlMs must be a number of ms ≥ 0/);
  });
});
