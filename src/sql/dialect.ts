/**
 * The SQL dialects wepql compiles to: one object per engine holding
 * everything the compiler, the index advisor and the data sources need to
 * know about it (quoting, placeholders, case folding, LIKE escape, NULL
 * order, seek form, list binding, column types, index DDL). Nothing else in
 * `src/sql` asks which engine it writes for.
 */
import { hasInvalidCharacter } from '../ast/lexical.js';
import type { ScalarType } from '../schema/values.js';
import { postgresJsonValue, sqliteJsonValue } from './columns.js';
import { sqlError } from './errors.js';
import { DEFAULT_MYSQL_FOLD_COLLATION, MYSQL_LIKE_ESCAPE, mysqlCompared, mysqlJsonValue } from './mysql.js';
import { LIKE_ESCAPE } from './patterns.js';
import { SQLITE_LOWER_FUNCTION } from './sqlite-functions.js';
import { postgresTimestamp } from './storage.js';

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

/**
 * The collation PostgreSQL folds case with unless `foldCollation` names
 * another: `pg_unicode_fast` (PostgreSQL 18), whose `lower()` is Unicode's
 * full case mapping, as `String.prototype.toLowerCase`.
 *
 * @example
 * toSql({ sort: 'LastName=Asc' }, { dialect: 'postgres', schema }).orderBy;
 * // `lower("LastName" COLLATE "${DEFAULT_FOLD_COLLATION}") ASC NULLS FIRST`
 */
export const DEFAULT_FOLD_COLLATION = 'pg_unicode_fast';

/**
 * How one engine spells what wepql writes. Obtain one with `sqlDialect`;
 * every method writes fixed text around identifiers or placeholders and
 * never a user value.
 *
 * @example
 * const d: SqlDialectRules = sqlDialect('sqlite');
 * d.placeholder(3);                 // '?'
 * d.orderSuffix('Asc');             // 'ASC NULLS FIRST'
 */
export interface SqlDialectRules {
  readonly name: SqlDialect;
  /** Quotes an identifier, refusing names the engine would reject or alter (see `quoteIdentifier`). */
  quote(name: string): string;
  /** The placeholder of the `n`-th parameter of a statement (1-based): `$n` or `?`. */
  placeholder(n: number): string;
  /**
   * The expression a string is compared and ordered by, around `raw`:
   * folded with the fold collation, or pinned to a byte-wise one. Both
   * order by code point on every dialect (the `prefixRange` relies on it).
   */
  compared(raw: string, caseSensitive: boolean, foldCollation: string, binaryCollation: string): string;
  /** The fold collation unless `foldCollation` names another (unused by SQLite, whose fold is `wepql_lower`). */
  readonly defaultFoldCollation: string;
  /** Quotes a collation name (SQLite checks it as PostgreSQL would, so a bad name fails on every dialect alike). */
  quoteCollation(name: string): string;
  /** The escape character of every LIKE (declared with `ESCAPE '…'`). */
  readonly likeEscape: string;
  /** Case-sensitive substring tests: `LIKE`, or SQLite's `GLOB` (its LIKE ignores ASCII case). */
  readonly caseSensitiveMatch: 'like' | 'glob';
  /** The ORDER BY suffix of a nullable key: NULL first under Asc, last under Desc. */
  orderSuffix(direction: 'Asc' | 'Desc'): string;
  /** The suffix of an index column serving that order. */
  indexOrderSuffix(direction: 'Asc' | 'Desc', nullable: boolean): string;
  /** What follows a text seek key's placeholder before it is folded (`::text` where an unknown type must be named). */
  readonly textParameterCast: string;
  /** What follows a datetime parameter's placeholder (`::timestamptz`, or nothing). */
  readonly datetimeParameterCast: string;
  /**
   * `expr` (not) among one bound list: the text before and after the single
   * placeholder, and the value bound to it (an array, or JSON text).
   */
  listMembership(expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]): ListBinding;
  /** The column type of the storage convention (docs/sql.md). */
  columnType(type: ScalarType): string;
  /** A record's value (already read as its type) as stored: timestamps, 0/1 booleans. */
  storedValue(typed: string | number | boolean, type: ScalarType): string | number | boolean;
  /** The expression reading a key path of a JSON column as a field of `type` (NULL when it does not fit). */
  jsonValue(column: string, path: readonly string[], type: ScalarType): string;
  /**
   * The cast reading a seek key given as the engine's own exact text back
   * as the column's type, or undefined when `text` is not such text: on
   * PostgreSQL a `timestamptz` at microseconds (or ±infinity) as the SQL
   * data source reads it back, and non-finite doubles, which no JSON number holds.
   */
  exactTextCast(type: ScalarType, text: string): string | undefined;
  /** A LIMIT or OFFSET count as bound: a number, or text where drivers would send a DOUBLE the server refuses there (MySQL 8.0.22+). */
  limitValue(count: number): number | string;
  /** Whether strings may be compared through stored folded columns (`toSql`'s `foldedColumns`). */
  readonly storedFoldedColumns: boolean;
  /** Whether `CREATE INDEX CONCURRENTLY`, `INCLUDE (…)` and trigram (`pg_trgm`) indexes exist. */
  readonly postgresIndexes: boolean;
}

