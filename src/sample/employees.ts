/**
 * The sample employee list behind the reference server and `wepql db-seed`:
 * where the sample file is, how its table looks in PostgreSQL, and how the
 * server reads it back.
 */
import { readFileSync } from 'node:fs';
import type { DataSource } from '../list/data-source.js';
import { createPostgresDataSource } from '../sources/postgres-source.js';
import type { SqlRunner } from '../sources/postgres-source.js';
import type { PostgresPool } from '../sql/dialects/postgres/pool.js';
import type { PartitionName } from '../sources/sql-source.js';
import { createPostgresTable, insertPostgresRecords } from '../sql/dialects/postgres/table.js';
import { counterTableDdl, type CounterTableDdl } from '../sql/counts.js';
import { POSTGRES_DIALECT } from '../sql/dialects/postgres/dialect.js';
import { employeeSchema } from '../schema/employee-schema.js';
import { employeeTableCreation, findFoldedColumns, finishShardedTable, type EmployeeLayout } from './employee-shards.js';

/**
 * The table `wepql db-seed` creates and the server reads.
 *
 * @example
 * `SELECT COUNT(*) FROM "${EMPLOYEE_TABLE}"`;
 */
export const EMPLOYEE_TABLE = 'employees';
/**
 * The `json` column that keeps each record whole, so the server returns it exactly as stored.
 *
 * @example
 * `SELECT "${RECORD_COLUMN}" FROM employees`;
 */
export const RECORD_COLUMN = 'Record';
/**
 * How the sample marks soft-deleted employees (examples/generate-employees.mjs: RowStatus 3).
 *
 * @example
 * createMemoryDataSource(records, { schema: employeeSchema, ...EMPLOYEE_SCOPE, tieBreaker: 'Id' });
 */
export const EMPLOYEE_SCOPE = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;

/**
 * Reads examples/employees.json (found relative to this module, in the
 * source tree and in `dist/` alike).
 *
 * @example
 * loadSampleEmployees().length; // 1200
 */
export function loadSampleEmployees(): unknown[] {
  const file = new URL('../../examples/employees.json', import.meta.url);
  const records: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(records)) throw new Error(`${file.pathname} does not hold a JSON array`);
  return records;
}

/** The collation `chooseFoldCollation` creates on PostgreSQL 15–16. */
export const FALLBACK_FOLD_COLLATION = 'wepql_fold';

/**
 * Picks the collation `toSql` should fold case with on this server (its
 * `foldCollation` option): PostgreSQL 18's `pg_unicode_fast` (full Unicode
 * case mapping, exactly `toLowerCase`) when available; on 17 the built-in
 * `pg_c_utf8`; on older servers a libc `C.UTF-8` collation it creates as
 * `public.wepql_fold`. All order by code point; the fallbacks use simple
 * case mapping with the C library's Unicode tables, which differs from
 * `toLowerCase` for `İ`, a final `Σ` and letters newer than those tables
 * (docs/sql.md lists every code point per engine) — `note` says so for the log.
 *
 * @example
 * const { foldCollation, note } = await chooseFoldCollation((sql, params) => pool.query(sql, params));
 * // PostgreSQL 15: { version: 150018, foldCollation: 'wepql_fold', note: '…' }
 */
export async function chooseFoldCollation(
  query: SqlRunner,
): Promise<{ version: number; foldCollation: string | undefined; note?: string }> {
  const { rows } = await query('SHOW server_version_num', []);
  const version = Number((rows[0] as { server_version_num: string }).server_version_num);
  if (version >= 180000) return { version, foldCollation: undefined };
  const gap =
    'simple case mapping; İ, final Σ and letters newer than its Unicode tables fold differently from toLowerCase, listed in docs/sql.md';
  if (version >= 170000) {
    return { version, foldCollation: 'pg_c_utf8', note: `PostgreSQL ${version}: folding case with pg_c_utf8 (${gap})` };
  }
  await query(`CREATE COLLATION IF NOT EXISTS public."${FALLBACK_FOLD_COLLATION}" (provider = libc, locale = 'C.UTF-8')`, []);
  return {
    version,
    foldCollation: FALLBACK_FOLD_COLLATION,
    note: `PostgreSQL ${version}: folding case with a libc C.UTF-8 collation "${FALLBACK_FOLD_COLLATION}" (${gap})`,
  };
}

