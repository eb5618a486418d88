// The memory source at ROWS records (default 1,000,000): a cold first page
// (filter + heap selection of one page, on the work lane) against the
// reference that every page cost before the cache — `query()`'s filter +
// full sort + slice — and the token pages that seek in the sorted order once
// it is built, and before (a heap over the matches past the token's key).
import { query, employeeSchema } from '../dist/index.js';
import { createMemoryDataSource } from '../dist/sources/index.js';
import { createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { EMPLOYEE_SCOPE } from '../dist/sample/employees.js';
import { generatedEmployee } from '../dist/sample/generate-employees.js';
import { fmt, machineLine, writeSection, medianAsyncMs } from './harness.mjs';

const ROWS = Number(process.env.ROWS ?? 1_000_000);
const LIMIT = 50;
const SORT = 'LastName=Asc';
const FILTER = 'LastName.StartsWith(Sm)';
const ROUTE = '/api/public/clients/1/employees';
const SAMPLES = 5;

const t0 = performance.now();
// Through JSON, in chunks, so the records are the compact objects a server that parsed its data holds.
const records = [];
for (let start = 1; start <= ROWS; start += 10_000) {
  const chunk = Array.from({ length: Math.min(10_000, ROWS - start + 1) }, (_, i) => generatedEmployee(start + i));
  records.push(...JSON.parse(JSON.stringify(chunk)));
}
const built = performance.now() - t0;
const source = createMemoryDataSource(records, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' });
const codec = createTokenCodec({ secret: 'memory bench secret, sixteen bytes', ttlSeconds: 3600 });
const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
const call = async (q) => {
  const r = await handleListRequest({ query: q }, options);
  if (r.status !== 200) throw new Error(`bench: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};
const idle = () => new Promise((r) => setTimeout(r, 0));
/** Waits until the background sort of a cached query is done: a far page jump is then a slice of the order. */
async function untilSorted(q) {
  const t = performance.now();
  await call({ 'data-token': (await call(q)).Pagination.DataToken, page: '10000' });
  return performance.now() - t;
}
const timeMs = (fn, samples = SAMPLES, between = idle) => medianAsyncMs(fn, samples, between);

// The reference first: filter + full sort + slice, as `query()` does it.
const scope = 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)';
const naive = await timeMs(() => query(records, { schema: employeeSchema, filter: scope, sort: `${SORT};Id=Asc` }).slice(0, LIMIT), 3);
const naiveFiltered = await timeMs(
  () => query(records, { schema: employeeSchema, filter: `${scope};${FILTER}`, sort: `${SORT};Id=Asc` }).slice(0, LIMIT),
  3,
);

// Cold first pages: a filter every record passes, a new text each sample (so nothing is cached);
// each sample waits for the previous one's background sort, so it measures the request alone.
let s = 0;
const coldAll = await timeMs(
  () => call({ limit: String(LIMIT), sort: SORT, filter: `Id.GreaterThan(-${++s})` }),
  SAMPLES,
  () => untilSorted({ limit: String(LIMIT), sort: SORT, filter: `Id.GreaterThan(-${s})` }),
);
const coldFiltered = await timeMs(() => call({ limit: String(LIMIT), sort: SORT, filter: `${FILTER};Id.GreaterThan(-${++s})` }));

// One walk: the first page, token pages before the full sort is ready, then after.
const firstQuery = { limit: String(LIMIT), sort: SORT };
const first = await call(firstQuery);
const nextUnsorted = performance.now();
await call({ 'data-token': first.Pagination.DataToken, 'next-page': 'true' });
const nextBeforeSort = performance.now() - nextUnsorted;
const sortMs = await untilSorted(firstQuery);
const warmFirst = await timeMs(() => call(firstQuery), 9);
const next2 = await timeMs(() => call({ 'data-token': first.Pagination.DataToken, 'next-page': 'true' }), 9);
const far = await call({ 'data-token': first.Pagination.DataToken, page: '10000' });
const nextFar = await timeMs(() => call({ 'data-token': far.Pagination.DataToken, 'next-page': 'true' }), 9);
const prevFar = await timeMs(() => call({ 'data-token': far.Pagination.DataToken, 'prev-page': 'true' }), 9);

const row = (name, ms, ref) => `| ${name} | ${ms.toFixed(ms < 10 ? 2 : 1)} | ${(ms / ref).toFixed(2)}× |`;
console.log({ built, naive, naiveFiltered, coldAll, coldFiltered, nextBeforeSort, sortMs, warmFirst, next2, nextFar, prevFar });
writeSection(
  'memory-source',
  [
    '## Memory source: cold first pages and token pages',
    '',
    `\`bench/memory-source.bench.mjs\`: ${fmt(ROWS)} generated employees (built in ${fmt(built / 1000, 1)} s), sort \`${SORT}\`, limit ${LIMIT}, \`handleListRequest\` called directly, medians. The reference is \`query()\`'s filter + full sort + slice of the same rows, which every page cost before the cache. A cold first page filters once and selects its page with a bounded heap on the work lane (slices of 4 ms); the full sort that token pages seek in runs afterwards as background work.`,
    '',
    '| request | ms | vs reference |',
    '|---|---:|---:|',
    row('reference: filter + full sort + slice (every record passes)', naive, naive),
    row('first page, cold (every record passes; new filter text each sample)', coldAll, naive),
    row(`reference: filter + full sort + slice, filter \`${FILTER}\``, naiveFiltered, naiveFiltered),
    row(`first page, cold, filter \`${FILTER}\``, coldFiltered, naiveFiltered),
    row('next-page at page 2 while the full sort is not built yet (heap over the matches)', nextBeforeSort, naive),
    row('background full sort, from the first response to a far page answered from it', sortMs, naive),
    row('first page again (cached)', warmFirst, naive),
    row('next-page at page 2 (sorted order cached)', next2, naive),
    row('next-page at page 10,000', nextFar, naive),
    row('prev-page from page 10,000', prevFar, naive),
    '',
    `Machine: ${machineLine()}.`,
  ].join('\n'),
);