/**
 * One list bound as one parameter, from `SqlDialectRules.listMembership`.
 *
 * @example
 * const b: ListBinding = { before: '"Id" = ANY(', param: [1, 2], after: '::bigint[])' };
 */
export interface ListBinding {
  readonly before: string;
  readonly param: unknown;
  readonly after: string;
}

// PostgreSQL silently truncates identifiers longer than NAMEDATALEN-1 bytes,
// which could make two distinct columns collide; refuse instead.
const POSTGRES_MAX_IDENTIFIER_BYTES = 63;
// MySQL and MariaDB refuse longer names, names ending in a space, and
// characters outside the Basic Multilingual Plane in identifiers.
const MYSQL_MAX_IDENTIFIER_CHARS = 64;

function checkIdentifier(name: string): void {
  if (typeof name !== 'string' || name.length === 0) {
    sqlError('invalid-sql-option', 'an identifier must be a non-empty string');
  }
  if (hasInvalidCharacter(name)) {
    sqlError('invalid-character', `identifier ${JSON.stringify(name)} contains U+0000 or an unpaired surrogate`);
  }
}

const doubleQuoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const nullsPlaced = (direction: 'Asc' | 'Desc') => (direction === 'Asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST');
const plainOrder = (direction: 'Asc' | 'Desc') => (direction === 'Asc' ? 'ASC' : 'DESC');

// PostgreSQL array casts for `= ANY($1::type[])`: one parameter however long the list.
const POSTGRES_TYPES: Readonly<Record<ScalarType, string>> = {
  string: 'text',
  number: 'double precision',
  integer: 'bigint',
  datetime: 'timestamptz',
  boolean: 'boolean',
};

// PostgreSQL values a source read back as the engine's own text because no JSON number holds them exactly:
// a timestamptz at microseconds (or ±infinity) as the SQL data source writes it, and non-finite doubles.
const POSTGRES_INSTANT_TEXT = /^(?:-?infinity|\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}\+00 (?:AD|BC))$/;
const POSTGRES_NON_FINITE = new Set(['NaN', 'Infinity', '-Infinity']);

