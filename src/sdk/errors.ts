/**
 * The errors the SDK client throws. Both extend `WepqlError`, so one
 * `instanceof` catches every wepql failure; `status` and the envelope
 * fields let callers branch on the envelopes of docs/reference.md §"Envelopes" (HTTP
 * status first, then `Code`, `ErrorCode`, `ValidationErrors`).
 */
import { WepqlError } from '../diagnostics/error.js';

/**
 * What a failed list call answered.
 *
 * @example
 * const details: ListRequestErrorDetails = { url, status: 400, body, code: 'DataValidationError' };
 */
export interface ListRequestErrorDetails {
  /** The request address (query included). */
  readonly url: string;
  /** The HTTP status; 0 when the response could not be used at all. */
  readonly status: number;
  /** The parsed JSON body, the raw text when it was not JSON, or undefined when empty. */
  readonly body: unknown;
  /** The body's `Code` (`BadRequest`, `DataValidationError`, `UnsupportedApiVersion`, `"500"`, …). */
  readonly code?: string;
  /** The body's `ErrorCode`. */
  readonly errorCode?: string | null;
  /** `ValidationErrors`: `[errorCode, message]` pairs by parameter name. */
  readonly validationErrors?: Readonly<Record<string, readonly (readonly [string, string])[]>>;
}

/**
 * A list call that failed: a non-2xx status (after the retries docs/reference.md
 * §"Paging clients" allows), or a 2xx answer that is not a list envelope.
 *
 * @example
 * try { await paginate<Employee>(fetch, { url, limit: 50 }).toArray(); }
 * catch (e) { if (e instanceof ListRequestError && e.status === 400) console.log(e.validationErrors); }
 */
export class ListRequestError extends WepqlError implements ListRequestErrorDetails {
  readonly url: string;
  readonly status: number;
  readonly body: unknown;
  readonly code?: string;
  readonly errorCode?: string | null;
  readonly validationErrors?: Readonly<Record<string, readonly (readonly [string, string])[]>>;

  constructor(message: string, details: ListRequestErrorDetails) {
    super(message, []);
    this.name = 'ListRequestError';
    this.url = details.url;
    this.status = details.status;
    this.body = details.body;
    if (details.code !== undefined) this.code = details.code;
    if (details.errorCode !== undefined) this.errorCode = details.errorCode;
    if (details.validationErrors !== undefined) this.validationErrors = details.validationErrors;
  }
}

/**
 * The data token was refused as expired (or, from a server that does not
 * say why, refused for an in-range page), and the caller chose
 * `onExpired: 'throw'` — or restarting did not help within `maxRestarts`.
 *
 * @example
 * for await (const e of paginate<Employee>(fetch, { url, onExpired: 'throw' })) {}
 * // throws DataTokenExpiredError { recordsYielded: 200, pageNo: 5, … } when a token expires
 */
export class DataTokenExpiredError extends ListRequestError {
  /** Records handed to the caller before the token was refused. */
  readonly recordsYielded: number;
  /** The page that was asked for with the refused token. */
  readonly pageNo: number;
  /** The server's reason, when it gives one (the reference server's `x-wepql-token-error` header). */
  readonly reason?: string;

  constructor(
    message: string,
    details: ListRequestErrorDetails & { readonly recordsYielded: number; readonly pageNo: number; readonly reason?: string },
  ) {
    super(message, details);
    this.name = 'DataTokenExpiredError';
    this.recordsYielded = details.recordsYielded;
    this.pageNo = details.pageNo;
    if (details.reason !== undefined) this.reason = details.reason;
  }
}

/**
 * Why paging stopped without reaching the end of the list.
 *
 * @example
 * const reason: PagingProblem = 'skip-ignored';
 */
export type PagingProblem =
  /** A skip page repeated the page before it: the server ignores `skip`. */
  | 'skip-ignored'
  /** The server handed back a `DataToken` already followed in this session. */
  | 'token-repeated'
  /** A page's records were the same as an earlier page's in this session. */
  | 'page-repeated'
  /** A full page came without the `Pagination` or `DataToken` needed to ask for the next one. */
  | 'no-next-page'
  /** More pages than `maxPages` were asked for. */
  | 'page-cap'
  /** One page took longer than `timeoutMs`. */
  | 'timeout';

/**
 * Paging stopped because continuing would loop, duplicate records, run past
 * the caller's cap, or wait forever — never a silent truncation.
 *
 * @example
 * try { await paginate<Employee>(fetch, { url, mode: 'skip' }).toArray(); }
 * catch (e) { if (e instanceof PagingError && e.problem === 'skip-ignored') useTokenPaging(); }
 */
export class PagingError extends WepqlError {
  /** What went wrong. */
  readonly problem: PagingProblem;
  /** The address of the request that showed the problem. */
  readonly url: string;
  /** Records handed to the caller before paging stopped. */
  readonly recordsYielded: number;

  constructor(message: string, details: { readonly problem: PagingProblem; readonly url: string; readonly recordsYielded: number }) {
    super(message, []);
    this.name = 'PagingError';
    this.problem = details.problem;
    this.url = details.url;
    this.recordsYielded = details.recordsYielded;
  }
}
