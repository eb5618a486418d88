/**
 * `wepql/mysql`: serve wepql lists from MySQL or MariaDB — a data source
 * over a table (any driver: it takes a function that runs a statement,
 * `mysql2`'s `execute` in the examples), and creating and filling a table
 * in the storage convention. The SQL itself is `toSql(…, { dialect: 'mysql' })`
 * from `wepql/sql`.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { createMysqlDataSource, createMysqlTable, insertMysqlRecords } from './mysql-source.js';
export type { MysqlDataSourceOptions, MysqlRunner, MysqlTableOptions } from './mysql-source.js';
export type { MysqlPool, MysqlPoolConnection } from './sql-pools.js';
