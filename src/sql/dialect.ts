/**
 * The two SQL dialects wepql compiles to, and the one place that knows how
 * each quotes identifiers and writes parameter placeholders.
 */
import { hasInvalidCharacter } from '../ast/lexical.js';
import { sqlError } from './errors.js';

/**
 * A SQL dialect `toSql` can write.
 *
 * @example
 * const dialect: SqlDialect = 'postgres';
 */
export type SqlDialect = 'postgres' | 'sqlite';

/**
 * Every supported dialect.
 *
 * @example
 * SQL_DIALECTS.includes('sqlite'); // true
 */
export const SQL_DIALECTS: readonly SqlDialect[] = ['postgres', 'sqlite'];

// PostgreSQL silently truncates identifiers longer than NAMEDATALEN-1 bytes,
// which could make two distinct columns collide; refuse instead.
const POSTGRES_MAX_IDENTIFIER_BYTES = 63;

/**
 * Quotes an identifier by the dialect's rules: wrapped in double quotes,
 * inner double quotes doubled. Both dialects accept that form, so no name
 * can end the quoting early. Throws `WepqlError` (`invalid-character`,
 * `invalid-sql-option`) for names no database accepts: empty, containing
 * U+0000 or an unpaired surrogate, or (PostgreSQL) longer than 63 bytes.
 *
 * @example
 * quoteIdentifier('LastName', 'postgres'); // '"LastName"'
 * quoteIdentifier('a"b', 'sqlite');        // '"a""b"'
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
  return `"${name.replaceAll('"', '""')}"`;
}
