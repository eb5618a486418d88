// `npm run bench:shards`: one list endpoint at 10^6 rows on a coordinator whose two hash partitions on
// "ClientId" are postgres_fdw foreign tables on two shard clusters, against the same requests on a single
// server. Four throw-away PostgreSQL 15 clusters (scripts/topology/clusters.mjs): the single server, seeded by
// `wepql db-seed --rows N` and indexed by `wepql db-index --sort LastName=Asc --apply`; the coordinator and its
// shards, seeded by `wepql db-seed --rows N --shards URL,URL` and indexed by `wepql db-index --shards URL,URL
// --sort LastName=Asc --apply`; then VACUUM ANALYZE everywhere. Each is served by the reference server
// (`createListServer`, one per topology, the sharded source with `foldedColumns`), and each request shape is timed
// over HTTP and as the statements the data source sent for it, replayed on the database one after another;
// medians of alternating single/sharded samples, and the ratio sharded ÷ single.
//
// WEPQL_BENCH_ROWS=10000 node bench/shards.bench.mjs for a quick run (WEPQL_BENCH_SAMPLES=… for more samples).
// Every cluster is stopped and deleted at the end, on an error and on Ctrl-C. Not part of `npm run bench`.
import os from 'node:os';
import pg from 'pg';
import { createListServer } from '../dist/reference-server/index.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, EMPLOYEE_TABLE, RECORD_COLUMN } from '../dist/sample/employees.js';
import { employeeSchema } from '../dist/index.js';
import { createPostgresDataSource } from '../dist/sources/index.js';
import { startCluster, topologyUnavailable } from '../scripts/topology/clusters.mjs';
import { fmt, machineLine, median, medianAsyncMs, writeSection, keepAliveGetter } from './harness.mjs';
import { cli } from './postgres-server.mjs';

const ROWS = Number(process.env.WEPQL_BENCH_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.WEPQL_BENCH_SAMPLES ?? 7);
const LIMIT = 100;
const CLIENT = 1;
const ROUTE = `/api/public/clients/${CLIENT}/employees`;
const AUTH = 'shards-bench-token';
const SORT = 'LastName=Asc';
const FILTER = 'LastName.StartsWith(Sm)';

const unavailable = topologyUnavailable('shards');
if (unavailable !== undefined) {
  console.error(`bench:shards needs the sharded topology: ${unavailable}`);
  process.exit(1);
}

