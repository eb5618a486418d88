/**
 * The data-source contract, run against every source (memory, PGlite, a real
 * PostgreSQL server): counts and windows against a hand-written reference
 * over examples/employees.json, and whole browsing sessions through
 * `handleListRequest` in both paging modes. Not a test file itself: each
 * `*-source.test.ts` calls `describeListContract`.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilter, analyzeSort } from '../../../src/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import type { DataQuery, DataSource } from '../../../src/list/index.js';

/** The sample employees (clients 1, 2 and 3; RowStatus 3 = deleted). */
export const employees: readonly Employee[] = JSON.parse(
  readFileSync(new URL('../../../examples/employees.json', import.meta.url), 'utf8'),
);

/** The fields the reference reads. */
export interface Employee {
  readonly Id: number;
  readonly ClientId: number;
  readonly FirstName: string;
  readonly LastName: string;
  readonly NickName: string;
  readonly Gender?: number;
  readonly BirthOn: string;
  readonly LastPaidOn?: string;
  readonly CreatedOn: string;
  readonly HCE: boolean;
  readonly RowStatus: number;
}

/** Source options every source under test is created with. */
export const SCOPE = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;

type Compare = (a: Employee, b: Employee) => number;

const codePoints = (s: string): number[] => Array.from(s.toLowerCase(), (c) => c.codePointAt(0)!);
function textAsc(a: string | undefined, b: string | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}
function numAsc(a: number | undefined, b: number | undefined): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return a - b;
}
const time = (s: string | undefined): number | undefined => (s === undefined ? undefined : Date.parse(s));
const desc =
  (c: Compare): Compare =>
  (a, b) =>
    -c(a, b);
const then =
  (...cs: Compare[]): Compare =>
  (a, b) => {
    for (const c of cs) {
      const r = c(a, b);
      if (r !== 0) return r;
    }
    return a.Id - b.Id;
  };

interface Case {
  readonly title: string;
  readonly clientId: number;
  readonly filter: string;
  readonly sort: string;
  readonly includeDeleted: boolean;
  readonly where: (e: Employee) => boolean;
  readonly order: Compare;
}

const CASES: readonly Case[] = [
  {
    title: 'client 1, everything not deleted',
    clientId: 1,
    filter: '',
    sort: '',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3,
    order: then(),
  },
  { title: 'client 1, deleted included', clientId: 1, filter: '', sort: '', includeDeleted: true, where: () => true, order: then() },
  {
    title: 'Gender.Equal(1) by LastName=Asc',
    clientId: 1,
    filter: 'Gender.Equal(1)',
    sort: 'LastName=Asc',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3 && e.Gender === 1,
    order: then((a, b) => textAsc(a.LastName, b.LastName)),
  },
  {
    title: "LastName.StartsWith('o''') (apostrophe, case-insensitive)",
    clientId: 2,
    filter: "LastName.StartsWith('o''')",
    sort: 'LastName=Desc;FirstName=Asc',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3 && e.LastName.toLowerCase().startsWith("o'"),
    order: then(
      desc((a, b) => textAsc(a.LastName, b.LastName)),
      (a, b) => textAsc(a.FirstName, b.FirstName),
    ),
  },
  {
    title: 'NickName.Contains(%) (a LIKE wildcard taken literally)',
    clientId: 1,
    filter: 'NickName.Contains(%)',
    sort: '',
    includeDeleted: true,
    where: (e) => e.NickName.includes('%'),
    order: then(),
  },
  {
    title: 'Gender.IsNull() by BirthOn=Desc',
    clientId: 1,
    filter: 'Gender.IsNull()',
    sort: 'BirthOn=Desc',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3 && e.Gender === undefined,
    order: then(desc((a, b) => numAsc(time(a.BirthOn), time(b.BirthOn)))),
  },
  {
    title: 'Or(Gender.Equal(2);LastPaidOn.GreaterThan(2024-05-01)) by Gender=Desc;LastPaidOn=Asc',
    clientId: 2,
    filter: 'Or(Gender.Equal(2);LastPaidOn.GreaterThan(2024-05-01))',
    sort: 'Gender=Desc;LastPaidOn=Asc',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3 && (e.Gender === 2 || (time(e.LastPaidOn) ?? -Infinity) > Date.parse('2024-05-01T00:00:00Z')),
    order: then(
      desc((a, b) => numAsc(a.Gender, b.Gender)),
      (a, b) => numAsc(time(a.LastPaidOn), time(b.LastPaidOn)),
    ),
  },
  {
    title: "'smith'.EqualInFields(LastName,FirstName)",
    clientId: 1,
    filter: "'smith'.EqualInFields(LastName,FirstName)",
    sort: 'CreatedOn=Desc',
    includeDeleted: true,
    where: (e) => e.LastName.toLowerCase() === 'smith' || e.FirstName.toLowerCase() === 'smith',
    order: then(desc((a, b) => numAsc(time(a.CreatedOn), time(b.CreatedOn)))),
  },
  {
    title: 'CreatedOn.LessThan(2012-06-01T00:00:00.000Z);HCE.Equal(false) by CreatedOn=Asc',
    clientId: 3,
    filter: 'CreatedOn.LessThan(2012-06-01T00:00:00.000Z);HCE.Equal(false)',
    sort: 'CreatedOn=Asc',
    includeDeleted: false,
    where: (e) => e.RowStatus !== 3 && Date.parse(e.CreatedOn) < Date.parse('2012-06-01T00:00:00Z') && !e.HCE,
    order: then((a, b) => numAsc(time(a.CreatedOn), time(b.CreatedOn))),
  },
  {
    title: 'RowStatus.Equal(3) without include-deleted (nothing)',
    clientId: 1,
    filter: 'RowStatus.Equal(3)',
    sort: '',
    includeDeleted: false,
    where: () => false,
    order: then(),
  },
  { title: 'a client without employees', clientId: 99, filter: '', sort: '', includeDeleted: true, where: () => false, order: then() },
];

