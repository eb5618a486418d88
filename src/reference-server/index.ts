/**
 * `wepql/server`: the reference list server, for tests and for embedding.
 * The framework-neutral pieces (`handleListRequest`, data sources, tokens)
 * come from `wepql/list`.
 *
 * @packageDocumentation
 */
export { createListServer } from './server.js';
export type { ListServer, ListServerOptions } from './server.js';
