/**
 * The errors the SQL compiler throws for options and for trees built by
 * code, which have no source text to point into. Internal to src/sql.
 */
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';
import type { SqlDialect } from './dialect.js';

/**
 * Throws a `WepqlError` with one diagnostic; used for options and trees
 * built by code, which have no source text to point into.
 *
 * @example
 * sqlError('invalid-sql-option', 'paramStart must be a whole number ≥ 1'); // throws
 */
export function sqlError(code: DiagnosticCode, message: string): never {
  const diagnostic: Diagnostic = { code, severity: 'error', message, start: 0, end: 0 };
  throw new WepqlError(`toSql: ${message}`, [diagnostic]);
}

/**
 * Checks that a dialect name is one `toSql` knows (options may come from
 * untyped JavaScript or configuration files).
 *
 * @example
 * checkDialect('sqlite'); // 'sqlite'
 */
export function checkDialect(dialect: unknown): SqlDialect {
  if (dialect !== 'postgres' && dialect !== 'sqlite' && dialect !== 'mysql') {
    sqlError('invalid-sql-option', `unknown SQL dialect ${JSON.stringify(dialect)}; expected "postgres", "sqlite" or "mysql"`);
  }
  return dialect;
}
