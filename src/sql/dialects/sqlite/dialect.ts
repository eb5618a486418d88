/**
 * The SQLite dialect (sql.js, better-sqlite3, `node:sqlite`): its compiler
 * rules, driver side and storage side. Case folding and ISO datetimes come
 * from wepql's own functions (./functions.ts), registered on each connection.
 */
import type { ScalarType } from '../../../schema/values.js';
import { LIKE_ESCAPE } from '../../patterns.js';
import type { Dialect, DialectDriver, DialectStorage, SqlDialectRules } from '../dialect.js';
import { backtickQuoted, doubleQuoted, doubleQuotedShort, epochStorage, epochValues, nullsPlaced, untypedParameters } from '../shared.js';
import { SQLITE_LOWER_FUNCTION } from './functions.js';
import { sqliteJsonValue } from './json.js';

const SQLITE_TYPES: Readonly<Record<ScalarType, string>> = {
  string: 'TEXT',
  number: 'REAL',
  integer: 'INTEGER',
  datetime: 'INTEGER',
  boolean: 'INTEGER',
};

const RULES: SqlDialectRules = Object.freeze({
  name: 'sqlite',
  ...untypedParameters,
  quote: doubleQuoted,
  // Unused: SQLite folds with wepql_lower. The option is still checked as PostgreSQL would, so a bad
  // name fails on every dialect alike.
  defaultFoldCollation: SQLITE_LOWER_FUNCTION,
  quoteCollation: doubleQuotedShort,
  defaultBinaryCollation: 'BINARY',
  quoteBinaryCollation: backtickQuoted,
  // The argument goes to wepql_lower as a BLOB: sql.js decodes TEXT arguments with a TextDecoder
  // that drops a leading U+FEFF, while the bytes of a BLOB reach the function unchanged.
  compared: (raw: string, caseSensitive: boolean) =>
    caseSensitive ? `${raw} COLLATE BINARY` : `${SQLITE_LOWER_FUNCTION}(CAST(${raw} AS BLOB))`,
  likeEscape: LIKE_ESCAPE,
  caseSensitiveMatch: 'glob',
  orderSuffix: nullsPlaced,
  // One JSON array, read back with json_each: SQLite allows 32,766 `?` per statement at most.
  listMembership: (expr: string, negated: boolean, _type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? 'NOT IN' : 'IN'} (SELECT value FROM json_each(`,
    param: JSON.stringify(values),
    after: '))',
  }),
  jsonValue: sqliteJsonValue,
  limitValue: (count: number) => count,
  storedFoldedColumns: false,
});

const DRIVER: DialectDriver = Object.freeze({
  statement: (sql: string) => sql,
  interrupted: () => false,
  transient: () => false,
  // sql.js decodes text results as PGlite does (a leading U+FEFF is lost), so strings are read behind an `x`.
  ...epochValues(true),
  sourceConstructor: 'createSqlDataSource',
});

// SQLite indexes have no NULLS clause; NULLs are smallest, which is NULLS FIRST under ASC, LAST under DESC,
// so the plain order of `epochStorage` serves.
const STORAGE: DialectStorage = Object.freeze({
  ...epochStorage,
  columnType: (type: ScalarType) => SQLITE_TYPES[type],
  recordColumnType: 'TEXT',
  tableSuffix: '',
  // SQLite allows 32,766 parameters per statement.
  maxInsertParameters: 30_000,
});

/**
 * The SQLite dialect: `?` placeholders, `wepql_lower` folding and GLOB for
 * case-sensitive substrings, lists as one JSON array read with `json_each`,
 * epoch-millisecond datetimes and 0/1 booleans.
 *
 * @example
 * toSql({ filter: 'Id.Equal(5)' }, { dialect: SQLITE_DIALECT, schema }).where; // '"Id" = ?'
 */
export const SQLITE_DIALECT: Dialect = Object.freeze({ name: RULES.name, rules: RULES, driver: DRIVER, storage: STORAGE });
