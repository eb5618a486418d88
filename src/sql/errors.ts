/**
 * The errors the SQL compiler throws for options and for trees built by
 * code, which have no source text to point into. Internal to src/sql.
 */
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';

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
