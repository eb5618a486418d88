/**
 * postgres-extra-float-digits: a session whose `extra_float_digits` is 0 or
 * below (the default before PostgreSQL 12, still settable per role or
 * database) writes `double precision` with 15 significant digits. The
 * PostgreSQL source reads doubles in a form that does not depend on it, so
 * rebuilt records and `number` seek keys equal `query()` over the same
 * records, on PGlite and on a PostgreSQL server whose role default is set.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema, query as queryRecords } from '../../../src/index.js';
import type { DataSource } from '../../../src/list/index.js';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import { findPostgresBin, startPostgresServer } from '../../support/postgres-server.js';
import type { PostgresServer } from '../../support/postgres-server.js';
import { createPglite } from '../../support/sql-pglite.js';

const schema = defineSchema({ fields: { Id: { type: 'integer' }, X: { type: 'number', nullable: true } } });
// Distinct doubles that 15 significant digits write alike, and ones with 17.
const xs = [1.0000000000000007, 1, 1.0000000000000004, 1.0000000000000002, 0.30000000000000004, 0.3, 0.1 + 0.7, 1e-310, -2.5e300, null];
const records = xs.map((X, i) => ({ Id: i + 1, X }));
const route = '/things';
const codec = createTokenCodec({ secret: 'extra float digits test secret' });
type Body = { Data: { Id: number; X: number | null }[]; Pagination: { DataToken: string; TotalPages: number } };

type Query = (sql: string, params: unknown[]) => Promise<{ readonly rows: readonly unknown[] }>;

async function walk(source: DataSource, sort: string): Promise<{ Id: number; X: number | null }[]> {
  const options = { source, schema, codec, route };
  let r = await handleListRequest({ query: { limit: '1', sort } }, options);
  const seen = [...(r.body as Body).Data];
  for (let p = 2; p <= (r.body as Body).Pagination.TotalPages; p++) {
    r = await handleListRequest({ query: { 'data-token': (r.body as Body).Pagination.DataToken, 'next-page': 'true' } }, options);
    expect(r.status).toBe(200);
    seen.push(...(r.body as Body).Data);
  }
  return seen;
}

async function expectExact(run: Query, table: string): Promise<void> {
  await createPostgresTable({ query: run, table, schema, primaryKey: 'Id' }, { replace: true });
  await insertPostgresRecords({ query: run, table, schema }, records);
  const source = createPostgresDataSource({ query: run, table, schema, tieBreaker: 'Id', foldCollation: 'C' });
  // A rebuilt record leaves a null field out.
  const rebuilt = (rs: readonly (typeof records)[number][]) => rs.map((r) => (r.X === null ? { Id: r.Id } : r));
  const all = await source.page({ sort: undefined, filter: undefined, includeDeleted: false }, { offset: 0, limit: 20 });
  expect([...(all as { Id: number }[])].sort((a, b) => a.Id - b.Id)).toEqual(rebuilt(records));
  for (const sort of ['X=Asc', 'X=Desc']) {
    // A walk by number seek keys, one row a page, as query() orders the records.
    expect(await walk(source, sort)).toEqual(rebuilt(queryRecords(records, { schema, sort: `${sort};Id=Asc` })));
  }
}

describe('postgres-extra-float-digits', () => {
  describe('PGlite', () => {
    // One PGlite for both settings (starting one costs seconds of CPU): each case sets its own and writes its own table.
    let db: PGlite;
    beforeAll(async () => {
      db = await createPglite();
    });
    afterAll(async () => {
      await db?.close();
    });

    it.each([[0], [-15]])('PGlite with extra_float_digits = %i', async (digits) => {
      await db.query(`SET extra_float_digits = ${digits}`);
      const shown = (await db.query<{ x: string }>('SELECT (0.1::float8 + 0.2::float8)::text AS x')).rows[0]!.x;
      expect(shown).toBe('0.3');
      await expectExact((sql, params) => db.query(sql, params), `things_${digits < 0 ? 'm' : ''}${Math.abs(digits)}`);
    });
  });

  describe.runIf(findPostgresBin() !== undefined)('PostgreSQL server, role default set', () => {
    let server: PostgresServer;
    beforeAll(async () => {
      server = await startPostgresServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it.each([[0], [-15]])('extra_float_digits = %i for the role', async (digits) => {
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      const role = `float_${digits < 0 ? 'm' : ''}${Math.abs(digits)}`;
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
      await admin.query(`ALTER ROLE ${role} SET extra_float_digits = ${digits}`);
      await admin.end();
      const url = new URL(server.url);
      url.username = role;
      const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
      try {
        const shown = (await pool.query<{ x: string }>('SELECT (0.1::float8 + 0.2::float8)::text AS x')).rows[0]!.x;
        expect(shown).toBe('0.3');
        await expectExact((sql, params) => pool.query(sql, params), `things_${role}`);
        // Nothing was set on the sessions: they still write 15 digits.
        expect((await pool.query<{ v: string }>("SELECT current_setting('extra_float_digits') AS v")).rows[0]!.v).toBe(String(digits));
      } finally {
        await pool.end();
      }
    });
  });
});
