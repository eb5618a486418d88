// The sample employees in SQLite (sql.js) queried through Drizzle: the
// wepql filter ANDed with the application's own condition (one client),
// the wepql sort spread into orderBy, every value bound by Drizzle. Then
// checked against the in-memory `query()`.
//
// Run after building:  npm run build && node examples/sql/employees-drizzle.mjs
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/sql-js';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import initSqlJs from 'sql.js';
import { drizzleOrderBy, drizzleWhere } from '../../dist/query-builders/drizzle.js';
import { query, employeeSchema } from '../../dist/index.js';
import { quoteIdentifier, registerSqliteFunctions, sqlColumnType, toStoredValue } from '../../dist/sql/index.js';

const employees = JSON.parse(readFileSync(new URL('../employees.json', import.meta.url), 'utf8'));
const SQL = await initSqlJs();
const sqlite = new SQL.Database();
registerSqliteFunctions(sqlite); // wepql_lower: case folding beyond ASCII

// A table by the storage convention (epoch-ms datetimes, 0/1 booleans).
const fields = employeeSchema.fields;
const q = (name) => quoteIdentifier(name, 'sqlite');
sqlite.run(`CREATE TABLE employees (${fields.map((f) => `${q(f.name)} ${sqlColumnType(f.type, 'sqlite')}`).join(', ')})`);
const insert = sqlite.prepare(`INSERT INTO employees VALUES (${fields.map(() => '?').join(', ')})`);
for (const e of employees) insert.run(fields.map((f) => toStoredValue(e[f.name], f.type, 'sqlite')));
insert.free();

// The application's Drizzle table: only the columns it names itself.
const table = sqliteTable('employees', {
  Id: integer('Id'),
  ClientId: integer('ClientId'),
  FirstName: text('FirstName'),
  LastName: text('LastName'),
});
const db = drizzle(sqlite);

const filter = "Or(LastName.StartsWith('s');FirstName.Contains('an'));Gender.Equal(1)";
const sort = 'LastName=Asc;BirthOn=Desc';
const options = { dialect: 'sqlite', schema: employeeSchema, tieBreaker: 'Id' };
const builder = db
  .select({ Id: table.Id, FirstName: table.FirstName, LastName: table.LastName })
  .from(table)
  .where(and(eq(table.ClientId, 2), drizzleWhere(filter, options)))
  .orderBy(...drizzleOrderBy(sort, options))
  .limit(5);
const compiled = builder.toSQL();
console.log('filter:', filter);
console.log('sort:  ', sort);
console.log('Drizzle SQL   ', compiled.sql);
console.log('Drizzle params', JSON.stringify(compiled.params));
const rows = builder.all();
console.table(rows);

const inMemory = query(employees, { filter: `ClientId.Equal(2);${filter}`, sort, schema: employeeSchema, limit: 5 }).map((e) => e.Id);
console.log('Ids from Drizzle:', rows.map((r) => r.Id).join(', '));
console.log('Ids from query():', inMemory.join(', '));
const same = JSON.stringify(rows.map((r) => r.Id)) === JSON.stringify(inMemory);
console.log(same ? 'Drizzle and query() agree' : 'MISMATCH');
sqlite.close();
process.exitCode = same ? 0 : 1;
