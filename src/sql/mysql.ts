/**
 * What is particular to MySQL and MariaDB, in one place: how a string is
 * folded and compared, the LIKE escape character, and how ORDER BY places
 * NULLs. The compiler asks this module instead of spelling MySQL itself.
 */
import type { SqlDialect } from './dialect.js';

/**
 * The collation `LOWER()` folds with on MySQL unless `foldCollation` names
 * another. In MySQL and MariaDB the collation decides the case mapping
 * `LOWER()` applies; of those MariaDB 10.11 has, `utf8mb4_unicode_520_ci`
 * (Unicode 5.2 tables) is the closest to `String.prototype.toLowerCase`.
 *
 * @example
 * toSql({ sort: 'LastName=Asc' }, { dialect: 'mysql', schema }).orderBy;
 * // 'LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin` ASC'
 */
export const DEFAULT_MYSQL_FOLD_COLLATION = 'utf8mb4_unicode_520_ci';

/**
 * The collation MySQL compares and orders strings with unless
 * `binaryCollation` names another: MariaDB's `utf8mb4_nopad_bin`, which
 * orders by code point and does not ignore trailing spaces (plain
 * `utf8mb4_bin` would make `'a' = 'a '`). MySQL 8 calls it `utf8mb4_0900_bin`.
 *
 * @example
 * toSql({ filter: "Nick.Equal('a')" }, { dialect: 'mysql', schema, caseSensitive: true }).where;
 * // '`Nick` COLLATE `utf8mb4_nopad_bin` = ?'
 */
export const DEFAULT_MYSQL_BINARY_COLLATION = 'utf8mb4_nopad_bin';

/**
 * The LIKE escape character on MySQL. Not `\`: a backslash inside a MySQL
 * string literal is itself an escape unless the server runs with
 * `NO_BACKSLASH_ESCAPES`, so `ESCAPE '\'` means different things (or fails)
 * with the server's SQL mode; `!` means itself in every mode.
 *
 * @example
 * `col LIKE ? ESCAPE '${MYSQL_LIKE_ESCAPE}'`;
 */
export const MYSQL_LIKE_ESCAPE = '!';

/**
 * The expression a MySQL string is compared and ordered by: folded with
 * `LOWER()` under the fold collation, then pinned to the binary collation
 * so that `=`, `LIKE`, `IN` and ORDER BY work on code points whatever
 * collation the column (or the connection, for parameters) has. The
 * collations are passed already quoted.
 *
 * @example
 * mysqlCompared('`LastName`', false, '`utf8mb4_unicode_520_ci`', '`utf8mb4_nopad_bin`');
 * // 'LOWER(`LastName` COLLATE `utf8mb4_unicode_520_ci`) COLLATE `utf8mb4_nopad_bin`'
 */
export function mysqlCompared(raw: string, caseSensitive: boolean, foldCollation: string, binaryCollation: string): string {
  return caseSensitive ? `${raw} COLLATE ${binaryCollation}` : `LOWER(${raw} COLLATE ${foldCollation}) COLLATE ${binaryCollation}`;
}

/**
 * The ORDER BY suffix of one key. wepql places NULL first under Asc and
 * last under Desc; MySQL has no `NULLS FIRST/LAST` but sorts NULL below
 * every value, which is exactly that placement, so it writes the direction
 * only (and indexes on the column stay usable).
 *
 * @example
 * orderSuffix('Asc', 'mysql');    // 'ASC'
 * orderSuffix('Asc', 'postgres'); // 'ASC NULLS FIRST'
 */
export function orderSuffix(direction: 'Asc' | 'Desc', dialect: SqlDialect): string {
  if (dialect === 'mysql') return direction === 'Asc' ? 'ASC' : 'DESC';
  return direction === 'Asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST';
}
