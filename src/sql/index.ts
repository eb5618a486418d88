/**
 * `wepql/sql`: compile filters and sorts to parameterized SQL, and store
 * records so that SQL and the in-memory evaluator agree.
 *
 * @packageDocumentation
 */
export { SQL_DIALECTS, dialectOf, quoteIdentifier, sqlDialect } from './dialects/registry.js';
export type { SqlDialect } from './dialects/registry.js';
export type {
  CounterSql,
  Dialect,
  DialectDriver,
  RowEstimate,
  DialectStorage,
  ListBinding,
  SqlDialectRules,
  SqlStatementRunner,
  StatementContext,
} from './dialects/dialect.js';
export { DEFAULT_FOLD_COLLATION, POSTGRES_DIALECT } from './dialects/postgres/dialect.js';
export { SQLITE_DIALECT } from './dialects/sqlite/dialect.js';
export { MYSQL_DIALECT } from './dialects/mysql/dialect.js';
export { createSqlTable, insertSqlRecords } from './dialects/table.js';
export type { SqlTableOptions, TableStatementRunner } from './dialects/table.js';
export { sqlColumnType, toStoredValue } from './storage.js';
export { toSql, toSqlParts } from './to-sql.js';
export type { ColumnMap, ColumnMapping, DeferredJoin, SqlFragment, SqlPart, SqlParts, SqlQuery, ToSqlOptions } from './to-sql.js';
export { registerSqliteFunctions } from './dialects/sqlite/functions.js';
export type { SqliteFunctionHost } from './dialects/sqlite/functions.js';
export type { Seek, SeekKey, SeekValue } from './seek.js';
export { adviseIndexes, indexesFor } from './indexes.js';
export { COUNTER_SLOTS, counterTableDdl, counterTableOf } from './counts.js';
export type { CounterTableDdl, CounterTableOptions } from './counts.js';
export type { AdvisedIndex, IndexAdvice, IndexAdvisorOptions, SkippedCondition } from './indexes.js';
export { DEFAULT_MYSQL_BINARY_COLLATION, DEFAULT_MYSQL_FOLD_COLLATION, MYSQL_LIKE_ESCAPE } from './dialects/mysql/rules.js';
