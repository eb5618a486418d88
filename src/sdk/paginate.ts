/**
 * The paging client: an async iterator over the records of a list
 * endpoint. This module checks the options and wires the transport; a
 * `PageSession` holds the state of one iteration, and `token-pages.ts` and
 * `skip-pages.ts` move it forward.
 */
import { WepqlError } from '../diagnostics/error.js';
import type { Credentials, FetchLike, HeadersLike, ResponseLike, RetryOptions } from './http.js';
import { RetryingSender, headersToRecord } from './http.js';
import { readAnswer } from './page-answer.js';
import { PageSession } from './page-session.js';
import type { SessionConfig } from './page-session.js';
import type { FilterInput, ListRequestParams, SortInput } from './request.js';
import { encodeListRequest } from './request.js';
import { skipPages } from './skip-pages.js';
import { tokenPages } from './token-pages.js';
import { DEFAULT_API_VERSION, VERSION_HEADERS } from '../wire/contract.js';

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
  /**
   * How long one page may take, retries included, before paging stops with
   * `PagingError` (`timeout`). Default 30,000 ms; `Infinity` waits as long as it takes.
   */
  readonly timeoutMs?: number;
  /** Requests one iteration may send before it stops with `PagingError` (`page-cap`). Default: no cap. */
  readonly maxPages?: number;
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
  /**
   * True when `totalRecords` and `totalPages` are the server's estimate
   * (`x-wepql-total: estimated`): the walk then goes on while pages are
   * full, past `totalPages` if need be, and ends at a short or empty page.
   */
  readonly totalEstimated?: boolean;
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
 * a page is shorter than `limit`. Paging never loops and never truncates
 * silently: a repeated `DataToken`, a page seen before, a skip page that
 * repeats the previous one (a server that ignores `skip`), a missing way to
 * the next page, more than `maxPages` requests or a page slower than
 * `timeoutMs` (default 30 s) stop it with `PagingError`. Without
 * `TotalPages`, a full page asks for the next and a short one ends the list.
 * A refused-as-expired token restarts from
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
  const settings = pagingSettings(options);
  const fetchPage = pageFetcher(source, options.url, settings.style);
  const headers = staticHeaders(options);
  const endpoint = options.url === undefined ? 'the list endpoint' : String(options.url);
  const query: ListRequestParams = {
    ...(options.filter === undefined ? {} : { filter: options.filter }),
    ...(options.sort === undefined ? {} : { sort: options.sort }),
    ...(options.includeDeleted === undefined ? {} : { includeDeleted: options.includeDeleted }),
    limit: settings.limit,
  };
  // Encode once up front so a bad filter or sort fails at the call, not mid-iteration.
  encodeListRequest(query, { style: settings.style });
  const { limit, maxPages, timeoutMs, onExpired, maxRestarts } = settings;
  const limits: SessionLimits = {
    urlFor: requestUrl(options, endpoint, settings.style),
    query,
    limit,
    maxPages,
    timeoutMs,
    onExpired,
    maxRestarts,
    endpoint,
  };
  return pagedResult<T>(settings.mode, () => newSession(limits, fetchPage, headers, options));
}

/** The options that shape paging, checked and with their defaults filled in. */
interface PagingSettings {
  readonly limit: number;
  readonly maxRestarts: number;
  readonly mode: 'token' | 'skip';
  readonly onExpired: 'restart' | 'throw';
  readonly style: 'query' | 'headers';
  readonly timeoutMs: number;
  readonly maxPages: number;
}

/** Checks the numbers and the mode of `options` (in this order: the first wrong one is the one reported). */
function pagingSettings(options: PaginateOptions): PagingSettings {
  const limit = positiveInteger('limit', options.limit ?? 100, 1);
  const maxRestarts = positiveInteger('maxRestarts', options.maxRestarts ?? 3, 0);
  const mode = options.mode ?? 'token';
  if (mode !== 'token' && mode !== 'skip') throw new WepqlError(`paginate: mode must be 'token' or 'skip', got ${String(mode)}`, []);
  const onExpired = options.onExpired ?? 'restart';
  const style = options.style ?? 'query';
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0)) {
    throw new WepqlError(`paginate: timeoutMs must be a number of milliseconds above 0 (or Infinity), got ${String(timeoutMs)}`, []);
  }
  const maxPages = options.maxPages === undefined ? Infinity : positiveInteger('maxPages', options.maxPages, 1);
  return { limit, maxRestarts, mode, onExpired, style, timeoutMs, maxPages };
}

