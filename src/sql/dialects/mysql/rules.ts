/**
 * What is particular to MySQL and MariaDB, in one place: how a string is
 * folded and compared, the LIKE escape character, and how a JSON value is
 * read as a field (the MySQL dialect object, ./dialect.ts, uses them).
 */
import { MAX_DATETIME_MS, MIN_DATETIME_MS, type ScalarType } from '../../../schema/values.js';

/**
 * The collation `LOWER()` folds with on MySQL unless `foldCollation` names
 * another. In MySQL and MariaDB the collation decides the case mapping
 * `LOWER()` applies; of those MariaDB 10.11 has, `utf8mb4_unicode_520_ci`
 * (Unicode 5.2 tables) is the closest to `String.prototype.toLowerCase`.
 *
 * @example
 * toSql({ sort: 'LastName=Asc' }, { dialect: 'mysql', schema }).orderBy;
 * // 'LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` ASC'
 */
export const DEFAULT_MYSQL_FOLD_COLLATION = 'utf8mb4_unicode_520_ci';

/**
 * The collation MySQL compares and orders strings with unless
 * `binaryCollation` names another: MariaDB's `utf8mb4_nopad_bin`, which
 * orders by code point and does not ignore trailing spaces (plain
 * `utf8mb4_bin` would make `'a' = 'a '`). MySQL 8 calls it `utf8mb4_0900_bin`.
 *
 * @example
 * toSql({ filter: "Nick.Equal('a')" }, { dialect: 'mysql', schema, caseSensitive: true }).where;
 * // '`Nick` COLLATE `utf8mb4_nopad_bin` = ?'
 */
export const DEFAULT_MYSQL_BINARY_COLLATION = 'utf8mb4_nopad_bin';

/**
 * The LIKE escape character on MySQL. Not `\`: a backslash inside a MySQL
 * string literal is itself an escape unless the server runs with
 * `NO_BACKSLASH_ESCAPES`, so `ESCAPE '\'` means different things (or fails)
 * with the server's SQL mode; `!` means itself in every mode.
 *
 * @example
 * `col LIKE ? ESCAPE '${MYSQL_LIKE_ESCAPE}'`;
 */
export const MYSQL_LIKE_ESCAPE = '!';

/**
 * The expression a MySQL string is compared and ordered by: folded with
 * `LOWER()` under the fold collation, then pinned to the binary collation
 * so that `=`, `LIKE`, `IN` and ORDER BY work on code points whatever
 * collation the column (or the connection, for parameters) has. The
 * collations are passed already quoted.
 *
 * @example
 * mysqlCompared('`LastName`', false, '`utf8mb4_unicode_520_ci`', '`utf8mb4_nopad_bin`');
 * // 'LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin`'
 */
export function mysqlCompared(raw: string, caseSensitive: boolean, foldCollation: string, binaryCollation: string): string {
  return caseSensitive ? `${raw} COLLATE ${binaryCollation}` : `LOWER(${raw} COLLATE ${foldCollation}) COLLATE ${binaryCollation}`;
}

// Exactly the forms `parseDatetimeText` accepts, without a backslash (whose
// meaning in a MySQL literal depends on NO_BACKSLASH_ESCAPES); matched under
// a binary collation so that `t` and `z` are not taken for `T` and `Z`.
const MYSQL_DATETIME_REGEX =
  "'^[0-9]{4}-[0-9]{2}-[0-9]{2}(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9]([.][0-9]+)?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$'";

/**
 * The MySQL expression reading a key path of a JSON column as a field of
 * `type`, NULL when the JSON value's type does not fit (as the evaluator
 * reads it). Datetimes are ISO text read by wepql's rules — proleptic
 * Gregorian days counted in integer arithmetic, the fraction cut to
 * milliseconds, the offset subtracted — into epoch milliseconds, without
 * MySQL's date types (which stop at year 1000 and know no offsets). Keys
 * must be identifier-shaped (checked by the column map).
 *
 * @example
 * mysqlJsonValue('`doc`', ['Age'], 'boolean');
 * // "(CASE JSON_TYPE(JSON_EXTRACT(`doc`, '$.Age')) WHEN 'BOOLEAN' THEN JSON_UNQUOTE(JSON_EXTRACT(`doc`, '$.Age')) = 'true' END)"
 */
