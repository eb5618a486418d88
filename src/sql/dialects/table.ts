/**
 * Creating and filling a table in `toSql`'s storage convention, written
 * once for every engine and parameterised by its `Dialect`: one column per
 * schema field (named as `toSql` expects, typed by the dialect's storage
 * face), optionally a JSON column keeping each whole record, and bulk
 * inserts in multi-row statements of bound parameters. An engine's own
 * table options (PostgreSQL's partitions and shards) build on these pieces.
 */
import { hasInvalidCharacter } from '../../ast/lexical.js';
import { readField } from '../../schema/read-field.js';
import type { Schema } from '../../schema/schema.js';
import { recordValueAs, type ScalarType } from '../../schema/values.js';
import { defaultColumnName } from '../columns.js';
import { sqlError } from '../errors.js';
import type { Dialect } from './dialect.js';

/**
 * The table a storage-convention table is made from: its name, the schema
 * whose fields are its columns, and the optional record column and primary key.
 *
 * @example
 * const table: SqlTableOptions = { table: 'employees', schema: employeeSchema, recordColumn: 'Record', primaryKey: 'Id' };
 */
export interface SqlTableOptions {
  /** Table name, optionally qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** A JSON column that stores each record whole (so it comes back with its key order and extra fields). */
  readonly recordColumn?: string;
  /** A field that is the primary key (for employees, `Id`). */
  readonly primaryKey?: string;
}

/**
 * Runs one statement of table creation or insertion; its result is not read.
 *
 * @example
 * const run: TableStatementRunner = (sql, params) => pool.query(sql, params);
 */
export type TableStatementRunner = (sql: string, params: unknown[]) => Promise<unknown>;

/**
 * A table name quoted by the dialect, its parts joined with `.`.
 *
 * @example
 * qualifiedTable(dialectOf('mysql'), ['payroll', 'employees']); // '`payroll`.`employees`'
 */
export function qualifiedTable(dialect: Dialect, table: string | readonly string[]): string {
  return (typeof table === 'string' ? [table] : table).map((p) => dialect.rules.quote(p)).join('.');
}

/**
 * The column definitions: each field's column with the convention's type
 * (the primary key inline when `inlineKey`), then `extra`, then the record
 * column. No NOT NULL on fields: a value that does not read as its type is
 * stored as NULL, as the evaluator counts it.
 *
 * @example
 * columnDefinitions(dialectOf('sqlite'), { table: 't', schema, primaryKey: 'Id' }); // ['"Id" INTEGER PRIMARY KEY', …]
 */
export function columnDefinitions(
  dialect: Dialect,
  options: SqlTableOptions,
  how: { readonly inlineKey?: boolean; readonly extra?: readonly string[] } = {},
): string[] {
  const { quote } = dialect.rules;
  const columns = options.schema.fields.map((f) => {
    const key = options.primaryKey === f.name && how.inlineKey !== false ? ' PRIMARY KEY' : '';
    return `${quote(defaultColumnName(f))} ${dialect.storage.columnType(f.type)}${key}`;
  });
  columns.push(...(how.extra ?? []));
  if (options.recordColumn !== undefined) columns.push(`${quote(options.recordColumn)} ${dialect.storage.recordColumnType} NOT NULL`);
  return columns;
}

/**
 * Drops (when `replace`) and creates the table in the storage convention;
 * returns the CREATE TABLE statement run.
 *
 * @example
 * await createSqlTable(dialectOf('mysql'), run, { table: 'employees', schema: employeeSchema, primaryKey: 'Id' }, { replace: true });
 */
export async function createSqlTable(
  dialect: Dialect,
  run: TableStatementRunner,
  options: SqlTableOptions,
  how: { readonly replace?: boolean } = {},
): Promise<string> {
  const table = qualifiedTable(dialect, options.table);
  const columns = columnDefinitions(dialect, options);
  if (how.replace === true) await run(`DROP TABLE IF EXISTS ${table}`, []);
  const sql = `CREATE TABLE ${table} (${columns.join(', ')})${dialect.storage.tableSuffix}`;
  await run(sql, []);
  return sql;
}

/**
 * A value found in a record as the dialect stores it for a field of `type`
 * (see `toStoredValue`): null when it does not read as the type; strings
 * holding U+0000 or an unpaired surrogate throw `WepqlError` (`invalid-character`).
 *
 * @example
 * storedRecordValue(true, 'boolean', dialectOf('sqlite')); // 1
 */
export function storedRecordValue(value: unknown, type: ScalarType, dialect: Dialect): string | number | boolean | null {
  const typed = recordValueAs(value, type);
  if (typed === null) return null;
  if (typeof typed === 'string' && hasInvalidCharacter(typed)) {
    sqlError('invalid-character', 'a string value contains U+0000 or an unpaired surrogate, which databases reject');
  }
  return dialect.storage.storedValue(typed, type);
}

/**
 * Inserts records in batches of parameterised multi-row INSERTs (at most
 * the dialect's `maxInsertParameters` a statement), values stored as the
 * convention says (`storedRecordValue`). Returns the number of rows.
 *
 * @example
 * await insertSqlRecords(dialectOf('postgres'), query, { table: 'employees', schema: employeeSchema }, employees); // 1200
 */
export async function insertSqlRecords(
  dialect: Dialect,
  run: TableStatementRunner,
  options: SqlTableOptions,
  records: readonly unknown[],
): Promise<number> {
  const { quote, placeholder } = dialect.rules;
  const table = qualifiedTable(dialect, options.table);
  const fields = options.schema.fields;
  const names = fields.map((f) => quote(defaultColumnName(f)));
  if (options.recordColumn !== undefined) names.push(quote(options.recordColumn));
  const batch = Math.max(1, Math.floor(dialect.storage.maxInsertParameters / names.length));
  for (let start = 0; start < records.length; start += batch) {
    const chunk = records.slice(start, start + batch);
    const params: unknown[] = [];
    const rows = chunk.map((record) => {
      const placeholders: string[] = [];
      for (const f of fields) {
        params.push(storedRecordValue(readField(record, f.path), f.type, dialect));
        placeholders.push(placeholder(params.length));
      }
      if (options.recordColumn !== undefined) {
        params.push(JSON.stringify(record));
        placeholders.push(placeholder(params.length));
      }
      return `(${placeholders.join(', ')})`;
    });
    await run(`INSERT INTO ${table} (${names.join(', ')}) VALUES ${rows.join(', ')}`, params);
  }
  return records.length;
}
