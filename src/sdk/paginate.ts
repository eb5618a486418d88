/**
 * The paging client (SPEC §11): an async iterator over the records of a
 * list endpoint, following `DataToken` with `next-page` (token paging) or
 * advancing `skip` (skip paging), restarting from page one when a token
 * expires, and retrying as the seed advises.
 */
import { WepqlError } from '../diagnostics/error.js';
import type { ListRequestErrorDetails } from './errors.js';
import { DataTokenExpiredError, ListRequestError } from './errors.js';
import type { Credentials, FetchLike, HeadersLike, ResponseLike, RetryOptions } from './http.js';
import { RetryingSender, headersToRecord } from './http.js';
import type { FilterInput, ListRequestParams, SortInput } from './request.js';
import { encodeListRequest } from './request.js';

/**
 * What `fetchPage` is given: the request's parameters and the headers to send with them.
 *
 * @example
 * const context: PageRequestContext = { headers: { accept: 'application/json' } };
 */
export interface PageRequestContext {
  /** `accept`, the version headers, credentials and the caller's headers (lower-case names). */
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/**
 * A transport of one's own (axios, a test double, a non-HTTP source): it
 * sends one list request — typically with `encodeListRequest` — and returns
 * the answer as a Response-like object.
 *
 * @example
 * const source: PageSource = {
 *   fetchPage: (request, { headers }) => fetch(`${url}?${encodeListRequest(request).search}`, { headers }),
 * };
 */
export interface PageSource {
  /** Sends one list request and answers with the raw response; retries and paging are the client's. */
  fetchPage(request: ListRequestParams, context: PageRequestContext): Promise<ResponseLike>;
}

/**
 * Options of `paginate`.
 *
 * @example
 * const options: PaginateOptions = { url, limit: 200, mode: 'skip', retry: { attempts: 3 } };
 */
export interface PaginateOptions {
  /** The list endpoint, e.g. `https://host/api/public/clients/42/employees`. Required with a fetch function. */
  readonly url?: string | URL;
  readonly filter?: FilterInput;
  readonly sort?: SortInput;
  /** Page size. Default 100. */
  readonly limit?: number;
  /** `token` (default): follow `DataToken` with `next-page`. `skip`: advance `skip` until a short page. */
  readonly mode?: 'token' | 'skip';
  readonly includeDeleted?: boolean;
  /** Send the list parameters as query parameters (default) or as `x-api-*` headers. */
  readonly style?: 'query' | 'headers';
  /** Extra headers for every request. */
  readonly headers?: HeadersLike;
  /** Sent as `authorization: Bearer <accessToken>`. */
  readonly accessToken?: string;
  /** Sent as `api-version` and `x-api-version`. Default `1.0`; `null` sends neither. */
  readonly apiVersion?: string | null;
  /**
   * When the server refuses a data token as expired: `restart` (default)
   * starts again from page one and skips the records already yielded (by
   * count); `throw` throws `DataTokenExpiredError`.
   */
  readonly onExpired?: 'restart' | 'throw';
  /** Restarts allowed in one iteration before `DataTokenExpiredError` is thrown anyway. Default 3. */
  readonly maxRestarts?: number;
  /** Called once per request that answers 401; see `withRetries`. */
  readonly reauthenticate?: () => Promise<Credentials>;
  /** How 500 answers are retried (GET requests: all of paging). */
  readonly retry?: RetryOptions;
  readonly signal?: AbortSignal;
}

/**
 * One page as it was received (records already yielded before a restart are left out).
 *
 * @example
 * for await (const page of paginate<Employee>(fetch, { url }).pages()) console.log(page.pageNo, page.records.length);
 */
export interface ListPage<T> {
  readonly records: readonly T[];
  /** `PageNo` in token paging; the 1-based position `skip / limit + 1` in skip paging. */
  readonly pageNo: number;
  readonly pageSize: number;
  /** From `Pagination` (token paging only). */
  readonly totalRecords?: number;
  readonly totalPages?: number;
  /** The `skip` sent (skip paging only). */
  readonly skip?: number;
  /** True for the first page after a restart caused by an expired token. */
  readonly restarted: boolean;
}

/**
 * What `paginate` returns: iterate for records, `pages()` for pages, `toArray()` for everything.
 *
 * @example
 * const all: Employee[] = await paginate<Employee>(fetch, { url }).toArray();
 */
export interface Paginated<T> extends AsyncIterable<T> {
  /** Iterates page by page; each iteration starts a fresh browsing session. */
  pages(): AsyncIterable<ListPage<T>>;
  /** Collects every record. */
  toArray(): Promise<T[]>;
}

interface Envelope {
  readonly Data: readonly unknown[];
  readonly Pagination?: {
    readonly PageNo?: unknown;
    readonly PageSize?: unknown;
    readonly TotalRecords?: unknown;
    readonly TotalPages?: unknown;
    readonly DataToken?: unknown;
  };
}

interface Received {
  readonly status: number;
  readonly body: unknown;
  readonly tokenError: string | null;
  readonly url: string;
}

/** The reference server's header naming why a token was refused (src/list/envelope.ts). */
const TOKEN_ERROR_HEADER = 'x-wepql-token-error';

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null && Object.hasOwn(body, name) ? (body as Record<string, unknown>)[name] : undefined;
}

