/**
 * What the SQL data source does differently per engine, beyond the SQL that
 * `toSql` writes: placeholders, how LIMIT values are bound, how rows come
 * back from the driver, how a stored value is read exactly (for a seek key)
 * and rendered (for a rebuilt record), and the MariaDB session setting that
 * makes ORDER BY compare whole strings.
 */
import type { ScalarType } from '../schema/values.js';
import { sqlDialect, type SqlDialect } from '../sql/dialect.js';
import type { SeekValue } from '../sql/seek.js';

/**
 * One engine's side of the SQL data source.
 *
 * @example
 * const engine = sqlEngine('postgres', run);
 * engine.placeholder(3); // '$3'
 */
export interface SqlEngine {
  /** The n-th (1-based) placeholder (the dialect's own, `sqlDialect(name).placeholder`). */
  placeholder(n: number): string;
  /**
   * Runs a SELECT and returns its rows; `ordered` when it has an ORDER BY.
   * The context's time limit is written into the statement where the engine
   * takes one there (MySQL, MariaDB), and the context goes to the runner.
   */
  rows(sql: string, params: unknown[], ordered: boolean, context?: StatementContext): Promise<readonly Record<string, unknown>[]>;
  /** Whether a driver error says the statement was stopped (its time ran out, or it was cancelled). */
  interrupted(error: unknown): boolean;
  /** The expression a record's field is read with. */
  readExpression(expr: string, type: ScalarType): string;
  /** The expression a sort key is read with for a seek key: the engine's exact value. */
  keyExpression(expr: string, type: ScalarType): string;
  /** A value read by `keyExpression` as a seek value (`'tie'` for the tie-breaker). */
  seekValue(value: unknown, type: ScalarType | 'tie'): SeekValue;
  /** A value read by `readExpression` as the record's value; null when absent. */
  recordValue(value: unknown, type: ScalarType): unknown;
  /** Whether a statement's error is worth one more attempt: the database cancelled a read it would now run. */
  transient(error: unknown): boolean;
}

/**
 * SQLSTATEs after which the same read may succeed at once: a hot standby
 * cancels a query whose snapshot or locks conflict with replay as
 * `serialization_failure` (40001), and `deadlock_detected` (40P01). A
 * PostgreSQL driver puts the code on the error as `code`.
 */
const POSTGRES_TRANSIENT_CODES: ReadonlySet<string> = new Set(['40001', '40P01']);

function postgresTransient(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && POSTGRES_TRANSIENT_CODES.has(code);
}

/**
 * The `max_sort_length` every ordered MariaDB statement of the SQL data
 * source sets for itself (`SET STATEMENT … FOR`). MariaDB's ORDER BY
 * compares only the first `max_sort_length` bytes of a string's sort
 * weight (1,024 by default: 341 characters under `utf8mb4_nopad_bin`, 3
 * bytes a character) while a seek predicate compares whole strings, so a
 * walk over keys sharing a longer prefix would skip rows. 65,536 bytes
 * (21,845 characters) still sorts within the default 2 MiB
 * `sort_buffer_size` (larger values fail with "Out of sort memory"); keys
 * sharing a longer prefix remain a documented gap (docs/server.md).
 *
 * @example
 * MARIADB_MAX_SORT_LENGTH; // 65536
 */
export const MARIADB_MAX_SORT_LENGTH = 65_536;

/**
 * What a statement is run with besides its text: the time it may take and
 * the signal that cancels it. A runner passed to the SQL data source receives
 * it as its third argument; `postgresPoolRunner` and `mysqlPoolRunner`
 * (`./sql-pools.ts`) apply both.
 *
 * @example
 * const run: SqlStatementRunner = (sql, params, context) => runWithTimeout(sql, params, context?.timeoutMs);
 */
export interface StatementContext {
  /** Milliseconds the statement may run (what is left of its request's deadline). */
  readonly timeoutMs?: number;
  /** Aborted when the statement's answer is no longer wanted: cancel it on the server. */
  readonly signal?: AbortSignal;
}

/**
 * Runs one parameterised statement and resolves to its rows in any of the
 * shapes drivers return: `{ rows }` (`pg`, PGlite), mysql2's `[rows, fields]`
 * pair, or the rows themselves. The optional context carries the statement's
 * time limit and cancel signal.
 *
 * @example
 * const run: SqlStatementRunner = (sql, params) => pool.query(sql, params);
 */
export type SqlStatementRunner = (sql: string, params: unknown[], context?: StatementContext) => Promise<unknown>;

