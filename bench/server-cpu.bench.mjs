// The CPU the reference server spends in its own process per request, against the hand-written server
// of `npm run bench:load` (node:http + pg, the SQL a DBA writes), on a small seeded PostgreSQL 15
// (ROWS, default 20,000: `wepql db-seed`, `wepql db-index` as bench:million does; WEPQL_BENCH_PGDATA
// reuses a seeded server). Each server runs in a process of its own (bench/load-reference-server.mjs
// and bench/load-hand-server.mjs, pool of 8); one client sends the requests one after another over a
// keep-alive socket, and the CPU a server used over a round of requests is read from /proc/<pid>/stat
// (user + system, its GC and I/O threads included). Rounds alternate between the servers, so a change
// in the machine's load falls on all; the figure per kind is the median of the rounds. A third server is
// the reference server with `admission: false` (no queue and no deadlines: each statement one
// `pool.query`, as the hand server sends it), which shows what the deadline's transaction costs; with
// WEPQL_BENCH_BASELINE=<a built checkout of another commit> (WEPQL_BENCH_BASELINE_NAME names it) that
// checkout's reference server runs in the same rounds, a before and after in one run.
//
// Kinds: a first page with its total (no filter, `sort=LastName=Asc`: the counter table), a filtered
// first page (`LastName.StartsWith(sm)`: COUNT(*)), `next-page` along the LastName walk, and a `page=N`
// jump in the default order (pages spread over the list). For the jump, the hand statement (the
// deferred join) is also timed on its own, so the jump over HTTP can be compared with it.
import os from 'node:os';
import http from 'node:http';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { chooseFoldCollation } from '../dist/sample/employees.js';
import { fmt, getBytes, loadServers, machineLine, median, processCpuMs, writeSection } from './harness.mjs';
import { seededPostgres } from './postgres-server.mjs';

