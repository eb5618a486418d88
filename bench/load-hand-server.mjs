// The hand-written reference of `npm run bench:load`: what a specialist writes for the list shapes the
// load sends, on node:http and pg with the same pool size as the reference server. A first page runs
// its page and its total at once (the counter table when the filter is empty, else COUNT(*)); next-page
// seeks from the last row's key; page=N is a deferred join (the skipped keys walked in the index, the
// page's rows fetched by key). What keeps it answering under overload: counts run on a pool of their own
// (a third of the connections), each pool hands out a connection within 2 s or the request gets 503 +
// Retry-After, and every statement has a 10 s statement_timeout (a cancelled one is a 503 too). No parser, no validation, no HMAC: the token is the key in base64url JSON.
// Usage: node bench/load-hand-server.mjs <database-url> <pool-size> <fold-collation>; prints `listening <url>`.
import http from 'node:http';
import pg from 'pg';

const [url, poolSize, collation = 'pg_unicode_fast'] = process.argv.slice(2);
// Counts have a pool of their own, so a burst of slow filtered counts cannot hold every connection while
// token pages wait; together the two hold as many connections as the reference server's pool. Connections
// are opened at start and kept (no idle timeout): on a loaded machine opening one can take longer than the wait.
const size = Number(poolSize);
const COUNT_POOL = Math.max(1, Math.floor(size / 3));
const options = { connectionString: url, idleTimeoutMillis: 0, connectionTimeoutMillis: 2000, statement_timeout: 10_000 };
const pool = new pg.Pool({ ...options, max: size - COUNT_POOL });
const counts = new pg.Pool({ ...options, max: COUNT_POOL });
for (const p of [pool, counts]) {
  // A connection that errors while idle must not crash the server.
  p.on('error', () => {});
  const opened = [];
  for (let tries = 0; opened.length < p.options.max && tries < 50; tries++) {
    const client = await p.connect().catch(() => undefined);
    if (client !== undefined) opened.push(client);
  }
  for (const client of opened) client.release();
}
const SCOPE = `"ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;
// The case-folded name as the advised index holds it (the collation the reference server folds with).
const NAME = `lower("LastName" COLLATE "${collation.replace(/"/g, '')}")`;
// The filters the benchmarks send (empty: the scope only) and the orders (key expression, direction; none: by "Id").
const FILTERS = {
  '': '',
  'LastName.StartsWith(sm)': `${NAME} LIKE 'sm%' AND ${NAME} >= 'sm' AND ${NAME} < 'sn'`,
  'Gender.Equal(1)': `"Gender" = 1`,
  'CreatedOn.GreaterThan(2000-01-01)': `"CreatedOn" > '2000-01-01T00:00:00Z'`,
  'EmployeeNumber.LessThan(100)': `"EmployeeNumber" < 100`,
  'BirthOn.GreaterThan(1990-01-01)': `"BirthOn" > '1990-01-01T00:00:00Z'`,
};
const SORTS = {
  '': { key: '"Id"', desc: false },
  'LastName=Asc': { key: NAME, desc: false },
  'CreatedOn=Desc': { key: '"CreatedOn"', desc: true },
};
const shapeOf = (t) => ({ where: FILTERS[t.filter], ...SORTS[t.sort] });
const COUNTER = `SELECT COALESCE(SUM(n), 0)::int AS n FROM employees_wepql_counts WHERE "ClientId" = 1 AND NOT deleted`;

const where = (s) => `${SCOPE}${s.where ? ` AND ${s.where}` : ''}`;
// NULL keys where the advised indexes hold them (first going up, last going down), so the ORDER BY is the index's.
// ("Id", the default order, is never NULL: plain ASC, as its index is.)
const order = (s, key = s.key, id = '"Id"') =>
  `${key} ${s.desc ? 'DESC NULLS LAST' : s.key === '"Id"' ? 'ASC' : 'ASC NULLS FIRST'}, ${id} ASC`;
const encode = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const decode = (t) => JSON.parse(Buffer.from(t, 'base64url').toString('utf8'));

/** A page: from the start, after a key (keyset), or at an offset (deferred join on the sort index). */
async function page(s, limit, after, offset) {
  if (offset > 0) {
    const keys = `SELECT "Id", ${s.key} AS k FROM employees WHERE ${where(s)} ORDER BY ${order(s)} LIMIT $1 OFFSET $2`;
    const sql = `SELECT e."Record", p.k, e."Id" FROM employees e JOIN (${keys}) p USING ("Id") ORDER BY ${order(s, 'p.k', 'e."Id"')}`;
    return (await pool.query(sql, [limit, offset])).rows;
  }
  const params = [limit];
  let seek = '';
  if (after !== undefined) {
    const [key, id] = after;
    if (key === null) {
      // Still among the NULL keys: the rest of them, then (going up) every non-NULL key.
      params.push(id);
      seek = ` AND ((${s.key} IS NULL AND "Id" > $2)${s.desc ? '' : ` OR ${s.key} IS NOT NULL`})`;
    } else {
      params.push(key, id);
      // Going down, the bound the index can start from (<=) and the tie on "Id"; the seeded keys are never NULL, so no NULL tail follows.
      seek = s.desc ? ` AND ${s.key} <= $2 AND (${s.key} < $2 OR "Id" > $3)` : ` AND (${s.key}, "Id") > ($2, $3)`;
    }
  }
  const sql = `SELECT "Record", ${s.key} AS k, "Id" FROM employees WHERE ${where(s)}${seek} ORDER BY ${order(s)} LIMIT $1`;
  return (await pool.query(sql, params)).rows;
}

async function answer(q) {
  const token = q.get('data-token');
  if (token === null) {
    const t = { filter: q.get('filter') ?? '', sort: q.get('sort') ?? '', limit: Number(q.get('limit')) };
    if (!(t.filter in FILTERS) || !(t.sort in SORTS)) return [400, { Message: 'unknown filter or sort' }];
    const s = shapeOf(t);
    const [rows, counted] = await Promise.all([
      page(s, t.limit, undefined, 0),
      counts.query(s.where ? `SELECT count(*)::int AS n FROM employees WHERE ${where(s)}` : COUNTER),
    ]);
    return [200, envelope(rows, { ...t, page: 1, total: counted.rows[0].n })];
  }
  const t = decode(token);
  if (q.get('next-page') !== null) return [200, envelope(await page(shapeOf(t), t.limit, t.last, 0), { ...t, page: t.page + 1 })];
  const n = Number(q.get('page'));
  return [200, envelope(await page(shapeOf(t), t.limit, undefined, (n - 1) * t.limit), { ...t, page: n })];
}

function envelope(rows, t) {
  const last = rows.length === 0 ? t.last : [rows[rows.length - 1].k, rows[rows.length - 1].Id];
  const pages = Math.ceil(t.total / t.limit);
  return {
    Data: rows.map((r) => r.Record),
    Status: 1,
    Pagination: { PageNo: t.page, PageSize: t.limit, TotalRecords: t.total, TotalPages: pages, DataToken: encode({ ...t, last }) },
  };
}

/** No connection within the pool's wait, or a statement past its timeout (57014): busy, come back later. */
const busy = (error) => /timeout exceeded when trying to connect/.test(error?.message ?? '') || error?.code === '57014';

const server = http.createServer((req, res) => {
  const q = new URL(req.url, 'http://x').searchParams;
  answer(q).then(
    ([status, body]) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    },
    (error) => {
      const status = busy(error) ? 503 : 500;
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 503 ? { 'retry-after': '1' } : {}) });
      res.end(JSON.stringify({ Message: String(error?.message ?? error) }));
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
