/**
 * Creating and filling a PostgreSQL table in `toSql`'s storage convention
 * (one column per schema field, named as `toSql` expects, with the
 * convention's types), optionally with a `json` column that keeps each whole
 * record as it was. `wepql db-seed` and the contract tests use it.
 */
import type { Schema } from '../schema/schema.js';
import { defaultColumnName } from '../sql/columns.js';
import { quoteIdentifier } from '../sql/dialect.js';
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
  const columns = options.schema.fields.map((f) => {
    const name = quoteIdentifier(defaultColumnName(f), 'postgres');
    // No NOT NULL: a value that does not read as its type is stored as NULL, as the evaluator counts it.
    const key = options.primaryKey === f.name && partitions === undefined ? ' PRIMARY KEY' : '';
    return `${name} ${sqlColumnType(f.type, 'postgres')}${key}`;
  });
  if (options.recordColumn !== undefined) columns.push(`${quoteIdentifier(options.recordColumn, 'postgres')} json NOT NULL`);
  if (partitions !== undefined && options.primaryKey !== undefined) {
    // A partitioned table's unique keys must hold the partition key.
    const key = columnOf(options, options.primaryKey, 'primaryKey');
    columns.push(`PRIMARY KEY (${[...new Set([partitions.column, key])].join(', ')})`);
  }
  if (how.replace === true) await options.query(`DROP TABLE IF EXISTS ${table}`, []);
  const statements = [
    `CREATE TABLE ${table} (${columns.join(', ')})${partitions === undefined ? '' : ` PARTITION BY HASH (${partitions.column})`}`,
  ];
  for (let i = 0; i < (partitions?.count ?? 0); i++) {
    statements.push(
      `CREATE TABLE ${partitionName(options.table, i)} PARTITION OF ${table} FOR VALUES WITH (MODULUS ${partitions!.count}, REMAINDER ${i})`,
    );
  }
  for (const sql of statements) await options.query(sql, []);
  return statements.join('\n');
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