/**
 * The per-statement settings of an ordered (and, with a time limit, any)
 * MySQL-dialect statement. MariaDB runs the executable comment (`/*M!` and
 * the version that has SET STATEMENT, 10.1.2): whole-string ORDER BY and
 * `max_statement_time` in seconds, for this statement only (a pooler in
 * transaction mode cannot leak it). MySQL reads a plain comment, keeps its
 * own `max_sort_length` (docs/server.md says how to raise it there) and takes
 * the time limit from the `MAX_EXECUTION_TIME` optimizer hint after SELECT.
 */
function mysqlStatement(sql: string, ordered: boolean, timeoutMs: number | undefined): string {
  const settings = [
    ...(timeoutMs === undefined ? [] : [`max_statement_time=${(Math.ceil(timeoutMs) / 1000).toFixed(3)}`]),
    ...(ordered ? [`max_sort_length=${MARIADB_MAX_SORT_LENGTH}`] : []),
  ];
  const hinted = timeoutMs === undefined ? sql : sql.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${Math.ceil(timeoutMs)}) */ `);
  return settings.length === 0 ? hinted : `/*M!100102 SET STATEMENT ${settings.join(', ')} FOR */ ${hinted}`;
}

// PostgreSQL's query_canceled (statement_timeout and cancel requests alike).
const POSTGRES_CANCELED = '57014';
// MariaDB's max_statement_time, MySQL's max_execution_time, and KILL QUERY on both.
const MYSQL_INTERRUPTED = new Set([1969, 3024, 1317]);

/**
 * The engine side for a dialect, around a statement runner.
 *
 * @example
 * const engine = sqlEngine('mysql', (sql, params) => pool.execute(sql, params));
 */
export function sqlEngine(dialect: SqlDialect, run: SqlStatementRunner): SqlEngine {
  const { placeholder } = sqlDialect(dialect);
  const call = (sql: string, params: unknown[], context: StatementContext | undefined) =>
    context === undefined ? run(sql, params) : run(sql, params, context);
  if (dialect === 'postgres') {
    return {
      placeholder,
      rows: async (sql, params, _ordered, context) => rowsOf(await call(sql, params, context)),
      interrupted: (error) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === POSTGRES_CANCELED,
      readExpression: postgresReadExpression,
      keyExpression: postgresReadExpression,
      seekValue: postgresSeekValue,
      recordValue: postgresRecordValue,
      transient: postgresTransient,
    };
  }
  // sql.js decodes text results as PostgreSQL's PGlite does (a leading U+FEFF is lost), so SQLite reads strings behind an `x` too;
  // mysql2 keeps the character (and `||` is not concatenation there).
  const wrapped = dialect === 'sqlite';
  return {
    placeholder,
    rows: async (sql, params, ordered, context) =>
      rowsOf(await call(dialect === 'mysql' ? mysqlStatement(sql, ordered, context?.timeoutMs) : sql, params, context)),
    interrupted: (error) =>
      dialect === 'mysql' && typeof error === 'object' && error !== null && MYSQL_INTERRUPTED.has((error as { errno?: number }).errno ?? 0),
    readExpression: (expr, type) => (wrapped && type === 'string' ? `('x' || ${expr})` : expr),
    keyExpression: (expr, type) => (wrapped && type === 'string' ? `('x' || ${expr})` : expr),
    seekValue: (value, type) => epochSeekValue(wrapped && type === 'string' ? unwrapText(value) : value, type),
    recordValue: (value, type) => epochRecordValue(wrapped && type === 'string' ? unwrapText(value) : value, type),
    transient: dialect === 'mysql' ? mysqlTransient : () => false,
  };
}

/** MySQL and MariaDB: a deadlock (`ER_LOCK_DEADLOCK`, 1213) rolls back a statement that may succeed when run again. */
function mysqlTransient(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { errno?: unknown }).errno === 1213;
}

/** Rows from `{ rows }` (`pg`, PGlite), mysql2's `[rows, fields]` pair, or the rows themselves. */
function rowsOf(result: unknown): readonly Record<string, unknown>[] {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
  if (typeof result === 'object' && result !== null && Array.isArray((result as { rows?: unknown }).rows)) {
    return (result as { rows: Record<string, unknown>[] }).rows;
  }
  return [];
}

/**
 * A `timestamptz` as exact UTC text, `2026-11-24 11:55:50.123456+00 AD`, or
 * `infinity`/`-infinity`: what `::timestamptz` reads back to the same
 * instant whatever the session's time zone and date style. Read as text, no
 * driver's date parser is involved (PGlite's reads years 0001–0099 as
 * 1950–2049) and microseconds are kept (a JavaScript Date holds
 * milliseconds, and a seek key cut to them repeats rows written with `now()`).
 */
function postgresInstantText(expr: string): string {
  return `(CASE WHEN isfinite(${expr}) THEN to_char(${expr} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US+00 BC') ELSE (${expr})::text END)`;
}

const INSTANT_TEXT = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{3})\d{3}\+00 (AD|BC)$/;

