/**
 * The SQL dialects wepql compiles to, and the one place that knows how each
 * quotes identifiers.
 */
import { hasInvalidCharacter } from '../ast/lexical.js';
import { sqlError } from './errors.js';

/**
 * A SQL dialect `toSql` can write.
 *
 * @example
 * const dialect: SqlDialect = 'postgres';
 */
export type SqlDialect = 'postgres' | 'sqlite' | 'mysql';

/**
 * Every supported dialect.
 *
 * @example
 * SQL_DIALECTS.includes('sqlite'); // true
 */
export const SQL_DIALECTS: readonly SqlDialect[] = ['postgres', 'sqlite', 'mysql'];

// PostgreSQL silently truncates identifiers longer than NAMEDATALEN-1 bytes,
// which could make two distinct columns collide; refuse instead.
const POSTGRES_MAX_IDENTIFIER_BYTES = 63;
// MySQL and MariaDB refuse longer names, names ending in a space, and
// characters outside the Basic Multilingual Plane in identifiers.
const MYSQL_MAX_IDENTIFIER_CHARS = 64;

/**
 * Quotes an identifier by the dialect's rules: PostgreSQL and SQLite wrap it
 * in double quotes and double inner ones; MySQL wraps it in backticks and
 * doubles inner backticks (double quotes would be string literals there
 * unless `ANSI_QUOTES` is on). No name can end the quoting early. Throws
 * `WepqlError` (`invalid-character`, `invalid-sql-option`) for names the
 * database refuses or would alter: empty, containing U+0000 or an unpaired
 * surrogate, longer than 63 bytes (PostgreSQL), or longer than 64
 * characters, ending in a space, or outside the Basic Multilingual Plane
 * (MySQL).
 *
 * @example
 * quoteIdentifier('LastName', 'postgres'); // '"LastName"'
 * quoteIdentifier('a"b', 'sqlite');        // '"a""b"'
 * quoteIdentifier('a`b', 'mysql');         // '`a``b`'
 */
export function quoteIdentifier(name: string, dialect: SqlDialect): string {
  if (typeof name !== 'string' || name.length === 0) {
    sqlError('invalid-sql-option', 'an identifier must be a non-empty string');
  }
  if (hasInvalidCharacter(name)) {
    sqlError('invalid-character', `identifier ${JSON.stringify(name)} contains U+0000 or an unpaired surrogate`);
  }
  if (dialect === 'postgres' && new TextEncoder().encode(name).length > POSTGRES_MAX_IDENTIFIER_BYTES) {
    sqlError(
      'invalid-sql-option',
      `identifier ${JSON.stringify(name.slice(0, 80))} is longer than PostgreSQL's ${POSTGRES_MAX_IDENTIFIER_BYTES} bytes and would be truncated`,
    );
  }
  if (dialect === 'mysql') {
    if (name.length > MYSQL_MAX_IDENTIFIER_CHARS || name.endsWith(' ') || /[\uD800-\uDFFF]/.test(name)) {
      sqlError(
        'invalid-sql-option',
        `identifier ${JSON.stringify(name.slice(0, 80))} is not a MySQL identifier (at most ${MYSQL_MAX_IDENTIFIER_CHARS} characters of the Basic Multilingual Plane, no trailing space)`,
      );
    }
    return `\`${name.replaceAll('`', '``')}\``;
  }
  return `"${name.replaceAll('"', '""')}"`;
}
