/**
 * Deterministic generated employees for scale tests and benchmarks
 * (`wepql db-seed --rows N`): made inside PostgreSQL with one
 * `INSERT … SELECT … FROM generate_series` per batch, so a million rows take
 * seconds, not the minutes a million bound INSERT rows would. The same
 * generator exists in JavaScript (`generatedEmployee`) for the memory source,
 * and both give the same records for the same row number.
 */
import type { ResolvedField } from '../schema/schema.js';
import type { SqlRunner } from '../sources/postgres-source.js';
import { createPostgresTable } from '../sql/dialects/postgres/table.js';
import { POSTGRES_DIALECT } from '../sql/dialects/postgres/dialect.js';
import { employeeSchema } from '../schema/employee-schema.js';
import { EMPLOYEE_TABLE, RECORD_COLUMN, vacuumAnalyze } from './employees.js';
import { employeeTableCreation, finishShardedTable, type EmployeeLayout } from './employee-shards.js';

// Case variants, non-ASCII, quotes and shared prefixes, so folding and ordering are exercised at scale.
const LAST_NAMES = [
  'Smith',
  'smith',
  'SMITH',
  'Smythe',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  "O'Brien",
  'Müller',
  'Żółkiewski',
  'Ångström',
  'de la Cruz',
  'Nguyen',
  'Łukasz',
  'Ōta',
  'Ivanov',
  'Иванов',
];
const FIRST_NAMES = [
  'Mary',
  'James',
  'Patricia',
  'John',
  'Jennifer',
  'Robert',
  'Linda',
  'Michael',
  'Élodie',
  'Иван',
  'Zoë',
  'Ana',
  'li',
  'Bo',
];
const CLIENTS = 6;
const DAY_MS = 86_400_000;
const EPOCH_1950 = Date.UTC(1950, 0, 1);

/** A 31-bit hash of (row, salt), the same in SQL and JavaScript. */
function mix(i: number, salt: number): number {
  // Plain doubles are exact while i * 2654435761 stays below 2^53 (i up to 3.3 million); BigInt beyond.
  if (i < 3_000_000) return (((i * 2654435761 + salt * 40503) % 2147483647) * 48271) % 2147483647;
  return Number((((BigInt(i) * 2654435761n + BigInt(salt) * 40503n) % 2147483647n) * 48271n) % 2147483647n);
}
const mixSql = (salt: number) => `((((g.i::bigint * 2654435761 + ${salt * 40503}) % 2147483647) * 48271) % 2147483647)`;

/** How one field is generated: SQL over `g.i`, and the same value in JavaScript (undefined = omitted). */
interface Generator {
  readonly sql: string;
  readonly js: (i: number) => unknown;
}

