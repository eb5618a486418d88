/**
 * Token paging by seek: what a token carries, when it pages by count
 * instead, and what the contract promises when rows are inserted between
 * two pages.
 */
import { describe, expect, it } from 'vitest';
import type { DataSource } from '../../../src/list/index.js';
import {
  createMemoryDataSource,
  createPostgresDataSource,
  createPostgresTable,
  insertPostgresRecords,
} from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import { defineSchema } from '../../../src/index.js';
import { createPglite } from '../../support/sql-pglite.js';

const schema = defineSchema({ fields: { Id: { type: 'integer' }, Name: { type: 'string', nullable: true } } });
const route = '/api/things';
type Body = { Data: unknown[]; Pagination: { DataToken: string; TotalPages: number; TotalRecords: number; PageNo: number } };
const codec = createTokenCodec({ secret: 'seek paging unit test secret' });

async function walk(source: DataSource, query: Record<string, string>): Promise<{ pages: number[][]; keyed: boolean[] }> {
  const options = { source, schema, codec, route };
  let r = await handleListRequest({ query }, options);
  const pages = [((r.body as Body).Data as { Id: number }[]).map((x) => x.Id)];
  const keyed: boolean[] = [];
  for (;;) {
    const token = (r.body as Body).Pagination!.DataToken;
    const checked = await codec.verify(token, route);
    keyed.push(checked.ok && checked.payload.keys !== undefined);
    if (pages.length >= (r.body as Body).Pagination!.TotalPages) break;
    r = await handleListRequest({ query: { 'data-token': token, 'next-page': 'true' } }, options);
    pages.push(((r.body as Body).Data as { Id: number }[]).map((x) => x.Id));
  }
  return { pages, keyed };
}

describe('seek tokens', () => {
  it('carry the first and last keys of their page', async () => {
    const records = Array.from({ length: 10 }, (_, i) => ({ Id: i + 1, Name: `n${9 - i}` }));
    const { pages, keyed } = await walk(createMemoryDataSource(records, { schema, tieBreaker: 'Id' }), { limit: '4', sort: 'Name=Asc' });
    expect(pages).toEqual([
      [10, 9, 8, 7],
      [6, 5, 4, 3],
      [2, 1],
    ]);
    expect(keyed).toEqual([true, true, true]);
  });

  it('page by count for the one move whose token could not carry its keys (never refused midway); page=N works too', async () => {
    // Random CJK names barely compress: two keys of 3,000 of them cannot fit in 8,192 characters.
    let seed = 11;
    const name = () =>
      Array.from({ length: 3000 }, () => String.fromCodePoint(0x4e00 + ((seed = (seed * 48271) % 2147483647) % 20000))).join('');
    const records = Array.from({ length: 7 }, (_, i) => ({ Id: i + 1, Name: i === 3 ? name() : `short ${i}` }));
    const { pages, keyed } = await walk(createMemoryDataSource(records, { schema, tieBreaker: 'Id' }), { limit: '2', sort: 'Name=Desc' });
    const expected = [...records].sort((a, b) => (a.Name < b.Name ? 1 : a.Name > b.Name ? -1 : a.Id - b.Id)).map((r) => r.Id);
    expect(pages.flat()).toEqual(expected);
    // Only the page holding the long name lacks keys; the move after it paged by count.
    const long = pages.findIndex((p) => p.includes(4));
    expect(keyed.map((k, i) => k || i === long)).toEqual(keyed.map(() => true));
    expect(keyed[long]).toBe(false);
  });

  it('finding 2: an empty page reached by next-page keeps the key it sought from, so the next move seeks (no OFFSET)', async () => {
    const rows = Array.from({ length: 8 }, (_, i) => ({ Id: i + 1, Name: `n${i}` }));
    // A source over a mutable array: rows deleted after the first page leave page 3 empty.
    const source: DataSource = {
      count: async () => rows.length,
      page: async (q, w) => createMemoryDataSource(rows, { schema, tieBreaker: 'Id' }).page(q, w),
      keyedPage: async (q, w) => createMemoryDataSource(rows, { schema, tieBreaker: 'Id' }).keyedPage!(q, w),
    };
    const options = { source, schema, codec, route };
    const first = await handleListRequest({ query: { limit: '2', sort: 'Name=Asc' } }, options);
    const second = await handleListRequest(
      { query: { 'data-token': (first.body as Body).Pagination.DataToken, 'next-page': 'true' } },
      options,
    );
    expect(((second.body as Body).Data as { Id: number }[]).map((x) => x.Id)).toEqual([3, 4]);
    rows.splice(4, 4);
    const third = await handleListRequest(
      { query: { 'data-token': (second.body as Body).Pagination.DataToken, 'next-page': 'true' } },
      options,
    );
    expect((third.body as Body).Data).toEqual([]);
    const checked = codec.verify((third.body as Body).Pagination.DataToken, route);
    expect(checked.ok && checked.payload.keys).toEqual({ last: ['n3', 3] });
    // Rows inserted after the last row seen show up on the next move; rows before it do not repeat.
    rows.push({ Id: 9, Name: 'n0a' }, { Id: 10, Name: 'n9' });
    const fourth = await handleListRequest(
      { query: { 'data-token': (third.body as Body).Pagination.DataToken, 'next-page': 'true' } },
      options,
    );
    expect(((fourth.body as Body).Data as { Id: number }[]).map((x) => x.Id)).toEqual([10]);
    const back = await handleListRequest(
      { query: { 'data-token': (third.body as Body).Pagination.DataToken, 'prev-page': 'true' } },
      options,
    );
    // The empty page holds only the key for next-page: prev-page from it pages by count (rows 3-4 of the list now).
    expect(back.status).toBe(200);
    expect(((back.body as Body).Data as { Id: number }[]).map((x) => x.Id)).toEqual([2, 3]);
  });

  it('fit filters that were too long before compression', async () => {
    const filter = `Id.NotInArray(${Array.from({ length: 450 }, (_, i) => 100000 + i).join(',')})`;
    const records = Array.from({ length: 30 }, (_, i) => ({ Id: i + 1, Name: null }));
    const r = await handleListRequest(
      { query: { limit: '10', filter } },
      { source: createMemoryDataSource(records, { schema }), schema, codec, route },
    );
    expect(r.status).toBe(200);
    expect((r.body as Body).Pagination!.DataToken.length).toBeLessThan(2000);
  });
});