/**
 * How one page is asked for: a fetch function sends a GET to `url` with the
 * request encoded in `style`; a `PageSource` is called as it is.
 */
function pageFetcher(
  source: FetchLike | PageSource,
  url: string | URL | undefined,
  style: PagingSettings['style'],
): PageSource['fetchPage'] {
  if (typeof source === 'function') {
    if (url === undefined) throw new WepqlError('paginate: url is required when a fetch function is given', []);
    const base = absoluteUrl(url);
    return (request, context) => {
      const encoded = encodeListRequest(request, { style });
      const address = new URL(base);
      for (const [name, value] of encoded.search) address.searchParams.set(name, value);
      return source(address.toString(), {
        method: 'GET',
        headers: { ...context.headers, ...encoded.headers },
        ...(context.signal === undefined ? {} : { signal: context.signal }),
      });
    };
  }
  if (typeof source === 'object' && source !== null && typeof source.fetchPage === 'function') {
    return (request, context) => source.fetchPage(request, context);
  }
  throw new WepqlError('paginate: the source must be a fetch-compatible function or an object with fetchPage', []);
}

/** The headers of every request: `accept`, the version headers, the bearer token, then the caller's own (which win). */
function staticHeaders(options: PaginateOptions): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const version = options.apiVersion === undefined ? DEFAULT_API_VERSION : options.apiVersion;
  if (version !== null) for (const name of VERSION_HEADERS) headers[name] = version;
  if (options.accessToken !== undefined) headers['authorization'] = `Bearer ${options.accessToken}`;
  return Object.assign(headers, headersToRecord(options.headers));
}

/** The address of a request, for messages; without a `url` (a `PageSource`), the endpoint's name. */
function requestUrl(options: PaginateOptions, endpoint: string, style: PagingSettings['style']): (request: ListRequestParams) => string {
  return (request) => {
    if (options.url === undefined) return endpoint;
    const address = absoluteUrl(options.url);
    for (const [name, value] of encodeListRequest(request, { style }).search) address.searchParams.set(name, value);
    return address.toString();
  };
}

/** A session's configuration but for its transport and signal: the same for every iteration. */
type SessionLimits = Omit<SessionConfig, 'send' | 'signal'>;

/** One iteration's session, with a sender of its own (credentials from re-authentication last one iteration). */
function newSession(
  limits: SessionLimits,
  fetchPage: PageSource['fetchPage'],
  headers: Readonly<Record<string, string>>,
  options: PaginateOptions,
): PageSession {
  const sender = new RetryingSender({
    ...(options.reauthenticate === undefined ? {} : { reauthenticate: options.reauthenticate }),
    ...(options.retry === undefined ? {} : { retry: options.retry }),
  });
  const send: SessionConfig['send'] = async (request, signal) => {
    const response = await sender.send('GET', (auth) => fetchPage(request, { headers: { ...headers, ...auth }, signal }));
    return readAnswer(response, limits.urlFor(request));
  };
  return new PageSession({ send, ...limits, ...(options.signal === undefined ? {} : { signal: options.signal }) });
}

/** What `paginate` hands back: each iteration (of records, of pages, or `toArray`) starts a fresh session. */
function pagedResult<T>(mode: PagingSettings['mode'], session: () => PageSession): Paginated<T> {
  const pages = <R>(): AsyncGenerator<ListPage<R>, void, undefined> =>
    mode === 'skip' ? skipPages<R>(session()) : tokenPages<R>(session());
  return {
    pages: () => ({ [Symbol.asyncIterator]: () => pages<T>() }),
    async *[Symbol.asyncIterator]() {
      for await (const page of pages<T>()) yield* page.records;
    },
    async toArray() {
      // One push per record: spreading a page into push() overflows the stack on large pages.
      const all: T[] = [];
      for await (const page of pages<T>()) for (const record of page.records) all.push(record);
      return all;
    },
  };
}
