/**
 * PostgreSQL's side of the storage convention: the column type of each
 * scalar type (also the array casts of bound lists), and datetimes as
 * `timestamptz` input text.
 */
import type { ScalarType } from '../../../schema/values.js';
import { sqlError } from '../../errors.js';

/**
 * The column type of each scalar type; also the element type of a bound list (`= ANY($1::type[])`).
 *
 * @example
 * POSTGRES_TYPES.datetime; // 'timestamptz'
 */
export const POSTGRES_TYPES: Readonly<Record<ScalarType, string>> = {
  string: 'text',
  number: 'double precision',
  integer: 'bigint',
  datetime: 'timestamptz',
  boolean: 'boolean',
};

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
