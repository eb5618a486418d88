/**
 * The retry rules of docs/reference.md §"Paging clients" for any
 * fetch-compatible function: on 401, obtain new credentials once and repeat;
 * on 500, repeat idempotent requests (GET, HEAD, PUT, DELETE) up to three
 * attempts in all with exponential backoff; never repeat POST or PATCH.
 * Only WHATWG globals are used, so it runs in browsers, Node, Deno and
 * workers alike.
 */
import { WepqlError } from '../diagnostics/error.js';

/**
 * The parts of a WHATWG `Response` the client reads.
 *
 * @example
 * const response: ResponseLike = await fetch(url);
 */
export interface ResponseLike {
  /** The HTTP status code. */
  readonly status: number;
  /** The response headers; only `get` is used. */
  readonly headers: {
    /** A header's value by case-insensitive name, or null when absent. */
    get(name: string): string | null;
  };
  /** Reads the whole body as text (the client parses the JSON itself). */
  text(): Promise<string>;
}

/**
 * The request options the client passes to `fetch`.
 *
 * @example
 * const init: FetchInit = { method: 'GET', headers: { accept: 'application/json' } };
 */
export interface FetchInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly signal?: AbortSignal;
}

/**
 * A `fetch`-compatible function: the global `fetch`, undici's, a test fake.
 *
 * @example
 * const fetchLike: FetchLike = (url, init) => fetch(url, init);
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<ResponseLike>;

/**
 * Headers as a record, a WHATWG `Headers`, or name/value pairs.
 *
 * @example
 * const headers: HeadersLike = new Headers({ 'x-request-id': '42' });
 */
export type HeadersLike =
  | Readonly<Record<string, string>>
  | {
      /** Calls back once per header, as WHATWG `Headers.forEach` does. */
      forEach(callback: (value: string, name: string) => void): void;
    }
  | Iterable<readonly [string, string]>;

/**
 * Credentials from `reauthenticate`: a bearer access token, or the headers to send.
 *
 * @example
 * const reauthenticate = async (): Promise<Credentials> => (await login()).accessToken;
 */
export type Credentials = string | HeadersLike;

/**
 * How 500 answers are retried.
 *
 * @example
 * const retry: RetryOptions = { attempts: 3, baseDelayMs: 200, sleep: async () => {} };
 */
export interface RetryOptions {
  /** Attempts in all, first included (docs/reference.md §"Paging clients"). Default 3; 1 turns retrying off. */
  readonly attempts?: number;
  /** Delay before the second attempt; each later one doubles it. Default 250 ms. */
  readonly baseDelayMs?: number;
  /** Waits `ms` milliseconds; inject a fake in tests. Default: `setTimeout`. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * The retry and re-authentication policy.
 *
 * @example
 * withRetries(fetch, { reauthenticate: renewToken, retry: { attempts: 3 } } satisfies RetryPolicyOptions);
 */
export interface RetryPolicyOptions {
  /**
   * Called once when a request answers 401; its credentials replace the
   * `authorization` header (a string means `Bearer <string>`) for that
   * request's repeat and every later request.
   */
  readonly reauthenticate?: () => Promise<Credentials>;
  readonly retry?: RetryOptions;
}

const IDEMPOTENT: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Headers of any accepted shape as a record with lower-case names; a string
 * is a bearer access token.
 *
 * @example
 * headersToRecord('abc');                       // { authorization: 'Bearer abc' }
 * headersToRecord(new Headers({ 'X-A': '1' })); // { 'x-a': '1' }
 */
export function headersToRecord(headers: Credentials | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (headers === undefined) return out;
  if (typeof headers === 'string') {
    out['authorization'] = `Bearer ${headers}`;
    return out;
  }
  if (typeof (headers as { forEach?: unknown }).forEach === 'function' && !Array.isArray(headers)) {
    (headers as { forEach(cb: (value: string, name: string) => void): void }).forEach((value, name) => {
      out[name.toLowerCase()] = value;
    });
    return out;
  }
  if (typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function') {
    for (const pair of headers as Iterable<readonly [string, string]>) out[String(pair[0]).toLowerCase()] = String(pair[1]);
    return out;
  }
  for (const name of Object.keys(headers)) out[name.toLowerCase()] = String((headers as Record<string, string>)[name]);
  return out;
}

interface ResolvedRetry {
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly sleep: (ms: number) => Promise<void>;
}

function resolveRetry(retry: RetryOptions | undefined): ResolvedRetry {
  const attempts = retry?.attempts ?? 3;
  const baseDelayMs = retry?.baseDelayMs ?? 250;
  if (!Number.isSafeInteger(attempts) || attempts < 1) {
    throw new WepqlError(`retry.attempts must be a whole number of at least 1, got ${String(attempts)}`, []);
  }
  if (!(baseDelayMs >= 0) || !Number.isFinite(baseDelayMs)) {
    throw new WepqlError(`retry.baseDelayMs must be a finite number of at least 0, got ${String(baseDelayMs)}`, []);
  }
  return { attempts, baseDelayMs, sleep: retry?.sleep ?? defaultSleep };
}

// Reading the body lets the connection be reused before the next attempt.
async function discard(response: ResponseLike): Promise<void> {
  try {
    await response.text();
  } catch {
    // The body is not needed; a failure to read it changes nothing.
  }
}

/**
 * Sends requests under the retry policy, remembering credentials obtained
 * by re-authentication for later requests. `send` performs one attempt with
 * the given extra headers.
 *
 * @example
 * const sender = new RetryingSender({ retry: { attempts: 3, baseDelayMs: 100 } });
 * const response = await sender.send('GET', (auth) => fetch(url, { headers: { ...base, ...auth } }));
 */
export class RetryingSender {
  readonly #reauthenticate: (() => Promise<Credentials>) | undefined;
  readonly #retry: ResolvedRetry;
  #auth: Record<string, string> = {};

