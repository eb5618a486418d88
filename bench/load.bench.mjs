// Load that stays fair: 200 concurrent mixed requests over real HTTP to the
// reference server — cold first pages (a filter and sort never seen),
// warm first pages (seen before) and token pages (next-page of walks begun
// before) — on the memory source (100,000 rows) and on PostgreSQL (200,000
// rows, a pool of 8). Latency per kind (p50/p99) and the server process's
// RSS before and after. The target: token pages p99 ≤ 50 ms while the cold
// first pages run. PostgreSQL: DATABASE_URL, or a throw-away server from the
// Debian package (skipped, with a note, when neither is there).
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { createMemoryDataSource } from '../dist/sources/index.js';
import { createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { createListServer } from '../dist/reference-server/index.js';
import { employeeSchema } from '../dist/index.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, employeePostgresSource } from '../dist/sample/employees.js';
import { generatedEmployee } from '../dist/sample/generate-employees.js';
import { fmt, machineLine, median, writeSection } from './harness.mjs';
import { cli, startPostgres } from './postgres-server.mjs';

const CONCURRENT = 200;
const MEMORY_ROWS = Number(process.env.MEMORY_ROWS ?? 100_000);
const PG_ROWS = Number(process.env.PG_ROWS ?? 200_000);
const ROUTE = '/api/public/clients/1/employees';
const AUTH = 'load-bench-token';
const SECRET = 'load bench secret, sixteen bytes or more';
const SORTS = ['LastName=Asc', 'FirstName=Desc', 'CreatedOn=Desc', 'LastName=Asc;CreatedOn=Desc', 'BirthOn=Asc'];

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function client(url) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENT });
  return (query) =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const req = http.request(
        `${url}${ROUTE}?${new URLSearchParams(query)}`,
        { agent, headers: { authorization: `Bearer ${AUTH}` } },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - t0;
            const body = Buffer.concat(chunks).toString('utf8');
            if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${body.slice(0, 300)}`));
            else resolve({ ms, body: JSON.parse(body) });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });
}

/** The mixed load: requests of three kinds, interleaved, all sent at once. */
async function mixedLoad(get) {
  // Walks begun before the load: their first pages are warm, their next pages are token pages.
  const walks = [];
  for (const sort of SORTS) {
    for (const filter of ['', 'Gender.Equal(1)', 'LastName.StartsWith(m)']) {
      const query = { limit: '50', sort, ...(filter ? { filter } : {}) };
      const first = await get(query);
      walks.push({ query, token: first.body.Pagination.DataToken, pages: first.body.Pagination.TotalPages });
    }
  }
  // Walks under way: each has turned a page, and a far jump waits for the sorted order it seeks in
  // (the memory source builds it in the background after a first page).
  for (const w of walks) {
    await get({ 'data-token': w.token, 'next-page': 'true' });
    await get({ 'data-token': w.token, page: String(Math.min(200, w.pages)) });
  }
  const requests = [];
  for (let i = 0; i < CONCURRENT; i++) {
    const w = walks[i % walks.length];
    if (i % 4 === 0)
      requests.push({
        kind: 'cold first page',
        query: { limit: '50', sort: SORTS[i % SORTS.length], filter: `EmployeeNumber.GreaterThan(${1000 + i})` },
      });
    else if (i % 4 === 1) requests.push({ kind: 'warm first page', query: w.query });
    else requests.push({ kind: 'token page', query: { 'data-token': w.token, 'next-page': 'true' } });
  }
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const t0 = performance.now();
  const results = await Promise.all(requests.map(async (r) => ({ kind: r.kind, ms: (await get(r.query)).ms })));
  const wall = performance.now() - t0;
  delay.disable();
  console.log('event loop delay (ms): p50', delay.percentile(50) / 1e6, 'p99', delay.percentile(99) / 1e6, 'max', delay.max / 1e6);
  const byKind = {};
  for (const r of results) (byKind[r.kind] ??= []).push(r.ms);
  return { byKind, wall };
}

function rssMb() {
  globalThis.gc?.();
  return process.memoryUsage().rss / 2 ** 20;
}

async function run(name, app) {
  const { url } = await app.listen();
  const get = client(url);
  const before = rssMb();
  const { byKind, wall } = await mixedLoad(get);
  const after = rssMb();
  await app.close();
  const rows = Object.entries(byKind).map(
    ([kind, ms]) =>
      `| ${name} | ${kind} | ${ms.length} | ${fmt(median(ms), 1)} | ${fmt(percentile(ms, 99), 1)} | ${fmt(Math.max(...ms), 1)} |`,
  );
  console.log(
    name,
    { wall, before, after },
    Object.fromEntries(Object.entries(byKind).map(([k, v]) => [k, [median(v), percentile(v, 99)]])),
  );
  return { rows, wall, before, after };
}

const memoryRecords = Array.from({ length: MEMORY_ROWS }, (_, i) => ({ ...generatedEmployee(i + 1), ClientId: 1 }));

// The same mix through `handleListRequest` in this process, without HTTP: what the source and the
// handler do under load, apart from sockets and the client's own work on the shared event loop.
async function direct(name) {
  const source = createMemoryDataSource(memoryRecords, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' });
  const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
  const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
  const get = async (query) => {
    const t0 = performance.now();
    const r = await handleListRequest({ query }, options);
    if (r.status !== 200) throw new Error(`${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return { ms: performance.now() - t0, body: r.body };
  };
  const before = rssMb();
  const { byKind, wall } = await mixedLoad(get);
  const after = rssMb();
  const rows = Object.entries(byKind).map(
    ([kind, ms]) =>
      `| ${name} | ${kind} | ${ms.length} | ${fmt(median(ms), 1)} | ${fmt(percentile(ms, 99), 1)} | ${fmt(Math.max(...ms), 1)} |`,
  );
  console.log(name, { wall, before, after });
  return { rows, wall, before, after };
}
const inProcess = await direct(`memory, ${fmt(MEMORY_ROWS)} rows, handler called directly`);
const memory = await run(
  `memory, ${fmt(MEMORY_ROWS)} rows`,
  createListServer({ records: memoryRecords, authToken: AUTH, secret: SECRET, ttlSeconds: 3600 }),
);

