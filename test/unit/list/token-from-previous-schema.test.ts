/**
 * pg-token-from-previous-schema-500: a token issued before a field's type
 * changed (a rolling deploy) carries seek keys of the old type. The SQL
 * source threw on them (the database refusing `'b'` as a bigint), a bare
 * 500; the handler now answers 400 on `data-token` saying to start again
 * from page one, before any SQL runs.
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema } from '../../../src/index.js';
import type { DataSource } from '../../../src/list/index.js';
import {
  createMemoryDataSource,
  createPostgresDataSource,
  createPostgresTable,
  insertPostgresRecords,
} from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import type { Schema } from '../../../src/index.js';
import { createPglite } from '../../support/sql-pglite.js';

const asText = defineSchema({ fields: { Id: { type: 'integer' }, Code: { type: 'string' } } });
const asNumber = defineSchema({ fields: { Id: { type: 'integer' }, Code: { type: 'integer' } } });
const route = '/things';
const codec = createTokenCodec({ secret: 'previous schema test secret' });
type Body = { Pagination: { DataToken: string }; ValidationErrors?: Record<string, [string, string][]> };

/** A first page under the old schema, then next-page with its token under the new one. */
async function moveAcrossDeploy(before: { source: DataSource; schema: Schema }, after: { source: DataSource; schema: Schema }) {
  const first = await handleListRequest({ query: { limit: '2', sort: 'Code=Asc' } }, { ...before, codec, route });
  expect(first.status).toBe(200);
  const token = (first.body as Body).Pagination.DataToken;
  const errors: unknown[] = [];
  const next = await handleListRequest(
    { query: { 'data-token': token, 'next-page': 'true' } },
    { ...after, codec, route, onError: (e) => errors.push(e) },
  );
  return { next, errors };
}

function expectStartAgain(r: { status: number; body: unknown }, errors: unknown[]) {
  expect(errors).toEqual([]);
  expect(r.status).toBe(400);
  const body = r.body as Body & { Code: string };
  expect(body.Code).toBe('DataValidationError');
  const [code, message] = body.ValidationErrors!['data-token']![0]!;
  expect(code).toBe('outOfRangeError');
  expect(message).toMatch(/^the data token was issued for an earlier version of this list \(.*Code.*\); start again from page one/);
}

describe('pg-token-from-previous-schema-500', () => {
  let db: PGlite;
  const run = (sql: string, params: unknown[]) => db.query(sql, params);
  const rows = [1, 2, 3, 4, 5].map((Id) => ({ Id, Code: Id }));

  beforeAll(async () => {
    db = await createPglite();
    await createPostgresTable({ query: run, table: 'as_text', schema: asText, primaryKey: 'Id' });
    await insertPostgresRecords(
      { query: run, table: 'as_text', schema: asText },
      rows.map((r) => ({ ...r, Code: 'abcde'[r.Id - 1]! })),
    );
    await createPostgresTable({ query: run, table: 'as_number', schema: asNumber, primaryKey: 'Id' });
    await insertPostgresRecords({ query: run, table: 'as_number', schema: asNumber }, rows);
  });
  afterAll(async () => {
    await db.close();
  });

  const pgSource = (table: string, schema: Schema) => ({
    source: createPostgresDataSource({ query: run, table, schema, tieBreaker: 'Id', foldCollation: 'C' }),
    schema,
  });

  it('a text key on a field that now holds integers: 400, start again (was a bare 500)', async () => {
    const { next, errors } = await moveAcrossDeploy(pgSource('as_text', asText), pgSource('as_number', asNumber));
    expectStartAgain(next, errors);
  });

  it('an integer key on a field that now holds text: 400, start again', async () => {
    const { next, errors } = await moveAcrossDeploy(pgSource('as_number', asNumber), pgSource('as_text', asText));
    expectStartAgain(next, errors);
  });

  it('the memory source answers the same', async () => {
    const memory = (schema: Schema, records: readonly object[]) => ({
      source: createMemoryDataSource(records, { schema, tieBreaker: 'Id' }),
      schema,
    });
    const { next, errors } = await moveAcrossDeploy(
      memory(
        asText,
        rows.map((r) => ({ ...r, Code: 'abcde'[r.Id - 1]! })),
      ),
      memory(asNumber, rows),
    );
    expectStartAgain(next, errors);
  });

  it('a token whose keys still fit pages on across the deploy', async () => {
    const { next, errors } = await moveAcrossDeploy(pgSource('as_number', asNumber), pgSource('as_number', asNumber));
    expect(errors).toEqual([]);
    expect(next.status).toBe(200);
  });
});