function describeFailure(r: Received): string {
  const code = str(field(r.body, 'Code'));
  const message = str(field(r.body, 'Message'));
  const parts = [`GET ${r.url} answered ${r.status}`];
  if (code !== undefined) parts.push(code);
  if (message !== undefined && message !== '') parts.push(message);
  return parts.join(': ');
}

function detailsOf(r: Received): ListRequestErrorDetails {
  const code = str(field(r.body, 'Code'));
  const errorCode = field(r.body, 'ErrorCode');
  const validation = field(r.body, 'ValidationErrors');
  return {
    url: r.url,
    status: r.status,
    body: r.body,
    ...(code === undefined ? {} : { code }),
    ...(typeof errorCode === 'string' || errorCode === null ? { errorCode } : {}),
    ...(typeof validation === 'object' && validation !== null
      ? { validationErrors: validation as Readonly<Record<string, readonly (readonly [string, string])[]>> }
      : {}),
  };
}

function requestError(r: Received, message = describeFailure(r)): ListRequestError {
  return new ListRequestError(message, detailsOf(r));
}

function envelopeOf(r: Received): Envelope {
  if (r.status < 200 || r.status > 299) throw requestError(r);
  if (!Array.isArray(field(r.body, 'Data'))) {
    throw requestError(r, `GET ${r.url} answered ${r.status} without a list envelope (no Data array)`);
  }
  return r.body as Envelope;
}

/**
 * Whether a failed paging move means "the token is no good, start again".
 * The reference server says why in a header; other servers answer an
 * expired token like a missing one — the seed's `BadRequest` "Page Number
 * out of range" body, or a `DataValidationError` about the token — which,
 * for a page known to exist, can only mean the token was refused.
 */
function tokenRefusal(r: Received): { readonly refused: boolean; readonly reason?: string } {
  if (r.status !== 400) return { refused: false };
  if (r.tokenError !== null) {
    const reason = r.tokenError.split(':', 1)[0]!.trim();
    return { refused: reason === 'expired', reason };
  }
  const code = str(field(r.body, 'Code'));
  const message = str(field(r.body, 'Message')) ?? '';
  if (code === 'BadRequest' && /page number out of range/i.test(message)) return { refused: true };
  if (code === 'DataValidationError') {
    const errors = field(r.body, 'ValidationErrors');
    if ((typeof errors === 'object' && errors !== null && Object.hasOwn(errors, 'data-token')) || /token/i.test(message)) {
      return { refused: true };
    }
  }
  return { refused: false };
}

async function receive(response: ResponseLike, url: string): Promise<Received> {
  const text = await response.text();
  let body: unknown;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  return { status: response.status, body, tokenError: response.headers.get(TOKEN_ERROR_HEADER), url };
}

// A relative address resolves against the page's location in a browser.
function absoluteUrl(url: string | URL): URL {
  try {
    return new URL(String(url));
  } catch {
    const here = (globalThis as { location?: { href?: string } }).location?.href;
    if (here !== undefined) return new URL(String(url), here);
    throw new WepqlError(`paginate: url must be an absolute address, got ${JSON.stringify(String(url))}`, []);
  }
}

