/**
 * The per-client counter table stays exact on the real servers (PostgreSQL 15 and MariaDB): after
 * its DDL (`adviseIndexes({ counts: true })`) is applied to a filled table, several connections at
 * once insert, delete, move rows between clients and in and out of the deleted state, some in
 * transactions they roll back (and some that the server aborts as deadlock victims); then, for
 * every client and both scopes, the counter's sum equals `COUNT(*)`, and the SQL data source
 * answers an unfiltered count from the counter and a filtered one with `COUNT(*)`.
 */
import mysql from 'mysql2/promise';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFilter } from '../../src/index.js';
import type { DataQuery, DataSource } from '../../src/list/index.js';
import { createMysqlDataSource, createMysqlTable, insertMysqlRecords } from '../../src/sources/index.js';
import { createPostgresDataSource } from '../../src/sources/postgres-source.js';
import { createPostgresTable, insertPostgresRecords } from '../../src/sql/dialects/postgres/table.js';
import { adviseIndexes } from '../../src/sql/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { EMPLOYEE_SCOPE, loadSampleEmployees } from '../../src/sample/employees.js';
import { findMariadb, startMariadbServer, type MariadbServer } from '../support/mariadb-server.js';
import { findPostgresBin, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

const TABLE = 'employees';
const CLIENTS = [1, 2, 3, 4];
const WORKERS = 6;
const ROUNDS = 25;
/** The sample employees, read once: each read parses a 1.3 MB file (~25 ms of CPU), and a worker's insert wants a few records. */
const SAMPLE = loadSampleEmployees();

/** One connection of a worker: plain statements, and its own transactions. */
interface Connection {
  run(sql: string, params: unknown[]): Promise<readonly Record<string, unknown>[]>;
  insert(records: readonly unknown[]): Promise<void>;
  close(): Promise<void>;
}

interface Engine {
  readonly name: string;
  readonly placeholder: (n: number) => string;
  readonly q: (name: string) => string;
  connect(): Promise<Connection>;
  source(counterTable: readonly string[] | undefined, sent: string[]): DataSource;
  stop(): Promise<void>;
}

/** A small deterministic random generator, so a failure can be replayed. */
function random(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

function employee(id: number, clientId: number, rowStatus: number | null): Record<string, unknown> {
  const base = SAMPLE[id % SAMPLE.length] as Record<string, unknown>;
  const record: Record<string, unknown> = { ...base, Id: id, ClientId: clientId };
  if (rowStatus === null) delete record.RowStatus;
  else record.RowStatus = rowStatus;
  return record;
}

/** One worker's random writes: each round a transaction of 1–3 writes, committed or rolled back. */
async function work(engine: Engine, worker: number): Promise<{ committed: number; rolledBack: number; aborted: number }> {
  const conn = await engine.connect();
  const next = random(7919 * (worker + 1));
  const p = engine.placeholder;
  const q = engine.q;
  let nextId = 100_000 * (worker + 1);
  const tally = { committed: 0, rolledBack: 0, aborted: 0 };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      await conn.run('BEGIN', []);
      try {
        for (let w = 1 + next(3); w > 0; w--) {
          const client = CLIENTS[next(CLIENTS.length)]!;
          const status = [1, 1, 3, null][next(4)]!;
          const someId = `(SELECT ${q('Id')} FROM (SELECT ${q('Id')} FROM ${q(TABLE)} WHERE ${q('ClientId')} = ${p(1)} ORDER BY ${q('Id')} LIMIT 1 OFFSET ${next(40)}) AS pick)`;
          switch (next(5)) {
            case 0:
              await conn.insert(Array.from({ length: 1 + next(4) }, () => employee(nextId++, client, status)));
              break;
            case 1:
              await conn.run(`DELETE FROM ${q(TABLE)} WHERE ${q('Id')} = ${someId}`, [client]);
              break;
            case 2:
              await conn.run(`UPDATE ${q(TABLE)} SET ${q('ClientId')} = ${p(2)} WHERE ${q('Id')} = ${someId}`, [client, CLIENTS[next(4)]!]);
              break;
            case 3:
              await conn.run(`UPDATE ${q(TABLE)} SET ${q('RowStatus')} = ${p(2)} WHERE ${q('Id')} = ${someId}`, [client, status]);
              break;
            default:
              // Neither scope column changes: the counter must not move.
              await conn.run(`UPDATE ${q(TABLE)} SET ${q('Gender')} = ${p(2)} WHERE ${q('ClientId')} = ${p(1)}`, [client, next(3) + 1]);
          }
        }
        if (next(4) === 0) {
          await conn.run('ROLLBACK', []);
          tally.rolledBack++;
        } else {
          await conn.run('COMMIT', []);
          tally.committed++;
        }
      } catch (error) {
        // A deadlock victim (or a serialization failure) is rolled back by the server: the counter must show nothing of it.
        const code = (error as { code?: string }).code;
        if (code !== '40P01' && code !== 'ER_LOCK_DEADLOCK' && code !== '40001') throw error;
        await conn.run('ROLLBACK', []);
        tally.aborted++;
      }
    }
  } finally {
    await conn.close();
  }
  return tally;
}