/** Reads `postgresInstantText`'s text as ISO text at milliseconds; `infinity`, `-infinity` and instants beyond a Date stay as they are. */
function instantIso(text: string): string {
  const m = INSTANT_TEXT.exec(text);
  if (m === null) return text;
  const [, year, month, day, hours, minutes, seconds, ms, era] = m;
  // There is no year 0: 1 BC is year 0 of the proleptic calendar Date counts in.
  const astronomical = era === 'BC' ? 1 - Number(year) : Number(year);
  const date = new Date(Date.UTC(2000, Number(month) - 1, Number(day), Number(hours), Number(minutes), Number(seconds), Number(ms)));
  date.setUTCFullYear(astronomical);
  return Number.isNaN(date.getTime()) ? text : date.toISOString();
}

/**
 * How a PostgreSQL column is read back exactly: datetimes as text at the
 * microsecond; strings behind an `x`, because PGlite's client (and sql.js)
 * decodes a text value that starts with U+FEFF as a byte-order mark and drops it — a key
 * read that way would seek from the wrong place (and a walk would repeat
 * rows). `unwrapText` takes the `x` off again.
 */
function postgresReadExpression(expr: string, type: ScalarType): string {
  if (type === 'datetime') return postgresInstantText(expr);
  if (type === 'number') return postgresDoubleBits(expr);
  return type === 'string' ? `('x' || ${expr})` : expr;
}

/**
 * A `double precision` as the hex text of its eight IEEE 754 bytes: exact
 * whatever the session's `extra_float_digits` (at 0 or below a double is
 * written with 15 significant digits, so `0.30000000000000004` would read
 * back as `0.3` and seek keys would repeat or skip rows) and `bytea_output`;
 * nothing is set on the session, so a pooler in transaction mode sees no
 * leaked setting. `doubleFromBits` reads it back.
 */
function postgresDoubleBits(expr: string): string {
  return `encode(float8send((${expr})::double precision), 'hex')`;
}

const DOUBLE_BITS = /^[0-9a-f]{16}$/;

/** The double whose big-endian bytes `postgresDoubleBits` wrote; other values as they are. */
function doubleFromBits(value: unknown): unknown {
  if (typeof value !== 'string' || !DOUBLE_BITS.test(value)) return value;
  const view = new DataView(new ArrayBuffer(8));
  for (let i = 0; i < 8; i++) view.setUint8(i, Number.parseInt(value.slice(2 * i, 2 * i + 2), 16));
  return view.getFloat64(0);
}

function unwrapText(value: unknown): unknown {
  return typeof value === 'string' && value.startsWith('x') ? value.slice(1) : value;
}

function postgresSeekValue(read: unknown, type: ScalarType | 'tie'): SeekValue {
  if (read === null || read === undefined) return null;
  if (type === 'string') return unwrapText(read) as SeekValue;
  const value = type === 'number' ? doubleFromBits(read) : read;
  // A non-finite double as the text PostgreSQL reads back (and orders: NaN above Infinity), never a null key.
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  // `pg` returns bigint and numeric as text; a tie-breaker stays text (the server reads it as the column's type), so a 64-bit key is exact.
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'string' && (type === 'integer' || type === 'number')) return Number(value);
  return value as SeekValue;
}

function postgresRecordValue(read: unknown, type: ScalarType): unknown {
  if (read === null || read === undefined) return null;
  if (type === 'string') return unwrapText(read);
  const value = type === 'number' ? doubleFromBits(read) : read;
  if (type === 'datetime' && typeof value === 'string') return instantIso(value);
  // `pg` returns bigint and numeric as text, PGlite may return bigint as BigInt.
  if ((type === 'integer' || type === 'number') && (typeof value === 'string' || typeof value === 'bigint')) return Number(value);
  return value;
}

/** MySQL/MariaDB and SQLite: datetimes are epoch milliseconds (exact), booleans 0/1. */
function epochSeekValue(value: unknown, type: ScalarType | 'tie'): SeekValue {
  if (value === null || value === undefined) return null;
  if (type === 'boolean') return Number(value) !== 0;
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (typeof value === 'string' && (type === 'integer' || type === 'number' || type === 'datetime')) return Number(value);
  return value as SeekValue;
}

function epochRecordValue(value: unknown, type: ScalarType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'datetime':
      return new Date(Number(value)).toISOString();
    case 'boolean':
      return Number(value) !== 0;
    case 'integer':
    case 'number':
      return typeof value === 'string' || typeof value === 'bigint' ? Number(value) : value;
    default:
      return value;
  }
}