const ROWS = Number(process.env.ROWS ?? 20_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);
const PER_ROUND = Number(process.env.PER_ROUND ?? 60);
const LIMIT = 100;
const ROUTE = '/api/public/clients/1/employees';
const SCOPE = `"ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;

/** The commit a baseline checkout holds (its short hash, when it is a git checkout), else its directory. */
function baselineLabel(dir) {
  if (dir === undefined) return '';
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : (process.env.WEPQL_BENCH_BASELINE_NAME ?? dir);
}

const seeded = await seededPostgres(ROWS);
const pgServer = seeded.server;
const external = [];
const lines = [];
try {
  const pool = new pg.Pool({ connectionString: pgServer.url, max: 2 });
  const { foldCollation } = await chooseFoldCollation((sql, params) => pool.query(sql, params));
  const version = (await pool.query('SHOW server_version')).rows[0].server_version;
  const ref = await loadServers.reference(pgServer.url, 'server-cpu bench secret, sixteen bytes+');
  external.push(ref);
  const plain = await loadServers.reference(pgServer.url, 'server-cpu bench secret, sixteen bytes+', { extra: ['no-admission'] });
  external.push(plain);
  // WEPQL_BENCH_BASELINE=<a built checkout of another commit>: its reference server runs alongside (a before/after in one run).
  const baselineDir = process.env.WEPQL_BENCH_BASELINE;
  const baseline =
    baselineDir === undefined
      ? undefined
      : await loadServers.reference(pgServer.url, 'server-cpu bench secret, sixteen bytes+', {
          script: pathToFileURL(`${baselineDir}/bench/load-reference-server.mjs`).href,
        });
  if (baseline !== undefined) external.push(baseline);
  const hand = await loadServers.hand(pgServer.url, foldCollation);
  external.push(hand);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const servers = {
    ref: { ...ref, path: `${ref.url}${ROUTE}`, headers: { authorization: 'Bearer load-bench' } },
    plain: { ...plain, path: `${plain.url}${ROUTE}`, headers: { authorization: 'Bearer load-bench' } },
    ...(baseline === undefined
      ? {}
      : { base: { ...baseline, path: `${baseline.url}${ROUTE}`, headers: { authorization: 'Bearer load-bench' } } }),
    hand: { ...hand, path: `${hand.url}/`, headers: {} },
  };
  const names = Object.keys(servers);
  const label = {
    ref: 'reference',
    plain: 'reference, `admission: false`',
    base: `reference at ${baselineLabel(baselineDir)}`,
    hand: 'hand',
  };
  const get = async (s, query) => JSON.parse(await getBytes(agent, `${s.path}?${new URLSearchParams(query)}`, s.headers));
  const ids = (page) => JSON.stringify(page.Data.map((r) => r.Id));

  // The requests of each kind, per server: a function of the request's index that sends it.
  const firstSorted = { limit: String(LIMIT), sort: 'LastName=Asc' };
  const firstFiltered = { limit: String(LIMIT), sort: 'LastName=Asc', filter: 'LastName.StartsWith(sm)' };
  const walks = {};
  const defaults = {};
  for (const [name, s] of Object.entries(servers)) {
    walks[name] = await get(s, firstSorted);
    defaults[name] = await get(s, { limit: String(LIMIT) });
  }
  const total = defaults.ref.Pagination.TotalRecords;
  const last = defaults.ref.Pagination.TotalPages;
  if (defaults.hand.Pagination.TotalRecords !== total) throw new Error('the servers count different totals');
  for (const name of names) if (ids(walks[name]) !== ids(walks.hand)) throw new Error(`${name} answers another first page`);
  // Jump targets spread over the list, the last page among them.
  const jumpPage = (i) => last - ((i * 7919) % last);
  for (const p of [last, jumpPage(5)]) {
    const pages = await Promise.all(
      names.map((name) => get(servers[name], { 'data-token': defaults[name].Pagination.DataToken, page: String(p) })),
    );
    if (new Set(pages.map(ids)).size !== 1) throw new Error(`the servers jump to different rows on page ${p}`);
  }
  const kinds = {
    first: { title: 'first page with its total (no filter, `sort=LastName=Asc`; counter table)', send: (s) => get(s, firstSorted) },
    filtered: { title: 'first page, `LastName.StartsWith(sm)` + sort (COUNT(*))', send: (s) => get(s, firstFiltered) },
    next: {
      title: '`next-page` along the LastName walk',
      send: async (s, name) => {
        const page = await get(s, { 'data-token': walks[name].Pagination.DataToken, 'next-page': '' });
        // Back to the first page at the end of the list.
        walks[name] = page.Data.length < LIMIT ? await get(s, firstSorted) : page;
      },
    },
    jump: {
      title: '`page=N` jump in the default order (pages spread over the list)',
      send: (s, name, i) => get(s, { 'data-token': defaults[name].Pagination.DataToken, page: String(jumpPage(i)) }),
    },
  };
  // Warm both servers' JIT on every kind before measuring.
  for (const kind of Object.values(kinds)) {
    for (const [name, s] of Object.entries(servers)) for (let i = 0; i < 30; i++) await kind.send(s, name, i);
  }
  const perServer = () => Object.fromEntries(Object.keys(kinds).map((k) => [k, Object.fromEntries(names.map((n) => [n, []]))]));
  const cpu = perServer();
  const wall = perServer();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, kind] of Object.entries(kinds)) {
      for (const name of round % 2 === 0 ? names : [...names].reverse()) {
        const s = servers[name];
        const c0 = processCpuMs(s.pid);
        const t0 = performance.now();
        for (let i = 0; i < PER_ROUND; i++) await kind.send(s, name, round * PER_ROUND + i);
        wall[k][name].push((performance.now() - t0) / PER_ROUND);
        cpu[k][name].push((processCpuMs(s.pid) - c0) / PER_ROUND);
      }
    }
  }
  // The jump's hand statement alone, and the jump over HTTP, to the last page, alternating.
  const lastOffset = (last - 1) * LIMIT;
  const handJump = `SELECT e."Record" FROM employees e JOIN (SELECT "Id" FROM employees WHERE ${SCOPE} ORDER BY "Id" LIMIT ${LIMIT} OFFSET ${lastOffset}) p USING ("Id") ORDER BY e."Id"`;
  const lastTimes = Object.fromEntries(['statement', ...names].map((n) => [n, []]));
  const timed = async (list, fn) => {
    const t0 = performance.now();
    await fn();
    list.push(performance.now() - t0);
  };
  for (let i = 0; i < 4 * ROUNDS; i++) {
    await timed(lastTimes.statement, () => pool.query(handJump));
    for (const name of names)
      await timed(lastTimes[name], () => get(servers[name], { 'data-token': defaults[name].Pagination.DataToken, page: String(last) }));
  }
  agent.destroy();
  await pool.end();
  const m = (list) => median(list);
  const lt = Object.fromEntries(Object.entries(lastTimes).map(([n, list]) => [n, m(list)]));
  console.log({ cpu, lastTimes: lt });

  lines.push(
    '## CPU per request in the server process: the reference server against the hand server',
    '',
    `\`node bench/server-cpu.bench.mjs\`: ${fmt(ROWS)} generated employees on PostgreSQL ${version} (\`wepql db-seed\`, \`wepql db-index --sort LastName=Asc --sort CreatedOn=Desc --filters (the five of bench:load) --counts --apply\`, \`VACUUM ANALYZE\`); client 1 holds ${fmt(total)} live rows, limit ${LIMIT}. The reference server (\`createListServer\` over \`createPostgresDataSource\`, bench/load-reference-server.mjs) and the hand server of \`bench:load\` (node:http + pg, bench/load-hand-server.mjs) each run in a process of their own with a pool of 8; one client sends ${PER_ROUND} requests of a kind one after another over a keep-alive socket, and the server's CPU (user + system from /proc, its GC and I/O threads included) over them is divided by ${PER_ROUND}. ${ROUNDS} rounds alternate the servers; medians of the rounds.`,
    `Load average (1/5/15 min) ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ')} at the end, on a 2-core machine shared with other work: compare within this table.`,
    '',
    `CPU ms per request (and its ratio to the hand server's), then wall ms per request:`,
    '',
    `| request | ${names.map((n) => `CPU: ${label[n]}`).join(' | ')} | ${names.map((n) => `wall: ${label[n]}`).join(' | ')} |`,
    `|---|${names.map(() => '---:').join('|')}|${names.map(() => '---:').join('|')}|`,
    ...Object.entries(kinds).map(([k, kind]) => {
      const c = Object.fromEntries(names.map((n) => [n, m(cpu[k][n])]));
      const w = names.map((n) => m(wall[k][n]).toFixed(1));
      const cells = names.map((n) => (n === 'hand' ? c[n].toFixed(2) : `${c[n].toFixed(2)} (${(c[n] / c.hand).toFixed(2)}×)`));
      return `| ${kind.title} | ${cells.join(' | ')} | ${w.join(' | ')} |`;
    }),
    '',
    `**The jump to the last page** (\`page=${fmt(last)}\`, OFFSET ${fmt(lastOffset)}), medians of ${4 * ROUNDS} alternating samples: the hand statement (the deferred join a DBA writes) ${lt.statement.toFixed(2)} ms; over HTTP ${names.map((n) => `${label[n]} ${lt[n].toFixed(2)} ms (${(lt[n] / lt.statement).toFixed(2)}× the statement)`).join(', ')}.`,
    '',
    `Machine: ${machineLine()}.`,
  );
} finally {
  for (const s of external) await s.stop();
  pgServer.stop();
}
writeSection('server-cpu', lines.join('\n'));
console.log(lines.join('\n'));
process.exit(0);
