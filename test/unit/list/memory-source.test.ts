import { describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { WepqlError } from '../../../src/index.js';
import { analyzeSort } from '../../../src/validate/analyze.js';
import { createWorkLane } from '../../../src/sources/memory-lane.js';
import { describeListContract, employees, SCOPE } from './list-contract.js';

describeListContract('memory', async () => ({
  // Shuffled, so the tie-breaker has to do its work.
  source: createMemoryDataSource([...employees].reverse(), { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id' }),
}));

describe('createMemoryDataSource', () => {
  const base = { filter: undefined, sort: undefined, includeDeleted: false } as const;

  it('keeps the array order when there is no tie-breaker', async () => {
    const records = [{ Id: 3 }, { Id: 1 }, { Id: 2 }];
    const source = createMemoryDataSource(records, { schema: employeeSchema });
    expect(await source.page(base, { offset: 0, limit: 10 })).toEqual(records);
  });

  it('treats a null deleted marker as not deleted', async () => {
    const source = createMemoryDataSource([{ Id: 1 }, { Id: 2, RowStatus: 3 }], { schema: employeeSchema, ...SCOPE });
    expect(await source.count(base)).toBe(1);
    expect(await source.count({ ...base, includeDeleted: true })).toBe(2);
  });

  it("matches nothing for a client id that is not of the field's type", async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE });
    expect(await source.count({ ...base, clientId: 'abc' })).toBe(0);
  });

  it('refuses a client id without clientField, and options naming unknown fields', async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema });
    await expect(source.count({ ...base, clientId: 1 })).rejects.toThrow(WepqlError);
    expect(() => createMemoryDataSource(employees, { schema: employeeSchema, tieBreaker: 'Nope' })).toThrow(
      'tieBreaker: the schema has no scalar field "Nope"',
    );
  });
});

describe('createMemoryDataSource: one query object, one filtering', () => {
  it('answers each query object from its own rows, even interleaved', async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id' });
    const q1 = { filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 };
    const q2 = { filter: undefined, sort: undefined, includeDeleted: true, clientId: 2 };
    const n1 = await source.count(q1);
    const n2 = await source.count(q2);
    const p1 = (await source.page(q1, { offset: 0, limit: 1000 })) as { ClientId: number; RowStatus: number }[];
    const p2 = (await source.page(q2, { offset: 0, limit: 1000 })) as { ClientId: number }[];
    expect(p1.length).toBe(n1);
    expect(p2.length).toBe(n2);
    expect(p1.every((e) => e.ClientId === 1 && e.RowStatus !== 3)).toBe(true);
    expect(p2.every((e) => e.ClientId === 2)).toBe(true);
  });
});

describe('createMemoryDataSource: a bounded paging cache', () => {
  const noMatch = (i: number) => ({
    filter: undefined,
    sort: undefined,
    includeDeleted: false,
    clientId: 'no such client',
    // A long key, as a client sending 8 KB filters makes them.
    cacheKey: JSON.stringify([`LastName.Equal(${'z'.repeat(1000)}${i})`, '']),
  });

  it('finding 1: counts results with no match and their keys, so distinct empty queries cannot grow it', async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, cacheBudget: 10_000 });
    for (let i = 0; i < 2000; i++) expect(await source.count(noMatch(i))).toBe(0);
    const usage = source.cacheUsage();
    expect(usage.bytes).toBeLessThanOrEqual(40_000);
    expect(usage.results).toBeGreaterThan(0);
    expect(usage.results).toBeLessThan(20);
  });

  it('finding 1: keeps at most cacheEntries results', async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, cacheEntries: 5 });
    for (let i = 0; i < 50; i++) await source.count(noMatch(i));
    expect(source.cacheUsage().results).toBe(5);
  });

  it('counts positions: a result larger than the budget is not kept, and answers stay right', async () => {
    const source = createMemoryDataSource(employees, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', cacheBudget: 100 });
    const q = { filter: undefined, sort: undefined, includeDeleted: true, clientId: 1, cacheKey: '["",""]' };
    const total = await source.count(q);
    expect(total).toBeGreaterThan(100);
    expect(source.cacheUsage().bytes).toBeLessThanOrEqual(400);
    expect((await source.page(q, { offset: 0, limit: 1000 })).length).toBe(total);
  });
});

describe('createMemoryDataSource: fair load', () => {
  it('answers a token page over a sorted result while a cold first page is still filtering', async () => {
    const lane = createWorkLane({ sliceMs: 0 });
    const many = Array.from({ length: 50_000 }, (_, i) => ({ ...employees[i % employees.length], Id: i + 1 }));
    const source = createMemoryDataSource(many, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', lane });
    const sort = analyzeSort('LastName=Asc', { schema: employeeSchema }).value;
    const warm = { filter: undefined, sort, includeDeleted: false, clientId: 1, cacheKey: 'warm' };
    const first = await source.keyedPage(warm, { offset: 0, limit: 10 });
    await source.keyedPage(warm, { offset: 30_000, limit: 10 }); // waits for the full sort
    const done: string[] = [];
    const cold = source.keyedPage(
      { ...warm, cacheKey: 'cold', sort: analyzeSort('FirstName=Desc', { schema: employeeSchema }).value },
      { offset: 0, limit: 10 },
    );
    void cold.then(() => done.push('cold'));
    const token = source.keyedPage(warm, { offset: 10, limit: 10, after: first.keys!.last }).then((p) => (done.push('token'), p));
    const page = await token;
    expect(done).toEqual(['token']);
    expect(page.rows).toHaveLength(10);
    await cold;
    expect(done).toEqual(['token', 'cold']);
  });
});
