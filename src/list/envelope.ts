/**
 * The PascalCase envelopes of the `/api/public/...` family (docs/reference.md
 * §"Envelopes"): one builder for success, one for every
 * error the list contract produces. Responses are plain data
 * (`{ status, headers, body }`) so any HTTP framework can send them.
 */
import type { ErrorEnvelope, ListEnvelope } from '../wire/contract.js';
import { TOKEN_ERROR_HEADER } from '../wire/contract.js';

/**
 * The validation error codes of docs/reference.md §"Envelopes" (first element of each
 * `ValidationErrors` pair).
 *
 * @example
 * const code: ValidationErrorCode = 'outOfRangeError';
 */
export type ValidationErrorCode =
  | 'requiredError'
  | 'tooLongError'
  | 'tooShortError'
  | 'outOfRangeError'
  | 'stringLengthError'
  | 'positiveValueError'
  | 'intValueError'
  | 'regularExpressionError';

/**
 * One problem with one request parameter.
 *
 * @example
 * const problem: ParameterError = { param: 'limit', code: 'outOfRangeError', message: 'limit must be between 1 and 1000, got 0' };
 */
export interface ParameterError {
  /** The parameter's name without `x-api-`: `limit`, `filter`, `data-token`… */
  readonly param: string;
  readonly code: ValidationErrorCode;
  readonly message: string;
}

/**
 * Why the token-paging move was refused, when it was the token's fault.
 *
 * @example
 * const problem: TokenProblem = { reason: 'expired', message: 'the data token expired at …' };
 */
export interface TokenProblem {
  readonly reason: string;
  readonly message: string;
}

/**
 * Every error of the list contract, as data.
 *
 * @example
 * errorResponse({ kind: 'page-out-of-range', first: 1, last: 4 } satisfies ListError).status; // 400
 */
export type ListError =
  | { readonly kind: 'validation'; readonly errors: readonly ParameterError[] }
  | {
      readonly kind: 'page-out-of-range';
      readonly first: number;
      readonly last: number;
      /** Set when the move failed because the token was missing or refused; sent as a header, never in the body. */
      readonly token?: TokenProblem;
    }
  | { readonly kind: 'unsupported-version'; readonly address: string; readonly version: string }
  | { readonly kind: 'not-found'; readonly message: string }
  | { readonly kind: 'internal'; readonly message: string }
  /** The server could not start (or finish) the request in its time: 503 with `Retry-After`. */
  | { readonly kind: 'busy'; readonly retryAfterSeconds: number };

/**
 * An HTTP response as data.
 *
 * @example
 * const { status, headers, body }: ListResponse = await handleListRequest(input, options);
 */
export interface ListResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/**
 * The `Pagination` object, in camelCase on the way in.
 *
 * @example
 * const pagination: PaginationInput = { pageNo: 1, pageSize: 25, totalRecords: 230, totalPages: 10, dataToken: token };
 */
export interface PaginationInput {
  readonly pageNo: number;
  readonly pageSize: number;
  readonly totalRecords: number;
  readonly totalPages: number;
  readonly dataToken: string;
}

const JSON_HEADERS = Object.freeze({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });

/**
 * The 200 response of a list call. Without `pagination` (skip paging) the
 * envelope has no `Pagination` key at all.
 *
 * @example
 * listResponse({ data: [{ Id: 1 }], pagination: { pageNo: 1, pageSize: 25, totalRecords: 1, totalPages: 1, dataToken: 't' } }).body;
 * // { Data: [{ Id: 1 }], Status: 1, Code: '200', ErrorCode: '', Message: 'OK', StackTrace: '',
 * //   Pagination: { PageNo: 1, PageSize: 25, TotalRecords: 1, TotalPages: 1, DataToken: 't' } }
 */
