// What the list handler costs per request beyond its data source: the
// handler over a source that answers at once (a fixed page of 50 employees
// with seek keys), so every microsecond measured is parameter reading, token
// verification and issue, the analysed-query cache and the envelope. Compare
// with the hand keyset query of `bench:scale` (PostgreSQL, 10^6 rows): the
// handler's `next-page` target is 1.2× that query, so its overhead must stay
// a small fraction of it.
import { createTokenCodec, handleListRequest } from '../dist/list/index.js';
import { analyzeListQuery } from '../dist/list/request.js';
import { employeeSchema } from '../dist/index.js';
import { generateEmployees } from '../examples/generate-employees.mjs';
import { fmt, machineLine, median, writeSection } from './harness.mjs';

const ROUTE = '/api/public/clients/1/employees';
const FILTER =
  'Or(LastName.StartsWith(m);FirstName.Contains(an));Checklist.InArray(1,3,5,7,9);CreatedOn.GreaterThanOrEqual(2012-01-01T00:00:00Z)';
const SORT = 'LastName=Asc;CreatedOn=Desc';
const rows = generateEmployees(50, 3);
const keys = { first: ['adams', 1_325_376_000_000, 17], last: ['baker', 1_325_376_000_000, 942] };
// A source with no cost of its own.
const source = {
  count: async () => 1_000_000,
  page: async () => rows,
  keyedPage: async () => ({ rows, keys }),
};
const codec = createTokenCodec({ secret: 'handler bench secret, sixteen bytes', ttlSeconds: 3600 });
const options = { source, schema: employeeSchema, codec, route: ROUTE, clientId: 1 };
const call = async (query) => {
  const r = await handleListRequest({ query }, options);
  if (r.status !== 200) throw new Error(`bench: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};

/** Median microseconds per call over `samples` batches of `batch` calls (after a warm-up batch). */
async function microseconds(fn, { batch = 2000, samples = 7 } = {}) {
  for (let i = 0; i < batch; i++) await fn(i);
  const per = [];
  for (let s = 0; s < samples; s++) {
    const t = performance.now();
    for (let i = 0; i < batch; i++) await fn(i);
    per.push(((performance.now() - t) * 1000) / batch);
  }
  return median(per);
}

const first = await call({ limit: '50', filter: FILTER, sort: SORT });
const token = first.Pagination.DataToken;
const token2 = (await call({ 'data-token': token, 'next-page': 'true' })).Pagination.DataToken;
const payload = {
  route: ROUTE,
  filter: FILTER,
  sort: SORT,
  includeDeleted: false,
  limit: 50,
  page: 2,
  totalRecords: 1_000_000,
  totalPages: 20_000,
  keys,
};

let n = 0;
const m = {
  issue: await microseconds(() => codec.issue(payload)),
  verify: await microseconds(() => codec.verify(token, ROUTE)),
  analyzeCached: await microseconds(() => analyzeListQuery(FILTER, SORT, { schema: employeeSchema })),
  analyzeCold: await microseconds(() => analyzeListQuery(`${FILTER};Id.GreaterThan(${n++})`, SORT, { schema: employeeSchema }), {
    batch: 500,
  }),
  firstCached: await microseconds(() => call({ limit: '50', filter: FILTER, sort: SORT })),
  firstCold: await microseconds(() => call({ limit: '50', filter: `${FILTER};Id.GreaterThan(${n++})`, sort: SORT }), { batch: 500 }),
  next: await microseconds(() => call({ 'data-token': token, 'next-page': 'true' })),
  prev: await microseconds(() => call({ 'data-token': token2, 'prev-page': 'true' })),
  jump: await microseconds(() => call({ 'data-token': token, page: '500' })),
};
console.log(m);
const us = (x) => fmt(x, 1);
writeSection(
  'handler',
  [
    '## List handler: cost per request beyond the data source',
    '',
    `\`bench/handler.bench.mjs\`: \`handleListRequest\` over a data source that answers at once (a fixed page of 50 employees with seek keys), filter \`${FILTER}\`, sort \`${SORT}\`; medians in microseconds per request. Tokens are issued and verified synchronously (HMAC-SHA256 from \`@noble/hashes\`, keyed once per key; plain JSON parts below 512 bytes, deflate-raw from \`fflate\` above), and the analysed filter and sort are cached per (schema, policy, limits, filter, sort) text in a bounded LRU, so a token page parses nothing. Set against the hand keyset query of \`bench:scale\` (PostgreSQL, 10^6 rows) to read the handler's share of a \`next-page\`.`,
    '',
    '| step or request | µs |',
    '|---|---:|',
    `| \`codec.issue\` (page 2 with seek keys) | ${us(m.issue)} |`,
    `| \`codec.verify\` | ${us(m.verify)} |`,
    `| \`analyzeListQuery\`, cached | ${us(m.analyzeCached)} |`,
    `| \`analyzeListQuery\`, new text (parse + validate) | ${us(m.analyzeCold)} |`,
    `| first page, filter and sort seen before | ${us(m.firstCached)} |`,
    `| first page, new filter text | ${us(m.firstCold)} |`,
    `| \`next-page\` | ${us(m.next)} |`,
    `| \`prev-page\` | ${us(m.prev)} |`,
    `| \`page=500\` | ${us(m.jump)} |`,
    '',
    `Machine: ${machineLine()}.`,
  ].join('\n'),
);
