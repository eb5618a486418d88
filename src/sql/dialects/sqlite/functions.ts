/**
 * The functions SQL compiled for SQLite calls. SQLite's built-in `lower()`
 * folds ASCII only, and SQLite cannot read ISO datetimes as instants the
 * way docs/reference.md §"Types and values" does, so both come from wepql itself and
 * match the evaluator
 * by construction.
 */
import { recordValueAs } from '../../../schema/values.js';

/**
 * The name of the case-folding function (`toLowerCase`) that SQL compiled for SQLite calls.
 *
 * @example
 * db.exec(`SELECT ${SQLITE_LOWER_FUNCTION}('Ä')`); // 'ä'
 */
export const SQLITE_LOWER_FUNCTION = 'wepql_lower';

/**
 * The name of the datetime-reading function (ISO text → epoch ms), used for datetimes inside JSON columns.
 *
 * @example
 * db.exec(`SELECT ${SQLITE_DATETIME_FUNCTION}('2024-01-01')`); // 1704067200000
 */
export const SQLITE_DATETIME_FUNCTION = 'wepql_datetime';

/**
 * Any SQLite binding with sql.js's `create_function(name, fn)`.
 *
 * @example
 * const host: SqliteFunctionHost = { create_function: (name, fn) => betterSqlite.function(name, fn) };
 */
export interface SqliteFunctionHost {
  /** Registers a scalar SQL function `name` implemented by `fn`. */
  create_function(name: string, fn: (...args: any[]) => unknown): unknown;
}

// `ignoreBOM`: a leading U+FEFF is text like any other; a default TextDecoder would drop it.
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Case-folds like `String.prototype.toLowerCase`. Compiled SQL passes the
 * text as a BLOB (`wepql_lower(CAST(x AS BLOB))`) holding its UTF-8 bytes,
 * because sql.js decodes TEXT arguments with a TextDecoder that drops a
 * leading U+FEFF; the bytes are decoded here with nothing dropped. Text
 * arguments (from other bindings or hand-written SQL) are folded as given;
 * NULL and other values give NULL.
 *
 * @example
 * sqliteLower('ÄRGER'); // 'ärger'
 * sqliteLower(new TextEncoder().encode('\uFEFFÄ')); // '\uFEFFä'
 */
export function sqliteLower(value: unknown): string | null {
  if (typeof value === 'string') return value.toLowerCase();
  return value instanceof Uint8Array ? UTF8.decode(value).toLowerCase() : null;
}

/**
 * Reads ISO datetime text as epoch milliseconds exactly as `recordValueAs`
 * does; anything else gives NULL.
 *
 * @example
 * sqliteDatetime('2024-01-01T02:00+02:00'); // 1704067200000
 */
export function sqliteDatetime(value: unknown): number | null {
  return typeof value === 'string' ? (recordValueAs(value, 'datetime') as number | null) : null;
}

/**
 * Registers `wepql_lower(text)` and `wepql_datetime(text)` on a SQLite
 * connection. Call it once per connection before running SQL from
 * `toSql({ … }, { dialect: 'sqlite', … })`; case-insensitive filters and
 * sorts call `wepql_lower`. With better-sqlite3 or `node:sqlite`, whose
 * method is `function(name, fn)`, pass
 * `{ create_function: (name, fn) => db.function(name, { deterministic: true }, fn) }`.
 *
 * @example
 * const SQL = await initSqlJs();
 * const db = new SQL.Database();
 * registerSqliteFunctions(db);
 * db.exec("SELECT wepql_lower('ÀÉÎ')"); // [{ values: [['àéî']] }]
 */
export function registerSqliteFunctions(db: SqliteFunctionHost): void {
  db.create_function(SQLITE_LOWER_FUNCTION, sqliteLower);
  db.create_function(SQLITE_DATETIME_FUNCTION, sqliteDatetime);
}
