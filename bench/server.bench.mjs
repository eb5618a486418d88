// The reference list server: requests per second over real HTTP on
// 127.0.0.1 (a few keep-alive clients through http.Agent) for a medium filter
// and sort over 10,000 employees, against the same handler called without
// HTTP (the reference: what the list contract itself costs). First pages
// count and sort; token pages verify the token and sort; skip pages skip
// the count and the token.
import http from 'node:http';
import { createMemoryDataSource } from '../dist/sources/index.js';
import { createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { employeeSchema } from '../dist/index.js';
import { createListServer } from '../dist/reference-server/index.js';
import { generateEmployees } from '../examples/generate-employees.mjs';
import { fmt, machineLine, median, writeSection } from './harness.mjs';

const N = 10_000;
// One client, so the filter runs over all 10,000 records.
const records = generateEmployees(N, 11).map((r) => ({ ...r, ClientId: 1 }));
const FILTER =
  'Or(LastName.StartsWith(m);FirstName.Contains(an));Checklist.InArray(1,3,5,7,9);CreatedOn.GreaterThanOrEqual(2012-01-01T00:00:00Z)';
const SORT = 'LastName=Asc;CreatedOn=Desc';
const LIMIT = '50';
const ROUTE = '/api/public/clients/1/employees';
const TOKEN = 'bench-token';
const SECRET = 'bench secret of sixteen bytes or more';
const REQUESTS = 400;
const CLIENTS = 4;
const SAMPLES = 5;

// --- in-process reference: the handler without HTTP ------------------------------------
const source = createMemoryDataSource(records, {
  schema: employeeSchema,
  clientField: 'ClientId',
  deleted: { field: 'RowStatus', value: 3 },
  tieBreaker: 'Id',
});
// A long lifetime: the whole run outlasts the default 60 s, and token pages reuse one token.
const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
const handlerOptions = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
const firstQuery = { limit: LIMIT, filter: FILTER, sort: SORT };
const skipQuery = { ...firstQuery, skip: '500' };

const first = await handleListRequest({ query: firstQuery }, handlerOptions);
if (first.status !== 200) throw new Error(`bench: first page failed: ${JSON.stringify(first.body)}`);
const matching = first.body.Pagination.TotalRecords;
const token = first.body.Pagination.DataToken;
const tokenQuery = { 'data-token': token, page: '3' };

/** One sample: `count` handler calls, one after another; calls per second. */
async function directSample(query, count) {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    const r = await handleListRequest({ query }, handlerOptions);
    if (r.status !== 200) throw new Error(`bench: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
  }
  return (count * 1000) / (performance.now() - t0);
}

// --- over HTTP -------------------------------------------------------------------------
const app = createListServer({ records, authToken: TOKEN, secret: SECRET, ttlSeconds: 3600 });
const { url } = await app.listen();

function get(agent, path) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${path}`, { agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () =>
        res.statusCode === 200 ? resolve(chunks.length) : reject(new Error(`bench: HTTP ${res.statusCode}: ${Buffer.concat(chunks)}`)),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** One sample: `count` requests over `CLIENTS` keep-alive connections; requests per second. */
async function httpSample(query, count) {
  const path = `${ROUTE}?${new URLSearchParams(query)}`;
  // A fresh agent per sample: idle keep-alive sockets would otherwise be
  // closed by the server (keepAliveTimeout) while the direct samples run.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let next = 0;
  const t0 = performance.now();
  const client = async () => {
    while (next < count) {
      next++;
      await get(agent, path);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const rate = (count * 1000) / (performance.now() - t0);
  agent.destroy();
  return rate;
}

/** Alternates direct and HTTP samples so that load from elsewhere on the machine hits both alike. */
async function measure(query) {
  const direct = [];
  const overHttp = [];
  for (let s = 0; s < SAMPLES; s++) {
    direct.push(await directSample(query, REQUESTS / 2));
    overHttp.push(await httpSample(query, REQUESTS));
  }
  return { direct: median(direct), overHttp: median(overHttp) };
}

// Warm both paths before measuring.
await directSample(firstQuery, 100);
await httpSample(firstQuery, 100);

const rows = [];
for (const [label, query] of [
  ['first page (count, sort, issue token)', firstQuery],
  ['token page 3 (verify token, sort)', tokenQuery],
  ['skip page (skip=500, no token)', skipQuery],
]) {
  const { direct, overHttp } = await measure(query);
  rows.push(`| ${label} | ${fmt(overHttp)} | ${fmt(direct)} | ${fmt(overHttp / direct, 2)}× |`);
  console.log(`${label}: HTTP ${fmt(overHttp)} req/s, handler ${fmt(direct)} calls/s`);
}

await app.close();

writeSection(
  'server',
  [
    '## server: the reference list server',
    '',
    `${fmt(N)} employees in memory, all of one client; filter \`${FILTER}\` (${fmt(matching)} matches), sort \`${SORT}\`, limit ${LIMIT}.`,
    `HTTP: ${REQUESTS} requests per sample over ${CLIENTS} keep-alive connections (\`http.Agent\`) to 127.0.0.1, median of ${SAMPLES} samples.`,
    `Reference: \`handleListRequest\` called directly, one call after another, same data source and codec (median of ${SAMPLES} samples of ${REQUESTS / 2} calls, alternating with the HTTP samples).`,
    `Machine: ${machineLine()}.`,
    '',
    '| request | HTTP req/s | handler calls/s (no HTTP) | HTTP / handler |',
    '|---|---:|---:|---:|',
    ...rows,
    '',
    'Each request filters the 10,000 records and sorts the matches again (the memory source shares one',
    'filtering between the count and the page of a first page, nothing across requests), so the list work',
    'dominates; HTTP adds request parsing, JSON serialisation of the page and the socket round trip.',
  ].join('\n'),
);
