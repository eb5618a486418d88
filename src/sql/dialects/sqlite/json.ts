/**
 * Reading a key path of a SQLite JSON text column as a field of a scalar
 * type, NULL when the JSON value's type does not fit (as the evaluator reads it).
 */
import type { ScalarType } from '../../../schema/values.js';
import { SQLITE_DATETIME_FUNCTION } from './functions.js';

/**
 * The SQLite expression reading a key path of a JSON text column as a field
 * of `type`, NULL when the JSON value's type does not fit.
 *
 * @example
 * sqliteJsonValue('"doc"', ['Age'], 'boolean');
 * // `(CASE json_type("doc", '$.Age') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`
 */
export function sqliteJsonValue(column: string, path: readonly string[], type: ScalarType): string {
  const p = `'$.${path.join('.')}'`;
  const value = `json_extract(${column}, ${p})`;
  const jsonType = `json_type(${column}, ${p})`;
  switch (type) {
    case 'string':
      return `(CASE WHEN ${jsonType} = 'text' THEN ${value} END)`;
    case 'number':
      return `(CASE WHEN ${jsonType} IN ('integer', 'real') THEN ${value} END)`;
    case 'integer':
      return (
        `(CASE WHEN ${jsonType} IN ('integer', 'real') AND ${value} = CAST(${value} AS INTEGER)` +
        ` AND abs(${value}) <= 9007199254740991 THEN CAST(${value} AS INTEGER) END)`
      );
    case 'boolean':
      return `(CASE ${jsonType} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
    case 'datetime':
      return `(CASE WHEN ${jsonType} = 'text' THEN ${SQLITE_DATETIME_FUNCTION}(${value}) END)`;
  }
}