const POSTGRES: SqlDialectRules = Object.freeze({
  name: 'postgres',
  quote(name: string): string {
    checkIdentifier(name);
    if (new TextEncoder().encode(name).length > POSTGRES_MAX_IDENTIFIER_BYTES) {
      sqlError(
        'invalid-sql-option',
        `identifier ${JSON.stringify(name.slice(0, 80))} is longer than PostgreSQL's ${POSTGRES_MAX_IDENTIFIER_BYTES} bytes and would be truncated`,
      );
    }
    return doubleQuoted(name);
  },
  placeholder: (n: number) => `$${n}`,
  // pg_unicode_fast (PostgreSQL 18, the default fold collation) applies Unicode's full case
  // mapping, final sigma included — what toLowerCase does; both it and "C" order by code point.
  defaultFoldCollation: DEFAULT_FOLD_COLLATION,
  quoteCollation: (name: string) => POSTGRES.quote(name),
  compared: (raw: string, caseSensitive: boolean, fold: string) => (caseSensitive ? `${raw} COLLATE "C"` : `lower(${raw} COLLATE ${fold})`),
  likeEscape: LIKE_ESCAPE,
  caseSensitiveMatch: 'like',
  orderSuffix: nullsPlaced,
  indexOrderSuffix: (direction: 'Asc' | 'Desc', nullable: boolean) => (nullable ? nullsPlaced(direction) : plainOrder(direction)),
  textParameterCast: '::text',
  datetimeParameterCast: '::timestamptz',
  listMembership: (expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? '<> ALL' : '= ANY'}(`,
    param: values,
    after: `::${POSTGRES_TYPES[type]}[])`,
  }),
  columnType: (type: ScalarType) => POSTGRES_TYPES[type],
  storedValue: (typed: string | number | boolean, type: ScalarType) => (type === 'datetime' ? postgresTimestamp(typed as number) : typed),
  jsonValue: (column: string, path: readonly string[], type: ScalarType) => postgresJsonValue(column, path, type),
  exactTextCast(type: ScalarType, text: string): string | undefined {
    if (type === 'datetime' && POSTGRES_INSTANT_TEXT.test(text)) return '::timestamptz';
    if (type === 'number' && POSTGRES_NON_FINITE.has(text)) return '::double precision';
    return undefined;
  },
  limitValue: (count: number) => count,
  storedFoldedColumns: true,
  postgresIndexes: true,
});

const SQLITE_TYPES: Readonly<Record<ScalarType, string>> = {
  string: 'TEXT',
  number: 'REAL',
  integer: 'INTEGER',
  datetime: 'INTEGER',
  boolean: 'INTEGER',
};

// Epoch milliseconds and 0/1 stand for datetimes and booleans where there is no type for them.
const numericStored = (typed: string | number | boolean, type: ScalarType) => (type === 'boolean' ? (typed ? 1 : 0) : typed);

const SQLITE: SqlDialectRules = Object.freeze({
  name: 'sqlite',
  quote(name: string): string {
    checkIdentifier(name);
    return doubleQuoted(name);
  },
  placeholder: () => '?',
  // The argument goes to wepql_lower as a BLOB: sql.js decodes TEXT arguments with a TextDecoder
  // that drops a leading U+FEFF, while the bytes of a BLOB reach the function unchanged.
  defaultFoldCollation: DEFAULT_FOLD_COLLATION,
  quoteCollation: (name: string) => POSTGRES.quote(name),
  compared: (raw: string, caseSensitive: boolean) =>
    caseSensitive ? `${raw} COLLATE BINARY` : `${SQLITE_LOWER_FUNCTION}(CAST(${raw} AS BLOB))`,
  likeEscape: LIKE_ESCAPE,
  caseSensitiveMatch: 'glob',
  orderSuffix: nullsPlaced,
  // SQLite indexes have no NULLS clause; NULLs are smallest, which is NULLS FIRST under ASC, LAST under DESC.
  indexOrderSuffix: plainOrder,
  textParameterCast: '',
  datetimeParameterCast: '',
  // One JSON array, read back with json_each: SQLite allows 32,766 `?` per statement at most.
  listMembership: (expr: string, negated: boolean, _type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? 'NOT IN' : 'IN'} (SELECT value FROM json_each(`,
    param: JSON.stringify(values),
    after: '))',
  }),
  columnType: (type: ScalarType) => SQLITE_TYPES[type],
  storedValue: numericStored,
  jsonValue: (column: string, path: readonly string[], type: ScalarType) => sqliteJsonValue(column, path, type),
  exactTextCast: () => undefined,
  limitValue: (count: number) => count,
  storedFoldedColumns: false,
  postgresIndexes: false,
});

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
  string: 'LONGTEXT CHARACTER SET utf8mb4',
  number: 'DOUBLE',
  integer: 'BIGINT',
  datetime: 'BIGINT',
  boolean: 'BIGINT',
};

