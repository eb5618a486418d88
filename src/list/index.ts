/**
 * `wepql/list`: the list contract for servers — requests, data tokens,
 * envelopes, the framework-neutral handler and data sources.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from './token.js';
export * from './envelope.js';
export * from './params.js';
export * from './version.js';
export * from './request.js';
export * from './handler.js';
export * from './data-source.js';
export * from './memory-source.js';
export * from './postgres-source.js';
export * from './postgres-table.js';
export * from './headers.js';
