// `npm run bench:load`: open-loop, fixed-rate mixed load against the reference server and a
// hand-written minimal server (bench/load-hand-server.mjs: node:http + pg + the SQL a DBA writes),
// each in a process of its own over one PostgreSQL 15 database, same pool size, same indexes
// (`wepql db-index --sort … --filters … --apply`), runs alternating A/B/A/B. The load: 25% first
// pages of five filter shapes, 65% next-page, 10% page=N. For a sweep of rates it reports p50/p99/max
// per request kind, throughput, 503s, other errors and the server's peak RSS; then closed-loop
// throughput per kind (16 clients). Default 1,000,000 rows; `--rows N` (or LOAD_ROWS) for fewer,
// `--rates 20,40,80` and `--seconds S` to change the sweep. Not part of `npm run bench`.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chooseFoldCollation } from '../dist/sample/employees.js';
import { fmt, machineLine, median, writeSection } from './harness.mjs';
import { cli, startPostgres } from './postgres-server.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const ROWS = Number(arg('--rows', process.env.LOAD_ROWS ?? 1_000_000));
const RATES = arg('--rates', '20,40,80,160').split(',').map(Number);
const SECONDS = Number(arg('--seconds', '10'));
const ROUNDS = Number(arg('--rounds', '2'));
const POOL = 8;
const LIMIT = 25;
const SECRET = 'load bench secret, sixteen bytes or more';
const ROUTE = '/api/public/clients/1/employees';
const SHAPES = [
  { filter: 'LastName.StartsWith(sm)', sort: 'LastName=Asc' },
  { filter: 'Gender.Equal(1)', sort: 'LastName=Asc' },
  { filter: 'CreatedOn.GreaterThan(2000-01-01)', sort: 'CreatedOn=Desc' },
  { filter: 'EmployeeNumber.LessThan(100)', sort: 'LastName=Asc' },
  { filter: 'BirthOn.GreaterThan(1990-01-01)', sort: 'LastName=Asc' },
];
const KINDS = ['first', 'next', 'jump'];

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Starts a server process; resolves with its base URL, pid and a stop function. */
function startServer(script, args) {
  const child = spawn(process.execPath, [new URL(script, import.meta.url).pathname, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\S+)/.exec(out);
      if (m) resolve({ url: m[1], pid: child.pid, stop: () => new Promise((r) => (child.once('exit', r), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

function client(base, reference) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const path = reference ? ROUTE : '/';
  return (query) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const req = http.request(
        `${base}${path}?${new URLSearchParams(query)}`,
        { agent, headers: { authorization: 'Bearer load-bench' }, timeout: 30_000 },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const ms = performance.now() - t0;
            let body;
            try {
              body = res.statusCode === 200 ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
            } catch {
              body = undefined;
            }
            resolve({ status: res.statusCode, ms, body });
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }));
      req.end();
    });
}

/** Walks to continue: tokens of pages already read, refreshed by each next-page answer. */
async function warmWalks(get) {
  const walks = [];
  for (const shape of SHAPES) {
    for (let i = 0; i < 4; i++) {
      const r = await get({ limit: String(LIMIT), ...shape });
      if (r.status !== 200) throw new Error(`warm-up: HTTP ${r.status} for ${shape.filter}`);
      walks.push({ token: r.body.Pagination.DataToken, pages: r.body.Pagination.TotalPages });
    }
  }
  return walks;
}

/** The n-th request of the mix: 25% first pages (shapes in turn), 65% next-page, 10% page=N. */
function requestAt(n, walks) {
  const slot = n % 20;
  if (slot < 5) return { kind: 'first', query: { limit: String(LIMIT), ...SHAPES[((n / 20 + slot) % SHAPES.length) | 0] } };
  const walk = walks[n % walks.length];
  if (slot < 7) return { kind: 'jump', walk, query: { 'data-token': walk.token, page: String(jumpTarget(n, walk)) } };
  return { kind: 'next', walk, query: { 'data-token': walk.token, 'next-page': 'true' } };
}

/** A page number within the walk's range: 2 to 41 where the list has that many pages. */
function jumpTarget(n, walk) {
  return walk.pages < 2 ? 1 : 2 + (n % Math.min(40, walk.pages - 1));
}

function record(stats, kind, r) {
  const s = (stats[kind] ??= { ms: [], ok: 0, busy: 0, errors: 0 });
  if (r.status === 200) {
    s.ok++;
    s.ms.push(r.ms);
  } else if (r.status === 503) s.busy++;
  else s.errors++;
}

/** Open loop: one request every 1000/rate ms for `seconds`, whatever the answers' pace; waits for the stragglers. */
async function openLoop(server, get, walks, rate) {
  const stats = {};
  let peakRss = rssMb(server.pid);
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid))), 250);
  const total = Math.round(rate * SECONDS);
  const started = performance.now();
  const inflight = [];
  for (let n = 0; n < total; n++) {
    const due = started + (n * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const { kind, walk, query } = requestAt(n, walks);
    inflight.push(
      get(query).then((r) => {
        record(stats, kind, r);
        if (kind === 'next' && r.status === 200 && r.body.Data.length > 0) walk.token = r.body.Pagination.DataToken;
      }),
    );
  }
  await Promise.all(inflight);
  clearInterval(sampler);
  const elapsed = (performance.now() - started) / 1000;
  const ok = KINDS.reduce((a, k) => a + (stats[k]?.ok ?? 0), 0);
  return { stats, throughput: ok / elapsed, peakRss };
}

