/**
 * The per-scope counter table: how many rows each client has, deleted and
 * not, kept exact by triggers, so the total of a list's unfiltered first
 * page is a read of a few rows instead of a `COUNT(*)` of the client's rows.
 * This module writes the DDL (PostgreSQL and MySQL/MariaDB); the SQL data
 * source reads the table (its `counterTable` option).
 *
 * Hot rows: one counter row per client would serialise every writer of a
 * client on that row's lock until commit. Each client has instead up to
 * `COUNTER_SLOTS` rows per deletedness, a connection always writing the slot
 * of its session id, so concurrent writers of one client rarely share a row;
 * a read sums at most 2 × `COUNTER_SLOTS` rows. PostgreSQL counts inserts and
 * deletes once per statement from its transition tables (a bulk insert costs
 * one grouped upsert); MySQL has only row triggers.
 */
import type { ResolvedField, Schema } from '../schema/schema.js';
import { fieldExpression, resolveColumnMap, type ColumnMap } from './columns.js';
import type { CounterSql, CounterTableDdl, Dialect } from './dialects/dialect.js';
import { dialectOf, type SqlDialect } from './dialects/registry.js';
import { sqlError } from './errors.js';

/**
 * Counter rows per client and deletedness: writers from different sessions
 * spread over this many rows.
 *
 * @example
 * COUNTER_SLOTS; // 16
 */
export const COUNTER_SLOTS = 16;

/**
 * What the counter counts: the table, its client field, and the soft-delete marker.
 *
 * @example
 * const options: CounterTableOptions = { dialect: 'postgres', table: 'employees', clientField: 'ClientId',
 *   deleted: { field: 'RowStatus', value: 3 } };
 */
export interface CounterTableOptions {
  /** A dialect whose storage has a counter table (PostgreSQL, MySQL/MariaDB), by name or object. */
  readonly dialect: SqlDialect | Dialect;
  /** The counted table, optionally schema-qualified; the counter table is created beside it. */
  readonly table: string | readonly string[];
  /** The integer field that holds the client id (for employees, `ClientId`), a plain column. */
  readonly clientField: string;
  /** The integer or boolean field and value that mark a soft-deleted row (for employees, `RowStatus` = 3). */
  readonly deleted?: { readonly field: string; readonly value: string | number | boolean };
  /** Where fields are stored when not in same-named columns; both fields must be plain columns. */
  readonly columns?: ColumnMap;
}

export type { CounterTableDdl } from './dialects/dialect.js';

/**
 * The counter table beside a table: `employees` → `employees_wepql_counts`,
 * `['payroll', 'employees']` → `['payroll', 'employees_wepql_counts']`.
 *
 * @example
 * counterTableOf('employees'); // ['employees_wepql_counts']
 */
export function counterTableOf(table: string | readonly string[]): readonly string[] {
  const parts = typeof table === 'string' ? [table] : [...table];
  if (parts.length === 0) sqlError('invalid-sql-option', 'table must be a name or a list of names');
  const name = parts[parts.length - 1]!;
  // PostgreSQL names hold 63 bytes; cut the table's part, never the suffix.
  parts[parts.length - 1] = `${Array.from(name).slice(0, 40).join('')}_wepql_counts`;
  return parts;
}

/**
 * The DDL of the counter table of `options.table` for its dialect (see
 * `CounterTableDdl`). Throws `WepqlError` when the client field is not a
 * plain integer column, or the deleted marker not a plain integer or boolean column.
 *
 * @example
 * counterTableDdl(employeeSchema, { dialect: 'postgres', table: 'employees', clientField: 'ClientId',
 *   deleted: { field: 'RowStatus', value: 3 } }).statements[0];
 * // CREATE TABLE IF NOT EXISTS "employees_wepql_counts" ("ClientId" bigint NOT NULL, "deleted" boolean NOT NULL, …)
 */
