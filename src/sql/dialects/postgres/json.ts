/**
 * Reading a key path of a PostgreSQL `jsonb` column as a field of a scalar
 * type, NULL when the JSON value's type does not fit (as the evaluator reads it).
 */
import { MAX_DATETIME_MS, MIN_DATETIME_MS, type ScalarType } from '../../../schema/values.js';

// Exactly the forms `parseDatetimeText` accepts; impossible dates are
// caught by `pg_input_is_valid` below. `[0-9]`, never `\d`: under an ICU
// collation `\d` matches every Unicode digit (`٢`), which the evaluator
// refuses and the `::interval` cast below would fail the whole query on.
const DATETIME_REGEX =
  "'^[0-9]{4}-[0-9]{2}-[0-9]{2}(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$'";

const POSTGRES_MIN_INSTANT = `'${new Date(MIN_DATETIME_MS).toISOString()}'::timestamptz`;
const POSTGRES_MAX_INSTANT = `'${new Date(MAX_DATETIME_MS).toISOString()}'::timestamptz`;

/**
 * The PostgreSQL expression reading a key path of a `jsonb` column as a
 * field of `type`, NULL when the JSON value's type does not fit.
 *
 * @example
 * postgresJsonValue('"doc"', ['Age'], 'boolean');
 * // `(CASE WHEN jsonb_typeof(("doc" -> 'Age')) = 'boolean' THEN (("doc" -> 'Age') #>> '{}')::boolean END)`
 */
export function postgresJsonValue(column: string, path: readonly string[], type: ScalarType): string {
  // Keys are identifier-shaped (checked above), so a plain literal is safe.
  const node = `(${column} -> ${path.map((k) => `'${k}'`).join(' -> ')})`;
  const text = `(${node} #>> '{}')`;
  switch (type) {
    case 'string':
      return `(CASE WHEN jsonb_typeof(${node}) = 'string' THEN ${text} END)`;
    case 'number':
      return `(CASE WHEN jsonb_typeof(${node}) = 'number' THEN ${text}::double precision END)`;
    case 'integer':
      // Nested CASE: PostgreSQL does not promise to evaluate AND left to
      // right, and the numeric cast must not see a non-number.
      return (
        `(CASE WHEN jsonb_typeof(${node}) = 'number' THEN CASE WHEN ${text}::numeric % 1 = 0` +
        ` AND abs(${text}::numeric) <= 9007199254740991 THEN ${text}::numeric::bigint END END)`
      );
    case 'boolean':
      return `(CASE WHEN jsonb_typeof(${node}) = 'boolean' THEN ${text}::boolean END)`;
    case 'datetime': {
      // Read like parseDatetimeText, not like PostgreSQL's own input: the
      // fraction is cut (not rounded) to milliseconds, no zone means UTC
      // whatever the session's TimeZone, and the offset is subtracted as an
      // interval, since timestamptz input refuses offsets beyond ±15:59.
      const local = `regexp_replace(regexp_replace(${text}, '(Z|[+-][0-9]{2}:[0-9]{2})$', ''), '(\\.[0-9]{3})[0-9]+$', '\\1')`;
      const offset = `COALESCE(substring(${text} from '[+-][0-9]{2}:[0-9]{2}$')::interval, interval '0')`;
      // An offset can carry 0001-01-01 into year 0000 or 9999-12-31 into
      // 10000: out of range, so null, as in memory (parseDatetimeText).
      const instant = `((${local}::timestamp AT TIME ZONE 'UTC') - ${offset})`;
      return (
        `(CASE WHEN jsonb_typeof(${node}) = 'string' AND ${text} ~ ${DATETIME_REGEX}` +
        ` AND pg_input_is_valid(${local}, 'timestamp')` +
        ` THEN CASE WHEN ${instant} BETWEEN ${POSTGRES_MIN_INSTANT} AND ${POSTGRES_MAX_INSTANT} THEN ${instant} END END)`
      );
    }
  }
}
