// The reference server of `npm run bench:load` in a process of its own: `createListServer` over the
// PostgreSQL source with a pg Pool (statements with deadlines, cancelled on disconnect), the counter
// table for unfiltered totals (found as the `wepql` server finds it) and the default admission queue.
// Usage: node bench/load-reference-server.mjs <database-url> <pool-size> <secret> [no-admission]; prints `listening <url>`.
// With `no-admission` the server has no admission queue (`admission: false`): statements run as they arrive,
// without a deadline, so each is one `pool.query` (bench/server-cpu.bench.mjs compares both).
import pg from 'pg';
import { createPostgresDataSource } from '../dist/sources/index.js';
import { createListServer } from '../dist/reference-server/index.js';
import { employeeSchema } from '../dist/index.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, findEmployeeCounter } from '../dist/sample/employees.js';

const [url, poolSize, secret, mode] = process.argv.slice(2);
// Connections kept once opened, as the hand server's are (no idle timeout).
const pool = new pg.Pool({ connectionString: url, max: Number(poolSize), idleTimeoutMillis: 0 });
const query = (sql, params) => pool.query(sql, params);
const { foldCollation } = await chooseFoldCollation(query);
const counterTable = await findEmployeeCounter(query);
const source = createPostgresDataSource({
  pool,
  table: 'employees',
  schema: employeeSchema,
  tieBreaker: 'Id',
  recordColumn: 'Record',
  ...(foldCollation === undefined ? {} : { foldCollation }),
  ...(counterTable === undefined ? {} : { counterTable }),
  ...EMPLOYEE_SCOPE,
});
const app = createListServer({
  source,
  // Client 1 holds the rows; the hand server checks no client either.
  clientExists: async (id) => id === 1,
  authToken: 'load-bench',
  secret,
  ttlSeconds: 3600,
  ...(mode === 'no-admission' ? { admission: false } : {}),
});
const { url: base } = await app.listen();
app.server.keepAliveTimeout = 60_000;
console.log(`listening ${base}`);