function positiveInteger(name: string, value: number, min: number): number {
  if (!Number.isSafeInteger(value) || value < min) {
    throw new WepqlError(`paginate: ${name} must be a whole number of at least ${min}, got ${String(value)}`, []);
  }
  return value;
}

/**
 * Iterates over every record of a list endpoint. Pass the global `fetch` (or
 * any fetch-compatible function) with `url`, or a `PageSource` for a
 * transport of your own. Token paging follows `DataToken` with `next-page`
 * until `PageNo` reaches `TotalPages`; skip paging sends `skip` from 0 until
 * a page is shorter than `limit`. A refused-as-expired token restarts from
 * page one, jumps to the page holding the first record not yet yielded and
 * carries on (or throws, with `onExpired: 'throw'`). A 401 calls
 * `reauthenticate` once and repeats; a 500 is retried with exponential
 * backoff. Other failures throw `ListRequestError`. Nothing is sent until
 * iteration starts, and each iteration is a new session.
 *
 * @example
 * const employees = paginate<Employee>(fetch, {
 *   url: 'https://api.example.com/api/public/clients/42/employees',
 *   accessToken: token,
 *   filter: where<Employee>().field('LastName').startsWith('Sm'),
 *   sort: orderBy<Employee>('LastName').thenBy('Id'),
 *   limit: 200,
 *   reauthenticate: async () => (await login()).accessToken,
 * });
 * for await (const employee of employees) console.log(employee.LastName);
 */