/** Closed loop: 16 clients sending one kind back to back for `seconds`; answers per second. */
async function closedLoop(get, walks, kind) {
  const end = performance.now() + (SECONDS / 2) * 1000;
  let done = 0;
  let n = 0;
  const worker = async () => {
    while (performance.now() < end) {
      let r;
      n++;
      if (kind === 'first') r = await get({ limit: String(LIMIT), ...SHAPES[n % SHAPES.length] });
      else if (kind === 'next') {
        const walk = walks[n % walks.length];
        r = await get({ 'data-token': walk.token, 'next-page': 'true' });
        if (r.status === 200 && r.body.Data.length > 0) walk.token = r.body.Pagination.DataToken;
      } else {
        const walk = walks[n % walks.length];
        r = await get({ 'data-token': walk.token, page: String(jumpTarget(n, walk)) });
      }
      if (r.status === 200) done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  return done / ((performance.now() - t0) / 1000);
}

const lines = [];
const db = await startPostgres();
const servers = [];
try {
  const loadBefore = os.loadavg()[0].toFixed(1);
  const t0 = performance.now();
  cli(['db-seed', '--database-url', db.url, '--rows', String(ROWS)]);
  const seedS = (performance.now() - t0) / 1000;
  const filters = join(tmpdir(), `wepql-load-filters-${process.pid}.txt`);
  writeFileSync(filters, `${SHAPES.map((s) => s.filter).join('\n')}\n`);
  const t1 = performance.now();
  cli(['db-index', '--database-url', db.url, '--sort', 'LastName=Asc', '--sort', 'CreatedOn=Desc', '--filters', filters, '--apply']);
  rmSync(filters);
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  await pool.query('VACUUM ANALYZE employees');
  const indexS = (performance.now() - t1) / 1000;
  const { foldCollation } = await chooseFoldCollation((sql, params) => pool.query(sql, params));
  const version = (await pool.query('SHOW server_version')).rows[0].server_version;
  await pool.end();
  console.log(`seeded ${fmt(ROWS)} rows in ${fmt(seedS, 1)} s, indexed in ${fmt(indexS, 1)} s`);

  const subjects = [
    { name: 'reference', start: () => startServer('load-reference-server.mjs', [db.url, String(POOL), SECRET]), reference: true },
    {
      name: 'hand',
      start: () => startServer('load-hand-server.mjs', [db.url, String(POOL), foldCollation ?? 'pg_unicode_fast']),
      reference: false,
    },
  ];
  const results = {}; // results[name][rate] = [run, run]
  const closed = {}; // closed[name][kind] = [rps, …]
  for (const subject of subjects) {
    subject.server = await subject.start();
    servers.push(subject.server);
    subject.get = client(subject.server.url, subject.reference);
    subject.walks = await warmWalks(subject.get);
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const rate of RATES) {
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        const run = await openLoop(subject.server, subject.get, subject.walks, rate);
        ((results[subject.name] ??= {})[rate] ??= []).push(run);
        const s = run.stats;
        console.log(
          `round ${round + 1} ${subject.name} @${rate}/s: ${fmt(run.throughput, 1)} ok/s; ` +
            KINDS.map(
              (k) =>
                `${k} p50 ${fmt(percentile(s[k]?.ms ?? [], 50))} p99 ${fmt(percentile(s[k]?.ms ?? [], 99))} ms 503 ${s[k]?.busy ?? 0} err ${s[k]?.errors ?? 0}`,
            ).join('; ') +
            `; RSS ${fmt(run.peakRss)} MB`,
        );
        // Let the queues drain and the database settle between runs.
        await new Promise((r) => setTimeout(r, 1500));
      }
    }
    for (const kind of KINDS) {
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        const rps = await closedLoop(subject.get, subject.walks, kind);
        ((closed[subject.name] ??= {})[kind] ??= []).push(rps);
        console.log(`round ${round + 1} closed loop ${subject.name} ${kind}: ${fmt(rps, 1)}/s`);
      }
    }
  }

  const cell = (runs, kind, p) => fmt(median(runs.map((r) => percentile(r.stats[kind]?.ms ?? [], p))));
  const maxOf = (runs, kind) => fmt(median(runs.map((r) => Math.max(0, ...(r.stats[kind]?.ms ?? [])))));
  const sum = (runs, field) => median(runs.map((r) => KINDS.reduce((a, k) => a + (r.stats[k]?.[field] ?? 0), 0)));
  lines.push(
    '## Load: open loop, reference server vs a hand-written server (PostgreSQL)',
    '',
    `\`npm run bench:load\` (\`bench/load-open.bench.mjs\`): ${fmt(ROWS)} generated employees (\`wepql db-seed --rows ${ROWS}\`, ${fmt(seedS, 1)} s), indexed by \`wepql db-index --sort LastName=Asc --sort CreatedOn=Desc --filters (the five shapes) --apply\` then \`VACUUM ANALYZE\` (${fmt(indexS, 1)} s); PostgreSQL ${version}, fold collation ${foldCollation ?? 'pg_unicode_fast'}.`,
    `Each server in its own process with a pool of ${POOL}: the reference server (\`createListServer\` over \`createPostgresDataSource({ pool })\`, default admission: ${POOL - 1} statements at once, 64 waiting per class, 2 s wait, 10 s deadline) and \`bench/load-hand-server.mjs\` (node:http + pg, the SQL a DBA writes: page and \`COUNT(*)\` at once, keyset next-page, OFFSET jumps, a base64 JSON token). Open loop at a fixed rate for ${SECONDS} s per run: 25% first pages (five shapes: ${SHAPES.map((s) => `\`${s.filter}\` by \`${s.sort}\``).join(', ')}), 65% \`next-page\`, 10% \`page=N\` (N ≤ 41), limit ${LIMIT}. Runs alternate reference/hand, ${ROUNDS} rounds; each figure is the median over rounds. Times in ms from send to last byte; "503" and "errors" are counts per run (errors: any other status, or no answer in 30 s); RSS is the server process's peak.`,
    '',
    '| rate/s | server | first p50 / p99 / max | next p50 / p99 / max | page=N p50 / p99 / max | ok/s | 503 | errors | peak RSS MB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const rate of RATES) {
    for (const subject of subjects) {
      const runs = results[subject.name][rate];
      lines.push(
        `| ${rate} | ${subject.name} | ${KINDS.map((k) => `${cell(runs, k, 50)} / ${cell(runs, k, 99)} / ${maxOf(runs, k)}`).join(' | ')} | ${fmt(median(runs.map((r) => r.throughput)), 1)} | ${fmt(sum(runs, 'busy'))} | ${fmt(sum(runs, 'errors'))} | ${fmt(median(runs.map((r) => r.peakRss)))} |`,
      );
    }
  }
  lines.push('', 'Ratios reference ÷ hand (p50 per kind; below 1 the reference server is faster):', '');
  lines.push('| rate/s | first | next | page=N |', '|---:|---:|---:|---:|');
  for (const rate of RATES) {
    const ratio = (k) => {
      const a = median(results.reference[rate].map((r) => percentile(r.stats[k]?.ms ?? [], 50)));
      const b = median(results.hand[rate].map((r) => percentile(r.stats[k]?.ms ?? [], 50)));
      return fmt(a / b, 2);
    };
    lines.push(`| ${rate} | ${KINDS.map(ratio).join(' | ')} |`);
  }
  lines.push('', 'Closed loop, 16 clients each sending one kind back to back (answers/s, median over rounds; ratio reference ÷ hand):', '');
  lines.push('| kind | reference | hand | ratio |', '|---|---:|---:|---:|');
  for (const kind of KINDS) {
    const a = median(closed.reference[kind]);
    const b = median(closed.hand[kind]);
    lines.push(`| ${kind} | ${fmt(a, 1)} | ${fmt(b, 1)} | ${fmt(a / b, 2)} |`);
  }
  lines.push(
    '',
    `${machineLine()}; 1-minute load average ${loadBefore} before and ${os.loadavg()[0].toFixed(1)} after (the machine is shared: compare rows of one run).`,
    '',
  );
  writeSection('load-open', lines.join('\n'));
  console.log(lines.join('\n'));
} finally {
  for (const s of servers) await s.stop();
  db.stop();
}