// --- the clusters, stopped whatever happens ---------------------------------------------------
const clusters = [];
let stopped = false;
const stopClusters = () => {
  if (stopped) return;
  stopped = true;
  for (const c of [...clusters].reverse()) {
    try {
      c.stop();
    } catch (e) {
      console.error(`stopping ${c.name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`${signal}: stopping the clusters`);
    stopClusters();
    process.exit(130);
  });
}

const timed = (what, args) => {
  const t0 = performance.now();
  const out = cli(args);
  const s = (performance.now() - t0) / 1000;
  console.log(`${what}: ${fmt(s, 1)} s\n${out.trimEnd()}`);
  return { s, out };
};

/** GET over one keep-alive socket; rejects on a status other than 200. */
const getter = (url) => keepAliveGetter(`${url}${ROUTE}`, { authorization: `Bearer ${AUTH}` });

/**
 * One topology served: a pool on the database the server reads, the source recording every statement it
 * sends (to replay them as "the data source's statements"), and the reference server in front of it.
 */
async function serve(name, databaseUrl, foldedColumns) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  const query = (sql, params) => pool.query(sql, params);
  const { foldCollation } = await chooseFoldCollation(query);
  let sent = [];
  const recording = (sql, params) => {
    sent.push({ sql, params });
    return query(sql, params);
  };
  const source = createPostgresDataSource({
    query: recording,
    table: EMPLOYEE_TABLE,
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: RECORD_COLUMN,
    ...(foldCollation === undefined ? {} : { foldCollation }),
    ...(foldedColumns ? { foldedColumns: true } : {}),
    ...EMPLOYEE_SCOPE,
  });
  const clientExists = async (id) => (await query(`SELECT 1 FROM "${EMPLOYEE_TABLE}" WHERE "ClientId" = $1 LIMIT 1`, [id])).rows.length > 0;
  const app = createListServer({ source, clientExists, authToken: AUTH, ttlSeconds: 3600 });
  const { url } = await app.listen();
  const { get, close } = getter(url);
  return {
    name,
    pool,
    query,
    get,
    /** The request's answer and the statements the source sent for it. */
    async recorded(q) {
      sent = [];
      const body = await get(q);
      const statements = sent;
      sent = [];
      return { body, statements };
    },
    async close() {
      close();
      await app.close();
      await pool.end();
    },
  };
}

const ids = (body) => body.Data.map((r) => r.Id).join(',');

const lines = [];
const loadBefore = os.loadavg().map((l) => l.toFixed(1));
const served = [];
try {
  const single = await startCluster('bench-single');
  clusters.push(single);
  const coordinator = await startCluster('bench-coordinator');
  clusters.push(coordinator);
  const shards = [];
  for (const i of [0, 1]) {
    const shard = await startCluster(`bench-shard${i}`);
    clusters.push(shard);
    shards.push(shard);
  }
  const shardList = shards.map((s) => s.url).join(',');

  // --- seed and index -----------------------------------------------------------------------
  const seedSingle = timed('single: db-seed', ['db-seed', '--database-url', single.url, '--rows', String(ROWS)]);
  const indexSingle = timed('single: db-index', ['db-index', '--database-url', single.url, '--sort', SORT, '--apply']);
  const seedSharded = timed('sharded: db-seed', [
    'db-seed',
    '--database-url',
    coordinator.url,
    '--rows',
    String(ROWS),
    '--shards',
    shardList,
  ]);
  const indexSharded = timed('sharded: db-index', [
    'db-index',
    '--database-url',
    coordinator.url,
    '--shards',
    shardList,
    '--sort',
    SORT,
    '--apply',
  ]);
  const analyze = async (url, sql) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await analyze(single.url, `VACUUM ANALYZE "${EMPLOYEE_TABLE}"`);
  const split = [];
  for (const [i, shard] of shards.entries()) {
    await analyze(shard.url, `VACUUM ANALYZE "${EMPLOYEE_TABLE}_p${i}"`);
    const { rows } = await analyze(
      shard.url,
      `SELECT count(*)::int AS n, count(DISTINCT "ClientId")::int AS clients, count(*) FILTER (WHERE "ClientId" = ${CLIENT})::int AS mine FROM "${EMPLOYEE_TABLE}_p${i}"`,
    );
    split.push(rows[0]);
  }
  const version = (await analyze(single.url, 'SHOW server_version')).rows[0].server_version;
  console.log('rows per shard', split);

  const one = await serve('single', single.url, false);
  served.push(one);
  const sharded = await serve('sharded', coordinator.url, true);
  served.push(sharded);

  // --- the request shapes -------------------------------------------------------------------
  // The tokens come from the single server; both servers share no secret, so each topology walks with its own.
  const shapesOf = async (s) => {
    const first = await s.recorded({ limit: String(LIMIT), sort: SORT });
    const filtered = await s.recorded({ limit: String(LIMIT), sort: SORT, filter: FILTER });
    const token = first.body.Pagination.DataToken;
    const deep = Math.max(2, Math.floor(first.body.Pagination.TotalPages / 2));
    const next2 = await s.recorded({ 'data-token': token, 'next-page': 'true' });
    const jumpQ = { 'data-token': token, page: String(deep) };
    const jump = await s.recorded(jumpQ);
    const deepToken = jump.body.Pagination.DataToken;
    const nextDeepQ = { 'data-token': deepToken, 'next-page': 'true' };
    const nextDeep = await s.recorded(nextDeepQ);
    const prevQ = { 'data-token': nextDeep.body.Pagination.DataToken, 'prev-page': 'true' };
    const prev = await s.recorded(prevQ);
    return {
      total: first.body.Pagination.TotalRecords,
      pages: first.body.Pagination.TotalPages,
      deep,
      shapes: {
        first: { q: { limit: String(LIMIT), sort: SORT }, ...first },
        filtered: { q: { limit: String(LIMIT), sort: SORT, filter: FILTER }, ...filtered },
        next2: { q: { 'data-token': token, 'next-page': 'true' }, ...next2 },
        nextDeep: { q: nextDeepQ, ...nextDeep },
        prev: { q: prevQ, ...prev },
        jump: { q: jumpQ, ...jump },
      },
    };
  };
  const a = await shapesOf(one);
  const b = await shapesOf(sharded);
  if (a.total !== b.total) throw new Error(`totals differ: single ${a.total}, sharded ${b.total}`);
  for (const k of Object.keys(a.shapes)) {
    if (ids(a.shapes[k].body) !== ids(b.shapes[k].body)) throw new Error(`${k}: the single server and the shards return other rows`);
    if (a.shapes[k].body.Data.length === 0) throw new Error(`${k}: an empty page`);
  }
  const titles = {
    first: `first page with its total, \`sort=${SORT}\`, no filter`,
    filtered: `first page with its total, \`filter=${FILTER}\``,
    next2: '`next-page` to page 2',
    nextDeep: `\`next-page\` to page ${fmt(a.deep + 1)} (from the token of the jump)`,
    prev: `\`prev-page\` back to page ${fmt(a.deep)}`,
    jump: `\`page=${fmt(a.deep)}\` jump (OFFSET ${fmt((a.deep - 1) * LIMIT)})`,
  };

  // --- timing: alternating single / sharded samples -----------------------------------------
  const replay = (s, statements) => async () => {
    for (const st of statements) await s.query(st.sql, st.params);
  };
  const figures = {};
  for (const k of Object.keys(titles)) {
    const t = { http: { single: [], sharded: [] }, sql: { single: [], sharded: [] } };
    const subjects = [
      ['single', one, a.shapes[k]],
      ['sharded', sharded, b.shapes[k]],
    ];
    // One untimed round: the pages and index blocks are in the caches of both before the first sample.
    for (const [, s, shape] of subjects) {
      await s.get(shape.q);
      await replay(s, shape.statements)();
    }
    for (let i = 0; i < SAMPLES; i++) {
      for (const [who, s, shape] of i % 2 === 0 ? subjects : [...subjects].reverse()) {
        t.http[who].push(await medianAsyncMs(() => s.get(shape.q), 1));
        t.sql[who].push(await medianAsyncMs(replay(s, shape.statements), 1));
      }
    }
    figures[k] = {
      http: { single: median(t.http.single), sharded: median(t.http.sharded) },
      sql: { single: median(t.sql.single), sharded: median(t.sql.sharded) },
      statements: { single: a.shapes[k].statements.length, sharded: b.shapes[k].statements.length },
    };
    console.log(k, figures[k]);
  }

  // --- the same statements with the shards JIT-compiling (PostgreSQL's default; createPostgresTable gives the servers jit=off) ---
  // Changing a foreign server's options drops the coordinator's cached connections to it: the next statement opens
  // sessions that run with the new setting.
  const setJit = async (value) => {
    for (const i of shards.keys())
      await analyze(coordinator.url, `ALTER SERVER "${EMPLOYEE_TABLE}_shard${i}" OPTIONS (SET options '-c jit=${value}')`);
  };
  await setJit('on');
  for (const k of Object.keys(titles)) {
    const t = { single: [], sharded: [] };
    await replay(sharded, b.shapes[k].statements)();
    for (let i = 0; i < SAMPLES; i++) {
      const order = i % 2 === 0 ? ['single', 'sharded'] : ['sharded', 'single'];
      for (const who of order) {
        const [s, shape] = who === 'single' ? [one, a.shapes[k]] : [sharded, b.shapes[k]];
        t[who].push(await medianAsyncMs(replay(s, shape.statements), 1));
      }
    }
    figures[k].jitOn = { single: median(t.single), sharded: median(t.sharded) };
    console.log(k, 'jit on', figures[k].jitOn);
  }
  await setJit('off');

  // --- the sharded first page's plan: one foreign scan per statement, its Remote SQL ----------
  const explain = async (s, st) =>
    (await s.query(`EXPLAIN (VERBOSE, COSTS OFF) ${st.sql}`, st.params)).rows.map((r) => r['QUERY PLAN']).join('\n');
  const remoteOf = async (k) => {
    const out = [];
    for (const st of b.shapes[k].statements) {
      if (/^SELECT 1 FROM/.test(st.sql)) continue; // the client check
      const plan = await explain(sharded, st);
      const scans = [...plan.matchAll(/(Foreign Scan|Custom Scan|Aggregate)[^\n]*?(public\.employees_p\d+)/g)].map((m) => m[2]);
      const remote = plan
        .split('\n')
        .filter((l) => l.includes('Remote SQL:'))
        .map((l) => l.trim());
      out.push({ scans: [...new Set(scans)], remote, plan });
    }
    return out;
  };
  const firstRemote = await remoteOf('first');
  const jumpRemote = await remoteOf('jump');
  const loadAfter = os.loadavg().map((l) => l.toFixed(1));

  const ratio = (f) => `${(f.sharded / f.single).toFixed(2)}×`;
  const shardLine = split
    .map(
      (s, i) =>
        `shard ${i}: ${fmt(s.n)} rows of ${s.clients} client${s.clients === 1 ? '' : 's'}${s.mine > 0 ? ` (client ${CLIENT}'s ${fmt(s.mine)} among them)` : ''}`,
    )
    .join('; ');
  lines.push(
    `## ${ROWS === 1_000_000 ? '10^6' : fmt(ROWS)} rows on two postgres_fdw shards vs one server`,
    '',
    `\`npm run bench:shards\`: ${fmt(ROWS)} generated employees twice, on four PostgreSQL ${version} clusters of this machine (fsync off; scripts/topology/clusters.mjs). ` +
      `**Single**: \`wepql db-seed --rows ${ROWS}\` (${fmt(seedSingle.s, 1)} s), \`wepql db-index --sort ${SORT} --apply\` (${fmt(indexSingle.s, 1)} s). ` +
      `**Sharded**: a coordinator whose \`PARTITION BY HASH ("ClientId")\` partitions are \`postgres_fdw\` foreign tables on two shard clusters, ` +
      `\`wepql db-seed --rows ${ROWS} --shards URL,URL\` (${fmt(seedSharded.s, 1)} s, through the coordinator), \`wepql db-index --shards URL,URL --sort ${SORT} --apply\` (${fmt(indexSharded.s, 1)} s); ` +
      'then `VACUUM ANALYZE` on the single server and the shards (db-index analysed the coordinator). No counter table (`--counts` cannot go with `--shards`): both count with `COUNT(*)`.',
    `Rows by shard (hash of \`ClientId\`): ${shardLine}. Client ${CLIENT} (the big tenant of the generated data) holds ${fmt(a.total)} live rows: ${fmt(a.pages)} pages of ${LIMIT}.`,
    `Load average (1/5/15 min) ${loadBefore.join(' / ')} before and ${loadAfter.join(' / ')} after, on a ${os.cpus().length}-core machine shared with other work: compare the columns of one row, not across runs.`,
    '',
    `Client ${CLIENT}, limit ${LIMIT}. **HTTP**: the request through the reference server (one per topology, the sharded source with \`foldedColumns\`), over one keep-alive connection. ` +
      `**SQL**: the statements the data source sent for that request (client check included), replayed one after another on the same pool. ` +
      `Medians of ${SAMPLES} alternating single/sharded samples after one untimed round; every request returned the same rows on both.`,
    '',
    '| request | statements | single HTTP (ms) | sharded HTTP (ms) | sharded ÷ single | single SQL (ms) | sharded SQL (ms) | sharded ÷ single |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...Object.keys(titles).map((k) => {
      const f = figures[k];
      return `| ${titles[k]} | ${f.statements.single} | ${f.http.single.toFixed(1)} | ${f.http.sharded.toFixed(1)} | ${ratio(f.http)} | ${f.sql.single.toFixed(1)} | ${f.sql.sharded.toFixed(1)} | ${ratio(f.sql)} |`;
    }),
    '',
    "The shards' sessions of the coordinator run with `jit=off` (the foreign servers' `options '-c jit=off'`, as `createPostgresTable` makes them): " +
      "a page reaches the shard without its LIMIT, so the shard prices it as reading all of the client's rows and, with JIT on, compiles the plan first. " +
      `The same statements after \`ALTER SERVER … OPTIONS (SET options '-c jit=on')\` (PostgreSQL's default), SQL only, ${SAMPLES} alternating samples:`,
    '',
    '| request | single SQL (ms) | sharded SQL, JIT on (ms) | sharded ÷ single |',
    '|---|---:|---:|---:|',
    ...Object.keys(titles).map((k) => {
      const f = figures[k].jitOn;
      return `| ${titles[k]} | ${f.single.toFixed(1)} | ${f.sharded.toFixed(1)} | ${ratio(f)} |`;
    }),
    '',
    `The sharded first page's statements on the coordinator (\`EXPLAIN (VERBOSE, COSTS OFF)\`): the foreign partitions each one reads, and its Remote SQL.`,
    '',
    '```',
    ...firstRemote.flatMap((r) => [`-- reads ${r.scans.join(', ') || '(no foreign scan named)'}`, ...r.remote]),
    '```',
    '',
    `The \`page=${fmt(a.deep)}\` jump's:`,
    '',
    '```',
    ...jumpRemote.flatMap((r) => [`-- reads ${r.scans.join(', ') || '(no foreign scan named)'}`, ...r.remote]),
    '```',
    '',
    `Machine: ${machineLine()}.`,
  );
  console.log('\nfirst page plans:\n' + firstRemote.map((r) => r.plan).join('\n\n'));
  console.log('\njump plans:\n' + jumpRemote.map((r) => r.plan).join('\n\n'));
} finally {
  for (const s of served) await s.close().catch(() => {});
  stopClusters();
}
writeSection('shards', lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