function query(filter: string, clientId: number, includeDeleted: boolean): DataQuery {
  return {
    filter: filter === '' ? undefined : analyzeFilter(filter, { schema: employeeSchema }).value!,
    sort: undefined,
    includeDeleted,
    clientId,
  };
}

function describeCounter(name: string, available: boolean, open: () => Promise<Engine>): void {
  describe.skipIf(!available)(`the counter table on ${name}`, () => {
    let engine: Engine;
    let admin: Connection;
    let counter: readonly string[];
    beforeAll(async () => {
      engine = await open();
      admin = await engine.connect();
      const advice = adviseIndexes(employeeSchema, {
        dialect: engine.name === 'postgres' ? 'postgres' : 'mysql',
        table: TABLE,
        clientField: 'ClientId',
        tieBreaker: 'Id',
        counts: true,
        deleted: EMPLOYEE_SCOPE.deleted,
      });
      counter = advice.counter!.table;
      if (advice.counter!.transaction) await admin.run('BEGIN', []);
      for (const statement of advice.counter!.statements) await admin.run(statement, []);
      if (advice.counter!.transaction) await admin.run('COMMIT', []);
    }, 120_000);
    afterAll(async () => {
      await admin?.close();
      await engine?.stop();
    });

    /** Per client and scope: [counter's sum, COUNT(*)], as the data source and by hand. */
    async function compare(): Promise<void> {
      const p = engine.placeholder;
      const q = engine.q;
      for (const clientId of [...CLIENTS, 5]) {
        for (const includeDeleted of [false, true]) {
          const notDeleted = includeDeleted ? '' : ` AND (${q('RowStatus')} IS NULL OR ${q('RowStatus')} <> 3)`;
          const [exact] = await admin.run(`SELECT COUNT(*) AS n FROM ${q(TABLE)} WHERE ${q('ClientId')} = ${p(1)}${notDeleted}`, [
            clientId,
          ]);
          const sent: string[] = [];
          const counted = await engine.source(counter, sent).count(query('', clientId, includeDeleted));
          expect(sent, 'the unfiltered count reads the counter').toEqual([expect.stringContaining(counter[0]!)]);
          expect(counted, `client ${clientId}, includeDeleted ${includeDeleted}`).toBe(Number(exact!.n));
        }
      }
    }

    it('equals COUNT(*) after the backfill, and a filtered count still counts rows', async () => {
      await compare();
      const sent: string[] = [];
      const filtered = await engine.source(counter, sent).count(query('Gender.Equal(1)', 1, false));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/COUNT\(\*\)/);
      expect(filtered).toBe(await engine.source(undefined, []).count(query('Gender.Equal(1)', 1, false)));
    });

    it('equals COUNT(*) after concurrent inserts, deletes, scope updates and rolled-back transactions', async () => {
      const tallies = await Promise.all(Array.from({ length: WORKERS }, (_, w) => work(engine, w)));
      const total = tallies.reduce((a, t) => ({ c: a.c + t.committed, r: a.r + t.rolledBack + t.aborted }), { c: 0, r: 0 });
      expect(total.c).toBeGreaterThan(WORKERS * ROUNDS * 0.5);
      expect(total.r).toBeGreaterThan(0);
      await compare();
    }, 240_000);

    it('recounts from the table when the DDL runs again', async () => {
      const p = engine.placeholder;
      const q = engine.q;
      await admin.run(`UPDATE ${counter.map(q).join('.')} SET ${q('n')} = ${q('n')} + 1000 WHERE ${q('ClientId')} = ${p(1)}`, [1]);
      const advice = adviseIndexes(employeeSchema, {
        dialect: engine.name === 'postgres' ? 'postgres' : 'mysql',
        table: TABLE,
        clientField: 'ClientId',
        tieBreaker: 'Id',
        counts: true,
        deleted: EMPLOYEE_SCOPE.deleted,
      });
      if (advice.counter!.transaction) await admin.run('BEGIN', []);
      for (const statement of advice.counter!.statements) await admin.run(statement, []);
      if (advice.counter!.transaction) await admin.run('COMMIT', []);
      await compare();
    }, 60_000);
  });
}

