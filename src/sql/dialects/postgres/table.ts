/**
 * Creating and filling a PostgreSQL table in `toSql`'s storage convention:
 * the shared table code (../table.ts) with this dialect, plus what only
 * PostgreSQL has — hash partitions, partitions kept on other servers
 * through `postgres_fdw`, and stored folded twins of string columns.
 * `wepql db-seed` and the contract tests use it.
 */
import type { Schema } from '../../../schema/schema.js';
import { defaultColumnName } from '../../columns.js';
import { foldedColumnName } from '../../compile.js';
import { WepqlError } from '../../../diagnostics/error.js';
import { columnDefinitions, insertSqlRecords, qualifiedTable } from '../table.js';
import { POSTGRES_DIALECT } from './dialect.js';

const { quote } = POSTGRES_DIALECT.rules;

/**
 * Runs one parameterised statement: `pool.query`, `client.query` and PGlite's `db.query` all fit.
 *
 * @example
 * const query: SqlRunner = (sql, params) => pool.query(sql, params); // or PGlite's db.query
 */
export type SqlRunner = (sql: string, params: unknown[]) => Promise<{ readonly rows: readonly unknown[] }>;

/**
 * Options of `createPostgresTable` and `insertPostgresRecords`.
 *
 * @example
 * const table: PostgresTableOptions = { query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
 */
export interface PostgresTableOptions {
  readonly query: SqlRunner;
  /** Table name, optionally schema-qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** A `json` column that stores each record whole (so it comes back with its key order and extra fields). */
  readonly recordColumn?: string;
  /** A field that is the primary key (for employees, `Id`). */
  readonly primaryKey?: string;
}

/**
 * How `createPostgresTable` creates the table: `replace` drops it first;
 * `partitions` makes it `PARTITION BY HASH` on a field with that many
 * partitions (`<table>_p0` …), so that a query whose first equality is that
 * field (the client scope) is planned against one partition only.
 *
 * @example
 * const how: PostgresTableCreation = { replace: true, partitions: { field: 'ClientId', count: 8 } };
 */
export interface PostgresTableCreation {
  readonly replace?: boolean;
  /** Hash partitions on a scalar field (an integer from 1 to 1024). A primary key then also holds that field, first. */
  readonly partitions?: { readonly field: string; readonly count: number };
  /**
   * A stored folded twin of every string column (`toSql`'s
   * `foldedColumns`): `"<column>_folded" text COLLATE "C" GENERATED ALWAYS
   * AS (lower("<column>" COLLATE <foldCollation>)) STORED`.
   */
  readonly foldedColumns?: { readonly foldCollation: string };
  /**
   * The partitions as `postgres_fdw` foreign tables, partition `i` on
   * `shards[i]` (so `partitions.count` must equal the number of shards):
   * each shard gets a plain table `<table>_p<i>` with the same columns and
   * the primary key, and the coordinator a server, a user mapping and the
   * foreign partition. Needs the `postgres_fdw` extension on the coordinator.
   */
  readonly shards?: readonly PostgresShard[];
}

/**
 * One shard of a table partitioned over other servers: how to run
 * statements on it, and how the coordinator's `postgres_fdw` reaches it.
 *
 * @example
 * const shard: PostgresShard = { query: (sql, p) => shardPool.query(sql, p), host: '10.0.0.7', port: 5432, dbname: 'payroll', user: 'wepql' };
 */
export interface PostgresShard {
  /** Runs a statement on the shard (its table and indexes are created through it). */
  readonly query: SqlRunner;
  readonly host: string;
  readonly port: number;
  readonly dbname: string;
  /** The role the coordinator connects as (the user mapping's `user`). */
  readonly user: string;
  /** Its password, when the shard asks for one. */
  readonly password?: string;
}

/**
 * Drops (when `replace`) and creates the table, and its partitions when
 * asked; returns the statements run, one per line. Indexes created later on
 * a partitioned table are created on every partition.
 *
 * @example
 * await createPostgresTable({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
 * await createPostgresTable({ query, table: 'employees', schema: employeeSchema, primaryKey: 'Id' }, { replace: true, partitions: { field: 'ClientId', count: 8 } });
 */
export async function createPostgresTable(options: PostgresTableOptions, how: PostgresTableCreation = {}): Promise<string> {
  const table = tableName(options.table);
  const partitions = how.partitions === undefined ? undefined : partitionColumn(options, how.partitions);
  const shards = how.shards ?? [];
  if (shards.length > 0 && shards.length !== partitions?.count) {
    throw new WepqlError(`shards: give one shard per partition (${shards.length} shards, ${partitions?.count ?? 0} partitions)`, []);
  }
  const columns = postgresColumns(options, how, partitions === undefined);
  // A partitioned table's unique keys must hold the partition key; a partitioned table with foreign partitions can have
  // none (each shard keeps its own).
  const key = partitions === undefined ? undefined : partitionedKey(options, partitions.column);
  const coordinator = [...columns, ...(key === undefined || shards.length > 0 ? [] : [key])];
  if (how.replace === true) await options.query(`DROP TABLE IF EXISTS ${table}`, []);
  const statements = [
    `CREATE TABLE ${table} (${coordinator.join(', ')})${partitions === undefined ? '' : ` PARTITION BY HASH (${partitions.column})`}`,
  ];
  for (let i = 0; i < (partitions?.count ?? 0); i++) {
    const partition = partitionName(options.table, i);
    const bounds = `FOR VALUES WITH (MODULUS ${partitions!.count}, REMAINDER ${i})`;
    const shard = shards[i];
    if (shard === undefined) {
      statements.push(`CREATE TABLE ${partition} PARTITION OF ${table} ${bounds}`);
      continue;
    }
    const remote = [...columns, ...(key === undefined ? [] : [key])];
    if (how.replace === true) await shard.query(`DROP TABLE IF EXISTS ${partition}`, []);
    await shard.query(`CREATE TABLE ${partition} (${remote.join(', ')})`, []);
    statements.push(...foreignPartition(table, partition, bounds, options.table, i, shard));
  }
  for (const sql of statements) await options.query(sql, []);
  return statements.join('\n');
}

