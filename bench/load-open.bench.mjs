// `npm run bench:load`: open-loop, fixed-rate mixed load against the reference server and a
// hand-written minimal server (bench/load-hand-server.mjs: node:http + pg + the SQL a DBA writes),
// each in a process of its own over one PostgreSQL 15 database, same pool size, same indexes
// and counter table (`wepql db-index --sort … --filters … --counts --apply`), runs alternating A/B/A/B.
// The load: 25% first pages (unfiltered, and five filter shapes), 65% next-page, 10% page=N. For a
// sweep of rates, then at 80% of the hand server's saturation rate, it reports p50/p99/max per request
// kind, throughput, 503s, other errors and the server's peak RSS; then closed-loop throughput per kind
// (16 clients). Default 1,000,000 rows; `--rows N` (or LOAD_ROWS) for fewer, `--rates 5,10,20` and
// `--seconds S` to change the sweep; WEPQL_BENCH_PGDATA=<dir> keeps the seeded server for the next
// run (and for `npm run bench:million`). Not part of `npm run bench`.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import pg from 'pg';
import { chooseFoldCollation } from '../dist/sample/employees.js';
import { fmt, machineLine, median, writeSection } from './harness.mjs';
import { LOAD_FILTERS, seededPostgres, startServer } from './postgres-server.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const ROWS = Number(arg('--rows', process.env.LOAD_ROWS ?? 1_000_000));
const RATES = arg('--rates', '1,2,5,10,20').split(',').map(Number);
const SECONDS = Number(arg('--seconds', '10'));
const ROUNDS = Number(arg('--rounds', '2'));
const POOL = 8;
const LIMIT = 25;
const SECRET = 'load bench secret, sixteen bytes or more';
const ROUTE = '/api/public/clients/1/employees';
// The unfiltered list first (its total from the counter table), then the indexed filters.
const SHAPES = [
  { sort: 'LastName=Asc' },
  ...LOAD_FILTERS.map((filter) => ({ filter, sort: filter.startsWith('CreatedOn') ? 'CreatedOn=Desc' : 'LastName=Asc' })),
];
const shapeText = (s) => `${s.filter === undefined ? 'no filter' : `\`${s.filter}\``} by \`${s.sort}\``;
const KINDS = ['first', 'next', 'jump'];

function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
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
  if (slot < 5) return { kind: 'first', query: { limit: String(LIMIT), ...SHAPES[(Math.floor(n / 20) * 5 + slot) % SHAPES.length] } };
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

/** Closed loop: 16 clients sending one kind back to back for `seconds`/2; answers per second, 503s and other errors. */
async function closedLoop(get, walks, kind) {
  const end = performance.now() + (SECONDS / 2) * 1000;
  let done = 0;
  let busy = 0;
  let errors = 0;
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
      else if (r.status === 503) busy++;
      else errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 16 }, worker));
  return { rps: done / ((performance.now() - t0) / 1000), busy, errors };
}

/** A time in ms, or "—" when no request of the kind was answered. */
const ms = (v) => (Number.isFinite(v) ? fmt(v) : '—');

/** Why a ratio has no value: which side answered nothing (and what it answered instead). */
function missing(sides) {
  const why = sides
    .filter((side) => side.ok === 0)
    .map(
      (side) => `${side.name} answered none${side.busy + side.errors > 0 ? ` (${fmt(side.busy)} × 503, ${fmt(side.errors)} errors)` : ''}`,
    );
  return why.length === 0 ? undefined : `— (${why.join('; ')})`;
}