function reference(c: Case): number[] {
  return employees
    .filter((e) => e.ClientId === c.clientId && c.where(e))
    .sort(c.order)
    .map((e) => e.Id);
}

function dataQuery(c: Case): DataQuery {
  const filter = c.filter === '' ? undefined : analyzeFilter(c.filter, { schema: employeeSchema }).value;
  const sort = c.sort === '' ? undefined : analyzeSort(c.sort, { schema: employeeSchema }).value;
  if (c.filter !== '' && filter === undefined) throw new Error(`case filter does not validate: ${c.filter}`);
  return { filter, sort, includeDeleted: c.includeDeleted, clientId: c.clientId };
}

/** What a source that rebuilds records from the schema's columns returns for a record. */
function rebuiltRecord(e: Employee): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of employeeSchema.fields) {
    if (!Object.hasOwn(e, f.name)) continue;
    const v = (e as unknown as Record<string, unknown>)[f.name];
    out[f.name] = f.type === 'datetime' ? new Date(v as string).toISOString() : v;
  }
  return out;
}

const ids = (rows: readonly unknown[]): number[] => rows.map((r) => (r as { Id: number }).Id);

interface Envelope {
  Data: { Id: number }[];
  Pagination?: { PageNo: number; PageSize: number; TotalRecords: number; TotalPages: number; DataToken: string };
}

/**
 * Registers the contract tests for one source.
 *
 * @example
 * describeListContract('memory', async () => ({ source: createMemoryDataSource(employees, { schema, ...SCOPE, tieBreaker: 'Id' }) }));
 */
