/**
 * The storage convention `toSql` assumes (docs/sql.md): which column type
 * holds each scalar type, and how a record value becomes a stored value.
 * Datetimes are instants — `timestamptz` in PostgreSQL and integer epoch
 * milliseconds in SQLite — because ISO text compares wrongly across offsets.
 */
import { hasInvalidCharacter } from '../ast/lexical.js';
import { recordValueAs, type ScalarType } from '../schema/values.js';
import { sqlDialect, type SqlDialect } from './dialect.js';
import { sqlError } from './errors.js';

/**
 * The column type the storage convention uses for a scalar type.
 *
 * @example
 * sqlColumnType('datetime', 'postgres'); // 'timestamptz'
 * sqlColumnType('datetime', 'sqlite');   // 'INTEGER' (epoch milliseconds)
 * sqlColumnType('datetime', 'mysql');    // 'BIGINT' (epoch milliseconds)
 */
export function sqlColumnType(type: ScalarType, dialect: SqlDialect): string {
  return sqlDialect(dialect).columnType(type);
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * Writes an instant as PostgreSQL `timestamptz` input text, in UTC at
 * millisecond precision. Years before 1 are written with `BC` (PostgreSQL
 * has no year 0: year 0 is 1 BC), years after 9999 with all their digits.
 *
 * @example
 * postgresTimestamp(Date.UTC(2024, 0, 1)); // '2024-01-01T00:00:00.000Z'
 */
export function postgresTimestamp(epochMs: number): string {
  const d = new Date(epochMs);
  if (Number.isNaN(d.getTime())) sqlError('invalid-value', 'a datetime value is not a valid instant');
  const year = d.getUTCFullYear();
  const time =
    `-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}` +
    `T${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}.${pad(d.getUTCMilliseconds(), 3)}Z`;
  return year >= 1 ? `${pad(year, 4)}${time}` : `${pad(1 - year, 4)}${time} BC`;
}

/**
 * Converts a value found in a record into what the storage convention
 * stores for a field of the given type: PostgreSQL gets text for
 * `timestamptz` and native booleans, SQLite and MySQL get epoch
 * milliseconds and 0/1. A value that does not convert to the field's type is stored as
 * `null`, exactly as the evaluator counts it as null (docs/reference.md §"Filter
 * semantics"). Strings
 * holding U+0000 or an unpaired surrogate throw `WepqlError`
 * (`invalid-character`): databases reject them, and silently storing null
 * would make the database disagree with the evaluator.
 *
 * @example
 * toStoredValue('2024-01-01T02:00+02:00', 'datetime', 'sqlite');  // 1704067200000
 * toStoredValue(true, 'boolean', 'sqlite');                        // 1
 * toStoredValue('12', 'number', 'postgres');                       // null
 */
export function toStoredValue(value: unknown, type: ScalarType, dialect: SqlDialect): string | number | boolean | null {
  const typed = recordValueAs(value, type);
  if (typed === null) return null;
  if (typeof typed === 'string' && hasInvalidCharacter(typed)) {
    sqlError('invalid-character', 'a string value contains U+0000 or an unpaired surrogate, which databases reject');
  }
  return sqlDialect(dialect).storedValue(typed, type);
}
