/**
 * The MySQL and MariaDB dialect: its compiler rules (the string and JSON
 * pieces are in ./rules.ts), its driver side (./driver.ts) and its storage side.
 */
import type { ScalarType } from '../../../schema/values.js';
import type { Dialect, DialectStorage, SqlDialectRules } from '../dialect.js';
import { backtickQuoted, epochStorage, plainOrder, untypedParameters } from '../shared.js';
import { mysqlCounterDdl } from './counter.js';
import { MYSQL_DRIVER } from './driver.js';
import { DEFAULT_MYSQL_BINARY_COLLATION, DEFAULT_MYSQL_FOLD_COLLATION, MYSQL_LIKE_ESCAPE, mysqlCompared, mysqlJsonValue } from './rules.js';

// Strings carry utf8mb4 so every code point fits (MySQL's `utf8` is 3 bytes
// at most); datetimes are epoch milliseconds, since DATETIME holds neither an
// offset nor the years before 1000.
const MYSQL_TYPES: Readonly<Record<ScalarType, string>> = {
  string: 'LONGTEXT CHARACTER SET utf8mb4',
  number: 'DOUBLE',
  integer: 'BIGINT',
  datetime: 'BIGINT',
  boolean: 'BOOLEAN',
};

// The type each list value is read as from the JSON array: exactly the compared type.
const MYSQL_LIST_TYPES: Readonly<Record<ScalarType, string>> = {
  ...MYSQL_TYPES,
  boolean: 'BIGINT',
};

const RULES: SqlDialectRules = Object.freeze({
  name: 'mysql',
  ...untypedParameters,
  quote: backtickQuoted,
  defaultFoldCollation: DEFAULT_MYSQL_FOLD_COLLATION,
  quoteCollation: backtickQuoted,
  defaultBinaryCollation: DEFAULT_MYSQL_BINARY_COLLATION,
  quoteBinaryCollation: backtickQuoted,
  compared: mysqlCompared,
  likeEscape: MYSQL_LIKE_ESCAPE,
  caseSensitiveMatch: 'like',
  // MySQL has no NULLS FIRST/LAST but sorts NULL below every value, which is
  // exactly wepql's placement, so it writes the direction only (and indexes stay usable).
  orderSuffix: plainOrder,
  // One JSON array read as a table (MariaDB 10.6+, MySQL 8): the statement keeps one `?` per list.
  listMembership: (expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? 'NOT IN' : 'IN'} (SELECT wepql_list.v FROM JSON_TABLE(`,
    param: JSON.stringify(values),
    after: `, '$[*]' COLUMNS (v ${MYSQL_LIST_TYPES[type]} PATH '$')) AS wepql_list)`,
  }),
  jsonValue: mysqlJsonValue,
  limitValue: (count: number) => String(count),
  storedFoldedColumns: false,
});

const STORAGE: DialectStorage = Object.freeze({
  ...epochStorage,
  columnType: (type: ScalarType) => MYSQL_TYPES[type],
  recordColumnType: 'JSON',
  tableSuffix: ' DEFAULT CHARACTER SET utf8mb4',
  // Prepared statements take at most 65,535 parameters.
  maxInsertParameters: 60_000,
  counterTable: mysqlCounterDdl,
});

/**
 * The MySQL and MariaDB dialect: backtick quoting, `?` placeholders,
 * `LOWER()` folding pinned to a code-point collation, lists as one JSON
 * array read with `JSON_TABLE`, epoch-millisecond datetimes, per-statement
 * time limits and MariaDB's whole-string sort written into each statement.
 *
 * @example
 * toSql({ filter: 'Id.Equal(5)' }, { dialect: MYSQL_DIALECT, schema }).where; // '`Id` = ?'
 */
export const MYSQL_DIALECT: Dialect = Object.freeze({ name: RULES.name, rules: RULES, driver: MYSQL_DRIVER, storage: STORAGE });
