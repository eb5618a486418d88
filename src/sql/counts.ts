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
import { fieldExpression, resolveColumnMap } from './columns.js';
import { sqlDialect, type SqlDialect } from './dialect.js';
import { sqlError } from './errors.js';
import type { ColumnMap } from './to-sql.js';

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
  readonly dialect: Exclude<SqlDialect, 'sqlite'>;
  /** The counted table, optionally schema-qualified; the counter table is created beside it. */
  readonly table: string | readonly string[];
  /** The integer field that holds the client id (for employees, `ClientId`), a plain column. */
  readonly clientField: string;
  /** The integer or boolean field and value that mark a soft-deleted row (for employees, `RowStatus` = 3). */
  readonly deleted?: { readonly field: string; readonly value: string | number | boolean };
  /** Where fields are stored when not in same-named columns; both fields must be plain columns. */
  readonly columns?: ColumnMap;
}

/**
 * The counter DDL: the counter table's name, and the statements that create
 * it, install the triggers and fill it from the table.
 *
 * @example
 * const { table, statements, transaction }: CounterTableDdl = counterTableDdl(employeeSchema, options);
 */
export interface CounterTableDdl {
  /** The counter table, qualified like the counted one: `['employees_wepql_counts']`. */
  readonly table: readonly string[];
  /**
   * The statements, in order. Run them on one connection, with the driver's
   * plain (text) query: MySQL cannot prepare `CREATE TRIGGER` or `LOCK TABLES`.
   * They lock the counted table against writes while the triggers are
   * installed and the counts backfilled, so no write is missed or counted twice;
   * running them again recounts from the table.
   */
  readonly statements: readonly string[];
  /** PostgreSQL: run the statements inside one transaction (`BEGIN` … `COMMIT`); MySQL locks with `LOCK TABLES` instead. */
  readonly transaction: boolean;
  /** The triggers' names (a server can check they are all there before trusting the counter). */
  readonly triggers: readonly string[];
}

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
  const { dialect } = options;
  if (dialect !== 'postgres' && dialect !== 'mysql') sqlError('invalid-sql-option', 'counter tables exist for postgres and mysql');
  const sql = counterSql(schema, options);
  return dialect === 'postgres' ? postgresCounterDdl(sql) : mysqlCounterDdl(sql);
}

/** The pieces of counter SQL both dialects share: quoted names, the counted columns, and the create and backfill statements. */
interface CounterSql {
  readonly quote: (name: string) => string;
  /** The counted table, quoted and qualified. */
  readonly table: string;
  /** The counter table's name parts, and the same quoted and qualified. */
  readonly counterParts: readonly string[];
  readonly counter: string;
  /** The counter table's name without `_counts`: the prefix of its triggers and function. */
  readonly base: string;
  /** A name beside the counter table, quoted and qualified like it. */
  readonly qualified: (name: string) => string;
  /** The client column. */
  readonly client: string;
  readonly deleted: { readonly column: string; readonly literal: string } | undefined;
  /** SQL that is true when the row (`''`, `'OLD.'`, `'NEW.'`) is soft-deleted. */
  readonly isDeleted: (row: string) => string;
  /** The counter table's client column, quoted. */
  readonly c: string;
  readonly create: string;
  readonly backfill: string;
}

