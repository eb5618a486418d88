/**
 * `npm start` (the built reference server) with `DATABASE_URL` at a
 * coordinator laid out by `wepql db-seed --shards`: with no setting it finds
 * the stored folded columns, says so at start, sends statements that compare
 * and order through them (what lets `postgres_fdw` ship each one to its
 * shard whole), and serves the same pages as from the sample file; the
 * coordinator's sessions on a shard run with `jit=off`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createListServer, type ListServer } from '../../src/reference-server/index.js';
import { loadSampleEmployees } from '../../src/sample/employees.js';
import { topologyUnavailable } from '../../scripts/topology/clusters.mjs';
import { ROOT } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';
import { get, withQuery } from '../support/http.js';
import { createTopologyDatabases, dropTopologyDatabases, topologyUrl } from '../support/shared-servers.js';
import { builtCli } from '../support/srv-cli.js';
import type { TopologyDatabases } from '../support/topology-host.js';

const MAIN = `${ROOT}dist/reference-server/main.js`;
const TOKEN = 'server-shards-token';
const AUTH = { authorization: `Bearer ${TOKEN}` };
const unavailable = topologyUnavailable('shards');
if (unavailable !== undefined) console.warn(`SKIPPED: npm start over a sharded coordinator — ${unavailable}`);

/**
 * The built CLI, called in this process (test/support/srv-cli.ts): db-seed and db-index prepare the database here, the
 * server under test is the process; DATABASE_URL is cleared so only the flags name a database.
 */
const cli = builtCli;

/** Starts the built server; resolves with its address and output once it printed its banner. */
function startServer(databaseUrl: string, running: ChildProcess[]): Promise<{ url: string; output: string }> {
  assertFreshDist();
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', WEPQL_DEMO_TOKEN: TOKEN, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString('utf8');
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('try:')) {
        clearTimeout(timer);
        resolve({ url: m[1]!, output: out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

describe.skipIf(unavailable !== undefined)('npm start over a coordinator with two postgres_fdw shards', () => {
  let t: TopologyDatabases | undefined;
  let coordinator: pg.Pool | undefined;
  let fromFile: ListServer | undefined;
  const running: ChildProcess[] = [];
  beforeAll(async () => {
    t = await createTopologyDatabases('shards');
    coordinator = new pg.Pool({ connectionString: topologyUrl(t, 'coordinator'), max: 2 });
  }, 180_000);
  afterAll(async () => {
    for (const child of running) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await fromFile?.close();
    await coordinator?.end();
    if (t !== undefined) await dropTopologyDatabases(t);
  });

  it('finds the folded columns with no setting, sends statements over them, and serves the pages of the sample file', async () => {
    const shards = `${topologyUrl(t!, 'shard0')},${topologyUrl(t!, 'shard1')}`;
    const seeded = await cli(['db-seed', '--database-url', topologyUrl(t!, 'coordinator'), '--shards', shards]);
    expect(seeded.code, seeded.stderr).toBe(0);
    const indexed = await cli([
      'db-index',
      '--database-url',
      topologyUrl(t!, 'coordinator'),
      '--shards',
      shards,
      '--sort',
      'LastName=Asc',
      '--apply',
    ]);
    expect(indexed.code, indexed.stderr).toBe(0);

    // The coordinator's sessions on a shard run with jit=off (the foreign server's options): a page's statement reaches
    // the shard without its LIMIT, priced as reading the whole client, and would be JIT-compiled on a big one.
    const shard0 = new pg.Client({ connectionString: topologyUrl(t!, 'shard0') });
    await shard0.connect();
    try {
      await shard0.query(`CREATE OR REPLACE VIEW wepql_jit_probe AS SELECT current_setting('jit') AS jit`);
    } finally {
      await shard0.end();
    }
    await coordinator!.query(
      `CREATE FOREIGN TABLE wepql_jit_probe (jit text) SERVER employees_shard0 OPTIONS (table_name 'wepql_jit_probe')`,
    );
    expect((await coordinator!.query(`SELECT current_setting('jit') AS jit`)).rows).toEqual([{ jit: 'on' }]);
    expect((await coordinator!.query('SELECT jit FROM wepql_jit_probe')).rows).toEqual([{ jit: 'off' }]);

    const server = await startServer(topologyUrl(t!, 'coordinator'), running);
    expect(server.output).toContain('strings compared through their stored folded columns');
    expect(server.output).toContain("each client's statements read its own partition");
    fromFile = createListServer({ records: loadSampleEmployees(), authToken: TOKEN });
    const file = await fromFile.listen();

    const path = '/api/public/clients/1/employees';
    const query = { limit: '15', sort: 'LastName=Asc', filter: 'LastName.StartsWith(m)' };
    const a = await get(withQuery(server.url + path, query), AUTH);
    const b = await get(withQuery(file.url + path, query), AUTH);
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(a.body.Data.length).toBe(15);
    expect(a.body.Data).toEqual(b.body.Data);
    expect(a.body.Pagination.TotalRecords).toBe(b.body.Pagination.TotalRecords);

    // The statements the server sends, seen on the coordinator: with the table locked, the next request's statements
    // wait in pg_stat_activity with their text. They compare (and order) through the folded twin, with no lower()
    // left for the coordinator to run over every remote row.
    // The server checks the client once per 5 s (a `SELECT 1`): a request just before locking renews that answer, and
    // a capture that caught the check instead (a slow machine) is tried again.
    const locker = await coordinator!.connect();
    let waiting: string[] = [];
    try {
      for (let attempt = 0; attempt < 5 && waiting.length === 0; attempt++) {
        expect((await get(withQuery(server.url + path, { limit: '1' }), AUTH)).status).toBe(200);
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE ONLY employees IN ACCESS EXCLUSIVE MODE');
        // The server names the client's partition, a foreign table, which LOCK TABLE refuses: ALTER … OWNER takes
        // the same lock on each.
        const { rows: partitions } = await locker.query<{ p: string }>(
          `SELECT inhrelid::regclass::text AS p FROM pg_inherits WHERE inhparent = 'employees'::regclass`,
        );
        for (const { p } of partitions) await locker.query(`ALTER FOREIGN TABLE ${p} OWNER TO CURRENT_USER`);
        const blocked = get(withQuery(server.url + path, { ...query, sort: 'LastName=Desc' }), AUTH);
        let seen: string[] = [];
        for (let tries = 0; seen.length === 0 && tries < 400; tries++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          const { rows } = await locker.query<{ query: string }>(
            `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
          );
          seen = rows.map((r) => r.query);
        }
        await locker.query('ROLLBACK');
        expect((await blocked).status).toBe(200);
        waiting = seen.filter((sql) => !sql.startsWith('SELECT 1 FROM'));
      }
    } finally {
      locker.release();
    }
    expect(waiting.length).toBeGreaterThan(0);
    for (const sql of waiting) {
      expect(sql).toContain('"LastName_folded"');
      expect(sql).toMatch(/ FROM "public"\."employees_p\d+" /);
      expect(sql).not.toMatch(/lower\(/i);
    }

    const next = await get(withQuery(server.url + path, { 'next-page': 'true', 'data-token': a.body.Pagination.DataToken }), AUTH);
    const fileNext = await get(withQuery(file.url + path, { 'next-page': 'true', 'data-token': b.body.Pagination.DataToken }), AUTH);
    expect(next.status).toBe(200);
    expect(next.body.Data).toEqual(fileNext.body.Data);
  }, 240_000);
});
