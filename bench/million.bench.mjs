// `npm run bench:million`: two questions at 10^6 rows on a throw-away PostgreSQL 15 server, seeded once
// (`wepql db-seed`, then `wepql db-index --sort LastName=Asc --sort CreatedOn=Desc --filters (the load's)
// --counts --apply`, `VACUUM ANALYZE`; with WEPQL_BENCH_PGDATA=<dir> the seeded server of an earlier
// `npm run bench:load` or `bench:million` is started again instead):
//
// 1. A `page=N` jump in the default order (no sort) to the last page: the deferred join a DBA writes and
//    the one statement the data source sends, as statements; then over HTTP, the reference server and
//    the hand-written server of `bench:load` (node:http + pg, the same deferred join), each in a process
//    of its own, with the CPU each spent per request; with the EXPLAIN of both statements.
// 2. What the counter table's triggers cost writers: single-row inserts, updates that move a row to
//    another client, updates of another column, single-row deletes, and a 1,000-row insert and delete,
//    with the triggers enabled and disabled (`ALTER TABLE … DISABLE TRIGGER USER`) in alternating
//    rounds on the same table and indexes; medians per operation and the ratio.
//
// ROWS=100000 node bench/million.bench.mjs for a quick run (ROUNDS=… for more write rounds). Not part of `npm run bench`.
import os from 'node:os';
import http from 'node:http';
import pg from 'pg';
import { createListServer } from '../dist/reference-server/index.js';
import { chooseFoldCollation, employeePostgresSource } from '../dist/sample/employees.js';
import { generatedEmployee } from '../dist/sample/generate-employees.js';
import { employeeSchema } from '../dist/index.js';
import { insertPostgresRecords } from '../dist/sources/index.js';
import { counterTableOf } from '../dist/sql/index.js';
import { fmt, machineLine, median, writeSection, medianAsyncMs, keepAliveGetter, getBytes, loadServers, processCpuMs } from './harness.mjs';
import { seededPostgres } from './postgres-server.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const LIMIT = 100;
const SAMPLES = 7;
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const SINGLE = 200;
const BULK = 1_000;
const ROUTE = '/api/public/clients/1/employees';
const AUTH = 'million-bench-token';
const SCOPE = `"ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;

const timeMs = (fn, samples = SAMPLES) => medianAsyncMs(fn, samples);

const lines = [];
const seeded = await seededPostgres(ROWS);
const server = seeded.server;
const loadBefore = os.loadavg().map((l) => l.toFixed(1));
const external = [];
try {
  const seed = { s: seeded.seedS };
  const indexed = { s: seeded.indexS };
  console.log(`${fmt(ROWS)} rows ${seeded.reused ? 'reused' : 'seeded'}: seeding ${fmt(seed.s, 1)} s, indexing ${fmt(indexed.s, 1)} s`);
  const pool = new pg.Pool({ connectionString: server.url, max: 4 });
  const query = (sql, params) => pool.query(sql, params);
  await query('VACUUM ANALYZE employees', []);
  const { foldCollation } = await chooseFoldCollation(query);
  const version = (await query('SHOW server_version', [])).rows[0].server_version;

  // --- 1. the default-order jump ------------------------------------------------------------
  const sent = [];
  const recording = (sql, params) => {
    sent.push({ sql, params });
    return query(sql, params);
  };
  const { source, clientExists } = employeePostgresSource(recording, foldCollation, counterTableOf('employees'));
  const app = createListServer({ source, clientExists, authToken: AUTH, ttlSeconds: 3600 });
  const { url } = await app.listen();
  const { agent, get } = keepAliveGetter(`${url}${ROUTE}`, { authorization: `Bearer ${AUTH}` });
  const firstMs = await timeMs(() => get({ limit: String(LIMIT) }));
  const first = await get({ limit: String(LIMIT) });
  const last = first.Pagination.TotalPages;
  const jump = { 'data-token': first.Pagination.DataToken, page: String(last) };
  sent.length = 0;
  const jumped = await get(jump);
  const statement = sent.find((s) => s.sql.includes('OFFSET'));
  if (statement === undefined) throw new Error(`no jump statement among ${JSON.stringify(sent)}`);
  const hand =
    `SELECT e."Record" FROM employees e JOIN (SELECT "Id" FROM employees WHERE ${SCOPE} ORDER BY "Id" LIMIT ${LIMIT} OFFSET ${(last - 1) * LIMIT}) p` +
    ` USING ("Id") ORDER BY e."Id"`;
  const handRows = (await query(hand, [])).rows.map((r) => r.Record.Id);
  if (JSON.stringify(handRows) !== JSON.stringify(jumped.Data.map((r) => r.Id))) throw new Error('the hand jump reads other rows');
  // Over HTTP, each server in a process of its own (the in-process server above only shows the statement it sends).
  const refServer = await loadServers.reference(server.url, 'million bench secret, sixteen bytes+');
  external.push(refServer);
  const { foldCollation: fold } = await chooseFoldCollation(query);
  const handServer = await loadServers.hand(server.url, fold);
  external.push(handServer);
  const outAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const refAuth = { authorization: 'Bearer load-bench' };
  const firstOf = async (base, path, headers) => JSON.parse(await getBytes(outAgent, `${base}${path}?limit=${LIMIT}`, headers));
  const refFirst = await firstOf(refServer.url, ROUTE, refAuth);
  const handFirst = await firstOf(handServer.url, '/', {});
  const refJump = `${refServer.url}${ROUTE}?${new URLSearchParams({ 'data-token': refFirst.Pagination.DataToken, page: String(last) })}`;
  const handJump = `${handServer.url}/?${new URLSearchParams({ 'data-token': handFirst.Pagination.DataToken, page: String(last) })}`;
  const ids = (bytes) => JSON.stringify(JSON.parse(bytes).Data.map((r) => r.Id));
  if (ids(await getBytes(outAgent, refJump, refAuth)) !== JSON.stringify(handRows))
    throw new Error('the reference server jumps to other rows');
  if (ids(await getBytes(outAgent, handJump, {})) !== JSON.stringify(handRows)) throw new Error('the hand server jumps to other rows');
  // Alternating samples, so a change in the machine's load falls on all.
  const handTimes = [];
  const sqlTimes = [];
  const httpTimes = [];
  const handHttpTimes = [];
  const cpu = { ref: 0, hand: 0 };
  for (let s = 0; s < SAMPLES; s++) {
    handTimes.push(await timeMs(() => query(hand, []), 1));
    sqlTimes.push(await timeMs(() => query(statement.sql, statement.params), 1));
    let c0 = processCpuMs(refServer.pid);
    httpTimes.push(await timeMs(() => getBytes(outAgent, refJump, refAuth), 1));
    cpu.ref += processCpuMs(refServer.pid) - c0;
    c0 = processCpuMs(handServer.pid);
    handHttpTimes.push(await timeMs(() => getBytes(outAgent, handJump, {}), 1));
    cpu.hand += processCpuMs(handServer.pid) - c0;
  }
  outAgent.destroy();
  const plan = async (sql, params) =>
    (await query(`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const handPlan = await plan(hand, []);
  const sqlPlan = await plan(statement.sql, statement.params);
  agent.destroy();
  await app.close();
  const j = { hand: median(handTimes), sql: median(sqlTimes), http: median(httpTimes), handHttp: median(handHttpTimes) };
  console.log({ firstMs, last, ...j, cpu });

  // --- 2. the counter table's write cost ----------------------------------------------------
  const table = { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' };
  let nextId = 10 * ROWS;
  const phases = ['insert', 'move', 'update', 'delete', 'bulkInsert', 'bulkDelete'];
  const times = { on: Object.fromEntries(phases.map((p) => [p, []])), off: Object.fromEntries(phases.map((p) => [p, []])) };
  const perOp = async (list, n, fn) => {
    const t0 = performance.now();
    await fn();
    list.push((performance.now() - t0) / n);
  };
  const rowsOf = (n) =>
    Array.from({ length: n }, () => {
      const id = nextId++;
      return { ...generatedEmployee(id), Id: id, ClientId: 1, RowStatus: 1 };
    });
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of round % 2 === 0 ? ['on', 'off'] : ['off', 'on']) {
      await query(`ALTER TABLE employees ${mode === 'on' ? 'ENABLE' : 'DISABLE'} TRIGGER USER`, []);
      const t = times[mode];
      const single = rowsOf(SINGLE);
      const ids = single.map((r) => r.Id);
      await perOp(t.insert, SINGLE, async () => {
        for (const r of single) await insertPostgresRecords(table, [r]);
      });
      await perOp(t.move, SINGLE, async () => {
        for (const id of ids) await query('UPDATE employees SET "ClientId" = 2 WHERE "Id" = $1', [id]);
      });
      await perOp(t.update, SINGLE, async () => {
        for (const id of ids) await query('UPDATE employees SET "Gender" = 2 WHERE "Id" = $1', [id]);
      });
      await perOp(t.delete, SINGLE, async () => {
        for (const id of ids) await query('DELETE FROM employees WHERE "Id" = $1', [id]);
      });
      const bulk = rowsOf(BULK);
      await perOp(t.bulkInsert, 1, () => insertPostgresRecords(table, bulk));
      await perOp(t.bulkDelete, 1, () => query('DELETE FROM employees WHERE "Id" >= $1 AND "Id" <= $2', [bulk[0].Id, bulk[BULK - 1].Id]));
    }
  }
  await query('ALTER TABLE employees ENABLE TRIGGER USER', []);
  const w = Object.fromEntries(phases.map((p) => [p, { on: median(times.on[p]), off: median(times.off[p]) }]));
  console.log(w);
  await pool.end();

  const titles = {
    insert: 'insert one row (autocommit), per row',
    move: 'update "ClientId" of one row (moves it to another client), per row',
    update: 'update "Gender" of one row (no scope column), per row',
    delete: 'delete one row, per row',
    bulkInsert: `insert ${fmt(BULK)} rows in one statement`,
    bulkDelete: `delete ${fmt(BULK)} rows in one statement`,
  };
  const loadAfter = os.loadavg().map((l) => l.toFixed(1));
  lines.push(
    `## 10^6 rows: the default-order jump and the counter table's write cost`,
    '',
    `\`npm run bench:million\`: ${fmt(ROWS)} generated employees (\`wepql db-seed\`, ${fmt(seed.s, 1)} s), indexed by \`wepql db-index --sort LastName=Asc --sort CreatedOn=Desc --filters (the five of bench:load) --counts --apply\` (${fmt(indexed.s, 1)} s: the default order's index, the sorts', the filters', the counter table and its triggers), then \`VACUUM ANALYZE\`${seeded.reused ? ' (seeded once for this run and `npm run bench:load`, WEPQL_BENCH_PGDATA)' : ''}; PostgreSQL ${version}, fsync off. Client 1 holds ${fmt(first.Pagination.TotalRecords)} live rows; limit ${LIMIT}.`,
    `Load average (1/5/15 min) ${loadBefore.join(' / ')} before and ${loadAfter.join(' / ')} after, on a 2-core machine shared with other work: compare rows of this table, not across runs.`,
    '',
    `**Jump to the last page in the default order** (\`page=${fmt(last)}\`, OFFSET ${fmt((last - 1) * LIMIT)}), medians of ${SAMPLES} alternating samples:`,
    '',
    '| request | ms | vs hand |',
    '|---|---:|---:|',
    `| hand: deferred join a DBA writes (key-only subquery with OFFSET, join for the page) | ${j.hand.toFixed(1)} | 1.00× |`,
    `| the statement the data source sends (\`toSql\` deferredJoin) | ${j.sql.toFixed(1)} | ${(j.sql / j.hand).toFixed(2)}× |`,
    `| \`page=${fmt(last)}\` through the reference server over HTTP (token checks, one statement; ${fmt(cpu.ref / SAMPLES, 1)} ms of its CPU per request) | ${j.http.toFixed(1)} | ${(j.http / j.hand).toFixed(2)}× |`,
    `| \`page=${fmt(last)}\` through the hand server of \`bench:load\` over HTTP (the deferred join, JSON of the same rows; ${fmt(cpu.hand / SAMPLES, 1)} ms of its CPU per request) | ${j.handHttp.toFixed(1)} | ${(j.handHttp / j.hand).toFixed(2)}× |`,
    `| reference ÷ hand, both over HTTP | | ${(j.http / j.handHttp).toFixed(2)}× |`,
    `| (first page, no sort, over HTTP, its total from the counter table) | ${firstMs.toFixed(1)} | |`,
    '',
    'Plan of the hand statement (EXPLAIN ANALYZE, costs and timing off):',
    '',
    '```',
    handPlan,
    '```',
    '',
    "Plan of the data source's statement:",
    '',
    '```',
    sqlPlan,
    '```',
    '',
    `**What the counter table's triggers cost writers**: the same table and indexes with the triggers enabled and disabled, ${ROUNDS} alternating rounds of ${SINGLE} single-row statements of each kind (autocommit, through pg) and one ${fmt(BULK)}-row insert and delete; medians of the rounds.`,
    '',
    '| write | without triggers (ms) | with the counter (ms) | ratio |',
    '|---|---:|---:|---:|',
    ...phases.map((p) => `| ${titles[p]} | ${w[p].off.toFixed(3)} | ${w[p].on.toFixed(3)} | ${(w[p].on / w[p].off).toFixed(2)}× |`),
    '',
    `Machine: ${machineLine()}.`,
  );
} finally {
  for (const s of external) await s.stop();
  server.stop();
}
writeSection('million', lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