/** The shared pieces; throws for a client field or deleted marker that is not a plain column of the right type. */
function counterSql(schema: Schema, options: CounterTableOptions): CounterSql {
  const { dialect } = options;
  const quote = sqlDialect(dialect).quote;
  const tableParts = typeof options.table === 'string' ? [options.table] : options.table;
  const table = tableParts.map(quote).join('.');
  const counterParts = counterTableOf(options.table);
  const counter = counterParts.map(quote).join('.');
  const base = counterParts[counterParts.length - 1]!.replace(/_counts$/, '');
  const qualified = (name: string) => [...counterParts.slice(0, -1), name].map(quote).join('.');
  const client = plainColumn(schema, options, options.clientField, 'clientField', ['integer']);
  const deleted = options.deleted === undefined ? undefined : deletedTest(schema, options, options.deleted, dialect);
  const isDeleted = (row: string) => (deleted === undefined ? 'FALSE' : `COALESCE(${row}${deleted.column} = ${deleted.literal}, FALSE)`);
  const c = quote('ClientId');
  const create =
    `CREATE TABLE IF NOT EXISTS ${counter} (${c} ${sqlDialect(dialect).columnType('integer')} NOT NULL, ${quote('deleted')} BOOLEAN NOT NULL, ` +
    `${quote('slot')} SMALLINT NOT NULL, ${quote('n')} BIGINT NOT NULL, PRIMARY KEY (${c}, ${quote('deleted')}, ${quote('slot')}))`;
  const backfill =
    `INSERT INTO ${counter} (${c}, ${quote('deleted')}, ${quote('slot')}, ${quote('n')}) ` +
    `SELECT ${client}, ${isDeleted('')}, 0, COUNT(*) FROM ${table} WHERE ${client} IS NOT NULL GROUP BY ${client}, ${isDeleted('')}`;
  return { quote, table, counterParts, counter, base, qualified, client, deleted, isDeleted, c, create, backfill };
}

/** PostgreSQL: statement triggers on transition tables for inserts and deletes, a row trigger for scope changes, all in one transaction. */
function postgresCounterDdl(sql: CounterSql): CounterTableDdl {
  const { quote, table, counterParts, counter, base, qualified, client, deleted, isDeleted, c } = sql;
  const triggerName = (what: string) => quote(`${base}_${what}`);
  const fn = qualified(`${base}_count`);
  const slot = `pg_backend_pid() % ${COUNTER_SLOTS}`;
  const upsert = (select: string) =>
    `INSERT INTO ${counter} AS wepql_c (${c}, "deleted", "slot", "n") ${select} ` +
    `ON CONFLICT (${c}, "deleted", "slot") DO UPDATE SET "n" = wepql_c."n" + EXCLUDED."n";`;
  const grouped = (rows: string, sign: string) =>
    upsert(
      `SELECT ${client}, ${isDeleted('')}, ${slot}, ${sign}COUNT(*) FROM ${rows} WHERE ${client} IS NOT NULL GROUP BY ${client}, ${isDeleted('')}`,
    );
  const one = (row: 'OLD' | 'NEW', n: string) =>
    `IF ${row}.${client} IS NOT NULL THEN ${upsert(`VALUES (${row}.${client}, ${isDeleted(`${row}.`)}, ${slot}, ${n})`)} END IF;`;
  const body = [
    `IF TG_OP = 'INSERT' THEN ${grouped('wepql_new', '')}`,
    `ELSIF TG_OP = 'DELETE' THEN ${grouped('wepql_old', '-')}`,
    `ELSIF TG_OP = 'UPDATE' THEN ${one('OLD', '-1')} ${one('NEW', '1')}`,
    `ELSE DELETE FROM ${counter};`,
    'END IF; RETURN NULL;',
  ].join(' ');
  const scopeChanged =
    `OLD.${client} IS DISTINCT FROM NEW.${client}` +
    (deleted === undefined ? '' : ` OR ${isDeleted('OLD.')} IS DISTINCT FROM ${isDeleted('NEW.')}`);
  const columns = [client, ...(deleted === undefined ? [] : [deleted.column])].join(', ');
  return {
    table: counterParts,
    transaction: true,
    triggers: ['insert', 'delete', 'update', 'truncate'].map((what) => `${base}_${what}`),
    statements: [
      sql.create,
      // Writers wait from here to COMMIT: the triggers and the backfill see the same rows.
      `LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`,
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $wepql$ BEGIN ${body} END $wepql$`,
      ...['insert', 'delete', 'update', 'truncate'].map((what) => `DROP TRIGGER IF EXISTS ${triggerName(what)} ON ${table}`),
      `CREATE TRIGGER ${triggerName('insert')} AFTER INSERT ON ${table} REFERENCING NEW TABLE AS wepql_new FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('delete')} AFTER DELETE ON ${table} REFERENCING OLD TABLE AS wepql_old FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('update')} AFTER UPDATE OF ${columns} ON ${table} FOR EACH ROW WHEN (${scopeChanged}) EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('truncate')} AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `DELETE FROM ${counter}`,
      sql.backfill,
    ],
  };
}

