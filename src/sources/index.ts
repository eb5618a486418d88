/**
 * `wepql/sources`: the data sources a list handler reads from — records in
 * memory, a PostgreSQL table, a MySQL or MariaDB table — and creating and
 * filling a table in the storage convention. No driver is imported: a SQL
 * source takes a function that runs a statement (`pg`'s `query`, `mysql2`'s
 * `execute` in the examples). The SQL itself is `toSql` from `wepql/sql`.
 *
 * @packageDocumentation
 */
export { createMemoryDataSource } from './memory-source.js';
export type { MemoryDataSource, MemoryDataSourceOptions } from './memory-source.js';
export { createWorkLane } from './memory-lane.js';
export type { LaneTask, WorkLane } from './memory-lane.js';
export { createPostgresDataSource } from './postgres-source.js';
export type { PostgresDataSourceOptions, SqlRunner } from './postgres-source.js';
export type { MysqlPool, MysqlPoolConnection } from '../sql/dialects/mysql/pool.js';
export type { PostgresPool, PostgresPoolClient } from '../sql/dialects/postgres/pool.js';
export type { PartitionName } from './sql-source.js';
export { createPostgresTable, insertPostgresRecords } from '../sql/dialects/postgres/table.js';
export type { PostgresShard, PostgresTableCreation, PostgresTableOptions } from '../sql/dialects/postgres/table.js';
export { createMysqlDataSource, createMysqlTable, insertMysqlRecords } from './mysql-source.js';
export type { MysqlDataSourceOptions, MysqlRunner, MysqlTableOptions } from './mysql-source.js';