export function listResponse<T>(input: { data: readonly T[]; pagination?: PaginationInput }): ListResponse & { body: ListEnvelope<T> } {
  const p = input.pagination;
  const body: ListEnvelope<T> = {
    Data: input.data,
    Status: 1,
    Code: '200',
    ErrorCode: '',
    Message: 'OK',
    StackTrace: '',
    ...(p === undefined
      ? {}
      : {
          Pagination: {
            PageNo: p.pageNo,
            PageSize: p.pageSize,
            TotalRecords: p.totalRecords,
            TotalPages: p.totalPages,
            DataToken: p.dataToken,
          },
        }),
  };
  return { status: 200, headers: { ...JSON_HEADERS }, body };
}

/**
 * The response for a list error: 400 with the bodies of docs/reference.md §"Envelopes"
 * for validation,
 * page range and version errors, 404, 500 and 503 (busy, with `Retry-After`
 * in whole seconds) with `Status` 0 and a null `ErrorCode`.
 *
 * @example
 * errorResponse({ kind: 'validation', errors: [{ param: 'limit', code: 'requiredError', message: 'limit is required on the first page' }] }).body;
 * // { Status: 3, Code: 'DataValidationError', ErrorCode: '', Message: 'limit: [limit is required on the first page]',
 * //   StackTrace: '', ValidationErrors: { limit: [['requiredError', 'limit is required on the first page']] } }
 */
export function errorResponse(error: ListError): ListResponse {
  const headers: Record<string, string> = { ...JSON_HEADERS };
  switch (error.kind) {
    case 'validation':
      return validationResponse(error.errors, headers);
    case 'page-out-of-range':
      if (error.token !== undefined) headers[TOKEN_ERROR_HEADER] = `${error.token.reason}: ${headerSafe(error.token.message)}`;
      return {
        status: 400,
        headers,
        body: {
          Status: 3,
          Code: 'BadRequest',
          ErrorCode: 'InternalServerError',
          Message: `Page Number out of range. [${error.first}-${error.last}]`,
          StackTrace: '',
        } satisfies ErrorEnvelope,
      };
    case 'unsupported-version':
      return {
        status: 400,
        headers,
        body: {
          Status: 3,
          Code: 'UnsupportedApiVersion',
          ErrorCode: '',
          Message: `The HTTP resource that matches the request URI '${error.address}' does not support the API version '${error.version}'.`,
          StackTrace: '',
        } satisfies ErrorEnvelope,
      };
    case 'not-found':
      return {
        status: 404,
        headers,
        body: { Status: 0, Code: '404', ErrorCode: null, Message: error.message, StackTrace: '' } satisfies ErrorEnvelope,
      };
    case 'internal':
      return {
        status: 500,
        headers,
        body: { Status: 0, Code: '500', ErrorCode: null, Message: error.message, StackTrace: '' } satisfies ErrorEnvelope,
      };
    case 'busy': {
      const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds));
      return {
        status: 503,
        headers: { ...headers, 'retry-after': String(seconds) },
        body: {
          Status: 0,
          Code: '503',
          ErrorCode: null,
          Message: `The server is busy; retry after ${seconds} s.`,
          StackTrace: '',
        } satisfies ErrorEnvelope,
      };
    }
  }
}

/** The 400 for invalid parameters: every message, and the errors grouped by parameter (docs/reference.md §"Envelopes"). */
function validationResponse(errors: readonly ParameterError[], headers: Record<string, string>): ListResponse {
  const grouped: Record<string, [string, string][]> = {};
  for (const e of errors) {
    const list = Object.hasOwn(grouped, e.param) ? grouped[e.param]! : (grouped[e.param] = []);
    list.push([e.code, e.message]);
  }
  return {
    status: 400,
    headers,
    body: {
      Status: 3,
      Code: 'DataValidationError',
      ErrorCode: '',
      Message: errors.map((e) => `${e.param}: [${e.message}]`).join('\n'),
      StackTrace: '',
      ValidationErrors: grouped,
    } satisfies ErrorEnvelope,
  };
}

// Header values may not hold control characters or non-Latin-1 text.
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?');
}
