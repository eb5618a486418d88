/**
 * `wepql/list`: the list contract for servers — the framework-neutral
 * handler, request parsing, data tokens, envelopes, data sources, and the
 * wire names shared with the client.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { handleListRequest } from './handler.js';
export type { ListHandlerOptions } from './handler.js';
export { BusyError, createAdmission } from './admission.js';
export type { Admission, AdmissionOptions, AdmissionStats, RequestTicket, StatementClass } from './admission.js';
export { parseListRequest } from './request.js';
export type { ListQuery, ListRequest, ListRequestInput, ListRequestOptions, PageMove, ParsedListRequest } from './request.js';
export type { HeaderInput, QueryInput } from './params.js';
export { listHeaders } from './headers.js';
export { checkApiVersion } from './version.js';
export { createTokenCodec } from './token.js';
export type {
  DataTokenPayload,
  TokenCodec,
  TokenCodecOptions,
  TokenIssue,
  TokenKey,
  TokenRefusal,
  TokenSecret,
  TokenVerification,
  VerifiedDataToken,
} from './token.js';
export { errorResponse, listResponse } from './envelope.js';
export type { ListError, ListResponse, PaginationInput, ParameterError, TokenProblem, ValidationErrorCode } from './envelope.js';
export type { DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from './data-source.js';
export { SourceUnavailableError } from './data-source.js';
export { createMemoryDataSource } from '../sources/memory-source.js';
export type { MemoryDataSource, MemoryDataSourceOptions } from '../sources/memory-source.js';
export { createWorkLane } from '../sources/memory-lane.js';
export type { LaneTask, WorkLane } from '../sources/memory-lane.js';
export { createPostgresDataSource } from '../sources/postgres-source.js';
export type { PostgresDataSourceOptions, SqlRunner } from '../sources/postgres-source.js';
export type { PostgresPool, PostgresPoolClient } from '../sources/sql-pools.js';
export { createPostgresTable, insertPostgresRecords } from '../sources/postgres-table.js';
export type { PostgresShard, PostgresTableCreation, PostgresTableOptions } from '../sources/postgres-table.js';
export {
  DEFAULT_API_VERSION,
  LIST_PARAMETERS,
  PARAMETER_HEADER_PREFIX,
  TOKEN_ERROR_HEADER,
  VERSION_HEADERS,
  parameterHeader,
} from '../wire/contract.js';
export type { ErrorEnvelope, ListEnvelope, ListParameter, WirePagination } from '../wire/contract.js';
