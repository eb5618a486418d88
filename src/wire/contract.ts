/**
 * The wire contract of a list endpoint, shared by the server side
 * (`src/list`) and the client (`src/sdk`): the parameter names and their
 * `x-api-*` headers, the version headers, the token-error header, and the
 * field names of the PascalCase envelopes. A leaf: it imports nothing, so
 * both sides can depend on it without depending on each other.
 */

/**
 * The parameters of a list request, by their query names (headers add `x-api-`).
 *
 * @example
 * LIST_PARAMETERS.map(parameterHeader); // ['x-api-limit', 'x-api-skip', …]
 */
export const LIST_PARAMETERS = [
  'limit',
  'skip',
  'filter',
  'sort',
  'include-deleted',
  'next-page',
  'prev-page',
  'page',
  'data-token',
] as const;

/**
 * One of the list parameters.
 *
 * @example
 * const name: ListParameter = 'data-token';
 */
export type ListParameter = (typeof LIST_PARAMETERS)[number];

/**
 * What a parameter's header name starts with.
 *
 * @example
 * `${PARAMETER_HEADER_PREFIX}limit`; // 'x-api-limit'
 */
export const PARAMETER_HEADER_PREFIX = 'x-api-';

/**
 * The header that carries a list parameter (lower case; HTTP header names are case-insensitive).
 *
 * @example
 * parameterHeader('data-token'); // 'x-api-data-token'
 */
export function parameterHeader(name: ListParameter): `x-api-${ListParameter}` {
  return `${PARAMETER_HEADER_PREFIX}${name}` as `x-api-${ListParameter}`;
}

/**
 * The version headers, in the order the server checks them; the client sends both.
 *
 * @example
 * VERSION_HEADERS; // ['api-version', 'x-api-version']
 */
export const VERSION_HEADERS = ['api-version', 'x-api-version'] as const;

/**
 * The API version the list endpoints speak, and the one assumed when a request names none.
 *
 * @example
 * headers['api-version'] = DEFAULT_API_VERSION; // '1.0'
 */
export const DEFAULT_API_VERSION = '1.0';

/**
 * The header that says why a data token was refused (the envelope has no
 * room for it): `<reason>: <message>`, e.g. `expired: the data token expired at …`.
 *
 * @example
 * response.headers.get(TOKEN_ERROR_HEADER); // 'expired: the data token expired at 2024-…'
 */
export const TOKEN_ERROR_HEADER = 'x-wepql-token-error';

/**
 * The `Pagination` object of a token-paging answer.
 *
 * @example
 * const p: WirePagination = { PageNo: 1, PageSize: 25, TotalRecords: 230, TotalPages: 10, DataToken: token };
 */
export interface WirePagination {
  readonly PageNo: number;
  readonly PageSize: number;
  readonly TotalRecords: number;
  readonly TotalPages: number;
  readonly DataToken: string;
}

/**
 * The success envelope as sent. Skip paging leaves `Pagination` out.
 *
 * @example
 * const body = (await response.json()) as ListEnvelope<Employee>; body.Pagination?.DataToken;
 */
export interface ListEnvelope<T = unknown> {
  readonly Data: readonly T[];
  readonly Status: 1;
  readonly Code: '200';
  readonly ErrorCode: '';
  readonly Message: 'OK';
  readonly StackTrace: '';
  readonly Pagination?: WirePagination;
}

/**
 * The error envelope: `Code` says what failed (`DataValidationError`,
 * `BadRequest`, `UnsupportedApiVersion`, `"404"`, `"500"`), and
 * `ValidationErrors` lists `[errorCode, message]` pairs by parameter name.
 *
 * @example
 * const body = (await response.json()) as ErrorEnvelope; body.ValidationErrors?.limit;
 */
export interface ErrorEnvelope {
  readonly Status: number;
  readonly Code: string;
  readonly ErrorCode: string | null;
  readonly Message: string;
  readonly StackTrace: string;
  readonly ValidationErrors?: Readonly<Record<string, readonly (readonly [string, string])[]>>;
}

/**
 * The response header that marks a `TotalRecords` that is not an exact
 * count (the server chose an estimate or a cached total); absent when it is exact.
 *
 * @example
 * response.headers.get(TOTAL_HEADER) === TOTAL_ESTIMATED; // true when the total is an estimate
 */
export const TOTAL_HEADER = 'x-wepql-total';

/**
 * The value of `TOTAL_HEADER` on a response whose total is estimated.
 *
 * @example
 * TOTAL_ESTIMATED; // 'estimated'
 */
export const TOTAL_ESTIMATED = 'estimated';
