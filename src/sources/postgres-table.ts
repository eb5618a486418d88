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
 * Drops (when `replace`) and creates the table; returns the statement run.
 *
 * @example
 * await createPostgresTable({ query, table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' }, { replace: true });
 */
export async function createPostgresTable(options: PostgresTableOptions, how: { readonly replace?: boolean } = {}): Promise<string> {
  const table = tableName(options.table);
  const columns = options.schema.fields.map((f) => {
    const name = quoteIdentifier(defaultColumnName(f), 'postgres');
    // No NOT NULL: a value that does not read as its type is stored as NULL, as the evaluator counts it.
    const key = options.primaryKey === f.name ? ' PRIMARY KEY' : '';
    return `${name} ${sqlColumnType(f.type, 'postgres')}${key}`;
  });
  if (options.recordColumn !== undefined) columns.push(`${quoteIdentifier(options.recordColumn, 'postgres')} json NOT NULL`);
  if (how.replace === true) await options.query(`DROP TABLE IF EXISTS ${table}`, []);
  const sql = `CREATE TABLE ${table} (${columns.join(', ')})`;
  await options.query(sql, []);
  return sql;
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