/**
 * Creates (replacing) the employees table and fills it with records; with
 * `partitions`, hash-partitioned on `ClientId` (primary key `("ClientId", "Id")`);
 * with `shards`, partitioned over the shard servers (`finishShardedTable`
 * then indexes and analyses each shard, and `onStep` hears what it did).
 *
 * @example
 * await seedEmployeeTable(query, loadSampleEmployees()); // 1200
 * await seedEmployeeTable(query, loadSampleEmployees(), { partitions: 4 }); // 1200
 */
export async function seedEmployeeTable(
  query: SqlRunner,
  records: readonly unknown[],
  how: EmployeeLayout & { readonly onStep?: (line: string) => void } = {},
): Promise<number> {
  const table = { query, table: EMPLOYEE_TABLE, schema: employeeSchema, recordColumn: RECORD_COLUMN, primaryKey: 'Id' };
  await createPostgresTable(table, employeeTableCreation(how));
  const count = await insertPostgresRecords(table, records);
  if (how.shards !== undefined) {
    for (const line of await finishShardedTable(query, EMPLOYEE_TABLE, how.shards)) how.onStep?.(line);
    return count;
  }
  await query(`CREATE INDEX ON "${EMPLOYEE_TABLE}" ("ClientId")`, []);
  await vacuumAnalyze(query, EMPLOYEE_TABLE);
  return count;
}

/**
 * `VACUUM ANALYZE` of a freshly filled table: the vacuum sets the visibility
 * map, without which every `COUNT(*)` (and a jump's key-only subquery) visits
 * the table for each row it counts, even over an index that holds every
 * column it needs, until autovacuum happens to run; the analyze gives the
 * planner the table's statistics. Must run outside a transaction.
 *
 * @example
 * await vacuumAnalyze((sql, params) => client.query(sql, params), 'employees');
 */
export async function vacuumAnalyze(query: SqlRunner, table: string): Promise<void> {
  await query(`VACUUM ANALYZE ${POSTGRES_DIALECT.rules.quote(table)}`, []);
}

/**
 * The counter DDL of the employees table (`wepql db-index --counts`): per client, soft-deleted rows apart.
 *
 * @example
 * employeeCounterDdl().table; // ['employees_wepql_counts']
 */
export function employeeCounterDdl(): CounterTableDdl {
  return counterTableDdl(employeeSchema, { dialect: POSTGRES_DIALECT, table: EMPLOYEE_TABLE, ...EMPLOYEE_SCOPE });
}

/**
 * The employees' counter table when it is installed: the table exists and all its triggers are
 * there and enabled (a counter without them would drift); undefined otherwise, and then the server counts rows.
 *
 * @example
 * const counterTable = await findEmployeeCounter((sql, params) => pool.query(sql, params)); // ['employees_wepql_counts']
 */
export async function findEmployeeCounter(query: SqlRunner): Promise<readonly string[] | undefined> {
  const { table, triggers } = employeeCounterDdl();
  const { rows } = await query(
    `SELECT to_regclass($1) IS NOT NULL AS "counter", (SELECT COUNT(*) FROM pg_trigger WHERE tgrelid = to_regclass($2) ` +
      `AND tgname = ANY($3::text[]) AND tgenabled <> 'D') AS "triggers"`,
    [POSTGRES_DIALECT.rules.quote(table[0]!), POSTGRES_DIALECT.rules.quote(EMPLOYEE_TABLE), triggers],
  );
  const found = rows[0] as { counter: boolean; triggers: string | number };
  return found.counter && Number(found.triggers) === triggers.length ? table : undefined;
}

/**
 * The employees' stored folded twins, when the table has all of them
 * (`wepql db-seed --shards` makes them; see `findFoldedColumns`): the
 * server then compares and orders strings through them, which lets
 * `postgres_fdw` ship each statement to its shard whole.
 *
 * @example
 * const foldedColumns = await findEmployeeFoldedColumns((sql, params) => pool.query(sql, params)); // true after db-seed --shards
 */
export function findEmployeeFoldedColumns(query: SqlRunner): Promise<boolean> {
  return findFoldedColumns(query, EMPLOYEE_TABLE, employeeSchema);
}

/** Clients whose partition a `findEmployeePartitions` lookup remembers; past it, the longest remembered is forgotten. */
const REMEMBERED_PARTITIONS = 10_000;