  /** Resolves the policy; throws `WepqlError` for retry options out of range. */
  constructor(options: RetryPolicyOptions = {}) {
    this.#reauthenticate = options.reauthenticate;
    this.#retry = resolveRetry(options.retry);
  }

  /** Headers obtained by re-authentication so far (lower-case names). */
  get credentials(): Readonly<Record<string, string>> {
    return this.#auth;
  }

  /**
   * Runs `send` until it answers something other than a retryable 500 or
   * a first 401, and returns that answer; thrown errors (network failures,
   * aborts) pass through unretried.
   */
  async send(method: string, send: (auth: Readonly<Record<string, string>>) => Promise<ResponseLike>): Promise<ResponseLike> {
    const retryable = IDEMPOTENT.has(method.toUpperCase());
    let attempt = 1;
    let reauthenticated = false;
    for (;;) {
      const response = await send(this.#auth);
      if (response.status === 401 && this.#reauthenticate !== undefined && !reauthenticated) {
        reauthenticated = true;
        await discard(response);
        this.#auth = headersToRecord(await this.#reauthenticate());
        continue;
      }
      if (response.status === 500 && retryable && attempt < this.#retry.attempts) {
        await discard(response);
        await this.#retry.sleep(this.#retry.baseDelayMs * 2 ** (attempt - 1));
        attempt++;
        continue;
      }
      return response;
    }
  }
}

/**
 * Wraps a `fetch`-compatible function with the retry rules of docs/reference.md §"Paging
 * clients": a 401
 * calls `reauthenticate` once and repeats the request with the new
 * credentials (kept for later calls); a 500 on GET, HEAD, PUT or DELETE is
 * repeated up to `retry.attempts` attempts in all with exponential backoff.
 * POST and PATCH are never repeated, nor requests whose body is a stream
 * (it cannot be sent twice).
 *
 * @example
 * const api = withRetries(fetch, { reauthenticate: () => login(), retry: { attempts: 3, baseDelayMs: 200 } });
 * const response = await api('https://example.test/wep/companies', { headers: { authorization: `Bearer ${token}` } });
 */
export function withRetries<R extends ResponseLike>(
  fetchFn: (input: string, init: RequestInit) => Promise<R>,
  options: RetryPolicyOptions = {},
): (input: string | URL, init?: RequestInit) => Promise<R> {
  const sender = new RetryingSender(options);
  return async (input, init = {}) => {
    const method = (init.method ?? 'GET').toUpperCase();
    const replayable = init.body === undefined || init.body === null || typeof init.body === 'string' || !isStream(init.body);
    const base = headersToRecord(init.headers as HeadersLike | undefined);
    const url = String(input);
    const once = (auth: Readonly<Record<string, string>>): Promise<R> => fetchFn(url, { ...init, method, headers: { ...base, ...auth } });
    if (!replayable) return once(sender.credentials);
    return (await sender.send(method, once)) as R;
  };
}

function isStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && typeof (body as { getReader?: unknown }).getReader === 'function';
}