export function counterTableDdl(schema: Schema, options: CounterTableOptions): CounterTableDdl {
  const dialect = dialectOf(options.dialect);
  const write = dialect.storage.counterTable;
  if (write === undefined) sqlError('invalid-sql-option', `counter tables do not exist on ${dialect.name}`);
  return write(counterSql(schema, dialect, options));
}

/** The shared pieces; throws for a client field or deleted marker that is not a plain column of the right type. */
function counterSql(schema: Schema, dialect: Dialect, options: CounterTableOptions): CounterSql {
  const { quote } = dialect.rules;
  const tableParts = typeof options.table === 'string' ? [options.table] : options.table;
  const table = tableParts.map(quote).join('.');
  const counterParts = counterTableOf(options.table);
  const counter = counterParts.map(quote).join('.');
  const base = counterParts[counterParts.length - 1]!.replace(/_counts$/, '');
  const qualified = (name: string) => [...counterParts.slice(0, -1), name].map(quote).join('.');
  const client = plainColumn(schema, dialect, options, options.clientField, 'clientField', ['integer']);
  const deleted = options.deleted === undefined ? undefined : deletedTest(schema, dialect, options, options.deleted);
  const isDeleted = (row: string) => (deleted === undefined ? 'FALSE' : `COALESCE(${row}${deleted.column} = ${deleted.literal}, FALSE)`);
  const c = quote('ClientId');
  const create =
    `CREATE TABLE IF NOT EXISTS ${counter} (${c} ${dialect.storage.columnType('integer')} NOT NULL, ${quote('deleted')} BOOLEAN NOT NULL, ` +
    `${quote('slot')} SMALLINT NOT NULL, ${quote('n')} BIGINT NOT NULL, PRIMARY KEY (${c}, ${quote('deleted')}, ${quote('slot')}))`;
  const backfill =
    `INSERT INTO ${counter} (${c}, ${quote('deleted')}, ${quote('slot')}, ${quote('n')}) ` +
    `SELECT ${client}, ${isDeleted('')}, 0, COUNT(*) FROM ${table} WHERE ${client} IS NOT NULL GROUP BY ${client}, ${isDeleted('')}`;
  return { quote, slots: COUNTER_SLOTS, table, counterParts, counter, base, qualified, client, deleted, isDeleted, c, create, backfill };
}

function plainColumn(
  schema: Schema,
  dialect: Dialect,
  options: CounterTableOptions,
  name: string,
  option: string,
  types: readonly string[],
): string {
  const hit = schema.lookup(name);
  if (hit.found !== 'field') sqlError('unknown-field', `${option}: the schema has no scalar field ${JSON.stringify(name)}`);
  const field: ResolvedField = hit.field;
  if (!types.includes(field.type))
    sqlError('invalid-sql-option', `${option}: a counter table needs a ${types.join(' or ')} field, ${name} is ${field.type}`);
  const column = fieldExpression(field, resolveColumnMap(schema, options.columns), dialect);
  const { quote } = dialect.rules;
  if (!column.startsWith(quote('x').charAt(0))) {
    sqlError('invalid-sql-option', `${option}: a counter table needs ${name} in a column of its own, not inside a JSON column`);
  }
  return column;
}

/** The deleted marker's column and its value as a SQL literal (a number or a boolean, so nothing is spliced from text). */
function deletedTest(
  schema: Schema,
  dialect: Dialect,
  options: CounterTableOptions,
  marker: NonNullable<CounterTableOptions['deleted']>,
): { readonly column: string; readonly literal: string } {
  const column = plainColumn(schema, dialect, options, marker.field, 'deleted.field', ['integer', 'boolean']);
  const field = schema.lookup(marker.field);
  const type = field.found === 'field' ? field.field.type : undefined;
  const value = marker.value;
  if (type === 'boolean' && typeof value === 'boolean') return { column, literal: value ? 'TRUE' : 'FALSE' };
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (type === 'integer' && Number.isSafeInteger(n)) return { column, literal: String(n) };
  return sqlError(
    'invalid-sql-option',
    `deleted.value ${JSON.stringify(value)} does not read as ${marker.field}'s type ${String(type)} (${dialect.name})`,
  );
}