export function paginate<T = unknown>(source: FetchLike | PageSource, options: PaginateOptions = {}): Paginated<T> {
  const limit = positiveInteger('limit', options.limit ?? 100, 1);
  const maxRestarts = positiveInteger('maxRestarts', options.maxRestarts ?? 3, 0);
  const mode = options.mode ?? 'token';
  if (mode !== 'token' && mode !== 'skip') throw new WepqlError(`paginate: mode must be 'token' or 'skip', got ${String(mode)}`, []);
  const onExpired = options.onExpired ?? 'restart';
  const style = options.style ?? 'query';
  let fetchPage: PageSource['fetchPage'];
  if (typeof source === 'function') {
    if (options.url === undefined) throw new WepqlError('paginate: url is required when a fetch function is given', []);
    const base = absoluteUrl(options.url);
    fetchPage = (request, context) => {
      const encoded = encodeListRequest(request, { style });
      const url = new URL(base);
      for (const [name, value] of encoded.search) url.searchParams.set(name, value);
      return source(url.toString(), {
        method: 'GET',
        headers: { ...context.headers, ...encoded.headers },
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
    };
  } else if (typeof source === 'object' && source !== null && typeof source.fetchPage === 'function') {
    fetchPage = (request, context) => source.fetchPage(request, context);
  } else {
    throw new WepqlError('paginate: the source must be a fetch-compatible function or an object with fetchPage', []);
  }

  const staticHeaders: Record<string, string> = { accept: 'application/json' };
  const version = options.apiVersion === undefined ? '1.0' : options.apiVersion;
  if (version !== null) {
    staticHeaders['api-version'] = version;
    staticHeaders['x-api-version'] = version;
  }
  if (options.accessToken !== undefined) staticHeaders['authorization'] = `Bearer ${options.accessToken}`;
  Object.assign(staticHeaders, headersToRecord(options.headers));
  const endpoint = options.url === undefined ? 'the list endpoint' : String(options.url);
  const query: ListRequestParams = {
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    ...(options.sort === undefined ? {} : { sort: options.sort }),
    ...(options.includeDeleted === undefined ? {} : { includeDeleted: options.includeDeleted }),
    limit,
  };
  // Encode once up front so a bad filter or sort fails at the call, not mid-iteration.
  encodeListRequest(query, { style });

  const urlFor = (request: ListRequestParams): string => {
    if (options.url === undefined) return endpoint;
    const url = absoluteUrl(options.url);
    for (const [name, value] of encodeListRequest(request, { style }).search) url.searchParams.set(name, value);
    return url.toString();
  };

  async function* pages(): AsyncGenerator<ListPage<T>, void, undefined> {
    const sender = new RetryingSender({
      ...(options.reauthenticate === undefined ? {} : { reauthenticate: options.reauthenticate }),
      ...(options.retry === undefined ? {} : { retry: options.retry }),
    });
    const get = async (request: ListRequestParams): Promise<Received> => {
      options.signal?.throwIfAborted();
      const response = await sender.send('GET', (auth) =>
        fetchPage(request, {
          headers: { ...staticHeaders, ...auth },
          ...(options.signal === undefined ? {} : { signal: options.signal }),
        }),
      );
      return receive(response, urlFor(request));
    };

    if (mode === 'skip') {
      for (let skip = 0; ; skip += limit) {
        const records = envelopeOf(await get({ ...query, skip })).Data as readonly T[];
        if (records.length > 0) {
          yield { records, pageNo: Math.floor(skip / limit) + 1, pageSize: limit, skip, restarted: false };
        }
        if (records.length < limit) return;
      }
    }

    let yielded = 0;
    let restarts = 0;
    let restarted = false;
    let token: string | undefined;
    let pageNo = 0;
    // True when the answer refused the token and a restart is due; throws when
    // the caller chose 'throw' or the restarts are used up.
    const refused = (r: Received, requested: number): boolean => {
      const refusal = tokenRefusal(r);
      if (!refusal.refused) return false;
      if (onExpired === 'throw' || restarts >= maxRestarts) {
        const after = onExpired === 'throw' ? '' : ` after ${restarts} restart${restarts === 1 ? '' : 's'}`;
        throw new DataTokenExpiredError(
          `the data token was refused${refusal.reason === undefined ? '' : ` (${refusal.reason})`} asking for page ${requested} of ${endpoint}${after}; ${yielded} records had been yielded`,
          {
            ...detailsOf(r),
            recordsYielded: yielded,
            pageNo: requested,
            ...(refusal.reason === undefined ? {} : { reason: refusal.reason }),
          },
        );
      }
      restarts++;
      restarted = true;
      token = undefined;
      return true;
    };

    for (;;) {
      let requested: number;
      let received: Received;
      if (token === undefined) {
        requested = 1;
        received = await get(query);
      } else {
        requested = pageNo + 1;
        received = await get({ dataToken: token, page: 'next' });
        if (refused(received, requested)) continue;
      }
      let envelope = envelopeOf(received);
      let alreadyYielded = 0;
      if (restarted) {
        // Resume after a restart by jumping straight to the page that holds
        // the first record not yet yielded, rather than walking every page before it.
        const size = num(envelope.Pagination?.PageSize) ?? limit;
        const target = Math.floor(yielded / size) + 1;
        const total = num(envelope.Pagination?.TotalPages);
        const firstToken = str(envelope.Pagination?.DataToken);
        if (target > 1 && total !== undefined && target > total) return; // The list shrank below what was yielded.
        if (target > 1 && firstToken !== undefined) {
          requested = target;
          received = await get({ dataToken: firstToken, page: target });
          if (refused(received, target)) continue;
          envelope = envelopeOf(received);
          alreadyYielded = yielded - (target - 1) * size;
        } else {
          alreadyYielded = yielded;
        }
      }
      const p = envelope.Pagination;
      const pageSize = num(p?.PageSize) ?? limit;
      const totalPages = num(p?.TotalPages);
      const totalRecords = num(p?.TotalRecords);
      pageNo = num(p?.PageNo) ?? requested;
      if (pageNo !== requested) {
        throw requestError(received, `GET ${received.url} answered page ${pageNo} when page ${requested} was asked for`);
      }
      token = str(p?.DataToken);
      const records = (alreadyYielded > 0 ? envelope.Data.slice(alreadyYielded) : envelope.Data) as readonly T[];
      if (records.length > 0) {
        yield {
          records,
          pageNo,
          pageSize,
          ...(totalRecords === undefined ? {} : { totalRecords }),
          ...(totalPages === undefined ? {} : { totalPages }),
          restarted,
        };
        yielded += records.length;
      }
      restarted = false;
      if (token === undefined || totalPages === undefined || pageNo >= totalPages || envelope.Data.length === 0) return;
    }
  }

  return {
    pages: () => ({ [Symbol.asyncIterator]: () => pages() }),
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.records;
    },
    async toArray() {
      const all: T[] = [];
      for await (const page of pages()) all.push(...page.records);
      return all;
    },
  };
}
