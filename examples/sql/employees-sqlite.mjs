// The sample employees in SQLite (sql.js, in WebAssembly), queried through
// `toSql` with the same filter and sort as employees-postgres.mjs. SQLite
// stores datetimes as epoch milliseconds and booleans as 0/1, and needs
// `registerSqliteFunctions` for case folding beyond ASCII.
//
// Run after building:  npm run build && node examples/sql/employees-sqlite.mjs
import { readFileSync } from 'node:fs';
import initSqlJs from 'sql.js';
import { query, employeeSchema } from '../../dist/index.js';
import { quoteIdentifier, registerSqliteFunctions, sqlColumnType, toSql, toStoredValue } from '../../dist/sql/index.js';

const employees = JSON.parse(readFileSync(new URL('../employees.json', import.meta.url), 'utf8'));
const SQL = await initSqlJs();
const db = new SQL.Database();
registerSqliteFunctions(db);

const fields = employeeSchema.fields;
const q = (name) => quoteIdentifier(name, 'sqlite');
db.run(`CREATE TABLE employees (${fields.map((f) => `${q(f.name)} ${sqlColumnType(f.type, 'sqlite')}`).join(', ')})`);
const insert = db.prepare(`INSERT INTO employees VALUES (${fields.map(() => '?').join(', ')})`);
for (const e of employees) insert.run(fields.map((f) => toStoredValue(e[f.name], f.type, 'sqlite')));
insert.free();

const filter = "LastName.StartsWith('ż');Or(Gender.Equal(1);Gender.IsNull());CreatedOn.GreaterThan(2010-01-01)";
const sort = 'LastName=Asc;BirthOn=Desc';
const { where, orderBy, params } = toSql({ filter, sort }, { dialect: 'sqlite', schema: employeeSchema, tieBreaker: 'Id' });
console.log('WHERE   ', where);
console.log('ORDER BY', orderBy);
console.log('params  ', JSON.stringify(params));

const statement = db.prepare(`SELECT "Id", "FirstName", "LastName" FROM employees WHERE ${where} ORDER BY ${orderBy} LIMIT 5`);
statement.bind(params);
const rows = [];
while (statement.step()) rows.push(statement.getAsObject());
statement.free();
console.table(rows);

const inMemory = query(employees, { filter, sort, schema: employeeSchema, limit: 5 }).map((e) => e.Id);
const same = JSON.stringify(rows.map((r) => r.Id)) === JSON.stringify(inMemory);
console.log(same ? 'SQLite and query() agree' : `MISMATCH: query() gives ${inMemory.join(', ')}`);
db.close();
process.exitCode = same ? 0 : 1;
