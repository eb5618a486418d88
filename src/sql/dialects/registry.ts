/**
 * The dialects wepql ships, by name: the one place a dialect name given as
 * text (an option of `toSql`, a configuration file) becomes a `Dialect`.
 * Everything past this boundary takes the object.
 */
import { sqlError } from '../errors.js';
import type { Dialect, SqlDialectRules } from './dialect.js';
import { MYSQL_DIALECT } from './mysql/dialect.js';
import { POSTGRES_DIALECT } from './postgres/dialect.js';
import { SQLITE_DIALECT } from './sqlite/dialect.js';

/**
 * The name of a dialect `toSql` ships with.
 *
 * @example
 * const dialect: SqlDialect = 'postgres';
 */
export type SqlDialect = 'postgres' | 'sqlite' | 'mysql';

const DIALECTS: Readonly<Record<SqlDialect, Dialect>> = Object.freeze({
  postgres: POSTGRES_DIALECT,
  sqlite: SQLITE_DIALECT,
  mysql: MYSQL_DIALECT,
});

/**
 * Every shipped dialect's name.
 *
 * @example
 * SQL_DIALECTS.includes('sqlite'); // true
 */
export const SQL_DIALECTS: readonly SqlDialect[] = Object.freeze(Object.keys(DIALECTS) as SqlDialect[]);

const quotedNames = SQL_DIALECTS.map((name) => JSON.stringify(name));
const expected = `${quotedNames.slice(0, -1).join(', ')} or ${quotedNames[quotedNames.length - 1]}`;

/**
 * The dialect a `dialect` option names, or the dialect object itself when
 * it is one (an engine of your own, see docs/architecture.md). Options may
 * come from untyped JavaScript or configuration files, so anything else
 * throws `WepqlError` (`invalid-sql-option`).
 *
 * @example
 * dialectOf('sqlite').rules.placeholder(1); // '?'
 */
export function dialectOf(dialect: SqlDialect | Dialect): Dialect {
  if (typeof dialect === 'string' && Object.hasOwn(DIALECTS, dialect)) return DIALECTS[dialect];
  if (isDialect(dialect)) return dialect;
  return sqlError('invalid-sql-option', `unknown SQL dialect ${JSON.stringify(dialect)}; expected ${expected}`);
}

function isDialect(value: unknown): value is Dialect {
  if (typeof value !== 'object' || value === null) return false;
  const { name, rules, driver, storage } = value as Partial<Record<keyof Dialect, unknown>>;
  return typeof name === 'string' && [rules, driver, storage].every((face) => typeof face === 'object' && face !== null);
}

/**
 * The compiler rules of one dialect, for code that writes whole statements
 * around `toSql`'s fragments (a data source's SELECT, COUNT and keyset
 * queries). Throws `WepqlError` (`invalid-sql-option`) for an unknown name.
 *
 * @example
 * const d = sqlDialect('mysql');
 * `SELECT * FROM ${d.quote('employees')} WHERE ${d.quote('Id')} = ${d.placeholder(1)}`; // 'SELECT * FROM `employees` WHERE `Id` = ?'
 */
export function sqlDialect(name: SqlDialect | Dialect): SqlDialectRules {
  return dialectOf(name).rules;
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
export function quoteIdentifier(name: string, dialect: SqlDialect | Dialect): string {
  return dialectOf(dialect).rules.quote(name);
}
