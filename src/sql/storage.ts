/**
 * The storage convention `toSql` assumes (docs/sql.md): which column type
 * holds each scalar type, and how a record value becomes a stored value.
 * Datetimes are instants — `timestamptz` in PostgreSQL and integer epoch
 * milliseconds in SQLite and MySQL — because ISO text compares wrongly across
 * offsets. Each dialect's storage face holds its part; these resolve a
 * dialect name for callers.
 */
import type { ScalarType } from '../schema/values.js';
import type { Dialect } from './dialects/dialect.js';
import { dialectOf, type SqlDialect } from './dialects/registry.js';
import { storedRecordValue } from './dialects/table.js';

/**
 * The column type the storage convention uses for a scalar type.
 *
 * @example
 * sqlColumnType('datetime', 'postgres'); // 'timestamptz'
 * sqlColumnType('datetime', 'sqlite');   // 'INTEGER' (epoch milliseconds)
 * sqlColumnType('datetime', 'mysql');    // 'BIGINT' (epoch milliseconds)
 */
export function sqlColumnType(type: ScalarType, dialect: SqlDialect | Dialect): string {
  return dialectOf(dialect).storage.columnType(type);
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
export function toStoredValue(value: unknown, type: ScalarType, dialect: SqlDialect | Dialect): string | number | boolean | null {
  return storedRecordValue(value, type, dialectOf(dialect));
}
