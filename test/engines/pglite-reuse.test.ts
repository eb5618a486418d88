import { describe, expect, it } from 'vitest';
import { createPglite } from '../support/sql-pglite.js';
import { sharedServersAddress } from '../support/shared-servers.js';

/**
 * The test run's PGlite instances are put back when a file closes them and
 * lent to the next file of the worker (test/support/sql-pglite.ts). What a
 * file did must not reach the next: a later file gets an instance as fresh
 * as a new one, or a new one.
 */
describe.runIf(sharedServersAddress() !== undefined)('PGlite instances lent again within a worker', () => {
  it('gives a closed instance back empty: no table, no collation, no session state, no open transaction', async () => {
    const first = await createPglite();
    await first.exec(`
      CREATE TABLE employees ("Id" int PRIMARY KEY, "LastName" text);
      INSERT INTO employees VALUES (1, 'Smith');
      CREATE COLLATION "wepql fold" (provider = builtin, locale = 'C.UTF-8');
      CREATE SCHEMA IF NOT EXISTS public;
      CREATE TEMP TABLE scratch (x int);
      SET extra_float_digits = 0;
      SET search_path = pg_catalog;
      PREPARE picked AS SELECT 1;
      BEGIN;
      SELECT 1;`);
    await first.close();
    const second = await createPglite();
    try {
      expect(second).toBe(first);
      const { rows } = await second.query<Record<string, unknown>>(`
        SELECT (SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' OR n.nspname LIKE 'pg_temp%') AS tables,
               (SELECT count(*)::int FROM pg_collation WHERE collname = 'wepql fold') AS collations,
               (SELECT count(*)::int FROM pg_prepared_statements) AS prepared,
               current_setting('extra_float_digits') AS digits,
               current_setting('search_path') AS path`);
      // PGlite starts with search_path = public (its command line), so a new instance has that too.
      expect(rows).toEqual([{ tables: 0, collations: 0, prepared: 0, digits: '1', path: 'public' }]);
      // No transaction left open: now() moves from one statement to the next.
      const at = async () => (await second.query<{ t: string }>('SELECT now()::text AS t')).rows[0]!.t;
      const before = await at();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await at()).not.toBe(before);
      // The schema it creates tables in is there, as in a new instance.
      await second.exec('CREATE TABLE employees ("Id" int PRIMARY KEY)');
    } finally {
      await second.close();
    }
  });

  it('closes an instance a file changed beyond what is put back (a role), so the next file gets a new one', async () => {
    const first = await createPglite();
    await first.exec('CREATE ROLE wepql_reuse_probe');
    await first.close();
    expect(first.closed).toBe(true);
    const second = await createPglite();
    try {
      expect(second).not.toBe(first);
      const { rows } = await second.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = 'wepql_reuse_probe'`);
      expect(rows).toEqual([{ n: 0 }]);
    } finally {
      await second.close();
    }
  });
});
