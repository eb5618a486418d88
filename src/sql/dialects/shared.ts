/**
 * Rule code more than one engine uses, written once: identifier checks and
 * quoting, ORDER BY suffixes, values stored as numbers, and the driver side
 * of engines that keep datetimes as epoch milliseconds and booleans as 0/1.
 * An engine folder takes what fits it from here.
 */
import { hasInvalidCharacter } from '../../ast/lexical.js';
import type { ScalarType } from '../../schema/values.js';
import { sqlError } from '../errors.js';
import type { DialectDriver, SeekValue, StatementContext } from './dialect.js';

// PostgreSQL silently truncates identifiers longer than NAMEDATALEN-1 bytes,
// which could make two distinct columns collide; refuse instead.
const POSTGRES_MAX_IDENTIFIER_BYTES = 63;
// MySQL and MariaDB refuse longer names, names ending in a space, and
// characters outside the Basic Multilingual Plane in identifiers.
const MYSQL_MAX_IDENTIFIER_CHARS = 64;

/**
 * Refuses what no engine takes as an identifier: a non-string, the empty
 * name, U+0000 and unpaired surrogates.
 *
 * @example
 * checkIdentifier(''); // throws WepqlError (invalid-sql-option)
 */
export function checkIdentifier(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    sqlError('invalid-sql-option', 'an identifier must be a non-empty string');
  }
  if (hasInvalidCharacter(name)) {
    sqlError('invalid-character', `identifier ${JSON.stringify(name)} contains U+0000 or an unpaired surrogate`);
  }
}

/**
 * An identifier in double quotes, inner ones doubled (SQL's own quoting).
 *
 * @example
 * doubleQuoted('a"b'); // '"a""b"'
 */