export function mysqlJsonValue(column: string, path: readonly string[], type: ScalarType): string {
  const node = `JSON_EXTRACT(${column}, '$.${path.join('.')}')`;
  const jsonType = `JSON_TYPE(${node})`;
  const text = `JSON_UNQUOTE(${node})`;
  const numeric = `${jsonType} IN ('INTEGER', 'UNSIGNED INTEGER', 'DOUBLE', 'DECIMAL')`;
  switch (type) {
    case 'string':
      return `(CASE WHEN ${jsonType} = 'STRING' THEN ${text} END)`;
    case 'number':
      return `(CASE WHEN ${numeric} THEN ${text} + 0e0 END)`;
    case 'integer': {
      const value = `(${text} + 0e0)`;
      return `(CASE WHEN ${numeric} AND ${value} = FLOOR(${value}) AND ABS(${value}) <= 9007199254740991 THEN CAST(${value} AS SIGNED) END)`;
    }
    case 'boolean':
      return `(CASE ${jsonType} WHEN 'BOOLEAN' THEN ${text} = 'true' END)`;
    case 'datetime':
      return `(CASE WHEN ${jsonType} = 'STRING' AND ${text} COLLATE utf8mb4_bin REGEXP ${MYSQL_DATETIME_REGEX} THEN ${mysqlEpochMs(text)} END)`;
  }
}

/** Epoch milliseconds of ISO text already matched by the datetime pattern; NULL for an impossible date or an instant outside years 0001–9999. */
function mysqlEpochMs(t: string): string {
  const int = (from: number, length: number) => `CAST(SUBSTRING(${t}, ${from}, ${length}) AS SIGNED)`;
  const y = int(1, 4);
  const m = int(6, 2);
  const d = int(9, 2);
  const length = `CHAR_LENGTH(${t})`;
  // The zone: none, `Z`, or `±HH:MM` (a sign six from the end, after the date).
  const zoneLength = `(CASE WHEN RIGHT(${t}, 1) = 'Z' THEN 1 WHEN ${length} > 10 AND SUBSTRING(${t}, -6, 1) IN ('+', '-') THEN 6 ELSE 0 END)`;
  const core = `LEFT(${t}, ${length} - ${zoneLength})`;
  const offset =
    `(CASE WHEN ${zoneLength} = 6 THEN (CASE SUBSTRING(${t}, -6, 1) WHEN '-' THEN -1 ELSE 1 END)` +
    ` * (CAST(SUBSTRING(${t}, -5, 2) AS SIGNED) * 60 + CAST(SUBSTRING(${t}, -2, 2) AS SIGNED)) ELSE 0 END)`;
  const hour = `(CASE WHEN ${length} > 10 THEN ${int(12, 2)} ELSE 0 END)`;
  const minute = `(CASE WHEN ${length} > 10 THEN ${int(15, 2)} ELSE 0 END)`;
  const second = `(CASE WHEN CHAR_LENGTH(${core}) >= 19 THEN ${int(18, 2)} ELSE 0 END)`;
  const millis = `(CASE WHEN CHAR_LENGTH(${core}) > 20 THEN CAST(LEFT(CONCAT(SUBSTRING(${core}, 21), '000'), 3) AS SIGNED) ELSE 0 END)`;
  const leap = `((${y} % 4 = 0 AND ${y} % 100 <> 0) OR ${y} % 400 = 0)`;
  const maxDay = `(ELT(${m}, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31) + (${m} = 2 AND ${leap}))`;
  // Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's days_from_civil).
  const yy = `(${y} - (${m} <= 2))`;
  const era = `FLOOR(${yy} / 400)`;
  const yoe = `(${yy} - ${era} * 400)`;
  const doy = `((153 * (${m} + (CASE WHEN ${m} > 2 THEN -3 ELSE 9 END)) + 2) DIV 5 + ${d} - 1)`;
  const days = `(${era} * 146097 + ${yoe} * 365 + ${yoe} DIV 4 - ${yoe} DIV 100 + ${doy} - 719468)`;
  const ms = `(${days} * 86400000 + ${hour} * 3600000 + ${minute} * 60000 + ${second} * 1000 + ${millis} - ${offset} * 60000)`;
  return `(CASE WHEN ${m} BETWEEN 1 AND 12 AND ${d} BETWEEN 1 AND ${maxDay} AND ${ms} BETWEEN ${MIN_DATETIME_MS} AND ${MAX_DATETIME_MS} THEN ${ms} END)`;
}
