// Framework adapters: requests per second of the reference server and of the
// Express, Fastify and Hono adapters, side by side with a bare node:http
// handler (the reference: handleListRequest behind the smallest server Node
// has), all serving the same 10,000 employees from one memory source with the
// same bearer check, over real HTTP on 127.0.0.1. Samples alternate between
// the servers so that load from elsewhere on the machine hits all alike.
import http from 'node:http';
import os from 'node:os';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { listHandler as expressList } from '../dist/frameworks/express.js';
import { listHandler as fastifyList } from '../dist/frameworks/fastify.js';
import { listHandler as honoList } from '../dist/frameworks/hono.js';
import { createMemoryDataSource } from '../dist/sources/index.js';
import { createTokenCodec, handleListRequest, listHeaders } from '../dist/list/index.js';
import { employeeSchema } from '../dist/index.js';
import { createListServer } from '../dist/reference-server/index.js';
import { generateEmployees } from '../examples/generate-employees.mjs';
import { fmt, machineLine, median, writeSection } from './harness.mjs';

const N = 2_000;
const records = generateEmployees(N, 11).map((r) => ({ ...r, ClientId: 1 }));
const ROUTE = '/api/public/clients/1/employees';
const PATTERN = '/api/public/clients/:client_id/employees';
const TOKEN = 'bench-token';
const SECRET = 'bench secret of sixteen bytes or more';
const REQUESTS = 200;
const CLIENTS = 4;
const SAMPLES = 9;
const QUERIES = [
  ['light: skip page, no filter or sort, limit 20', { limit: '20', skip: '100' }],
  [
    'medium: first page, filter and sort, limit 50',
    {
      limit: '50',
      filter:
        'Or(LastName.StartsWith(m);FirstName.Contains(an));Checklist.InArray(1,3,5,7,9);CreatedOn.GreaterThanOrEqual(2012-01-01T00:00:00Z)',
      sort: 'LastName=Asc;CreatedOn=Desc',
    },
  ],
];

const source = createMemoryDataSource(records, {
  schema: employeeSchema,
  clientField: 'ClientId',
  deleted: { field: 'RowStatus', value: 3 },
  tieBreaker: 'Id',
});
const codec = createTokenCodec({ secret: SECRET, ttlSeconds: 3600 });
const options = { source, schema: employeeSchema, codec, resolveClient: (id) => (id === '1' ? 1 : undefined) };
const authorized = (header) => header === `Bearer ${TOKEN}`;
const UNAUTHORIZED = { 'www-authenticate': 'Bearer error="invalid_token"' };

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${server.address().port}`)));

async function bareNode() {
  const server = http.createServer(async (req, res) => {
    if (!authorized(req.headers.authorization)) return res.writeHead(401, UNAUTHORIZED).end();
    const url = new URL(req.url, 'http://127.0.0.1');
    const r = await handleListRequest(
      { query: url.searchParams, headers: listHeaders(req.headersDistinct), url: `http://127.0.0.1${req.url}` },
      { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 },
    );
    const text = r.body === undefined ? '' : JSON.stringify(r.body);
    res.writeHead(r.status, { ...r.headers, 'content-length': Buffer.byteLength(text) }).end(text);
  });
  return { url: await listen(server), close: () => new Promise((r) => server.close(r)) };
}

async function reference() {
  const app = createListServer({ records, authToken: TOKEN, secret: SECRET, ttlSeconds: 3600 });
  const { url } = await app.listen();
  return { url, close: () => app.close() };
}

async function onExpress() {
  const app = express();
  app.get(
    PATTERN,
    (req, res, next) => (authorized(req.get('authorization')) ? next() : res.status(401).set(UNAUTHORIZED).end()),
    expressList(options),
  );
  const server = http.createServer(app);
  return { url: await listen(server), close: () => new Promise((r) => server.close(r)) };
}

async function onFastify() {
  const app = Fastify();
  app.addHook('onRequest', async (request, reply) => {
    if (!authorized(request.headers.authorization)) return reply.code(401).headers(UNAUTHORIZED).send();
  });
  app.get(PATTERN, fastifyList(options));
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
}

async function onHono() {
  const app = new Hono();
  app.use(PATTERN, async (c, next) => (authorized(c.req.header('authorization')) ? next() : c.body(null, 401, UNAUTHORIZED)));
  app.get(PATTERN, honoList(options));
  const server = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

function get(agent, target) {
  return new Promise((resolve, reject) => {
    const req = http.request(target, { agent, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
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
async function sample(base, query, count) {
  const target = `${base}${ROUTE}?${new URLSearchParams(query)}`;
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  let next = 0;
  const t0 = performance.now();
  const client = async () => {
    while (next < count) {
      next++;
      await get(agent, target);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  const rate = (count * 1000) / (performance.now() - t0);
  agent.destroy();
  return rate;
}

const SERVERS = [
  ['bare `node:http` + `handleListRequest` (reference)', bareNode],
  ['reference server (`wepql/server`)', reference],
  ['Express 5 (`wepql/express`)', onExpress],
  ['Fastify 5 (`wepql/fastify`)', onFastify],
  ['Hono 4 + @hono/node-server (`wepql/hono`)', onHono],
];
const started = [];
for (const [label, start] of SERVERS) started.push({ label, ...(await start()) });

// Every server must answer the same body before it is timed.
for (const [, query] of QUERIES) {
  const bodies = await Promise.all(
    started.map(async ({ url }) => {
      const r = await fetch(`${url}${ROUTE}?${new URLSearchParams(query)}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      const body = await r.json();
      delete body.Pagination?.DataToken; // tokens carry their issue time
      return JSON.stringify(body);
    }),
  );
  if (new Set(bodies).size !== 1) throw new Error('bench: the servers answer differently');
}

const loadBefore = os.loadavg()[0];
const table = [];
for (const [label, query] of QUERIES) {
  for (let w = 0; w < 3; w++) for (const s of started) await sample(s.url, query, 100); // warm up every stack's JIT
  const rates = started.map(() => []);
  for (let round = 0; round < SAMPLES; round++) {
    for (let i = 0; i < started.length; i++) rates[i].push(await sample(started[i].url, query, REQUESTS));
  }
  const medians = rates.map(median);
  for (let i = 0; i < started.length; i++) {
    table.push(`| ${label} | ${started[i].label} | ${fmt(medians[i])} | ${fmt(medians[i] / medians[0], 2)}× |`);
    console.log(`${label}: ${started[i].label} ${fmt(medians[i])} req/s`);
  }
}
const loadAfter = os.loadavg()[0];
for (const s of started) await s.close();

writeSection(
  'adapters',
  [
    '## adapters: requests per second by framework',
    '',
    `${fmt(N)} employees in memory, all of one client, one memory source and token codec shared by every server; each server checks the bearer token and serves \`GET ${PATTERN}\`.`,
    `${REQUESTS} requests per sample over ${CLIENTS} keep-alive connections to 127.0.0.1, samples alternating between servers, median of ${SAMPLES}; the servers' answers are compared before timing.`,
    `Reference: a bare \`node:http\` server calling \`handleListRequest\` directly. Machine: ${machineLine()}; 1-minute load average ${fmt(loadBefore, 1)} before and ${fmt(loadAfter, 1)} after (a load far above the core count makes single figures noisy: compare ratios within one run).`,
    '',
    '| request | server | req/s | vs bare node:http |',
    '|---|---|---:|---:|',
    ...table,
    '',
    'The light request shows what each stack adds per request; on the medium one the list work (filtering',
    `${fmt(N)} records and sorting the matches) weighs more and the stacks converge.`,
  ].join('\n'),
);
