// The hand-written reference of `npm run bench:load`: what a DBA writes for the five list shapes
// the load sends, on node:http and pg with the same pool size as the reference server — a first
// page runs its page and COUNT(*) at once, next-page seeks from the last row's key, page=N skips
// with OFFSET. No parser, no validation, no HMAC: the token is the key in base64url JSON.
// Usage: node bench/load-hand-server.mjs <database-url> <pool-size> <fold-collation>; prints `listening <url>`.
import http from 'node:http';
import pg from 'pg';

const [url, poolSize, collation = 'pg_unicode_fast'] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: Number(poolSize) });
const SCOPE = `"ClientId" = 1 AND ("RowStatus" IS NULL OR "RowStatus" <> 3)`;
// The case-folded name as the advised index holds it (the collation the reference server folds with).
const NAME = `lower("LastName" COLLATE "${collation.replace(/"/g, '')}")`;
// The five shapes of the load: the filter's SQL, its parameters, and the order (key expression, direction).
const SHAPES = {
  'LastName.StartsWith(sm)': { where: `${NAME} LIKE 'sm%' AND ${NAME} >= 'sm' AND ${NAME} < 'sn'`, key: NAME, desc: false },
  'Gender.Equal(1)': { where: `"Gender" = 1`, key: NAME, desc: false },
  'CreatedOn.GreaterThan(2000-01-01)': { where: `"CreatedOn" > '2000-01-01T00:00:00Z'`, key: `"CreatedOn"`, desc: true },
  'EmployeeNumber.LessThan(100)': { where: `"EmployeeNumber" < 100`, key: NAME, desc: false },
  'BirthOn.GreaterThan(1990-01-01)': { where: `"BirthOn" > '1990-01-01T00:00:00Z'`, key: NAME, desc: false },
};

const order = (s) => `${s.key} ${s.desc ? 'DESC' : 'ASC'}, "Id" ASC`;
const encode = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const decode = (t) => JSON.parse(Buffer.from(t, 'base64url').toString('utf8'));

async function page(shape, limit, after, offset) {
  const s = SHAPES[shape];
  const params = [limit];
  let seek = '';
  if (after !== undefined) {
    params.push(after[0], after[1]);
    seek = s.desc ? ` AND (${s.key} < $2 OR (${s.key} = $2 AND "Id" > $3))` : ` AND (${s.key}, "Id") > ($2, $3)`;
  }
  const skip = offset > 0 ? ` OFFSET ${Number(offset)}` : '';
  const sql = `SELECT "Record", ${s.key} AS k, "Id" FROM employees WHERE ${SCOPE} AND ${s.where}${seek} ORDER BY ${order(s)} LIMIT $1${skip}`;
  return (await pool.query(sql, params)).rows;
}

async function answer(q) {
  const token = q.get('data-token');
  if (token === null) {
    const shape = q.get('filter');
    const limit = Number(q.get('limit'));
    if (!(shape in SHAPES)) return [400, { Message: 'unknown shape' }];
    const [rows, counted] = await Promise.all([
      page(shape, limit, undefined, 0),
      pool.query(`SELECT count(*)::int AS n FROM employees WHERE ${SCOPE} AND ${SHAPES[shape].where}`),
    ]);
    const total = counted.rows[0].n;
    return [200, envelope(rows, { shape, limit, page: 1, total })];
  }
  const t = decode(token);
  if (q.get('next-page') !== null) {
    const rows = await page(t.shape, t.limit, t.last, 0);
    return [200, envelope(rows, { ...t, page: t.page + 1 })];
  }
  const n = Number(q.get('page'));
  const rows = await page(t.shape, t.limit, undefined, (n - 1) * t.limit);
  return [200, envelope(rows, { ...t, page: n })];
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

const server = http.createServer((req, res) => {
  const q = new URL(req.url, 'http://x').searchParams;
  answer(q).then(
    ([status, body]) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    },
    (error) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ Message: String(error) }));
    },
  );
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}`));
