import { describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/list/index.js';
import { employeeSchema } from '../../../src/sample/employee-schema.js';
import { WepqlError } from '../../../src/index.js';
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

  it('matches nothing for a client id that is not of the field\'s type', async () => {
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