const MYSQL: SqlDialectRules = Object.freeze({
  name: 'mysql',
  quote(name: string): string {
    checkIdentifier(name);
    if (name.length > MYSQL_MAX_IDENTIFIER_CHARS || name.endsWith(' ') || /[\uD800-\uDFFF]/.test(name)) {
      sqlError(
        'invalid-sql-option',
        `identifier ${JSON.stringify(name.slice(0, 80))} is not a MySQL identifier (at most ${MYSQL_MAX_IDENTIFIER_CHARS} characters of the Basic Multilingual Plane, no trailing space)`,
      );
    }
    return `\`${name.replaceAll('`', '``')}\``;
  },
  placeholder: () => '?',
  defaultFoldCollation: DEFAULT_MYSQL_FOLD_COLLATION,
  quoteCollation: (name: string) => MYSQL.quote(name),
  compared: mysqlCompared,
  likeEscape: MYSQL_LIKE_ESCAPE,
  caseSensitiveMatch: 'like',
  // MySQL has no NULLS FIRST/LAST but sorts NULL below every value, which is
  // exactly wepql's placement, so it writes the direction only (and indexes stay usable).
  orderSuffix: plainOrder,
  indexOrderSuffix: plainOrder,
  textParameterCast: '',
  datetimeParameterCast: '',
  // One JSON array read as a table (MariaDB 10.6+, MySQL 8): the statement keeps one `?` per list.
  listMembership: (expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]) => ({
    before: `${expr} ${negated ? 'NOT IN' : 'IN'} (SELECT wepql_list.v FROM JSON_TABLE(`,
    param: JSON.stringify(values),
    after: `, '$[*]' COLUMNS (v ${MYSQL_LIST_TYPES[type]} PATH '$')) AS wepql_list)`,
  }),
  columnType: (type: ScalarType) => MYSQL_TYPES[type],
  storedValue: numericStored,
  jsonValue: (column: string, path: readonly string[], type: ScalarType) => mysqlJsonValue(column, path, type),
  exactTextCast: () => undefined,
  limitValue: (count: number) => String(count),
  storedFoldedColumns: false,
  postgresIndexes: false,
});

const DIALECTS: Readonly<Record<SqlDialect, SqlDialectRules>> = Object.freeze({ postgres: POSTGRES, sqlite: SQLITE, mysql: MYSQL });

/**
 * The rules of one dialect, for code that writes whole statements around
 * `toSql`'s fragments (a data source's SELECT, COUNT and keyset queries).
 * Throws `WepqlError` (`invalid-sql-option`) for an unknown name.
 *
 * @example
 * const d = sqlDialect('mysql');
 * `SELECT * FROM ${d.quote('employees')} WHERE ${d.quote('Id')} = ${d.placeholder(1)}`; // 'SELECT * FROM `employees` WHERE `Id` = ?'
 */
export function sqlDialect(name: SqlDialect): SqlDialectRules {
  if (name !== 'postgres' && name !== 'sqlite' && name !== 'mysql') {
    sqlError('invalid-sql-option', `unknown SQL dialect ${JSON.stringify(name)}; expected "postgres", "sqlite" or "mysql"`);
  }
  return DIALECTS[name];
}

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
  return sqlDialect(dialect).quote(name);
}
