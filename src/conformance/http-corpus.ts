/**
 * The shapes of grammar/corpus/list-http.json: the list contract as
 * request sequences, each step with what the server must answer.
 */

/**
 * A parameter value: text, or the `Pagination.DataToken` an earlier step
 * of the same case received (steps count from 1), optionally tampered with.
 *
 * @example
 * const v: HttpValue = { dataTokenOf: 1, tamper: 'change-middle-character' };
 */
export type HttpValue = string | { readonly dataTokenOf: number; readonly tamper?: 'change-middle-character' };

/**
 * One request: query parameters and `x-api-*` (or other) headers, which
 * route, and whether to send the bearer token (default true).
 *
 * @example
 * const r: HttpRequest = { query: { limit: '5' }, headers: { 'x-api-sort': 'Id=Desc' } };
 */
export interface HttpRequest {
  readonly query?: Readonly<Record<string, HttpValue>>;
  readonly headers?: Readonly<Record<string, HttpValue>>;
  /** A route of `HttpCorpus.routes` other than `list`. */
  readonly route?: 'other-client' | 'unknown-client';
  readonly auth?: boolean;
}

/**
 * What the answer must be. Only the members present are checked.
 *
 * @example
 * const e: HttpExpect = { status: 200, pagination: { PageNo: 1, PageSize: 5, TotalRecords: 26, TotalPages: 6 }, ids: [1, 2, 3, 4, 5] };
 */
export interface HttpExpect {
  readonly status: number;
  /** The body's top-level keys (as a set). */
  readonly keys?: readonly string[];
  /** Exact values of top-level fields; `{url}` in a `Message` stands for the address the request was sent to. */
  readonly fields?: Readonly<Record<string, string | number | null>>;
  /** The `Pagination` numbers (and a non-empty `DataToken`), or null: no `Pagination` at all. */
  readonly pagination?: {
    readonly PageNo: number;
    readonly PageSize: number;
    readonly TotalRecords: number;
    readonly TotalPages: number;
  } | null;
  /** The `Id` of each record of `Data`, in order. */
  readonly ids?: readonly number[];
  /** `ValidationErrors`: its parameter names (in order) and the error code of each pair. */
  readonly validationErrors?: Readonly<Record<string, readonly string[]>>;
}

/**
 * One step of a case; `wait: 'token-ttl'` waits past the data token lifetime first.
 *
 * @example
 * const s: HttpStep = { request: { query: { limit: '5' } }, expect: { status: 200 } };
 */
export interface HttpStep {
  readonly wait?: 'token-ttl';
  readonly request: HttpRequest;
  readonly expect: HttpExpect;
}

/**
 * One case: a name, a family, tags a server may decline, and its steps.
 *
 * @example
 * const c: HttpCase = { name: 'first page', family: 'token-paging', tags: ['token-paging'], steps: [] };
 */
export interface HttpCase {
  readonly name: string;
  readonly family: string;
  readonly tags: readonly string[];
  readonly steps: readonly HttpStep[];
}

/**
 * grammar/corpus/list-http.json.
 *
 * @example
 * const { routes, cases } = readCorpusFile<HttpCorpus>('list-http.json');
 */
export interface HttpCorpus {
  readonly description: string;
  readonly dataset: string;
  /** The routes, relative to the API's base: the list under test, another client's list, an unknown client. */
  readonly routes: { readonly list: string; readonly 'other-client': string; readonly 'unknown-client': string };
  readonly cases: readonly HttpCase[];
}