let postgres;
let postgresNote = '';
let server;
try {
  if (process.env.LOAD_SKIP_POSTGRES) throw new Error('LOAD_SKIP_POSTGRES is set');
  server = process.env.DATABASE_URL ? { url: process.env.DATABASE_URL, stop() {} } : await startPostgres();
  cli(['db-seed', '--database-url', server.url, '--rows', String(PG_ROWS)]);
  cli(['db-index', '--database-url', server.url, ...SORTS.flatMap((s) => ['--sort', s]), '--apply']);
  const pool = new pg.Pool({ connectionString: server.url, max: 8 });
  const query = (sql, params) => pool.query(sql, params);
  const { foldCollation } = await chooseFoldCollation(query);
  const { source, clientExists } = employeePostgresSource(query, foldCollation);
  postgres = await run(
    `PostgreSQL, ${fmt(PG_ROWS)} rows, pool of 8`,
    createListServer({ source, clientExists, authToken: AUTH, secret: SECRET, ttlSeconds: 3600 }),
  );
  await pool.end();
} catch (error) {
  postgresNote = `PostgreSQL was not measured: ${String(error.message ?? error).split('\n')[0]}.`;
  console.error(postgresNote);
} finally {
  server?.stop();
}

const rssLine = (name, r) =>
  `${name}: RSS ${fmt(r.before)} MB before, ${fmt(r.after)} MB after (after a full GC each), ${fmt(r.wall)} ms for all ${CONCURRENT}.`;
writeSection(
  'load',
  [
    '## Load: 200 concurrent mixed requests',
    '',
    `\`bench/load.bench.mjs\`: ${CONCURRENT} requests sent at once, through \`handleListRequest\` in the process and over HTTP (keep-alive, one socket each; client and server share one process and its event loop) to the reference server: a quarter cold first pages (a filter never seen, one of ${SORTS.length} sorts), a quarter warm first pages and half token pages (\`next-page\` of ${SORTS.length * 3} walks begun before the load). The memory source filters and sorts on its work lane in 4 ms slices, so a token page waits for at most a slice of someone else's cold query; clients take turns. Target: token pages p99 ≤ 50 ms while the cold first pages run.`,
    '',
    '| source | kind | requests | p50 (ms) | p99 (ms) | max (ms) |',
    '|---|---|---:|---:|---:|---:|',
    ...inProcess.rows,
    ...memory.rows,
    ...(postgres?.rows ?? []),
    '',
    rssLine('Memory, handler called directly', inProcess),
    rssLine('Memory over HTTP', memory),
    postgres ? rssLine('PostgreSQL', postgres) : postgresNote,
    '',
    `Machine: ${machineLine()}.`,
  ].join('\n'),
);