describeCounter('PostgreSQL 15', findPostgresBin() !== undefined, async () => {
  const server: PostgresServer = await startPostgresServer();
  const pool = new pg.Pool({ connectionString: server.url, max: WORKERS + 2 });
  const table = {
    query: (sql: string, params: unknown[]) => pool.query(sql, params),
    table: TABLE,
    schema: employeeSchema,
    recordColumn: 'Record',
    primaryKey: 'Id',
  };
  await createPostgresTable(table, { replace: true });
  await insertPostgresRecords(table, SAMPLE);
  return {
    name: 'postgres',
    placeholder: (n) => `$${n}`,
    q: (name) => `"${name}"`,
    async connect() {
      const client = await pool.connect();
      const query = (sql: string, params: unknown[]) => client.query(sql, params);
      return {
        run: async (sql, params) => (await query(sql, params)).rows as Record<string, unknown>[],
        insert: async (records) => void (await insertPostgresRecords({ ...table, query }, records)),
        close: async () => client.release(),
      };
    },
    source: (counterTable, sent) =>
      createPostgresDataSource({
        query: (sql, params) => (sent.push(sql), pool.query(sql, params)),
        table: TABLE,
        schema: employeeSchema,
        tieBreaker: 'Id',
        recordColumn: 'Record',
        ...EMPLOYEE_SCOPE,
        ...(counterTable === undefined ? {} : { counterTable }),
      }),
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
});

describeCounter('MariaDB', findMariadb() !== undefined, async () => {
  const server: MariadbServer = await startMariadbServer();
  const options = { host: server.host, port: server.port, user: server.user, database: server.database, charset: 'UTF8MB4_GENERAL_CI' };
  const pool = mysql.createPool({ ...options, connectionLimit: WORKERS + 2 });
  const runOn = (c: mysql.Pool | mysql.PoolConnection) => async (sql: string, params: unknown[]) =>
    (params.length === 0 ? await c.query(sql) : await c.execute(sql, params as never[]))[0] as Record<string, unknown>[];
  const table = { run: runOn(pool), table: TABLE, schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
  await createMysqlTable(table, { replace: true });
  await insertMysqlRecords(table, SAMPLE);
  return {
    name: 'mariadb',
    placeholder: () => '?',
    q: (name) => `\`${name}\``,
    async connect() {
      const conn = await pool.getConnection();
      const run = runOn(conn);
      return {
        run: async (sql, params) => {
          const rows = await run(sql, params);
          return Array.isArray(rows) ? rows : [];
        },
        insert: async (records) => void (await insertMysqlRecords({ ...table, run }, records)),
        close: async () => conn.release(),
      };
    },
    source: (counterTable, sent) =>
      createMysqlDataSource({
        run: (sql, params) => (sent.push(sql), pool.execute(sql, params as never[])),
        table: TABLE,
        schema: employeeSchema,
        tieBreaker: 'Id',
        recordColumn: 'Record',
        ...EMPLOYEE_SCOPE,
        ...(counterTable === undefined ? {} : { counterTable }),
      }),
    async stop() {
      await pool.end();
      await server.stop();
    },
  };
});
