/**
 * `wepql/list`: the list contract for servers — the framework-neutral
 * handler, request parsing, data tokens, envelopes, the `DataSource`
 * interface, and the wire names shared with the client. The data sources
 * themselves are `wepql/sources`.
 *
 * @packageDocumentation
 */
export { handleListRequest } from './handler.js';
export type { ListHandlerOptions } from './handler.js';
export { createAdmission } from './admission.js';
export { BusyError } from './busy.js';
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
export type { CountEstimate, CountStrategy } from './count-strategy.js';
export type { CountAnswer, DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from './data-source.js';
export {
  DEFAULT_API_VERSION,
  LIST_PARAMETERS,
  PARAMETER_HEADER_PREFIX,
  TOKEN_ERROR_HEADER,
  TOTAL_ESTIMATED,
  TOTAL_HEADER,
  VERSION_HEADERS,
  parameterHeader,
} from '../wire/contract.js';
export type { ErrorEnvelope, ListEnvelope, ListParameter, WirePagination } from '../wire/contract.js';