const lines = [];
const servers = [];
const seeded = await seededPostgres(ROWS);
const loadBefore = os.loadavg().map((l) => l.toFixed(1));
const db = seeded.server;
try {
  const pool = new pg.Pool({ connectionString: db.url, max: 2 });
  const { foldCollation } = await chooseFoldCollation((sql, params) => pool.query(sql, params));
  const version = (await pool.query('SHOW server_version')).rows[0].server_version;
  await pool.end();
  console.log(
    `${fmt(ROWS)} rows ${seeded.reused ? 'reused' : 'seeded'}: seeding ${fmt(seeded.seedS, 1)} s, indexing ${fmt(seeded.indexS, 1)} s`,
  );

  const subjects = [
    { name: 'reference', start: () => startServer('load-reference-server.mjs', [db.url, String(POOL), SECRET]), reference: true },
    {
      name: 'hand',
      start: () => startServer('load-hand-server.mjs', [db.url, String(POOL), foldCollation ?? 'pg_unicode_fast']),
      reference: false,
    },
  ];
  const results = {}; // results[name][label] = [run, run]
  const closed = {}; // closed[name][kind] = [{ rps, busy, errors }, …]
  for (const subject of subjects) {
    subject.server = await subject.start();
    servers.push(subject.server);
    subject.get = client(subject.server.url, subject.reference);
    subject.walks = await warmWalks(subject.get);
  }
  const sweep = async (rate, label, round) => {
    for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
      const run = await openLoop(subject.server, subject.get, subject.walks, rate);
      ((results[subject.name] ??= {})[label] ??= []).push(run);
      const s = run.stats;
      console.log(
        `round ${round + 1} ${subject.name} @${rate}/s: ${fmt(run.throughput, 1)} ok/s; ` +
          KINDS.map(
            (k) =>
              `${k} p50 ${ms(percentile(s[k]?.ms ?? [], 50))} p99 ${ms(percentile(s[k]?.ms ?? [], 99))} ms 503 ${s[k]?.busy ?? 0} err ${s[k]?.errors ?? 0}`,
          ).join('; ') +
          `; RSS ${fmt(run.peakRss)} MB`,
      );
      // Let the queues drain and the database settle between runs.
      await new Promise((r) => setTimeout(r, 1500));
    }
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const rate of RATES) await sweep(rate, String(rate), round);
    for (const kind of KINDS) {
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        const answer = await closedLoop(subject.get, subject.walks, kind);
        ((closed[subject.name] ??= {})[kind] ??= []).push(answer);
        console.log(
          `round ${round + 1} closed loop ${subject.name} ${kind}: ${fmt(answer.rps, 1)}/s, 503 ${answer.busy}, errors ${answer.errors}`,
        );
      }
    }
  }
  // The hand server's saturation rate: the most it answered per second at any rate of the sweep; then
  // both servers at 80% of it, where token pages are to stay within 50 ms at p99.
  const throughputOf = (name, label) => median(results[name][label].map((r) => r.throughput));
  const handSaturation = Math.max(...RATES.map((rate) => throughputOf('hand', String(rate))));
  const targetRate = Math.max(1, Math.round(0.8 * handSaturation));
  const targetLabel = `${targetRate} (80%)`;
  for (let round = 0; round < ROUNDS; round++) await sweep(targetRate, targetLabel, round);
  const labels = [...RATES.map(String), targetLabel];

  const total = (runs, kind, field) => median(runs.map((r) => r.stats[kind]?.[field] ?? 0));
  const cell = (runs, kind, p) => ms(median(runs.map((r) => percentile(r.stats[kind]?.ms ?? [], p))));
  const maxOf = (runs, kind) => ms(median(runs.map((r) => ((r.stats[kind]?.ms.length ?? 0) > 0 ? Math.max(...r.stats[kind].ms) : NaN))));
  const sum = (runs, field) => median(runs.map((r) => KINDS.reduce((a, k) => a + (r.stats[k]?.[field] ?? 0), 0)));
  const loadAfter = os.loadavg().map((l) => l.toFixed(1));
  lines.push(
    '## Load: open loop, reference server vs a hand-written server (PostgreSQL)',
    '',
    `\`npm run bench:load\` (\`bench/load-open.bench.mjs\`): ${fmt(ROWS)} generated employees (\`wepql db-seed --rows ${ROWS}\`, ${fmt(seeded.seedS, 1)} s), indexed by \`wepql db-index --sort LastName=Asc --sort CreatedOn=Desc --filters (the five filters) --counts --apply\` then \`VACUUM ANALYZE\` (${fmt(seeded.indexS, 1)} s); PostgreSQL ${version}, fold collation ${foldCollation ?? 'pg_unicode_fast'}.`,
    `Each server in its own process with a pool of ${POOL} whose connections stay open: the reference server (\`createListServer\` over \`createPostgresDataSource({ pool, counterTable })\`, default admission: ${POOL} statements at once, 64 waiting per class, 2 s wait, 2 s budget while others wait, 10 s deadline) and \`bench/load-hand-server.mjs\` (node:http + pg, what a specialist writes: page and total at once, the total from the counter table when there is no filter, keyset next-page, deferred-join jumps, a base64 JSON token; counts on a pool of their own, ${Math.floor(POOL / 3)} of the ${POOL} connections; a connection within 2 s or 503 + \`Retry-After\`, \`statement_timeout\` 10 s). Open loop at a fixed rate for ${SECONDS} s per run: 25% first pages (${SHAPES.map(shapeText).join(', ')}), 65% \`next-page\`, 10% \`page=N\` (N ≤ 41), limit ${LIMIT}. Runs alternate reference/hand, ${ROUNDS} rounds; each figure is the median over rounds. The last rate is 80% of the hand server's saturation (the most it answered per second at any rate of the sweep: ${fmt(handSaturation, 1)}/s). Times in ms from send to last byte of the 200 answers ("—": none); "503" and "errors" are counts per run (errors: any other status, or no answer in 30 s); RSS is the server process's peak.`,
    '',
    '| rate/s | server | first p50 / p99 / max | next p50 / p99 / max | page=N p50 / p99 / max | ok/s | 503 | errors | peak RSS MB |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const label of labels) {
    for (const subject of subjects) {
      const runs = results[subject.name][label];
      lines.push(
        `| ${label} | ${subject.name} | ${KINDS.map((k) => `${cell(runs, k, 50)} / ${cell(runs, k, 99)} / ${maxOf(runs, k)}`).join(' | ')} | ${fmt(median(runs.map((r) => r.throughput)), 1)} | ${fmt(sum(runs, 'busy'))} | ${fmt(sum(runs, 'errors'))} | ${fmt(median(runs.map((r) => r.peakRss)))} |`,
      );
    }
  }
  lines.push(
    '',
    'Ratios reference ÷ hand, p50 per kind where both answered (below 1 the reference server is faster), and answers per second:',
    '',
  );
  lines.push('| rate/s | first | next | page=N | ok/s |', '|---:|---:|---:|---:|---:|');
  for (const label of labels) {
    const ratio = (k) => {
      const sides = subjects.map(({ name }) => {
        const runs = results[name][label];
        return {
          name,
          ok: total(runs, k, 'ok'),
          busy: total(runs, k, 'busy'),
          errors: total(runs, k, 'errors'),
          p50: median(runs.map((r) => percentile(r.stats[k]?.ms ?? [], 50))),
        };
      });
      return missing(sides) ?? fmt(sides[0].p50 / sides[1].p50, 2);
    };
    lines.push(
      `| ${label} | ${KINDS.map(ratio).join(' | ')} | ${fmt(throughputOf('reference', label) / throughputOf('hand', label), 2)} |`,
    );
  }
  lines.push(
    '',
    'Closed loop (saturation throughput), 16 clients each sending one kind back to back (answers/s, median over rounds; ratio reference ÷ hand where both answered):',
    '',
  );
  lines.push('| kind | reference | hand | ratio | 503 reference / hand |', '|---|---:|---:|---:|---:|');
  for (const kind of KINDS) {
    const sides = subjects.map(({ name }) => {
      const runs = closed[name][kind];
      return { name, ok: median(runs.map((r) => r.rps)), busy: median(runs.map((r) => r.busy)), errors: median(runs.map((r) => r.errors)) };
    });
    const [a, b] = sides;
    lines.push(
      `| ${kind} | ${fmt(a.ok, 1)} | ${fmt(b.ok, 1)} | ${missing(sides) ?? fmt(a.ok / b.ok, 2)} | ${fmt(a.busy)} / ${fmt(b.busy)} |`,
    );
  }
  lines.push(
    '',
    `${machineLine()}; load average (1/5/15 min) ${loadBefore.join(' / ')} before and ${loadAfter.join(' / ')} after (the machine is shared: compare rows of one run).`,
    '',
  );
  writeSection('load-open', lines.join('\n'));
  console.log(lines.join('\n'));
} finally {
  for (const s of servers) await s.stop();
  db.stop();
}
