/**
 * Creating and filling a PostgreSQL table in `toSql`'s storage convention
 * (one column per schema field, named as `toSql` expects, with the
 * convention's types), optionally with a `json` column that keeps each whole
 * record as it was. `wepql db-seed` and the contract tests use it.
 */
import type { Schema } from '../schema/schema.js';
import { defaultColumnName } from '../sql/columns.js';
import { quoteIdentifier, sqlDialect } from '../sql/dialect.js';
import { foldedColumnName } from '../sql/compile.js';
import { sqlColumnType, toStoredValue } from '../sql/storage.js';
import { readField } from '../evaluate/read-field.js';
import { WepqlError } from '../diagnostics/error.js';
import type { SqlRunner } from './postgres-source.js';

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
  const columns = columnDefinitions(options, how, partitions === undefined);
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
function columnDefinitions(options: PostgresTableOptions, how: PostgresTableCreation, inlineKey: boolean): string[] {
  const columns = options.schema.fields.map((f) => {
    const name = quoteIdentifier(defaultColumnName(f), 'postgres');
    // No NOT NULL: a value that does not read as its type is stored as NULL, as the evaluator counts it.
    const key = options.primaryKey === f.name && inlineKey ? ' PRIMARY KEY' : '';
    return `${name} ${sqlColumnType(f.type, 'postgres')}${key}`;
  });
  if (how.foldedColumns !== undefined) {
    const fold = sqlDialect('postgres').quoteCollation(how.foldedColumns.foldCollation);
    for (const f of options.schema.fields) {
      if (f.type !== 'string') continue;
      const column = defaultColumnName(f);
      // "C" orders bytes, and UTF-8's byte order is code-point order: the order of the folded expression.
      columns.push(
        `${quoteIdentifier(foldedColumnName(column), 'postgres')} text COLLATE "C" ` +
          `GENERATED ALWAYS AS (lower(${quoteIdentifier(column, 'postgres')} COLLATE ${fold})) STORED`,
      );
    }
  }
  if (options.recordColumn !== undefined) columns.push(`${quoteIdentifier(options.recordColumn, 'postgres')} json NOT NULL`);
  return columns;
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
  const server = quoteIdentifier(`${base}_shard${i}`, 'postgres');
  const remoteTable = typeof name === 'string' ? [`${name}_p${i}`] : [...name.slice(0, -1), `${base}_p${i}`];
  const remoteName = remoteTable[remoteTable.length - 1]!;
  const remoteSchema = remoteTable.length > 1 ? remoteTable[0]! : 'public';
  const user = [`user ${literal(shard.user)}`, ...(shard.password === undefined ? [] : [`password ${literal(shard.password)}`])];
  return [
    `DROP SERVER IF EXISTS ${server} CASCADE`,
    // fdw_tuple_cost: PostgreSQL 17's default (0.01 before it), so the planner prices moving rows and has the shard
    // sort a long list; batch_size: rows inserted through the coordinator go to the shard a thousand at a time.
    `CREATE SERVER ${server} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host ${literal(shard.host)}, port ${literal(String(shard.port))}, ` +
      `dbname ${literal(shard.dbname)}, batch_size '1000', fdw_tuple_cost '0.2')`,
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
  return quoteIdentifier(defaultColumnName(field), 'postgres');
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
  const table = tableName(options.table);
  const fields = options.schema.fields;
  const names = fields.map((f) => quoteIdentifier(defaultColumnName(f), 'postgres'));
  if (options.recordColumn !== undefined) names.push(quoteIdentifier(options.recordColumn, 'postgres'));
  const perRow = names.length;
  // PostgreSQL allows 65,535 parameters per statement.
  const batch = Math.max(1, Math.floor(60_000 / perRow));
  for (let start = 0; start < records.length; start += batch) {
    const chunk = records.slice(start, start + batch);
    const params: unknown[] = [];
    const rows = chunk.map((record) => {
      const placeholders: string[] = [];
      for (const f of fields) {
        params.push(toStoredValue(readField(record, f.path), f.type, 'postgres'));
        placeholders.push(`$${params.length}`);
      }
      if (options.recordColumn !== undefined) {
        params.push(JSON.stringify(record));
        placeholders.push(`$${params.length}`);
      }
      return `(${placeholders.join(', ')})`;
    });
    await options.query(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }
  return records.length;
}

function tableName(table: string | readonly string[]): string {
  return (typeof table === 'string' ? [table] : table).map((p) => quoteIdentifier(p, 'postgres')).join('.');
}
