/**
 * `wepql/sql`: compile filters and sorts to parameterized SQL.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from './dialect.js';
export * from './storage.js';
export * from './to-sql.js';
export type { Seek, SeekKey, SeekValue } from './seek.js';
export * from './sqlite-functions.js';
export * from './indexes.js';
