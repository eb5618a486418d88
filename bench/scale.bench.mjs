// `npm run bench:scale` (not part of `npm run bench` or `npm test`): a million employees.
// Starts the Debian PostgreSQL server the tests use (temporary data directory, loopback,
// free port), seeds ROWS generated employees with `wepql db-seed --rows`, creates the
// advised indexes with `wepql db-index --trigram --apply`, and times, side by side in one run,
// medians for a fixed matrix of requests: the best hand-written SQL a DBA writes on the same
// indexes (prefix ranges, row-value keyset, deferred join for jumps), the SQL `toSql` writes
// for the same page, the wepql handler called directly over a pg.Pool, and the same requests
// over HTTP, with the top of each EXPLAIN plan; then the memory source over ROWS records.
// ROWS=100000 node bench/scale.bench.mjs for a quick run.
import { spawnSync, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createMemoryDataSource } from '../dist/sources/index.js';
import { createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { toSql } from '../dist/sql/index.js';
import { employeeSchema } from '../dist/index.js';
import { createListServer } from '../dist/reference-server/index.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, employeePostgresSource } from '../dist/sample/employees.js';
import { generatedEmployee } from '../dist/sample/generate-employees.js';
import { fmt, machineLine, writeSection, medianAsyncMs, keepAliveGetter } from './harness.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const SAMPLES = 9;
const LIMIT = 50;
const SORT = 'LastName=Asc';
const DATE_SORT = 'CreatedOn=Desc';
const SCOPE = 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)';
// The filtered first pages of the matrix: filter, sort, and the hand-written condition on the same indexes.
const FILTERED = [
  { name: 'startsWith', filter: 'LastName.StartsWith(Sm)', sort: SORT, hand: (key) => `${key} >= 'sm' AND ${key} < 'sn'` },
  { name: 'contains', filter: 'Ssn.Contains(4242)', sort: SORT, hand: (_key, fold) => `lower("Ssn"${fold}) LIKE '%4242%'` },
  { name: 'equal', filter: 'Gender.Equal(1)', sort: SORT, hand: () => `"Gender" = 1` },
  {
    name: 'range',
    filter: 'CreatedOn.GreaterThanOrEqual(2000-01-01);CreatedOn.LessThan(2000-02-01)',
    sort: DATE_SORT,
    hand: () => `"CreatedOn" >= '2000-01-01T00:00:00Z' AND "CreatedOn" < '2000-02-01T00:00:00Z'`,
  },
  { name: 'inArray', filter: 'Gender.InArray(1,2,3)', sort: SORT, hand: () => `"Gender" IN (1, 2, 3)` },
];
const ROUTE = '/api/public/clients/1/employees';
const SECRET = 'scale bench secret, sixteen bytes or more';
const AUTH = 'scale-bench-token';
let FAR = 10_000;
const CLI = new URL('../dist/cli/main.js', import.meta.url).pathname;

// --- a throw-away PostgreSQL server (as test/support/postgres-server.ts) -------------------
function postgresBin() {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('bench:scale needs the Debian "postgresql" package');
  const v = readdirSync(root)
    .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
    .sort((a, b) => b - a)[0];
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
  if (root)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    );
  const run = (tool, args) => {
    const r = root
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { encoding: 'utf8', cwd: dir })
      : spawnSync(join(bin, tool), args, { encoding: 'utf8', cwd: dir });
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

