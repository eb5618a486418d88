/**
 * walk-fails-midway-on-long-sort-key: a page whose first or last row has a
 * long but compressible sort key (70,000 × `x`) gets a token without keys
 * (the inflated paging state would pass 64 KiB); the next `next-page` from
 * it pages by count for that move, so the SDK's `paginate` walks the whole
 * list, on the memory source and on PostgreSQL (PGlite) alike.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from '../../../src/list/index.js';
import {
  createMemoryDataSource,
  createPostgresDataSource,
  createPostgresTable,
  insertPostgresRecords,
} from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import { defineSchema } from '../../../src/index.js';
import { paginate } from '../../../src/sdk/index.js';
import { createPglite } from '../../support/sql-pglite.js';

const schema = defineSchema({ fields: { Id: { type: 'integer' }, Name: { type: 'string' } } });
const route = '/api/things';
const url = 'http://list.test/api/things';
const codec = createTokenCodec({ secret: 'walk long sort key test secret' });
const LONG = 'x'.repeat(70_000);

/** Nine rows sorted by Name: `w…` names, the long one at `position`, then `y…` names. */
function rows(position: number): { Id: number; Name: string }[] {
  return Array.from({ length: 9 }, (_, i) => ({
    Id: i + 1,
    Name: i < position ? `w${i}` : i === position ? LONG : `y${i}`,
  }));
}

/** A fetch that serves `handleListRequest` and records whether each issued token carries keys. */
function serve(source: DataSource) {
  const keyed: boolean[] = [];
  const statuses: number[] = [];
  const fetch = async (input: string, init: { headers: Record<string, string> }): Promise<Response> => {
    const r = await handleListRequest(new Request(input, { headers: init.headers }), { source, schema, codec, route });
    statuses.push(r.status);
    const token = (r.body as { Pagination?: { DataToken: string } }).Pagination?.DataToken;
    if (token !== undefined) {
      const checked = codec.verify(token, route);
      keyed.push(checked.ok && checked.payload.keys !== undefined);
    }
    return new Response(JSON.stringify(r.body), { status: r.status, headers: r.headers });
  };
  return { fetch, keyed, statuses };
}

async function walk(source: DataSource): Promise<{ ids: number[]; keyed: boolean[]; statuses: number[] }> {
  const api = serve(source);
  const records = await paginate<{ Id: number }>(api.fetch, { url, limit: 2, sort: 'Name=Asc' }).toArray();
  return { ids: records.map((r) => r.Id), keyed: api.keyed, statuses: api.statuses };
}

// Position 3 is the last row of page 2; position 4 the first row of page 3.
const cases = [
  { position: 3, row: 'last', keyless: 1 },
  { position: 4, row: 'first', keyless: 2 },
] as const;

describe('walk-fails-midway-on-long-sort-key', () => {
  it.each(cases)('memory source: the long key on the $row row of a page; paginate walks every row', async ({ position, keyless }) => {
    const { ids, keyed, statuses } = await walk(createMemoryDataSource(rows(position), { schema, tieBreaker: 'Id' }));
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // The page holding the long key was issued a keyless token, and the move from it paged by count.
    expect(keyed.map((k, i) => k || i === keyless)).toEqual([true, true, true, true, true]);
    expect(keyed[keyless]).toBe(false);
  });

  describe('PostgreSQL (PGlite)', () => {
    let db: PGlite;
    beforeAll(async () => {
      db = await createPglite();
    });
    afterAll(async () => {
      await db.close();
    });

    it.each(cases)('the long key on the $row row of a page; paginate walks every row', async ({ position, keyless }) => {
      const table = `things_${position}`;
      const query = (sql: string, params: unknown[]) => db.query(sql, params);
      await createPostgresTable({ query, table, schema, primaryKey: 'Id' });
      await insertPostgresRecords({ query, table, schema }, rows(position));
      const source = createPostgresDataSource({ query, table, schema, tieBreaker: 'Id', foldCollation: 'C' });
      const { ids, keyed, statuses } = await walk(source);
      expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      expect(keyed[keyless]).toBe(false);
      expect(keyed.filter((k) => !k)).toHaveLength(1);
    });
  });
});
