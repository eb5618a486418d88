// `npm run bench:scale` (not part of `npm run bench` or `npm test`): a million employees.
// Starts the Debian PostgreSQL server the tests use (temporary data directory, loopback,
// free port), seeds ROWS generated employees with `wepql db-seed --rows`, creates the
// advised indexes with `wepql db-index --apply`, and times, side by side in one run, medians:
// hand-written SQL on the same indexes, the wepql handler called directly over a pg.Pool,
// and the same requests over HTTP; then the memory source over ROWS records.
// ROWS=100000 node bench/scale.bench.mjs for a quick run.
import { spawnSync, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createMemoryDataSource, createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { employeeSchema } from '../dist/sample/employee-schema.js';
import { createListServer } from '../dist/reference-server/index.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, employeePostgresSource } from '../dist/sample/employees.js';
import { generatedEmployee } from '../dist/sample/generate-employees.js';
import { fmt, machineLine, median, writeSection } from './harness.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const SAMPLES = 9;
const LIMIT = 50;
const SORT = 'LastName=Asc';
const FILTER = 'LastName.StartsWith(Sm)';
const ROUTE = '/api/public/clients/1/employees';
const SECRET = 'scale bench secret, sixteen bytes or more';
const AUTH = 'scale-bench-token';
let FAR = 10_000;
const CLI = new URL('../dist/cli/main.js', import.meta.url).pathname;

// --- a throw-away PostgreSQL server (as test/support/postgres-server.ts) -------------------
function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('bench:scale needs the Debian "postgresql" package');
  const v = readdirSync(root).filter((d) => existsSync(join(root, d, 'bin', 'initdb'))).sort((a, b) => b - a)[0];
  return join(root, v, 'bin');
}
async function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}
async function startPostgres() {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'wepql-scale-'));
  const root = process.getuid?.() === 0;
  if (root) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })));
  const run = (tool, args) => {
    const r = root ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { encoding: 'utf8', cwd: dir }) : spawnSync(join(bin, tool), args, { encoding: 'utf8', cwd: dir });
    if (r.status !== 0) throw new Error(`${tool} failed: ${r.stderr}`);
  };
  run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync']);
  const port = await freePort();
  const opts = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c shared_buffers=256MB`;
  run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '120', 'start']);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
function cli(args) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`wepql ${args[0]} failed: ${r.stderr}`);
  return { ms: performance.now() - t0, out: r.stdout };
}

async function timeMs(fn, samples = SAMPLES) {
  const times = [];
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}
const ok = (r) => {
  if (r.status !== 200) throw new Error(`bench: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};