const timeMs = (fn, samples = SAMPLES) => medianAsyncMs(fn, samples);
const ok = (r) => {
  if (r.status !== 200) throw new Error(`bench: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};

const lines = [];
const pgServer = await startPostgres();
try {
  const loadBefore = os.loadavg()[0].toFixed(1);
  const seed = cli(['db-seed', '--database-url', pgServer.url, '--rows', String(ROWS)]);
  const filtersFile = join(tmpdir(), `wepql-scale-filters-${process.pid}.txt`);
  writeFileSync(filtersFile, `${FILTERED.map((f) => f.filter).join('\n')}\n`);
  const indexed = cli([
    'db-index',
    '--database-url',
    pgServer.url,
    '--sort',
    SORT,
    '--sort',
    DATE_SORT,
    '--filters',
    filtersFile,
    '--trigram',
    '--apply',
  ]);
  rmSync(filtersFile);
  console.log(`seeded ${fmt(ROWS)} rows in ${fmt(seed.ms / 1000, 1)} s; indexes in ${fmt(indexed.ms / 1000, 1)} s`);
  console.log(indexed.out);

  const pool = new pg.Pool({ connectionString: pgServer.url, max: 4 });
  const query = (sql, params) => pool.query(sql, params);
  // A quiet table, as in production: the visibility map set, so counts and jump subqueries are index-only.
  await query('VACUUM ANALYZE employees', []);
  const { foldCollation } = await chooseFoldCollation(query);
  const version = (await query('SHOW server_version', [])).rows[0].server_version;
  const { source, clientExists } = employeePostgresSource(query, foldCollation);
  const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
  const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
  const call = async (q) => ok(await handleListRequest({ query: q }, options));
  const app = createListServer({ source, clientExists, authToken: AUTH, secret: SECRET, ttlSeconds: 3600 });
  const { url } = await app.listen();
  const { agent, get } = keepAliveGetter(`${url}${ROUTE}`, { authorization: `Bearer ${AUTH}` }, { parse: false });

  // Tokens to move from: page 1, page FAR - 1 (reached by a jump), and page FAR.
  const first = await call({ limit: String(LIMIT), sort: SORT });
  const total = first.Pagination.TotalRecords;
  FAR = Math.min(FAR, first.Pagination.TotalPages - 1);
  const JUMP = Math.floor(FAR / 2);
  const atFarMinus1 = await call({ 'data-token': first.Pagination.DataToken, page: String(FAR - 1) });
  const atFar = await call({ 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' });

  // Hand-written SQL: what a DBA writes for the same pages, on the same indexes.
  const fold = foldCollation === undefined ? '' : ` COLLATE "${foldCollation}"`;
  const key = `lower("LastName"${fold})`;
  const scope = `"ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;
  const orderOf = (sort) => (sort === SORT ? `${key} ASC NULLS FIRST, "Id" ASC` : `"CreatedOn" DESC NULLS LAST, "Id" ASC`);
  const lastOf = async (id) => (await pool.query(`SELECT "LastName", "Id" FROM employees WHERE "Id" = $1`, [id])).rows[0];
  const k2 = await lastOf(first.Data[LIMIT - 1].Id);
  const kFar = await lastOf(atFarMinus1.Data[LIMIT - 1].Id);
  const kFarFirst = await lastOf(atFar.Data[0].Id);
  const order = `ORDER BY ${orderOf(SORT)} LIMIT ${LIMIT}`;
  const hand = {
    first: {
      count: `SELECT COUNT(*) FROM employees WHERE ${scope}`,
      page: `SELECT "Record" FROM employees WHERE ${scope} ${order}`,
      params: [],
    },
    next2: {
      page: `SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") > (lower($1${fold}), $2) ${order}`,
      params: [k2.LastName, k2.Id],
    },
    nextFar: {
      page: `SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") > (lower($1${fold}), $2) ${order}`,
      params: [kFar.LastName, kFar.Id],
    },
    prev: {
      page: `SELECT "Record" FROM employees WHERE ${scope} AND (${key}, "Id") < (lower($1${fold}), $2) ORDER BY ${key} DESC NULLS LAST, "Id" DESC LIMIT ${LIMIT}`,
      params: [kFarFirst.LastName, kFarFirst.Id],
    },
    jump: {
      page:
        `SELECT e."Record" FROM employees e JOIN (SELECT "Id" FROM employees WHERE ${scope} ORDER BY ${orderOf(SORT)} LIMIT ${LIMIT} OFFSET ${(JUMP - 1) * LIMIT}) p` +
        ` USING ("Id") ORDER BY ${key.replace('"LastName"', 'e."LastName"')} ASC NULLS FIRST, e."Id" ASC`,
      params: [],
    },
  };
  for (const f of FILTERED) {
    const where = `${scope} AND ${f.hand(key, fold)}`;
    hand[f.name] = {
      count: `SELECT COUNT(*) FROM employees WHERE ${where}`,
      page: `SELECT "Record" FROM employees WHERE ${where} ORDER BY ${orderOf(f.sort)} LIMIT ${LIMIT}`,
      params: [],
    };
  }
  const runHand = (h) => Promise.all([h.count === undefined ? undefined : pool.query(h.count, []), pool.query(h.page, h.params)]);

  // wepql's SQL for the same page, as toSql writes it (what a data source sends).
  const sqlOptions = {
    dialect: 'postgres',
    schema: employeeSchema,
    tieBreaker: 'Id',
    ...(foldCollation === undefined ? {} : { foldCollation }),
  };
  const wepqlStatement = (filter, sort, extra = {}, seek) => {
    const f = toSql({ filter: filter ? `${SCOPE};${filter}` : SCOPE, sort, ...(seek ? { seek } : {}) }, { ...sqlOptions, ...extra });
    const count = toSql({ filter: filter ? `${SCOPE};${filter}` : SCOPE }, sqlOptions);
    return {
      count: seek || extra.deferredJoin ? undefined : `SELECT COUNT(*) FROM employees WHERE ${count.where}`,
      countParams: count.params,
      page: `SELECT "Record" FROM employees WHERE ${f.where} ORDER BY ${f.orderBy}${extra.deferredJoin ? '' : ` LIMIT ${LIMIT}`}`,
      params: f.params,
    };
  };
  const wepql = {
    first: wepqlStatement('', SORT),
    next2: wepqlStatement('', SORT, {}, { after: [k2.LastName, k2.Id] }),
    nextFar: wepqlStatement('', SORT, {}, { after: [kFar.LastName, kFar.Id] }),
    prev: wepqlStatement('', SORT, {}, { before: [kFarFirst.LastName, kFarFirst.Id], firstKey: 'not-null' }),
    jump: wepqlStatement('', SORT, { deferredJoin: { table: 'employees', limit: LIMIT, offset: (JUMP - 1) * LIMIT } }),
  };
  for (const f of FILTERED) wepql[f.name] = wepqlStatement(f.filter, f.sort);
  const runWepql = (w) =>
    Promise.all([w.count === undefined ? undefined : pool.query(w.count, w.countParams), pool.query(w.page, w.params)]);

  // The top of the plan: the node types down to the first scan, with the index it reads.
  const planOf = async (sql, params) => {
    const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) ${sql}`, params);
    const names = [];
    for (let node = rows[0]['QUERY PLAN'][0].Plan; node !== undefined; node = node.Plans?.[0]) {
      if (node['Node Type'] === 'Limit') continue;
      names.push(`${node['Node Type']}${node['Index Name'] ? ` (${node['Index Name'].replace(/^employees_wepql_/, '…')})` : ''}`);
      if (/Scan$/.test(node['Node Type']) && node['Node Type'] !== 'Bitmap Heap Scan') break;
    }
    return names.join(' › ');
  };

  const requests = {
    first: { limit: String(LIMIT), sort: SORT },
    next2: { 'data-token': first.Pagination.DataToken, 'next-page': 'true' },
    nextFar: { 'data-token': atFarMinus1.Pagination.DataToken, 'next-page': 'true' },
    prev: { 'data-token': atFar.Pagination.DataToken, 'prev-page': 'true' },
    jump: { 'data-token': first.Pagination.DataToken, page: String(JUMP) },
  };
  const titles = {
    first: `first page, sort=${SORT}`,
    next2: 'next-page at page 2',
    nextFar: `next-page at page ${fmt(FAR)}`,
    prev: `prev-page from page ${fmt(FAR)}`,
    jump: `page=${JUMP} jump`,
  };
  for (const f of FILTERED) {
    requests[f.name] = { limit: String(LIMIT), sort: f.sort, filter: f.filter };
    titles[f.name] = `first page, filter=${f.filter}, sort=${f.sort}`;
  }
  const pgRows = [];
  for (const name of Object.keys(titles)) {
    // Requests that take seconds get fewer samples.
    const probe = performance.now();
    await runHand(hand[name]);
    const n = performance.now() - probe > 300 ? 3 : SAMPLES;
    const handMs = await timeMs(() => runHand(hand[name]), n);
    const sqlMs = await timeMs(() => runWepql(wepql[name]), n);
    const directMs = await timeMs(() => call(requests[name]), n);
    const httpMs = await timeMs(() => get(requests[name]), n);
    const handPlan = await planOf(hand[name].page, hand[name].params);
    const sqlPlan = await planOf(wepql[name].page, wepql[name].params);
    const countPlan = wepql[name].count === undefined ? '' : await planOf(wepql[name].count, wepql[name].countParams);
    pgRows.push({ name, handMs, sqlMs, directMs, httpMs, handPlan, sqlPlan, countPlan });
    console.log(
      `${titles[name]}: hand ${handMs.toFixed(2)} ms, toSql ${sqlMs.toFixed(2)} ms, handler ${directMs.toFixed(2)} ms, HTTP ${httpMs.toFixed(2)} ms; ${sqlPlan}; count ${countPlan}`,
    );
  }
  agent.destroy();
  await app.close();
  await pool.end();

  const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
  lines.push(
    `## Scale: ${fmt(ROWS)} employees`,
    '',
    `PostgreSQL ${version} (Debian package; fold collation ${foldCollation ?? 'pg_unicode_fast'}), seeded by \`wepql db-seed --rows ${ROWS}\` in ${fmt(seed.ms / 1000, 1)} s,`,
    `indexed by \`wepql db-index --sort ${SORT} --sort ${DATE_SORT} --filters (the filters below) --trigram --apply\` in ${fmt(indexed.ms / 1000, 1)} s, then \`VACUUM ANALYZE\`.`,
    `Client 1 holds ${fmt(total)} live rows; limit ${LIMIT}. Load average ${loadBefore} before seeding (2 cores shared with other work: compare within this table, not across runs).`,
    `Medians of ${SAMPLES} (3 for requests that take more than 300 ms). Every first page includes its \`COUNT(*)\`, run concurrently with the page.`,
    '"hand": the SQL a DBA writes on the same indexes (prefix as a range, row-value keyset, deferred join for the jump);',
    '"toSql": the statements `toSql` writes for the same page (with `seek`, and `deferredJoin` for the jump), run over the same pool;',
    '"handler": `handleListRequest` over a pg.Pool through the PostgreSQL data source (tokens included); "HTTP" adds the reference server on 127.0.0.1.',
    '',
    "| request | hand (ms) | toSql (ms) | toSql / hand | handler (ms) | handler / hand | HTTP (ms) | plan of toSql's page | plan of its count |",
    '|---|---:|---:|---:|---:|---:|---:|---|---|',
    ...pgRows.map(
      (r) =>
        `| ${titles[r.name]} | ${r.handMs.toFixed(2)} | ${r.sqlMs.toFixed(2)} | ${ratio(r.sqlMs, r.handMs)} | ${r.directMs.toFixed(2)} | ${ratio(r.directMs, r.handMs)} | ${r.httpMs.toFixed(2)} | ${r.sqlPlan} | ${r.countPlan} |`,
    ),
    '',
    'Hand plans (page): ' + pgRows.map((r) => `${r.name}: ${r.handPlan}`).join('; ') + '.',
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
  // Each filtered first page cold: a new filter text each sample, so nothing is cached.
  const filteredFirst = {};
  for (const f of FILTERED)
    filteredFirst[f.name] = await timeMs(
      () => call({ limit: String(LIMIT), sort: f.sort, filter: `${f.filter};Id.GreaterThan(-${++s})` }),
      5,
    );
  // Reference: what serving a page cost before the cache — filter, sort and slice every time.
  const { query: evaluate } = await import('../dist/index.js');
  const naiveMs = await timeMs(
    () =>
      evaluate(records, {
        schema: employeeSchema,
        filter: 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)',
        sort: `${SORT};Id=Asc`,
      }).slice(0, LIMIT),
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
    ...FILTERED.map(
      (f) =>
        `| first page, filter=${f.filter}, sort=${f.sort} (cold) | ${filteredFirst[f.name].toFixed(1)} | ${(filteredFirst[f.name] / m.next2).toFixed(1)}× |`,
    ),
    `| reference: \`query()\` filter + full sort + slice, as every page cost before | ${naiveMs.toFixed(1)} | ${(naiveMs / m.next2).toFixed(1)}× |`,
    '',
    `Machine: ${machineLine()}.`,
  );
}
writeSection('scale', lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