export function describeListContract(
  name: string,
  setup: () => Promise<{ source: DataSource; close?: () => Promise<void> }>,
  options: {
    /** The source rebuilds records from schema columns: only schema fields, datetimes as `toISOString()`. */
    readonly rebuilt?: boolean;
  } = {},
): void {
  describe(`list contract: ${name}`, () => {
    let source: DataSource;
    let close: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      ({ source, close } = await setup());
    });
    afterAll(async () => {
      await close?.();
    });

    it('has cases that are not vacuous', () => {
      expect(CASES.filter((c) => reference(c).length > 30).length).toBeGreaterThan(4);
    });

    it.each(CASES.map((c) => [c.title, c] as const))('%s: count and every window', async (_title, c) => {
      const expected = reference(c);
      const q = dataQuery(c);
      expect(await source.count(q)).toBe(expected.length);
      const got: number[] = [];
      for (let offset = 0; offset < expected.length; offset += 37) got.push(...ids(await source.page(q, { offset, limit: 37 })));
      expect(got).toEqual(expected);
      expect(await source.page(q, { offset: expected.length, limit: 10 })).toEqual([]);
    });

    it('returns whole records, optional fields omitted rather than null', async () => {
      const q = dataQuery(CASES[0]!);
      const rows = (await source.page(q, { offset: 0, limit: 25 })) as Record<string, unknown>[];
      const byId = new Map(employees.map((e) => [e.Id, options.rebuilt ? rebuiltRecord(e) : e]));
      expect(rows.length).toBe(25);
      for (const row of rows) expect(row).toEqual(byId.get(row.Id as number));
      if (options.rebuilt) expect(Object.keys(rows[0]!)).not.toContain('Files');
    });

    it('serves a whole token-paging session through handleListRequest: forward, back and jumps', async () => {
      const c = CASES[2]!;
      const expected = reference(c);
      const codec = createTokenCodec({ secret: 'contract test secret, 16+ bytes' });
      const route = `/api/public/clients/${c.clientId}/employees`;
      const call = async (query: Record<string, string>) => {
        const r = await handleListRequest({ query }, { source, schema: employeeSchema, codec, route, clientId: c.clientId });
        return r;
      };
      const first = await call({ limit: '40', filter: c.filter, sort: c.sort });
      expect(first.status).toBe(200);
      let body = first.body as Envelope;
      const pages = Math.ceil(expected.length / 40);
      expect(body.Pagination).toMatchObject({ PageNo: 1, PageSize: 40, TotalRecords: expected.length, TotalPages: pages });
      const forward = [...ids(body.Data)];
      for (let p = 2; p <= pages; p++) {
        body = (await call({ 'data-token': body.Pagination!.DataToken, 'next-page': 'true' })).body as Envelope;
        expect(body.Pagination!.PageNo).toBe(p);
        forward.push(...ids(body.Data));
      }
      expect(forward).toEqual(expected);
      const beyond = await call({ 'data-token': body.Pagination!.DataToken, 'next-page': 'true' });
      expect(beyond.status).toBe(400);
      expect((beyond.body as { Message: string }).Message).toBe(`Page Number out of range. [1-${pages}]`);

      const backward: number[][] = [ids(body.Data)];
      for (let p = pages - 1; p >= 1; p--) {
        body = (await call({ 'data-token': body.Pagination!.DataToken, 'prev-page': 'true' })).body as Envelope;
        expect(body.Pagination!.PageNo).toBe(p);
        backward.unshift(ids(body.Data));
      }
      expect(backward.flat()).toEqual(expected);
      body = (await call({ 'data-token': body.Pagination!.DataToken, page: String(pages - 1) })).body as Envelope;
      expect(ids(body.Data)).toEqual(expected.slice((pages - 2) * 40, (pages - 1) * 40));
    });

    it.each(CASES.map((c) => [c.title, c] as const))(
      '%s: next-page and prev-page seek through the same pages as skip',
      async (_title, c) => {
        const expected = reference(c);
        const codec = createTokenCodec({ secret: 'contract test secret, 16+ bytes' });
        const route = `/api/public/clients/${c.clientId}/employees`;
        const call = async (query: Record<string, string>) =>
          (await handleListRequest({ query }, { source, schema: employeeSchema, codec, route, clientId: c.clientId })).body as Envelope;
        let body = await call({ limit: '23', filter: c.filter, sort: c.sort, 'include-deleted': String(c.includeDeleted) });
        const pages = [ids(body.Data)];
        for (let p = 2; p <= body.Pagination!.TotalPages; p++) {
          body = await call({ 'data-token': body.Pagination!.DataToken, 'next-page': 'true' });
          pages.push(ids(body.Data));
        }
        expect(pages.flat()).toEqual(expected);
        for (let p = pages.length - 1; p >= 1; p--) {
          body = await call({ 'data-token': body.Pagination!.DataToken, 'prev-page': 'true' });
          expect(ids(body.Data)).toEqual(pages[p - 1]);
        }
        if (expected.length > 0 && source.keyedPage !== undefined) {
          const checked = await codec.verify(body.Pagination!.DataToken, route);
          expect(checked.ok && checked.payload.keys).toBeTruthy();
        }
      },
    );

    it('serves a skip-paging session with no Pagination', async () => {
      const c = CASES[6]!;
      const expected = reference(c);
      const codec = createTokenCodec({ secret: 'contract test secret, 16+ bytes' });
      const route = `/api/public/clients/${c.clientId}/employees`;
      const got: number[] = [];
      for (let skip = 0; skip < expected.length; skip += 100) {
        const r = await handleListRequest(
          { query: { limit: '100', skip: String(skip), filter: c.filter, sort: c.sort } },
          { source, schema: employeeSchema, codec, route, clientId: c.clientId },
        );
        expect(r.status).toBe(200);
        expect(r.body).not.toHaveProperty('Pagination');
        got.push(...ids((r.body as Envelope).Data));
      }
      expect(got).toEqual(expected);
    });
  });
}
