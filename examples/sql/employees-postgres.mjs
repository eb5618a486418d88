// Worked example for docs/sql.md: the sample employees in a PostgreSQL
// table (PGlite, PostgreSQL 18 in WebAssembly), queried with a wepql filter
// and sort through `toSql`, then the same through Kysely, and checked
// against the in-memory `query()`.
//
// Run after building:  npm run build && node examples/sql/employees-postgres.mjs
import { readFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { kyselyOrderBy, kyselyWhere } from '../../dist/query-builders/kysely.js';
import { query, employeeSchema } from '../../dist/index.js';
import { quoteIdentifier, sqlColumnType, toSql, toStoredValue } from '../../dist/sql/index.js';

const employees = JSON.parse(readFileSync(new URL('../employees.json', import.meta.url), 'utf8'));
const db = await PGlite.create();

// 1. A table by the storage convention: one column per field, datetimes as
//    timestamptz, integers as bigint, numbers as double precision.
const fields = employeeSchema.fields;
const q = (name) => quoteIdentifier(name, 'postgres');
await db.query(`CREATE TABLE employees (${fields.map((f) => `${q(f.name)} ${sqlColumnType(f.type, 'postgres')}`).join(', ')})`);
for (let i = 0; i < employees.length; i += 100) {
  const params = [];
  const rows = employees
    .slice(i, i + 100)
    .map((e) => `(${fields.map((f) => (params.push(toStoredValue(e[f.name], f.type, 'postgres')), `$${params.length}`)).join(', ')})`);
  await db.query(`INSERT INTO employees (${fields.map((f) => q(f.name)).join(', ')}) VALUES ${rows.join(', ')}`, params);
}
console.log(`loaded ${employees.length} employees\n`);

// 2. toSql: a WHERE condition, an ORDER BY list and bound parameters.
const filter = "LastName.StartsWith('ż');Or(Gender.Equal(1);Gender.IsNull());CreatedOn.GreaterThan(2010-01-01)";
const sort = 'LastName=Asc;BirthOn=Desc';
const fragment = toSql({ filter, sort }, { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id' });
console.log('filter: ', filter);
console.log('sort:   ', sort);
console.log('WHERE   ', fragment.where);
console.log('ORDER BY', fragment.orderBy);
console.log('params  ', JSON.stringify(fragment.params));
const { rows } = await db.query(
  `SELECT "Id", "FirstName", "LastName", "Gender" FROM employees WHERE ${fragment.where} ORDER BY ${fragment.orderBy} LIMIT 5`,
  [...fragment.params],
);
console.table(rows);

// 3. The same through Kysely (wepql/kysely): the filter is a Kysely
//    expression beside the application's own condition, the sort an ORDER BY
//    expression; Kysely numbers every parameter itself (here LIMIT's too).
//    A minimal driver runs Kysely's compiled queries on PGlite.
const kysely = new Kysely({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createIntrospector: (k) => new PostgresIntrospector(k),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createDriver: () =>
      Object.assign(new DummyDriver(), {
        acquireConnection: async () => ({
          executeQuery: async (compiled) => ({ rows: (await db.query(compiled.sql, [...compiled.parameters])).rows }),
          streamQuery: () => {
            throw new Error('streaming is not used in this example');
          },
        }),
      }),
  },
});
const options = { dialect: 'postgres', schema: employeeSchema, tieBreaker: 'Id' };
const builder = kysely
  .selectFrom('employees')
  .select(['Id', 'FirstName', 'LastName', 'Gender'])
  .where((eb) => eb.and([eb('RowStatus', '<>', 99), kyselyWhere(eb, filter, options)]))
  .orderBy(kyselyOrderBy(sort, options))
  .limit(5);
const compiled = builder.compile();
console.log('Kysely SQL   ', compiled.sql);
console.log('Kysely params', JSON.stringify(compiled.parameters));
const viaKysely = await builder.execute();

// 4. Database and evaluator agree.
const inMemory = query(employees, { filter, sort, schema: employeeSchema, limit: 5 }).map((e) => e.Id);
console.log('\nIds from toSql:  ', rows.map((r) => r.Id).join(', '));
console.log('Ids from Kysely: ', viaKysely.map((r) => r.Id).join(', '));
console.log('Ids from query():', inMemory.join(', '));
const same =
  JSON.stringify(rows.map((r) => Number(r.Id))) === JSON.stringify(inMemory) &&
  JSON.stringify(viaKysely.map((r) => Number(r.Id))) === JSON.stringify(inMemory);
console.log(same ? 'all three agree' : 'MISMATCH');
await kysely.destroy();
await db.close();
process.exitCode = same ? 0 : 1;
