/**
 * The list contract through pgbouncer in transaction mode
 * (scripts/topology/clusters.mjs): a server connection belongs to a client
 * for one transaction only, so anything a data source left in a session
 * (a `SET`, a temporary table, a named prepared statement) would reach
 * another client or be missing on the next statement. The pool is smaller
 * than the application's, so statements of different requests share server
 * connections all the time.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDataSource, createPostgresTable, insertPostgresRecords } from '../../src/sources/index.js';
import { analyzeSortOrThrow } from '../../src/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { chooseFoldCollation } from '../../src/sample/employees.js';
import { topologyUnavailable } from '../../scripts/topology/clusters.mjs';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import type { TopologyDatabases } from '../support/topology-host.js';
import { describeListContract, employees, SCOPE } from '../unit/list/list-contract.js';

const unavailable = topologyUnavailable('pgbouncer');
if (unavailable !== undefined) {
  console.warn(`SKIPPED: the list contract through pgbouncer — ${unavailable}`);
  describe.skip('pgbouncer (not installed)', () => {});
} else {
  let bounced: TopologyDatabases | undefined;
  let pool: pg.Pool | undefined;
  const stopAll = async () => {
    await pool?.end();
    if (bounced !== undefined) await dropTopologyDatabases(bounced);
  };

  describeListContract('PostgreSQL through pgbouncer (transaction mode, 2 server connections)', async () => {
    // The run's pgbouncer with two server connections per database, in front of the shared server.
    bounced = await createTopologyDatabases('pgbouncer', { poolSize: 2 });
    pool = new pg.Pool({ connectionString: topologyUrl(bounced, 'bouncer'), max: 8 });
    const query = (sql: string, params: unknown[]) => pool!.query(sql, params);
    const { foldCollation } = await chooseFoldCollation(query);
    await createPostgresTable(
      { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' },
      { replace: true },
    );
    await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
    const source = createPostgresDataSource({
      query,
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      recordColumn: 'Record',
      ...(foldCollation === undefined ? {} : { foldCollation }),
      ...SCOPE,
    });
    return { source, close: stopAll };
  });

  describe('pgbouncer in transaction mode: what a source leaves in a session', () => {
    let direct: pg.Client | undefined;
    let own: { t: TopologyDatabases; pool: pg.Pool } | undefined;
    beforeAll(async () => {
      // The run's pgbouncer with one server connection per database: every statement of this file shares it.
      const t = await createTopologyDatabases('pgbouncer', { poolSize: 1 });
      own = { t, pool: new pg.Pool({ connectionString: topologyUrl(t, 'bouncer'), max: 6 }) };
      direct = new pg.Client({ connectionString: topologyUrl(t, 'direct') });
      await direct.connect();
    }, 120_000);
    afterAll(async () => {
      await direct?.end();
      await own?.pool.end();
      if (own !== undefined) await dropTopologyDatabases(own.t);
    });

    it('many concurrent pages over one server connection: every page right, and no setting left behind in the session', async () => {
      const query = (sql: string, params: unknown[]) => own!.pool.query(sql, params);
      const { foldCollation } = await chooseFoldCollation(query);
      await createPostgresTable({ query, table: 'employees', schema: employeeSchema, primaryKey: 'Id' }, { replace: true });
      await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema }, employees);
      const source = createPostgresDataSource({
        query,
        table: 'employees',
        schema: employeeSchema,
        tieBreaker: 'Id',
        ...(foldCollation === undefined ? {} : { foldCollation }),
        ...SCOPE,
      });
      const before = await direct!.query(`SELECT name, setting FROM pg_settings WHERE source = 'session' ORDER BY name`);
      const sorts = ['LastName=Asc', 'Gender=Desc;LastPaidOn=Asc', 'BirthOn=Desc', ''];
      const jobs = Array.from({ length: 24 }, async (_, i) => {
        const clientId = (i % 3) + 1;
        const sort = sorts[i % sorts.length]!;
        const q = {
          clientId,
          includeDeleted: false,
          filter: undefined,
          sort: sort === '' ? undefined : analyzeSortOrThrow(sort, { schema: employeeSchema }),
        };
        const count = await source.count(q);
        const page = await source.page(q, { offset: 0, limit: 5 });
        const expected = employees.filter((e) => e.ClientId === clientId && e.RowStatus !== 3).length;
        return { count, expected, rows: page.length };
      });
      for (const r of await Promise.all(jobs)) {
        expect(r.count).toBe(r.expected);
        expect(r.rows).toBe(Math.min(5, r.expected));
      }
      // The one server connection pgbouncer used: nothing set per session there, no prepared statement kept.
      const server = new pg.Client({ connectionString: topologyUrl(own!.t, 'bouncer') });
      await server.connect();
      try {
        const settings = await server.query(`SELECT name, setting FROM pg_settings WHERE source = 'session' ORDER BY name`);
        const prepared = await server.query(`SELECT name FROM pg_prepared_statements`);
        const temporary = await server.query(`SELECT count(*)::int AS n FROM pg_class WHERE relpersistence = 't'`);
        expect(settings.rows.filter((r) => !before.rows.some((b) => b.name === r.name))).toEqual([]);
        expect(prepared.rows).toEqual([]);
        expect(temporary.rows[0].n).toBe(0);
      } finally {
        await server.end();
      }
    });
  });
}
