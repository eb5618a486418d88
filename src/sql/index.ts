/**
 * `wepql/sql`: compile filters and sorts to parameterized SQL, and store
 * records so that SQL and the in-memory evaluator agree.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { SQL_DIALECTS, quoteIdentifier, sqlDialect } from './dialect.js';
export type { ListBinding, SqlDialect, SqlDialectRules } from './dialect.js';
export { sqlColumnType, toStoredValue } from './storage.js';
export { DEFAULT_FOLD_COLLATION, toSql, toSqlParts } from './to-sql.js';
export type { ColumnMap, ColumnMapping, DeferredJoin, SqlFragment, SqlPart, SqlParts, SqlQuery, ToSqlOptions } from './to-sql.js';
export { registerSqliteFunctions } from './sqlite-functions.js';
export type { SqliteFunctionHost } from './sqlite-functions.js';
export type { Seek, SeekKey, SeekValue } from './seek.js';
export { adviseIndexes, indexesFor } from './indexes.js';
export { COUNTER_SLOTS, counterTableDdl, counterTableOf } from './counts.js';
export type { CounterTableDdl, CounterTableOptions } from './counts.js';
export type { AdvisedIndex, IndexAdvice, IndexAdvisorOptions, SkippedCondition } from './indexes.js';
export { DEFAULT_MYSQL_BINARY_COLLATION, DEFAULT_MYSQL_FOLD_COLLATION, MYSQL_LIKE_ESCAPE } from './mysql.js';
