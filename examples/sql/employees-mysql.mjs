// The sample employees in MySQL or MariaDB, queried through
// `toSql(…, { dialect: 'mysql' })` with the same filter and sort as
// employees-postgres.mjs, then served a page at a time by
// `createMysqlDataSource`, and checked against the in-memory `query()`.
// Needs a server and a database you may create a table in:
//
//   npm run build && MYSQL_URL=mysql://root@127.0.0.1:3306/wepql node examples/sql/employees-mysql.mjs
import { readFileSync } from 'node:fs';
import mysql from 'mysql2/promise';
import { createMysqlDataSource, createMysqlTable, insertMysqlRecords } from '../../dist/sources/index.js';
import { analyzeFilter, analyzeSort, query, employeeSchema } from '../../dist/index.js';
import { toSql } from '../../dist/sql/index.js';

const url = process.env.MYSQL_URL;
if (!url) throw new Error('set MYSQL_URL, e.g. mysql://root@127.0.0.1:3306/wepql');
const employees = JSON.parse(readFileSync(new URL('../employees.json', import.meta.url), 'utf8'));
// utf8mb4 on the connection so every code point reaches the server intact.
const pool = mysql.createPool({ uri: url, charset: 'UTF8MB4_GENERAL_CI', connectionLimit: 2 });
// `execute` prepares the statement on the server: parameters are bound, not interpolated.
const run = async (sql, params) => (params.length === 0 ? await pool.query(sql) : await pool.execute(sql, params))[0];

// 1. A table by the storage convention: utf8mb4 text, DOUBLE, BIGINT,
//    datetimes as BIGINT epoch milliseconds, booleans as 0/1, and a JSON
//    column keeping each record whole.
await createMysqlTable({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
await insertMysqlRecords({ run, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees);
console.log(`loaded ${employees.length} employees\n`);

// 2. toSql: backtick-quoted names, `?` placeholders, LOWER() under an
//    explicit collation pinned to a code-point one, LIKE … ESCAPE '!'.
const filter = "LastName.StartsWith('ż');Or(Gender.Equal(1);Gender.IsNull());CreatedOn.GreaterThan(2010-01-01)";
const sort = 'LastName=Asc;BirthOn=Desc';
const { where, orderBy, params } = toSql({ filter, sort }, { dialect: 'mysql', schema: employeeSchema, tieBreaker: 'Id' });
console.log('WHERE   ', where);
console.log('ORDER BY', orderBy);
console.log('params  ', JSON.stringify(params));
const rows = await run(`SELECT Id, FirstName, LastName, Gender FROM employees WHERE ${where} ORDER BY ${orderBy} LIMIT 5`, params);
console.table(rows);

// 3. The same through the list data source (what handleListRequest pages with).
const source = createMysqlDataSource({ run, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', recordColumn: 'Record' });
const q = {
  filter: analyzeFilter(filter, { schema: employeeSchema }).value,
  sort: analyzeSort(sort, { schema: employeeSchema }).value,
  includeDeleted: true,
};
const page = await source.page(q, { offset: 0, limit: 5 });

// 4. Database and evaluator agree.
const inMemory = query(employees, { filter, sort, schema: employeeSchema, limit: 5 }).map((e) => e.Id);
console.log('\nIds from toSql:       ', rows.map((r) => r.Id).join(', '));
console.log('Ids from the source:  ', page.map((r) => r.Id).join(', '));
console.log('Ids from query():     ', inMemory.join(', '));
const same =
  JSON.stringify(rows.map((r) => Number(r.Id))) === JSON.stringify(inMemory) &&
  JSON.stringify(page.map((r) => r.Id)) === JSON.stringify(inMemory);
console.log(same ? 'MySQL and query() agree' : 'MISMATCH');
await pool.end();
process.exitCode = same ? 0 : 1;
