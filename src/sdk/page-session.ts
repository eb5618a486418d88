/**
 * One browsing session of `paginate`: how to ask for a page, and the little
 * state that proves paging makes progress — records yielded, restarts,
 * pages asked for, the tokens followed and the pages seen. Token paging and
 * skip paging (`token-pages.ts`, `skip-pages.ts`) move it forward through
 * its methods; the counts are read-only outside it.
 */
import { PagingError } from './errors.js';
import type { PagingProblem } from './errors.js';
import type { Answer } from './page-answer.js';
import type { ListRequestParams } from './request.js';

/**
 * What a session is built from: the transport (retries included) and the limits.
 *
 * @example
 * const config: SessionConfig = { send, urlFor, query: { limit: 100 }, limit: 100, maxPages: Infinity, timeoutMs: 30_000 };
 */
export interface SessionConfig {
  /** Sends one request (retries included) and reads its answer; the signal ends it early. */
  readonly send: (request: ListRequestParams, signal: AbortSignal) => Promise<Answer>;
  /** The address of a request, for messages. */
  readonly urlFor: (request: ListRequestParams) => string;
  /** The first page's parameters (filter, sort, limit, include-deleted). */
  readonly query: ListRequestParams;
  readonly limit: number;
  readonly maxPages: number;
  readonly timeoutMs: number;
  readonly onExpired: 'restart' | 'throw';
  readonly maxRestarts: number;
  readonly endpoint: string;
  readonly signal?: AbortSignal;
}

/**
 * The state of one iteration.
 *
 * @example
 * const session = new PageSession(config);
 * const answer = await session.get({ ...config.query, skip: 0 });
 */
export class PageSession {
  readonly config: SessionConfig;
  #yielded = 0;
  #restarts = 0;
  #requests = 0;
  readonly #tokens = new Set<string>();
  readonly #pages = new Set<string>();

  constructor(config: SessionConfig) {
    this.config = config;
  }

  /** Records handed to the caller. */
  get yielded(): number {
    return this.#yielded;
  }

  /** Restarts after a refused token. */
  get restarts(): number {
    return this.#restarts;
  }

  /** Requests sent (the page cap counts these). */
  get requests(): number {
    return this.#requests;
  }

  /** Counts records handed to the caller; only ever forward. */
  yieldRecords(count: number): void {
    if (!(Number.isSafeInteger(count) && count >= 0)) throw new RangeError(`yieldRecords: ${count} is not a record count`);
    this.#yielded += count;
  }

  /** Sends one request under the page cap and the timeout. */
  async get(request: ListRequestParams): Promise<Answer> {
    const { signal, timeoutMs, maxPages } = this.config;
    signal?.throwIfAborted();
    if (this.#requests >= maxPages) {
      this.fail('page-cap', request, `paging ${this.config.endpoint} would ask for more than maxPages (${maxPages}) pages`);
    }
    this.#requests++;
    return withTimeout(
      timeoutMs,
      signal,
      (inner) => this.config.send(request, inner),
      () => this.error('timeout', request, `GET ${this.config.urlFor(request)} did not answer within ${timeoutMs} ms (timeoutMs)`),
    );
  }

  /** Records a token about to be followed; a token followed before means the server is going round in circles. */
  follow(token: string, request: ListRequestParams): void {
    if (this.#tokens.has(token)) {
      this.fail(
        'token-repeated',
        request,
        `${this.config.endpoint} handed back a DataToken already followed in this session; stopping rather than yielding the same records again`,
      );
    }
    this.#tokens.add(token);
  }

  /** Records a page's `fingerprint`; the same records as an earlier page mean no progress. */
  see(print: string, request: ListRequestParams, pageNo: number): void {
    if (this.#pages.has(print)) {
      this.fail(
        'page-repeated',
        request,
        `page ${pageNo} of ${this.config.endpoint} holds the same records as an earlier page; stopping rather than yielding them again`,
      );
    }
    this.#pages.add(print);
  }

  /** Forgets tokens and pages: after a restart, the first pages are read again on purpose. */
  restart(): void {
    this.#restarts++;
    this.#tokens.clear();
    this.#pages.clear();
  }

  /** Throws `PagingError`. */
  fail(problem: PagingProblem, request: ListRequestParams, message: string): never {
    throw this.error(problem, request, message);
  }

  private error(problem: PagingProblem, request: ListRequestParams, message: string): PagingError {
    return new PagingError(`paginate: ${message}; ${this.#yielded} records had been yielded`, {
      problem,
      url: this.config.urlFor(request),
      recordsYielded: this.#yielded,
    });
  }
}

/**
 * A compact fingerprint of a page's records: two 32-bit FNV-1a hashes of
 * its JSON, so a session remembers pages without keeping them.
 *
 * @example
 * fingerprint([{ Id: 1 }]) === fingerprint([{ Id: 1 }]); // true
 */
export function fingerprint(records: readonly unknown[]): string {
  const text = JSON.stringify(records);
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return `${text.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
}

// setTimeout holds at most a signed 32-bit delay; longer ones fire at once.
const MAX_TIMER = 2 ** 31 - 1;

/**
 * Runs `work` with a signal that aborts when `outer` does or after
 * `timeoutMs`; a timeout rejects with `timedOut()` even when `work` ignores
 * the signal. `Infinity` waits as long as it takes.
 *
 * @example
 * await withTimeout(5000, undefined, (signal) => fetch(url, { signal }), () => new Error('too slow'));
 */
export async function withTimeout<R>(
  timeoutMs: number,
  outer: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<R>,
  timedOut: () => Error,
): Promise<R> {
  const controller = new AbortController();
  const forward = (): void => controller.abort(outer!.reason);
  outer?.addEventListener('abort', forward, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expiry =
    timeoutMs > MAX_TIMER
      ? undefined
      : new Promise<never>((_, reject) => {
          timer = setTimeout(() => {
            const error = timedOut();
            controller.abort(error);
            reject(error);
          }, timeoutMs);
        });
  try {
    const running = work(controller.signal);
    return await (expiry === undefined ? running : Promise.race([running, expiry]));
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
}
