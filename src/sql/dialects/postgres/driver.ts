/**
 * PostgreSQL's driver side (`pg`, PGlite): how a statement's stop is told
 * apart from other errors, and how values are read back exactly —
 * datetimes as text at the microsecond, doubles as their bits, strings
 * behind an `x` — and turned into seek keys and record values.
 */
import type { ScalarType } from '../../../schema/values.js';
import type { DialectDriver, RowEstimate, SeekValue } from '../dialect.js';
import { unwrapText, wrappedText } from '../shared.js';

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
  return type === 'string' ? wrappedText(expr) : expr;
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

/** PostgreSQL's row estimate: `EXPLAIN (FORMAT JSON)`'s top "Plan Rows" (`pg` parses the JSON, PGlite may not). */
const POSTGRES_ROW_ESTIMATE: RowEstimate = Object.freeze({
  explain: (sql: string) => `EXPLAIN (FORMAT JSON) ${sql}`,
  plannedRows(rows: readonly Record<string, unknown>[]): number | undefined {
    const raw = rows[0]?.['QUERY PLAN'];
    const plan: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const n = Array.isArray(plan) ? (plan[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined)?.Plan?.['Plan Rows'] : undefined;
    return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
  },
});

// PostgreSQL's query_canceled (statement_timeout and cancel requests alike).
const POSTGRES_CANCELED = '57014';

/**
 * The driver face of the PostgreSQL dialect. The time limit is a setting,
 * not part of the statement (`postgresPoolRunner` sets it), so statements go as they are.
 *
 * @example
 * POSTGRES_DRIVER.readExpression('"Hired"', 'datetime'); // `(CASE WHEN isfinite("Hired") THEN to_char(…) …)`
 */
export const POSTGRES_DRIVER: DialectDriver = Object.freeze({
  statement: (sql: string) => sql,
  interrupted: (error: unknown) => typeof error === 'object' && error !== null && (error as { code?: unknown }).code === POSTGRES_CANCELED,
  transient: postgresTransient,
  readExpression: postgresReadExpression,
  keyExpression: postgresReadExpression,
  seekValue: postgresSeekValue,
  recordValue: postgresRecordValue,
  sourceConstructor: 'createPostgresDataSource',
  rowEstimate: POSTGRES_ROW_ESTIMATE,
});