/** MySQL/MariaDB: row triggers only (it has no statement triggers), installed under `LOCK TABLES` instead of a transaction. */
function mysqlCounterDdl(sql: CounterSql): CounterTableDdl {
  const { table, counterParts, counter, base, qualified, client, deleted, isDeleted, c } = sql;
  const trigger = (what: string) => qualified(`${base}_${what}`);
  const slot = `CONNECTION_ID() % ${COUNTER_SLOTS}`;
  const add = (row: 'OLD' | 'NEW', n: string) =>
    `IF ${row}.${client} IS NOT NULL THEN INSERT INTO ${counter} (${c}, \`deleted\`, \`slot\`, \`n\`) ` +
    `VALUES (${row}.${client}, ${isDeleted(`${row}.`)}, ${slot}, ${n}) ON DUPLICATE KEY UPDATE \`n\` = \`n\` + (${n}); END IF;`;
  const scopeChanged =
    `NOT (OLD.${client} <=> NEW.${client})` + (deleted === undefined ? '' : ` OR ${isDeleted('OLD.')} <> ${isDeleted('NEW.')}`);
  return {
    table: counterParts,
    transaction: false,
    triggers: ['insert', 'delete', 'update'].map((what) => `${base}_${what}`),
    statements: [
      sql.create,
      // Writers wait from here to UNLOCK TABLES: the triggers and the backfill see the same rows.
      `LOCK TABLES ${table} WRITE, ${counter} WRITE`,
      ...['insert', 'delete', 'update'].map((what) => `DROP TRIGGER IF EXISTS ${trigger(what)}`),
      `CREATE TRIGGER ${trigger('insert')} AFTER INSERT ON ${table} FOR EACH ROW BEGIN ${add('NEW', '1')} END`,
      `CREATE TRIGGER ${trigger('delete')} AFTER DELETE ON ${table} FOR EACH ROW BEGIN ${add('OLD', '-1')} END`,
      `CREATE TRIGGER ${trigger('update')} AFTER UPDATE ON ${table} FOR EACH ROW BEGIN IF ${scopeChanged} THEN ${add('OLD', '-1')} ${add('NEW', '1')} END IF; END`,
      `DELETE FROM ${counter}`,
      sql.backfill,
      'UNLOCK TABLES',
    ],
  };
}

function plainColumn(schema: Schema, options: CounterTableOptions, name: string, option: string, types: readonly string[]): string {
  const hit = schema.lookup(name);
  if (hit.found !== 'field') sqlError('unknown-field', `${option}: the schema has no scalar field ${JSON.stringify(name)}`);
  const field: ResolvedField = hit.field;
  if (!types.includes(field.type))
    sqlError('invalid-sql-option', `${option}: a counter table needs a ${types.join(' or ')} field, ${name} is ${field.type}`);
  const column = fieldExpression(field, resolveColumnMap(schema, options.columns), options.dialect);
  const quote = sqlDialect(options.dialect).quote;
  if (!column.startsWith(quote('x').charAt(0))) {
    sqlError('invalid-sql-option', `${option}: a counter table needs ${name} in a column of its own, not inside a JSON column`);
  }
  return column;
}

/** The deleted marker's column and its value as a SQL literal (a number or a boolean, so nothing is spliced from text). */
function deletedTest(
  schema: Schema,
  options: CounterTableOptions,
  marker: NonNullable<CounterTableOptions['deleted']>,
  dialect: SqlDialect,
): { readonly column: string; readonly literal: string } {
  const column = plainColumn(schema, options, marker.field, 'deleted.field', ['integer', 'boolean']);
  const field = schema.lookup(marker.field);
  const type = field.found === 'field' ? field.field.type : undefined;
  const value = marker.value;
  if (type === 'boolean' && typeof value === 'boolean') return { column, literal: value ? 'TRUE' : 'FALSE' };
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : NaN;
  if (type === 'integer' && Number.isSafeInteger(n)) return { column, literal: String(n) };
  return sqlError(
    'invalid-sql-option',
    `deleted.value ${JSON.stringify(value)} does not read as ${marker.field}'s type ${String(type)} (${dialect})`,
  );
}
