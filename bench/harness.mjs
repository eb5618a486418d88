// Shared timing helpers for `npm run bench`. Machines are noisy, so every
// figure is the median of several samples, and every subject is measured in
// the same run as its reference so that ratios compare like with like.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { startServer } from './postgres-server.mjs';

/**
 * Times `fn` in `samples` samples of about `sampleMs` each and returns the
 * median operations per second. `fn` may return a value; it is kept alive so
 * the engine cannot drop the work.
 */
export function opsPerSecond(fn, { samples = 9, sampleMs = 150, warmupMs = 200 } = {}) {
  let sink;
  const warmEnd = performance.now() + warmupMs;
  while (performance.now() < warmEnd) sink = fn();
  // Calibrate a batch size that takes roughly 1 ms.
  let batch = 1;
  for (;;) {
    const t0 = performance.now();
    for (let i = 0; i < batch; i++) sink = fn();
    if (performance.now() - t0 >= 1 || batch >= 1 << 24) break;
    batch *= 2;
  }
  const rates = [];
  for (let s = 0; s < samples; s++) {
    let ops = 0;
    const t0 = performance.now();
    let t = t0;
    while (t - t0 < sampleMs) {
      for (let i = 0; i < batch; i++) sink = fn();
      ops += batch;
      t = performance.now();
    }
    rates.push((ops * 1000) / (t - t0));
  }
  globalThis.__benchSink = sink;
  return median(rates);
}

/** Median of a list of numbers. */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Times one call of an expensive `fn` `samples` times; returns the median in ms. */
export function medianMs(fn, samples = 7) {
  const times = [];
  let sink;
  for (let s = 0; s < samples; s++) {
    const t0 = performance.now();
    sink = fn();
    times.push(performance.now() - t0);
  }
  globalThis.__benchSink = sink;
  return median(times);
}

/**
 * Times an asynchronous `fn` `samples` times, awaiting `between()` before each
 * run (a pause, an idle wait) outside the timed span; returns the median in ms.
 */
export async function medianAsyncMs(fn, samples = 7, between = async () => {}) {
  const times = [];
  for (let s = 0; s < samples; s++) {
    await between();
    const t0 = performance.now();
    await fn(s);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Formats a number with thousands separators and `digits` decimals. */
export function fmt(n, digits = 0) {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** One line describing the machine, for the results file. */
export function machineLine() {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  return `${cpu}, ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${os.platform()} ${os.arch()}`;
}

/** Saves one benchmark's markdown section; `bench/run.mjs` assembles RESULTS.md. */
export function writeSection(name, markdown) {
  const dir = new URL('./results/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${name}.md`, dir), markdown.trimEnd() + '\n');
}

/**
 * GETs `${base}?${query}` over one keep-alive socket with `headers`; rejects
 * on a status other than 200. With `parse` (the default) it resolves with the
 * JSON body; without, with nothing (the client's parse left out of the time).
 * `close()` ends the socket.
 */
export function keepAliveGetter(base, headers, { parse = true } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const get = (query) =>
    new Promise((resolve, reject) => {
      const req = http.request(`${base}?${new URLSearchParams(query)}`, { agent, headers }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`HTTP ${res.statusCode}: ${text.slice(0, 300)}`));
          else resolve(parse ? JSON.parse(text) : undefined);
        });
      });
      req.on('error', reject);
      req.end();
    });
  return { agent, get, close: () => agent.destroy() };
}

/**
 * CPU milliseconds (user + system) process `pid` has used so far, its GC and
 * I/O threads included: utime and stime, fields 14 and 15 of /proc/<pid>/stat
 * (proc(5)), in clock ticks of 10 ms. Linux only.
 */
export function processCpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * GETs a URL over `agent` and resolves with the body's bytes, unparsed (a
 * parse would be the client's cost, not the server's); rejects on a status
 * other than 200, with the start of the body.
 */
export function getBytes(agent, url, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        if (res.statusCode === 200) resolve(body);
        else reject(new Error(`HTTP ${res.statusCode}: ${body.toString('utf8').slice(0, 300)}`));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The two servers the database benchmarks compare, each in a process of its
 * own on the PostgreSQL at `dbUrl` with a pool of `pool`: the reference
 * server (bench/load-reference-server.mjs, signing page tokens with
 * `secret`; `extra` arguments pass on, `no-admission` among them) and the
 * hand-written one (bench/load-hand-server.mjs, folding case with
 * `foldCollation`, or `pg_unicode_fast` when the server has no better one).
 * Each resolves with `{ url, pid, stop }`.
 */
export const loadServers = {
  reference: (dbUrl, secret, { pool = 8, extra = [], script = 'load-reference-server.mjs' } = {}) =>
    startServer(script, [dbUrl, String(pool), secret, ...extra]),
  hand: (dbUrl, foldCollation, { pool = 8 } = {}) =>
    startServer('load-hand-server.mjs', [dbUrl, String(pool), foldCollation ?? 'pg_unicode_fast']),
};
