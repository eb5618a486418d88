/**
 * Reading one answer of a list endpoint: the status, the body as JSON, the
 * token-error header; whether it is a list envelope; whether it refuses the
 * data token; and the `ListRequestError` that describes a failure.
 */
import type { ListRequestErrorDetails } from './errors.js';
import { ListRequestError } from './errors.js';
import type { ResponseLike } from './http.js';
import type { ListEnvelope, WirePagination } from '../wire/contract.js';
import { TOKEN_ERROR_HEADER, TOTAL_ESTIMATED, TOTAL_HEADER } from '../wire/contract.js';

/**
 * One answer, read in full.
 *
 * @example
 * const answer: Answer = await readAnswer(response, url);
 */
export interface Answer {
  readonly status: number;
  /** The body parsed as JSON, the raw text when it is not JSON, undefined when empty. */
  readonly body: unknown;
  /** The token-error header, or null. */
  readonly tokenError: string | null;
  /** True when the answer's `TotalRecords` is an estimate (`x-wepql-total: estimated`). */
  readonly totalEstimated: boolean;
  readonly url: string;
}

/**
 * A success envelope as received: any field may be missing or of the wrong type.
 *
 * @example
 * const envelope: ReceivedEnvelope = envelopeOf(answer);
 */
export interface ReceivedEnvelope {
  readonly Data: ListEnvelope['Data'];
  readonly Pagination?: { readonly [K in keyof WirePagination]?: unknown };
}

/**
 * A finite number, else undefined.
 *
 * @example
 * finiteNumber(envelope.Pagination?.TotalPages); // 4, or undefined when absent
 */
export function finiteNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * A string, else undefined.
 *
 * @example
 * stringValue(envelope.Pagination?.DataToken); // the token, or undefined when absent
 */
export function stringValue(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

// Own properties only: a body is untrusted input.
function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

/**
 * Reads a response in full.
 *
 * @example
 * const answer = await readAnswer(await fetch(url), url);
 */
export async function readAnswer(response: ResponseLike, url: string): Promise<Answer> {
  const text = await response.text();
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return {
    status: response.status,
    body,
    tokenError: response.headers.get(TOKEN_ERROR_HEADER),
    totalEstimated: response.headers.get(TOTAL_HEADER)?.trim().toLowerCase() === TOTAL_ESTIMATED,
    url,
  };
}

/**
 * The error fields of an answer.
 *
 * @example
 * detailsOf(answer).validationErrors?.limit; // [['outOfRangeError', '…']]
 */
export function detailsOf(answer: Answer): ListRequestErrorDetails {
  const code = stringValue(field(answer.body, 'Code'));
  const errorCode = field(answer.body, 'ErrorCode');
  const validation = field(answer.body, 'ValidationErrors');
  return {
    url: answer.url,
    status: answer.status,
    body: answer.body,
    ...(code === undefined ? {} : { code }),
    ...(typeof errorCode === 'string' || errorCode === null ? { errorCode } : {}),
    ...(typeof validation === 'object' && validation !== null
      ? { validationErrors: validation as Readonly<Record<string, readonly (readonly [string, string])[]>> }
      : {}),
  };
}

/**
 * The `ListRequestError` for an answer, with a message naming the request, status, `Code` and `Message`.
 *
 * @example
 * throw requestError(answer); // GET https://…/employees?limit=5 answered 400: DataValidationError: limit: […]
 */
export function requestError(answer: Answer, message?: string): ListRequestError {
  if (message === undefined) {
    const code = stringValue(field(answer.body, 'Code'));
    const text = stringValue(field(answer.body, 'Message'));
    const parts = [`GET ${answer.url} answered ${answer.status}`];
    if (code !== undefined) parts.push(code);
    if (text !== undefined && text !== '') parts.push(text);
    message = parts.join(': ');
  }
  return new ListRequestError(message, detailsOf(answer));
}

/**
 * The success envelope of an answer; throws `ListRequestError` for a
 * non-2xx status or a body without a `Data` array.
 *
 * @example
 * const records = envelopeOf(answer).Data;
 */
export function envelopeOf(answer: Answer): ReceivedEnvelope {
  if (answer.status < 200 || answer.status > 299) throw requestError(answer);
  if (!Array.isArray(field(answer.body, 'Data'))) {
    throw requestError(answer, `GET ${answer.url} answered ${answer.status} without a list envelope (no Data array)`);
  }
  const pagination = field(answer.body, 'Pagination');
  return {
    Data: field(answer.body, 'Data') as readonly unknown[],
    ...(typeof pagination === 'object' && pagination !== null ? { Pagination: pagination as ReceivedEnvelope['Pagination'] } : {}),
  };
}

/**
 * Whether a failed paging move means "the token is no good, start again".
 * The reference server says why in the token-error header; other servers
 * answer an expired token like a missing one — a `BadRequest` "Page Number
 * out of range" body, or a `DataValidationError` about the token — which,
 * for a page known to exist, can only mean the token was refused.
 *
 * @example
 * tokenRefusal(answer); // { refused: true, reason: 'expired' }
 */
export function tokenRefusal(answer: Answer): { readonly refused: boolean; readonly reason?: string } {
  if (answer.status !== 400) return { refused: false };
  if (answer.tokenError !== null) {
    const reason = answer.tokenError.split(':', 1)[0]!.trim();
    return { refused: reason === 'expired', reason };
  }
  const code = stringValue(field(answer.body, 'Code'));
  const message = stringValue(field(answer.body, 'Message')) ?? '';
  if (code === 'BadRequest' && /page number out of range/i.test(message)) return { refused: true };
  if (code === 'DataValidationError') {
    const errors = field(answer.body, 'ValidationErrors');
    if ((typeof errors === 'object' && errors !== null && Object.hasOwn(errors, 'data-token')) || /token/i.test(message)) {
      return { refused: true };
    }
  }
  return { refused: false };
}