/**
 * The partition of each client, when the employees table is partitioned by
 * `"ClientId"` alone into partitions that are not partitioned again, at
 * least one a foreign table (`wepql db-seed --shards`); else undefined.
 * The lookup asks, once per client, which partition holds one of the
 * client's rows (a statement pruned to that partition) and remembers up to
 * 10,000 clients; a client with no rows yet is not remembered and is read
 * through the whole table.
 *
 * @example
 * const partitionOf = await findEmployeePartitions((sql, params) => pool.query(sql, params));
 * await partitionOf?.(7); // ['public', 'employees_p1'] after db-seed --shards
 */
export async function findEmployeePartitions(
  query: SqlRunner,
): Promise<((clientId: string | number) => Promise<PartitionName>) | undefined> {
  const table = POSTGRES_DIALECT.rules.quote(EMPLOYEE_TABLE);
  const { rows } = await query(
    'SELECT pg_get_partkeydef(c.oid) AS "key", count(p.oid) AS "partitions", ' +
      `count(p.oid) FILTER (WHERE p.relkind IN ('r', 'f')) AS "leaves", count(p.oid) FILTER (WHERE p.relkind = 'f') AS "foreign" ` +
      'FROM pg_class c LEFT JOIN pg_inherits i ON i.inhparent = c.oid LEFT JOIN pg_class p ON p.oid = i.inhrelid ' +
      "WHERE c.oid = to_regclass($1) AND c.relkind = 'p' GROUP BY c.oid",
    [table],
  );
  const found = rows[0] as { key: string; partitions: string | number; leaves: string | number; foreign: string | number } | undefined;
  // One client, one partition: only when the client is the whole partition key and no partition splits it further.
  if (found === undefined || !/^(HASH|LIST|RANGE) \("ClientId"\)$/.test(found.key)) return undefined;
  if (Number(found.partitions) === 0 || Number(found.leaves) !== Number(found.partitions) || Number(found.foreign) === 0) return undefined;
  const remembered = new Map<number, readonly string[]>();
  return async (clientId) => {
    // Only a whole number names a client (any other id matches no row, and the source sends no statement for it).
    if (!/^-?\d{1,15}$/.test(String(clientId))) return undefined;
    const id = Number(clientId);
    const known = remembered.get(id);
    if (known !== undefined) return known;
    const { rows: at } = await query(
      'SELECT n.nspname AS "schema", c.relname AS "name" FROM ' +
        `(SELECT tableoid FROM ${table} WHERE "ClientId" = $1 LIMIT 1) AS r ` +
        'JOIN pg_class c ON c.oid = r.tableoid JOIN pg_namespace n ON n.oid = c.relnamespace',
      [id],
    );
    const partition = at[0] as { schema: string; name: string } | undefined;
    if (partition === undefined) return undefined;
    if (remembered.size >= REMEMBERED_PARTITIONS) remembered.delete(remembered.keys().next().value!);
    const name = [partition.schema, partition.name] as const;
    remembered.set(id, name);
    return name;
  };
}

/**
 * The server's PostgreSQL source and client check over the seeded table
 * (with `foldedColumns`, strings compared through their stored folded twins;
 * with `partitionOf`, each client's statements read its partition).
 *
 * @example
 * const { source, clientExists } = employeePostgresSource((sql, params) => pool.query(sql, params));
 */
export function employeePostgresSource(
  query: SqlRunner,
  foldCollation?: string,
  counterTable?: readonly string[],
  pool?: PostgresPool,
  foldedColumns?: boolean,
  partitionOf?: (clientId: string | number) => Promise<PartitionName>,
): { source: DataSource; clientExists: (id: number) => Promise<boolean> } {
  const source = createPostgresDataSource({
    // With the pool, each statement carries the request's deadline and is cancelled when its client goes away.
    ...(pool === undefined ? { query } : { pool }),
    ...(foldCollation === undefined ? {} : { foldCollation }),
    ...(counterTable === undefined ? {} : { counterTable }),
    ...(foldedColumns === true ? { foldedColumns } : {}),
    ...(partitionOf === undefined ? {} : { partitionOf }),
    table: EMPLOYEE_TABLE,
    schema: employeeSchema,
    tieBreaker: 'Id',
    recordColumn: RECORD_COLUMN,
    ...EMPLOYEE_SCOPE,
  });
  const clientExists = async (id: number): Promise<boolean> =>
    (await query(`SELECT 1 FROM "${EMPLOYEE_TABLE}" WHERE "ClientId" = $1 LIMIT 1`, [id])).rows.length > 0;
  return { source, clientExists };
}