describe('rows inserted between two pages (PGlite)', () => {
  // The contract: next-page returns the rows after the last row the client saw, in the token's
  // order, as the table is now. Rows inserted before that row are not shown by later next-pages
  // (prev-page reaches them), and they shift nothing: no row already seen repeats and no row not yet
  // seen is skipped. TotalRecords and TotalPages stay those of the first page, so rows inserted after
  // the cursor take their place in order and push as many rows past the last page.
  it('neither repeat nor vanish', async () => {
    const db = await createPglite();
    try {
      const query = (sql: string, params: unknown[]) => db.query(sql, params);
      await createPostgresTable({ query, table: 'things', schema, primaryKey: 'Id' });
      const initial = Array.from({ length: 20 }, (_, i) => ({ Id: i + 1, Name: `m${String(i).padStart(2, '0')}` }));
      await insertPostgresRecords({ query, table: 'things', schema }, initial);
      const source = createPostgresDataSource({ query, table: 'things', schema, tieBreaker: 'Id', foldCollation: 'C' });
      const options = { source, schema, codec, route };
      const first = await handleListRequest({ query: { limit: '5', sort: 'Name=Asc' } }, options);
      const seen = ((first.body as Body).Data as { Id: number }[]).map((r) => r.Id);
      expect(seen).toEqual([1, 2, 3, 4, 5]);
      // Both before the cursor: one sorts first, one between rows already seen.
      await insertPostgresRecords({ query, table: 'things', schema }, [
        { Id: 101, Name: 'a' },
        { Id: 102, Name: 'm02x' },
      ]);
      let token = (first.body as Body).Pagination!.DataToken;
      for (let p = 2; p <= (first.body as Body).Pagination!.TotalPages; p++) {
        const next = await handleListRequest({ query: { 'data-token': token, 'next-page': 'true' } }, options);
        expect((next.body as Body).Pagination!.TotalRecords).toBe(20);
        seen.push(...((next.body as Body).Data as { Id: number }[]).map((r) => r.Id));
        token = (next.body as Body).Pagination!.DataToken;
      }
      // Offset paging would have shown rows 4 and 5 again and never row 19 and 20.
      expect(seen).toEqual(initial.map((r) => r.Id));
    } finally {
      await db.close();
    }
  });
});
