/**
 * `wepql/sql`: compile filters and sorts to parameterized SQL.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from './dialect.js';
export * from './storage.js';
export * from './to-sql.js';
export * from './sqlite-functions.js';
export { DEFAULT_MYSQL_BINARY_COLLATION, DEFAULT_MYSQL_FOLD_COLLATION, MYSQL_LIKE_ESCAPE } from './mysql.js';