function generator(field: ResolvedField, salt: number): Generator {
  const h = mixSql(salt);
  const iso = (expr: string) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;
  const at = (i: number) => EPOCH_1950 + (mix(i, salt) % 27_000) * DAY_MS + (mix(i, salt + 1) % 86_400) * 1000;
  const atSql = `(timestamptz '1950-01-01 00:00:00+00' + (${h} % 27000) * interval '1 day' + (${mixSql(salt + 1)} % 86400) * interval '1 second')`;
  switch (field.name) {
    case 'Id':
      return { sql: 'g.i', js: (i) => i };
    case 'ClientId':
      // Client 1 holds about 98% of the rows, like the big tenant of the report.
      return {
        sql: `CASE WHEN g.i % 50 = 0 THEN 2 + (g.i / 50) % ${CLIENTS - 1} ELSE 1 END`,
        js: (i) => (i % 50 === 0 ? 2 + (Math.floor(i / 50) % (CLIENTS - 1)) : 1),
      };
    case 'RowStatus':
      return { sql: 'CASE WHEN g.i % 97 = 0 THEN 3 ELSE 1 END', js: (i) => (i % 97 === 0 ? 3 : 1) };
    case 'LastName':
      return {
        sql: `(ARRAY[${LAST_NAMES.map(literal).join(',')}])[1 + ${h} % ${LAST_NAMES.length}]`,
        js: (i) => LAST_NAMES[mix(i, salt) % LAST_NAMES.length],
      };
    case 'FirstName':
      return {
        sql: `(ARRAY[${FIRST_NAMES.map(literal).join(',')}])[1 + ${h} % ${FIRST_NAMES.length}]`,
        js: (i) => FIRST_NAMES[mix(i, salt) % FIRST_NAMES.length],
      };
  }
  const nullable = field.nullable;
  const orNull = (sql: string): string => (nullable ? `CASE WHEN ${mixSql(salt + 2)} % 7 = 0 THEN NULL ELSE ${sql} END` : sql);
  const jsOrNull = (f: (i: number) => unknown) => (nullable ? (i: number) => (mix(i, salt + 2) % 7 === 0 ? undefined : f(i)) : f);
  if (field.name === 'Gender') {
    // The sample's codes (1 male, 2 female, 3 not specified), so the examples the server prints find rows.
    return { sql: orNull(`1 + ${h} % 3`), js: jsOrNull((i) => 1 + (mix(i, salt) % 3)) };
  }
  switch (field.type) {
    case 'integer':
      return { sql: orNull(`${h} % 1000`), js: jsOrNull((i) => mix(i, salt) % 1000) };
    case 'number':
      return { sql: orNull(`(${h} % 100000) / 100.0`), js: jsOrNull((i) => (mix(i, salt) % 100000) / 100) };
    case 'boolean':
      return { sql: orNull(`${h} % 2 = 0`), js: jsOrNull((i) => mix(i, salt) % 2 === 0) };
    case 'datetime':
      return { sql: orNull(iso(atSql)), js: jsOrNull((i) => new Date(at(i)).toISOString().slice(0, 19) + 'Z') };
    case 'string':
      return {
        sql: orNull(`${literal(field.name.slice(0, 3).toUpperCase())} || (${h} % 100000)::text`),
        js: jsOrNull((i) => `${field.name.slice(0, 3).toUpperCase()}${mix(i, salt) % 100000}`),
      };
  }
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const generators = employeeSchema.fields.map((f, k) => generator(f, 10 * k + 1));

/**
 * The generated employee of row `i` (1-based), exactly as `seedGeneratedEmployees` stores it in the `Record` column.
 *
 * @example
 * generatedEmployee(1).Id; // 1
 */
export function generatedEmployee(i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  employeeSchema.fields.forEach((f, k) => {
    const value = generators[k]!.js(i);
    if (value !== undefined) out[f.name] = value;
  });
  return out;
}

/**
 * Creates (replacing) the employees table and fills it with `rows`
 * generated employees (Ids 1…rows), in batches inside the server; then
 * indexes `ClientId` and runs `VACUUM ANALYZE` (see `vacuumAnalyze`). `onProgress` hears the rows done so far.
 * With `partitions`, the table is `PARTITION BY HASH ("ClientId")` with
 * that many partitions (see `createPostgresTable`); with `shards`,
 * partitioned over the shard servers and finished by `finishShardedTable`
 * (`onStep` hears what it did).
 *
 * @example
 * await seedGeneratedEmployees((sql, params) => pool.query(sql, params), 1_000_000); // 1000000
 * await seedGeneratedEmployees(query, 1_000_000, undefined, { partitions: 8 }); // 1000000
 */
export async function seedGeneratedEmployees(
  query: SqlRunner,
  rows: number,
  onProgress?: (done: number) => void,
  how: EmployeeLayout & { readonly onStep?: (line: string) => void } = {},
): Promise<number> {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new Error(`rows must be a whole number ≥ 0, got ${rows}`);
  // The primary key is added after the load: one bulk index build instead of a million insertions. A shard's table
  // gets it when created (a partitioned table with foreign partitions can have no key of its own).
  const sharded = how.shards !== undefined;
  await createPostgresTable(
    { query, table: EMPLOYEE_TABLE, schema: employeeSchema, recordColumn: RECORD_COLUMN, ...(sharded ? { primaryKey: 'Id' } : {}) },
    employeeTableCreation(how),
  );
  const table = POSTGRES_DIALECT.rules.quote(EMPLOYEE_TABLE);
  const names = employeeSchema.fields.map((f) => POSTGRES_DIALECT.rules.quote(f.name));
  // Datetimes are generated as ISO text (so the record keeps the `…Z` form) and cast for their column.
  const casts = employeeSchema.fields.map((f, k) =>
    f.type === 'datetime' ? `s.${names[k]}::${POSTGRES_DIALECT.storage.columnType('datetime')}` : `s.${names[k]}`,
  );
  const inner = employeeSchema.fields.map((f, k) => `${generators[k]!.sql} AS ${names[k]}`).join(', ');
  const sql =
    `INSERT INTO ${table} (${names.join(', ')}, ${POSTGRES_DIALECT.rules.quote(RECORD_COLUMN)}) ` +
    `SELECT ${casts.join(', ')}, json_strip_nulls(row_to_json(s)) FROM (SELECT ${inner} FROM generate_series($1::int, $2::int) AS g(i)) AS s`;
  const batch = 250_000;
  for (let start = 1; start <= rows; start += batch) {
    const end = Math.min(rows, start + batch - 1);
    await query(sql, [start, end]);
    onProgress?.(end);
  }
  if (how.shards !== undefined) {
    for (const line of await finishShardedTable(query, EMPLOYEE_TABLE, how.shards)) how.onStep?.(line);
    return rows;
  }
  // A partitioned table's primary key must hold its partition key.
  await query(`ALTER TABLE ${table} ADD PRIMARY KEY (${how.partitions === undefined ? '"Id"' : '"ClientId", "Id"'})`, []);
  await query(`CREATE INDEX ON ${table} ("ClientId")`, []);
  await vacuumAnalyze(query, EMPLOYEE_TABLE);
  return rows;
}