const lines = [];
const pgServer = await startPostgres();
try {
  const seed = cli(['db-seed', '--database-url', pgServer.url, '--rows', String(ROWS)]);
  const filtersFile = join(tmpdir(), `wepql-scale-filters-${process.pid}.txt`);
  writeFileSync(filtersFile, `${FILTER}\n`);
  const indexed = cli(['db-index', '--database-url', pgServer.url, '--sort', SORT, '--filters', filtersFile, '--apply']);
  rmSync(filtersFile);
  console.log(`seeded ${fmt(ROWS)} rows in ${fmt(seed.ms / 1000, 1)} s; indexes in ${fmt(indexed.ms / 1000, 1)} s`);

  const pool = new pg.Pool({ connectionString: pgServer.url, max: 4 });
  const query = (sql, params) => pool.query(sql, params);
  const { foldCollation } = await chooseFoldCollation(query);
  const version = (await query('SHOW server_version', [])).rows[0].server_version;
  const { source, clientExists } = employeePostgresSource(query, foldCollation);
  const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
  const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
  const call = async (q) => ok(await handleListRequest({ query: q }, options));
  const app = createListServer({ source, clientExists, authToken: AUTH, secret: SECRET, ttlSeconds: 3600 });
  const { url } = await app.listen();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (q) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${url}${ROUTE}?${new URLSearchParams(q)}`, { agent, headers: { authorization: `Bearer ${AUTH}` } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`))));
      });
      req.on('error', reject);
      req.end();
    });

  // Tokens to move from: page 1, page FAR - 1 (reached by a jump), and page FAR.
  const first = await call({ limit: String(LIMIT), sort: SORT });
  const total = first.Pagination.TotalRecords;
  FAR = Math.min(FAR, first.Pagination.TotalPages - 1);
  const atFarMinus1 = await call({ 'data-token': first.Pagination.DataToken, page: String(FAR - 1) });
  const atFar = await call({ 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' });
  await call({ limit: String(LIMIT), sort: SORT, filter: FILTER }); // warms the filtered plan before it is timed

  // Hand-written SQL: what a careful developer writes for the same pages, on the same indexes.
  const fold = foldCollation === undefined ? '' : ` COLLATE "${foldCollation}"`;
  const key = `lower("LastName"${fold})`;
  const scope = `"ClientId" = $1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;
  const order = `ORDER BY ${key} ASC NULLS FIRST, "Id" ASC LIMIT ${LIMIT}`;
  const lastOf = async (sql, params) => (await pool.query(`SELECT "LastName", "Id" FROM employees WHERE ${sql}`, params)).rows[0];
  const k2 = await lastOf(`"Id" = $1`, [first.Data[LIMIT - 1].Id]);
  const kFar = await lastOf(`"Id" = $1`, [atFarMinus1.Data[LIMIT - 1].Id]);
  const kFarFirst = await lastOf(`"Id" = $1`, [atFar.Data[0].Id]);
  const hand = {
    first: () => Promise.all([pool.query(`SELECT COUNT(*) FROM employees WHERE ${scope}`, [1]), pool.query(`SELECT "Record" FROM employees WHERE ${scope} ${order}`, [1])]),
    next2: () => pool.query(`SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") > (lower($2${fold}), $3) ${order}`, [1, k2.LastName, k2.Id]),
    nextFar: () => pool.query(`SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") > (lower($2${fold}), $3) ${order}`, [1, kFar.LastName, kFar.Id]),
    prev: () =>
      pool.query(`SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") < (lower($2${fold}), $3) ORDER BY ${key} DESC NULLS LAST, "Id" DESC LIMIT ${LIMIT}`, [1, kFarFirst.LastName, kFarFirst.Id]),
    jump: () => pool.query(`SELECT "Record" FROM employees WHERE ${scope} ${order} OFFSET ${(Math.floor(FAR / 2) - 1) * LIMIT}`, [1]),
    filter: () =>
      Promise.all([
        pool.query(`SELECT COUNT(*) FROM employees WHERE ${scope} AND ${key} LIKE $2`, [1, 'sm%']),
        pool.query(`SELECT "Record" FROM employees WHERE ${scope} AND ${key} LIKE $2 ${order}`, [1, 'sm%']),
      ]),
  };
  const requests = {
    first: { limit: String(LIMIT), sort: SORT },
    next2: { 'data-token': first.Pagination.DataToken, 'next-page': 'true' },
    nextFar: { 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' },
    prev: { 'data-token': atFar.Pagination.DataToken, 'prev-page': 'true' },
    jump: { 'data-token': first.Pagination.DataToken, page: String(Math.floor(FAR / 2)) },
    filter: { limit: String(LIMIT), sort: SORT, filter: FILTER },
  };
  const titles = {
    first: `first page, sort=${SORT}`,
    next2: 'next-page at page 2',
    nextFar: `next-page at page ${fmt(FAR)}`,
    prev: `prev-page from page ${fmt(FAR)}`,
    jump: `page=${Math.floor(FAR / 2)} jump (OFFSET)`,
    filter: `first page, filter=${FILTER}, same sort`,
  };
  const pgRows = [];
  for (const name of Object.keys(titles)) {
    // Requests that take seconds get fewer samples.
    const n = ['first', 'jump', 'filter'].includes(name) ? 3 : SAMPLES;
    const handMs = await timeMs(hand[name], n);
    const directMs = await timeMs(() => call(requests[name]), n);
    const httpMs = await timeMs(() => get(requests[name]), n);
    pgRows.push({ name, handMs, directMs, httpMs });
    console.log(`${titles[name]}: hand ${handMs.toFixed(2)} ms, handler ${directMs.toFixed(2)} ms, HTTP ${httpMs.toFixed(2)} ms`);
  }
  agent.destroy();
  await app.close();
  await pool.end();

  const page2 = pgRows.find((r) => r.name === 'next2').directMs;
  lines.push(
    `## Scale: ${fmt(ROWS)} employees`,
    '',
    `PostgreSQL ${version} (Debian package; fold collation ${foldCollation ?? 'pg_unicode_fast'}), seeded by \`wepql db-seed --rows ${ROWS}\` in ${fmt(seed.ms / 1000, 1)} s,`,
    `indexed by \`wepql db-index --sort ${SORT} --filters (${FILTER}) --apply\` in ${fmt(indexed.ms / 1000, 1)} s. Client 1 holds ${fmt(total)} live rows; limit ${LIMIT}.`,
    `Medians of ${SAMPLES} (3 for requests that take seconds); "hand" is hand-written SQL on the same indexes (row-value keyset, COUNT and page concurrently);`,
    '"handler" is `handleListRequest` over a pg.Pool (token signing, compression and verification included); "HTTP" adds the reference server on 127.0.0.1.',
    '',
    '| request | hand SQL (ms) | handler (ms) | handler / hand | HTTP (ms) | vs next-page at page 2 |',
    '|---|---:|---:|---:|---:|---:|',
    ...pgRows.map((r) =>
      `| ${titles[r.name]} | ${r.handMs.toFixed(2)} | ${r.directMs.toFixed(2)} | ${(r.directMs / r.handMs).toFixed(2)}× | ${r.httpMs.toFixed(2)} | ${(r.directMs / page2).toFixed(2)}× |`,
    ),
    '',
  );
} finally {
  pgServer.stop();
}

// --- the memory source ---------------------------------------------------------------------
{
  const t0 = performance.now();
  // Through JSON, in chunks, so the records are the compact objects a server that parsed its data holds.
  const records = [];
  for (let start = 1; start <= ROWS; start += 10_000) {
    const chunk = Array.from({ length: Math.min(10_000, ROWS - start + 1) }, (_, i) => generatedEmployee(start + i));
    records.push(...JSON.parse(JSON.stringify(chunk)));
  }
  const built = performance.now() - t0;
  const source = createMemoryDataSource(records, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' });
  const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
  const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
  const call = async (q) => ok(await handleListRequest({ query: q }, options));
  // A first page with a cold cache each sample: a filter that every record passes, different text each time.
  let s = 0;
  const firstMs = await timeMs(() => call({ limit: String(LIMIT), sort: SORT, filter: `Id.GreaterThan(-${++s})` }), 5);
  await new Promise((r) => setTimeout(r, 0));
  const first = await call({ limit: String(LIMIT), sort: SORT });
  await new Promise((r) => setTimeout(r, 50)); // the full sort runs right after the first response
  const sortedFirst = await timeMs(() => call({ limit: String(LIMIT), sort: SORT }));
  const atFarMinus1 = await call({ 'data-token': first.Pagination.DataToken, page: String(FAR - 1) });
  const atFar = await call({ 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' });
  const m = {
    next2: await timeMs(() => call({ 'data-token': first.Pagination.DataToken, 'next-page': 'true' })),
    nextFar: await timeMs(() => call({ 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' })),
    prev: await timeMs(() => call({ 'data-token': atFar.Pagination.DataToken, 'prev-page': 'true' })),
    jump: await timeMs(() => call({ 'data-token': first.Pagination.DataToken, page: String(Math.floor(FAR / 2)) })),
  };
  const filteredFirst = await timeMs(() => call({ limit: String(LIMIT), sort: SORT, filter: `${FILTER};Id.GreaterThan(${s++})` }), 5);
  // Reference: what serving a page cost before the cache — filter, sort and slice every time.
  const { query: evaluate } = await import('../dist/index.js');
  const naiveMs = await timeMs(
    () => evaluate(records, { schema: employeeSchema, filter: 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)', sort: `${SORT};Id=Asc` }).slice(0, LIMIT),
    3,
  );
  console.log({ built, firstMs, sortedFirst, ...m, filteredFirst, naiveMs });
  lines.push(
    `Memory source, ${fmt(ROWS)} generated records (built in ${fmt(built / 1000, 1)} s), \`handleListRequest\` called directly, medians:`,
    '',
    '| request | handler (ms) | vs next-page at page 2 |',
    '|---|---:|---:|',
    `| first page, cold (filter every record + partial sort) | ${firstMs.toFixed(1)} | ${(firstMs / m.next2).toFixed(1)}× |`,
    `| first page again (count and sorted order cached) | ${sortedFirst.toFixed(2)} | ${(sortedFirst / m.next2).toFixed(2)}× |`,
    `| next-page at page 2 | ${m.next2.toFixed(2)} | 1.00× |`,
    `| next-page at page ${fmt(FAR)} | ${m.nextFar.toFixed(2)} | ${(m.nextFar / m.next2).toFixed(2)}× |`,
    `| prev-page from page ${fmt(FAR)} | ${m.prev.toFixed(2)} | ${(m.prev / m.next2).toFixed(2)}× |`,
    `| page=${Math.floor(FAR / 2)} jump | ${m.jump.toFixed(2)} | ${(m.jump / m.next2).toFixed(2)}× |`,
    `| first page, filter=${FILTER}, same sort (new filter each sample) | ${filteredFirst.toFixed(1)} | ${(filteredFirst / m.next2).toFixed(1)}× |`,
    `| reference: \`query()\` filter + full sort + slice, as every page cost before | ${naiveMs.toFixed(1)} | ${(naiveMs / m.next2).toFixed(1)}× |`,
    '',
    `Machine: ${machineLine()}.`,
  );
}
writeSection('scale', lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
