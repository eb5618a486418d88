/**
 * A fourth engine, written as docs/architecture.md ("Add a dialect") says:
 * one folder exporting one `Dialect` object, built from the public
 * `wepql/sql` entry alone. "Bracket SQL" is SQLite spelled another way —
 * `[name]` identifiers and numbered `?NNN` placeholders, both of which
 * SQLite itself reads — so it runs on sql.js, and any stage that asked for an
 * engine by name instead of taking the object would write SQLite's `"…"` and
 * `?` (or fail) instead.
 */
import { SQLITE_DIALECT, type Dialect, type SqlDialectRules } from '../../../src/sql/index.js';

const rules: SqlDialectRules = Object.freeze({
  ...SQLITE_DIALECT.rules,
  name: 'bracket',
  quote(name: string): string {
    if (typeof name !== 'string' || name.length === 0 || name.includes('\u0000')) throw new TypeError('bracket: a bad identifier');
    return `[${name.replaceAll(']', ']]')}]`;
  },
  placeholder: (n: number) => `?${n}`,
});

/**
 * The Bracket SQL dialect: SQLite's rules, driver and storage with its own
 * quoting and placeholders.
 *
 * @example
 * toSql({ filter: 'Id.Equal(5)' }, { dialect: BRACKET_DIALECT, schema }).where; // '[Id] = ?1'
 */
export const BRACKET_DIALECT: Dialect = Object.freeze({
  name: rules.name,
  rules,
  driver: { ...SQLITE_DIALECT.driver, sourceConstructor: 'createSqlDataSource' },
  storage: SQLITE_DIALECT.storage,
});