/** Each field's column, the folded twins, and the record column; the primary key inline on a plain table. */
function postgresColumns(options: PostgresTableOptions, how: PostgresTableCreation, inlineKey: boolean): string[] {
  const extra: string[] = [];
  if (how.foldedColumns !== undefined) {
    const fold = POSTGRES_DIALECT.rules.quoteCollation(how.foldedColumns.foldCollation);
    for (const f of options.schema.fields) {
      if (f.type !== 'string') continue;
      const column = defaultColumnName(f);
      // "C" orders bytes, and UTF-8's byte order is code-point order: the order of the folded expression.
      extra.push(
        `${quote(foldedColumnName(column))} text COLLATE "C" GENERATED ALWAYS AS (lower(${quote(column)} COLLATE ${fold})) STORED`,
      );
    }
  }
  return columnDefinitions(POSTGRES_DIALECT, options, { inlineKey, extra });
}

function partitionedKey(options: PostgresTableOptions, partitionColumnName: string): string | undefined {
  if (options.primaryKey === undefined) return undefined;
  const key = columnOf(options, options.primaryKey, 'primaryKey');
  return `PRIMARY KEY (${[...new Set([partitionColumnName, key])].join(', ')})`;
}

/** The coordinator's statements for partition `i` kept on a shard: its server, user mapping and foreign table. */
function foreignPartition(
  table: string,
  partition: string,
  bounds: string,
  name: string | readonly string[],
  i: number,
  shard: PostgresShard,
): string[] {
  const base = typeof name === 'string' ? name : name[name.length - 1]!;
  const server = quote(`${base}_shard${i}`);
  const remoteTable = typeof name === 'string' ? [`${name}_p${i}`] : [...name.slice(0, -1), `${base}_p${i}`];
  const remoteName = remoteTable[remoteTable.length - 1]!;
  const remoteSchema = remoteTable.length > 1 ? remoteTable[0]! : 'public';
  const user = [`user ${literal(shard.user)}`, ...(shard.password === undefined ? [] : [`password ${literal(shard.password)}`])];
  return [
    `DROP SERVER IF EXISTS ${server} CASCADE`,
    // fdw_tuple_cost: PostgreSQL 17's default (0.01 before it), so the planner prices moving rows and has the shard
    // sort a long list; batch_size: rows inserted through the coordinator go to the shard a thousand at a time.
    // jit=off for the coordinator's sessions on the shard: a page's statement reaches the shard without its LIMIT
    // (it is applied on the coordinator), so the shard prices it as reading the client's every row, and past a few
    // hundred thousand rows that cost has it JIT-compile the plan: about a second per page to read a hundred rows.
    `CREATE SERVER ${server} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ${literal(shard.host)}, port ${literal(String(shard.port))}, ` +
      `dbname ${literal(shard.dbname)}, options '-c jit=off', batch_size '1000', fdw_tuple_cost '0.2')`,
    `CREATE USER MAPPING FOR CURRENT_USER SERVER ${server} OPTIONS (${user.join(', ')})`,
    `CREATE FOREIGN TABLE ${partition} PARTITION OF ${table} ${bounds} SERVER ${server} ` +
      `OPTIONS (schema_name ${literal(remoteSchema)}, table_name ${literal(remoteName)})`,
  ];
}

/** A text literal for an option list (connection settings, never a user's filter value). */
function literal(text: string): string {
  if (text.includes('\u0000')) throw new WepqlError('a shard setting contains U+0000', []);
  return `'${text.replaceAll("'", "''")}'`;
}

/** The largest partition count `createPostgresTable` accepts. */
const MAX_PARTITIONS = 1024;

function partitionColumn(options: PostgresTableOptions, partitions: { readonly field: string; readonly count: number }) {
  if (!(Number.isSafeInteger(partitions.count) && partitions.count >= 1 && partitions.count <= MAX_PARTITIONS)) {
    throw new WepqlError(`partitions.count must be a whole number from 1 to ${MAX_PARTITIONS}, got ${String(partitions.count)}`, []);
  }
  return { column: columnOf(options, partitions.field, 'partitions.field'), count: partitions.count };
}

function columnOf(options: PostgresTableOptions, name: string, option: string): string {
  const field = options.schema.fields.find((f) => f.name === name);
  if (field === undefined) throw new WepqlError(`${option}: the schema has no scalar field ${JSON.stringify(name)}`, []);
  return quote(defaultColumnName(field));
}

/** `employees` → `"employees_p3"`, in the table's own schema when qualified. */
function partitionName(table: string | readonly string[], i: number): string {
  const parts = typeof table === 'string' ? [table] : [...table];
  parts[parts.length - 1] = `${parts[parts.length - 1]}_p${i}`;
  return tableName(parts);
}

/**
 * Inserts records in batches of parameterised multi-row INSERTs; values
 * are stored as the convention says (`toStoredValue`), so a value that does
 * not read as its field's type is stored as NULL. Returns the number of rows.
 *
 * @example
 * await insertPostgresRecords({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record' }, employees); // 1200
 */
export async function insertPostgresRecords(options: PostgresTableOptions, records: readonly unknown[]): Promise<number> {
  return insertSqlRecords(POSTGRES_DIALECT, options.query, options, records);
}

function tableName(table: string | readonly string[]): string {
  return qualifiedTable(POSTGRES_DIALECT, table);
}
