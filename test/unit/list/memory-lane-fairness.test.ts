/**
 * Fairness of the memory source's work lane across clients: turns belong to
 * a client identity (not to the spelling of its id), and token pages take
 * turns per client too. Each test is named after the finding it reproduces.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import type { DataQuery } from '../../../src/list/data-source.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { analyzeFilter, analyzeSort } from '../../../src/validate/analyze.js';
import type { WorkLane } from '../../../src/sources/memory-lane.js';
import { createWorkLane } from '../../../src/sources/memory-lane.js';
import { employees, SCOPE } from './list-contract.js';

/** 40,000 records, half of client 1 and half of client 2, so a filter or a selection takes many slices. */
const many = Array.from({ length: 40_000 }, (_, i) => ({ ...employees[i % employees.length]!, Id: i + 1, ClientId: 1 + (i % 2) }));
const sort = analyzeSort('LastName=Asc', { schema: employeeSchema }).value;

/** A lane that records the owner of each piece of work a request waits for. */
function recordingLane(inner: WorkLane, owners: string[]): WorkLane {
  return {
    run: (owner, work) => (owners.push(owner), inner.run(owner, work)),
    background: (work) => inner.background(work),
    due: () => inner.due(),
  };
}

function query(clientId: string | number, cacheKey: string, filter?: string): DataQuery {
  return {
    filter: filter === undefined ? undefined : analyzeFilter(filter, { schema: employeeSchema }).value,
    sort,
    includeDeleted: false,
    clientId,
    cacheKey,
  };
}

describe('memory lane fairness', () => {
  it('memory-lane-client-id-aliases: 1, 01, +1 and 1e0 are one client with one turn', async () => {
    const owners: string[] = [];
    const lane = createWorkLane({ sliceMs: 0 });
    const source = createMemoryDataSource(many, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', lane: recordingLane(lane, owners) });
    const finished: string[] = [];
    // Client 1 sends four cold queries under four spellings of its id; client 2 sends one.
    const aliases = ['1', '01', '+1', '1e0'].map((id, i) =>
      source.count(query(id, `cold ${i}`, `EmployeeNumber.GreaterThan(${i})`)).then((n) => (finished.push(`1 as ${id}`), n)),
    );
    const other = source.count(query(2, 'cold other', 'EmployeeNumber.GreaterThan(0)')).then((n) => (finished.push('2'), n));
    const counts = await Promise.all(aliases);
    await other;
    expect(new Set(owners.slice(0, 4)).size).toBe(1);
    expect(owners[4]).not.toBe(owners[0]);
    // One turn for client 1 whatever the spelling: client 2's query, taking every other slice, ends before client 1's
    // second one (with a turn per spelling it took one slice in five and ended last).
    expect(finished.indexOf('2')).toBeLessThanOrEqual(1);
    // The spellings are one client's rows, and one cached result: the same count each time.
    const again = await Promise.all([0, 1, 2, 3].map((i) => source.count(query(1, `cold ${i}`, `EmployeeNumber.GreaterThan(${i})`))));
    expect(again).toEqual(counts);
    expect(counts[0]).toBeGreaterThan(0);
    expect(await source.count(query('01', 'warm'))).toBe(await source.count(query(1, 'warm')));
    expect(source.cacheUsage().results).toBe(6);
  });

  it("memory-lane-token-pages-one-queue: one client's burst of walks does not make another's next-page wait", async () => {
    const lane = createWorkLane({ sliceMs: 0 });
    const source = createMemoryDataSource(many, { schema: employeeSchema, ...SCOPE, tieBreaker: 'Id', lane });
    // Each client has begun walks: first pages read, the sorted order not yet built (token pages select by heap).
    const walks = await Promise.all(
      [1, 2].flatMap((client) =>
        Array.from({ length: client === 1 ? 8 : 1 }, async (_, i) => {
          const q = query(client, `walk ${client} ${i}`, `EmployeeNumber.GreaterThan(${i})`);
          const first = await source.keyedPage(q, { offset: 0, limit: 10 });
          return { client, q, after: first.keys!.last };
        }),
      ),
    );
    const finished: string[] = [];
    const pages = walks.map((w, i) =>
      source.keyedPage(w.q, { offset: 10, limit: 10, after: w.after }).then((p) => (finished.push(`${w.client}:${i}`), p)),
    );
    const answered = await Promise.all(pages);
    expect(answered.every((p) => p.rows.length === 10)).toBe(true);
    // Client 2's next-page is sent last, behind client 1's burst of eight; it takes turns with the burst
    // rather than queuing behind it (in one queue for every client's token pages it ended ninth).
    expect(finished.indexOf('2:8')).toBeLessThanOrEqual(2);
  });
});