export function doubleQuoted(name: string): string {
  checkIdentifier(name);
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * `doubleQuoted`, refusing names longer than PostgreSQL's 63 bytes, which it would truncate.
 *
 * @example
 * doubleQuotedShort('LastName'); // '"LastName"'
 */
export function doubleQuotedShort(name: string): string {
  checkIdentifier(name);
  if (new TextEncoder().encode(name).length > POSTGRES_MAX_IDENTIFIER_BYTES) {
    sqlError(
      'invalid-sql-option',
      `identifier ${JSON.stringify(name.slice(0, 80))} is longer than PostgreSQL's ${POSTGRES_MAX_IDENTIFIER_BYTES} bytes and would be truncated`,
    );
  }
  return doubleQuoted(name);
}

/**
 * An identifier in backticks, inner ones doubled, refusing names MySQL and
 * MariaDB would refuse: longer than 64 characters, ending in a space, or
 * outside the Basic Multilingual Plane.
 *
 * @example
 * backtickQuoted('a`b'); // '`a``b`'
 */
export function backtickQuoted(name: string): string {
  checkIdentifier(name);
  if (name.length > MYSQL_MAX_IDENTIFIER_CHARS || name.endsWith(' ') || /[\uD800-\uDFFF]/.test(name)) {
    sqlError(
      'invalid-sql-option',
      `identifier ${JSON.stringify(name.slice(0, 80))} is not a MySQL identifier (at most ${MYSQL_MAX_IDENTIFIER_CHARS} characters of the Basic Multilingual Plane, no trailing space)`,
    );
  }
  return `\`${name.replaceAll('`', '``')}\``;
}

/**
 * The ORDER BY suffix placing NULL first under Asc and last under Desc.
 *
 * @example
 * nullsPlaced('Desc'); // 'DESC NULLS LAST'
 */
export const nullsPlaced = (direction: 'Asc' | 'Desc'): string => (direction === 'Asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST');

/**
 * The direction alone, for engines that sort NULL below every value.
 *
 * @example
 * plainOrder('Asc'); // 'ASC'
 */
export const plainOrder = (direction: 'Asc' | 'Desc'): string => (direction === 'Asc' ? 'ASC' : 'DESC');

/**
 * A value as stored where there is no type for datetimes and booleans:
 * epoch milliseconds (already so) and 0/1.
 *
 * @example
 * numericStored(true, 'boolean'); // 1
 */
export const numericStored = (typed: string | number | boolean, type: ScalarType): string | number | boolean =>
  type === 'boolean' ? (typed ? 1 : 0) : typed;

/**
 * A string read behind an `x` (see `DialectDriver.readExpression`) without it.
 *
 * @example
 * unwrapText('x\uFEFFa'); // '\uFEFFa'
 */
export function unwrapText(value: unknown): unknown {
  return typeof value === 'string' && value.startsWith('x') ? value.slice(1) : value;
}

/**
 * A string expression read behind an `x`, so a client that decodes a
 * leading U+FEFF as a byte-order mark (PGlite's, sql.js's) cannot drop it.
 *
 * @example
 * wrappedText('"LastName"'); // `('x' || "LastName")`
 */
export const wrappedText = (expr: string): string => `('x' || ${expr})`;

/** Datetimes are epoch milliseconds (exact), booleans 0/1. */
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

/**
 * How rows and keys come back from an engine that stores datetimes as
 * epoch milliseconds and booleans as 0/1; with `wrapStrings`, strings are
 * read behind an `x` (`wrappedText`). The statement-level parts
 * (`statement`, `interrupted`, `transient`, `sourceConstructor`) are the engine's own.
 *
 * @example
 * const read = epochValues(true);
 * read.recordValue(1704067200000, 'datetime'); // '2024-01-01T00:00:00.000Z'
 */
export function epochValues(wrapStrings: boolean): Pick<DialectDriver, 'readExpression' | 'keyExpression' | 'seekValue' | 'recordValue'> {
  const read = (expr: string, type: ScalarType) => (wrapStrings && type === 'string' ? wrappedText(expr) : expr);
  const unwrap = (value: unknown, type: ScalarType | 'tie') => (wrapStrings && type === 'string' ? unwrapText(value) : value);
  return {
    readExpression: read,
    keyExpression: read,
    seekValue: (value, type) => epochSeekValue(unwrap(value, type), type),
    recordValue: (value, type) => epochRecordValue(unwrap(value, type), type),
  };
}

/**
 * The rules of an engine whose parameters need no cast: `?` placeholders,
 * nothing after a text or datetime placeholder, and no seek key given as
 * the engine's own text (datetimes are epoch milliseconds).
 *
 * @example
 * const rules = { ...untypedParameters, name: 'sqlite' };
 */
export const untypedParameters = Object.freeze({
  placeholder: (): string => '?',
  textParameterCast: '',
  datetimeParameterCast: '',
  exactTextCast: (): string | undefined => undefined,
});

/**
 * The storage of an engine that keeps datetimes as epoch milliseconds and
 * booleans as 0/1, with plain b-tree indexes only (no `CONCURRENTLY`,
 * `INCLUDE` or trigram indexes).
 *
 * @example
 * const storage = { ...epochStorage, recordColumnType: 'JSON' };
 */
export const epochStorage = Object.freeze({
  storedValue: numericStored,
  indexOrderSuffix: (direction: 'Asc' | 'Desc'): string => plainOrder(direction),
  concurrentIndexes: false,
  coveringIndexes: false,
  trigramIndexes: false,
});

/**
 * Runs `work`, calling `cancel` if the context's signal is aborted while it
 * runs (never after): how each engine's pool runner stops a statement whose
 * request went away.
 *
 * @example
 * await whileWatching(context, () => void pool.query(`KILL QUERY ${thread}`), () => connection.execute(sql, params));
 */
export async function whileWatching<T>(context: StatementContext, cancel: () => void, work: () => Promise<T>): Promise<T> {
  const signal = context.signal;
  if (signal === undefined) return work();
  signal.throwIfAborted();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    return await work();
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}
