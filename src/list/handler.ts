/**
 * `handleListRequest`: the whole list contract (docs/reference.md §"The list contract") behind one
 * framework-neutral function. Give it the request's query and headers (or a
 * fetch `Request`), a data source, a schema and a token codec; send back the
 * `{ status, headers, body }` it returns.
 */
import type { Limits } from '../diagnostics/limits.js';
import type { Policy } from '../policy/policy.js';
import type { Schema } from '../schema/schema.js';
import type { TypedSort } from '../ast/typed-tree.js';
import { WepqlError } from '../diagnostics/error.js';
import type { ScalarType } from '../ast/operators.js';
import type { SeekValue } from '../sql/seek.js';
import type { Admission, RequestTicket, StatementClass } from './admission.js';
import { BusyError } from './busy.js';
import type { CountStrategy } from './count-strategy.js';
import { countTotal } from './count-strategy.js';
import type { DataQuery, DataSource, KeyedPage, SeekWindow } from './data-source.js';
import type { ListError, ListResponse, ParameterError } from './envelope.js';
import { errorResponse, listResponse } from './envelope.js';
import type { ListRequest, ListRequestInput } from './request.js';
import { NO_TOKEN_RANGE, analyzeListQuery, parseListRequest, readWholeNumber, requestParts } from './request.js';
import type { DataTokenPayload, TokenCodec, VerifiedDataToken } from './token.js';
import { checkApiVersion } from './version.js';
import { TOTAL_HEADER, TOTAL_ESTIMATED } from '../wire/contract.js';

/**
 * Options of `handleListRequest`.
 *
 * @example
 * const options: ListHandlerOptions = { source, schema: employeeSchema, codec, route: '/api/public/clients/1/employees', clientId: 1 };
 */
export interface ListHandlerOptions {
  readonly source: DataSource;
  readonly schema: Schema;
  readonly codec: TokenCodec;
  /** The list's identity tokens are bound to: endpoint and client, such as `/api/public/clients/1/employees`. */
  readonly route: string;
  /** The client id passed to the data source (from the route). */
  readonly clientId?: string | number;
  /** Largest page size; default 1,000. */
  readonly maxLimit?: number;
  /** Limits for filter and sort analysis. */
  readonly limits?: Partial<Limits>;
  /** The endpoint's policy (`definePolicy`, defined against `schema`): refusals are 400 `ValidationErrors`. */
  readonly policy?: Policy;
  /** Accepted `api-version` / `x-api-version` values (default `['1.0']`); `false` skips the check. */
  readonly apiVersions?: readonly string[] | false;
  /** Called with an error the data source threw; the client gets a bare 500 envelope. */
  readonly onError?: (error: unknown) => void;
  /**
   * The queue, deadlines and single-flight in front of the source
   * (`createAdmission`), shared by every request of a server; the framework
   * adapters and the reference server make one. Without it, statements run
   * as they arrive, with no deadline.
   */
  readonly admission?: Admission;
  /** Aborted when the client goes away: the request's statements and lane work are cancelled. */
  readonly signal?: AbortSignal;
  /**
   * How a first page's `TotalRecords` is found: `'exact'` (the default), or
   * `{ estimateAbove, cacheTtlMs }` (docs/server.md, "Counting"). A total that
   * is not exact is answered with `x-wepql-total: estimated` on every page of its walk.
   * Pass the same object to every request: the cache of totals belongs to it.
   */
  readonly count?: CountStrategy;
}

/**
 * Serves one list request: version check, parameter checks, then the first
 * page (counting once and issuing a token), a token move (next, previous or
 * a page number, with filter, sort and totals from the token) or a skip
 * page (no `Pagination`). Never throws: a failing data source becomes a 500
 * envelope and is reported to `onError`.
 *
 * @example
 * const response = await handleListRequest({ query: req.query, headers: req.headers, url: req.url }, {
 *   source, schema: employeeSchema, codec, route: `/api/public/clients/${id}/employees`, clientId: id,
 * });
 * res.status(response.status).set(response.headers).send(JSON.stringify(response.body));
 */
export async function handleListRequest(input: ListRequestInput, options: ListHandlerOptions): Promise<ListResponse> {
  const parts = requestParts(input);
  if (options.apiVersions !== false) {
    const versionError = checkApiVersion(parts.headers, {
      address: parts.url ?? options.route,
      ...(options.apiVersions ? { supported: options.apiVersions } : {}),
    });
    if (versionError !== undefined) return errorResponse(versionError);
  }
  const parsed = parseListRequest(parts, {
    schema: options.schema,
    ...(options.maxLimit === undefined ? {} : { maxLimit: options.maxLimit }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
  });
  if (!parsed.ok) return errorResponse(parsed.error);
  const ticket = options.admission?.ticket(options.signal);
  const work: Work = ticket ?? (options.signal === undefined ? {} : { signal: options.signal });
  try {
    return await serve(parsed.request, options, work);
  } catch (error) {
    // Refused, out of time, unavailable for a moment, or abandoned by its client (who reads no answer):
    // busy, never a bare 500. A source that gave up on an error of its own (the cause) is reported too.
    const busy =
      error instanceof BusyError ? error : work.signal?.aborted === true ? new BusyError('the request was abandoned', 1) : undefined;
    if (busy === undefined || busy.cause !== undefined) options.onError?.(error);
    if (busy !== undefined) return errorResponse({ kind: 'busy', retryAfterSeconds: busy.retryAfterSeconds });
    return errorResponse({ kind: 'internal', message: 'The list could not be read.' });
  } finally {
    ticket?.close();
  }
}

/** What a request's work watches: its abort signal and deadline, and the admission ticket holding them. */
type Work = { readonly signal?: AbortSignal; readonly deadline?: number; readonly close?: () => void };

/**
 * The source as one request sees it: each call waits for a slot of its
 * class (a seek, rows, a count) when the handler has an admission.
 */
function gatedSource(options: ListHandlerOptions, work: Work): DataSource {
  const { source, admission } = options;
  if (admission === undefined || work.deadline === undefined) return source;
  const ticket = work as RequestTicket;
  const gated = async <T>(cls: StatementClass, read: () => Promise<T>): Promise<T> => {
    const release = await admission.acquire(cls, ticket);
    try {
      return await read();
    } finally {
      release();
    }
  };
  const { keyedPage, estimateCount } = source;
  return {
    count: (q) => gated('count', () => source.count(q)),
    ...(estimateCount === undefined
      ? {}
      : { estimateCount: (q: DataQuery, exactUpTo: number) => gated('count', () => estimateCount.call(source, q, exactUpTo)) }),
    page: (q, window) => gated('rows', () => source.page(q, window)),
    ...(keyedPage === undefined
      ? {}
      : {
          keyedPage: (q: DataQuery, window: SeekWindow) =>
            gated(window.after !== undefined || window.before !== undefined ? 'seek' : 'rows', () => keyedPage.call(source, q, window)),
        }),
  };
}

/**
 * The query a data source runs. Its cache key is the filter and sort as the client wrote them, so a
 * first page and the token pages after it (which carry the same texts) share the memory source's cache.
 */
function dataQuery(
  filter: DataQuery['filter'],
  sort: DataQuery['sort'],
  filterText: string | undefined,
  sortText: string | undefined,
  includeDeleted: boolean,
  scope: Scope,
): DataQuery {
  const { work, ...client } = scope;
  return {
    filter,
    sort,
    includeDeleted,
    cacheKey: JSON.stringify([filterText, sortText]),
    ...client,
    ...(work.signal === undefined ? {} : { signal: work.signal }),
    ...(work.deadline === undefined ? {} : { deadline: work.deadline }),
  };
}

async function serve(request: ListRequest, options: ListHandlerOptions, work: Work): Promise<ListResponse> {
  const scope: Scope = { work, ...(options.clientId === undefined ? {} : { clientId: options.clientId }) };
  if (request.mode === 'skip') {
    const q = dataQuery(request.filter, request.sort, request.filterText, request.sortText, request.includeDeleted, scope);
    const rows = await gatedSource(options, work).page(q, { offset: request.skip, limit: request.limit });
    return listResponse({ data: rows });
  }
  if (request.mode === 'first') {
    const { admission } = options;
    if (admission === undefined || work.deadline === undefined) return serveFirstPage(request, options, scope);
    // Identical first pages arriving together (same list, filter, sort, limit) share one execution.
    const key = JSON.stringify([
      options.route,
      options.clientId ?? null,
      request.filterText,
      request.sortText,
      request.includeDeleted,
      request.limit,
    ]);
    return admission.shared(key, work as RequestTicket, (shared) => serveFirstPage(request, options, { ...scope, work: shared }));
  }
  return serveTokenPage(request, options, scope);
}

type Scope = { readonly clientId?: string | number; readonly work: Work };

async function serveFirstPage(
  request: Extract<ListRequest, { mode: 'first' }>,
  options: ListHandlerOptions,
  scope: Scope,
): Promise<ListResponse> {
  const { codec, route } = options;
  const source = gatedSource(options, scope.work);
  const q = dataQuery(request.filter, request.sort, request.filterText, request.sortText, request.includeDeleted, scope);
  // Counting and reading the page are independent: on a pool they run at once. The page is asked
  // for first, so a source that filters once for both (the memory source) selects the page on the way.
  const reading = readPage(source, q, { offset: 0, limit: request.limit });
  const countKey = JSON.stringify([route, options.clientId ?? null, request.includeDeleted, request.filterText]);
  const [total, page] = await Promise.all([countTotal(source, q, options.count, countKey, Date.now()), reading]);
  const totalRecords = total.total;
  const totalPages = Math.ceil(totalRecords / request.limit);
  const state = {
    route,
    filter: request.filterText,
    sort: request.sortText,
    includeDeleted: request.includeDeleted,
    limit: request.limit,
    totalRecords,
    totalPages,
    ...(total.estimated ? { totalEstimated: true } : {}),
  };
  // Every later token must be accepted too, or paging would break midway. Tokens of one walk differ
  // only in their page number's digits and their keys (`token-wire.ts`), so the keyless token of the
  // last page is the longest that must be issued; the codec checks it with the checks `verify` runs.
  // A page whose keys do not fit gets a keyless token, and the next move from it pages by count.
  // A walk whose total is estimated may go on past its last page: its page numbers are bounded only by the safe integers.
  const longest = codec.tryIssue({ ...state, page: total.estimated ? Number.MAX_SAFE_INTEGER : Math.max(1, totalPages) });
  if (!longest.ok) return errorResponse(tokenTooLong(longest.message));
  const dataToken = issueToken(codec, { ...state, page: 1 }, page.keys);
  return markTotal(
    listResponse({
      data: page.rows,
      pagination: { pageNo: 1, pageSize: request.limit, totalRecords, totalPages, dataToken },
    }),
    total.estimated,
  );
}

async function serveTokenPage(
  request: Extract<ListRequest, { mode: 'token' }>,
  options: ListHandlerOptions,
  scope: Scope,
): Promise<ListResponse> {
  const { codec, route } = options;
  const source = gatedSource(options, scope.work);
  const checked = codec.verify(request.dataToken, route);
  if (!checked.ok) {
    return errorResponse({ kind: 'page-out-of-range', ...NO_TOKEN_RANGE, token: { reason: checked.reason, message: checked.message } });
  }
  const state = checked.payload;
  const conflicts = resentConflicts(request.resent, state);
  if (conflicts.length > 0) return errorResponse({ kind: 'validation', errors: conflicts });
  const move = request.move;
  const target = move.kind === 'next' ? state.page + 1 : move.kind === 'prev' ? state.page - 1 : move.page;
  // Page 1 of an empty list is still a page (with no rows), so the range never ends below 1. An estimated
  // total may be short of the list: a walk goes on past it (and ends at a short or empty page).
  const last = Math.max(1, state.totalPages);
  if (!(Number.isSafeInteger(target) && target >= 1 && (target <= last || state.totalEstimated === true))) {
    return errorResponse({ kind: 'page-out-of-range', first: 1, last });
  }
  const window = seekWindow(state, target);
  const analyzed = analyzeListQuery(state.filter, state.sort, options);
  if (analyzed.errors.length > 0) {
    return errorResponse({ kind: 'validation', errors: [...analyzed.errors, staleToken('its filter and sort no longer validate')] });
  }
  const stale = staleKeys(state.keys, analyzed.sort);
  if (stale !== undefined) return errorResponse({ kind: 'validation', errors: [staleToken(stale)] });
  const q = dataQuery(analyzed.filter, analyzed.sort, state.filter, state.sort, state.includeDeleted, scope);
  let page: KeyedPage;
  try {
    page = await readPage(source, q, window);
  } catch (error) {
    // A source refuses a key it cannot compare (its own check, as of the tie-breaker) before it runs any SQL.
    if (seeks(window) && isInvalidValue(error)) return errorResponse({ kind: 'validation', errors: [staleToken(error.message)] });
    throw error;
  }
  const { issuedAt: _issued, expiresAt: _expires, keys: _keys, ...carried } = state;
  const dataToken = issueToken(codec, { ...carried, page: target }, page.keys ?? emptyPageKeys(window));
  return markTotal(
    listResponse({
      data: page.rows,
      pagination: { pageNo: target, pageSize: state.limit, totalRecords: state.totalRecords, totalPages: state.totalPages, dataToken },
    }),
    state.totalEstimated === true,
  );
}

/** A response whose `TotalRecords` is not exact says so in a header; an exact one has no such header. */
function markTotal(response: ListResponse, estimated: boolean): ListResponse {
  return estimated ? { ...response, headers: { ...response.headers, [TOTAL_HEADER]: TOTAL_ESTIMATED } } : response;
}

/**
 * The window of a token move. `next-page` and `prev-page` seek from the
 * token's keys (so do `page=N` moves to the next or previous page), on a
 * source that seeks or not; a move whose key the token lacks (the keys did
 * not fit in the token, or an empty page holds only the key for the other
 * move) pages by count for that move: paging never fails midway
 * (docs/reference.md §"Token paging").
 */
function seekWindow(state: VerifiedDataToken, target: number): SeekWindow {
  const window = { offset: (target - 1) * state.limit, limit: state.limit };
  const keys = state.keys;
  if (keys?.last !== undefined && target === state.page + 1) return { ...window, after: keys.last };
  if (keys?.first !== undefined && target === state.page - 1) return { ...window, before: keys.first };
  return window;
}

/**
 * An empty page read by seeking still has a position: just after the key a
 * `next-page` sought from, or just before the one a `prev-page` sought from.
 * Its token keeps that key, so the same move again seeks from it.
 */
function emptyPageKeys(window: SeekWindow): DataTokenPayload['keys'] {
  if (window.after !== undefined) return { last: window.after };
  if (window.before !== undefined) return { first: window.before };
  return undefined;
}

/**
 * Why a token's seek keys cannot be compared with the list as it is now (a
 * field's type changed since the token was issued, in a rolling deploy),
 * or undefined when each sort key's value has the form its field's type
 * is read in: text for strings; a number for numbers (or PostgreSQL's
 * `NaN`, `Infinity`, `-Infinity`), a safe whole one for integers; epoch
 * milliseconds or PostgreSQL's exact instant text for datetimes; a
 * boolean, or 0 or 1, for booleans; null for any. The tie-breaker's value, last, is
 * the source's to check.
 */
function staleKeys(keys: VerifiedDataToken['keys'], sort: TypedSort | undefined): string | undefined {
  const fields = sort?.keys.map((k) => k.field) ?? [];
  for (const key of [keys?.first, keys?.last]) {
    if (key === undefined) continue;
    if (key.length !== fields.length && key.length !== fields.length + 1) {
      return `its position has ${key.length} values where the sort has ${fields.length} keys`;
    }
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i]!;
      if (!keyValueFits(key[i]!, field.type)) return `its position on ${field.name} does not hold a value of type ${field.type}`;
    }
  }
  return undefined;
}

const NON_FINITE_TEXT: ReadonlySet<string> = new Set(['NaN', 'Infinity', '-Infinity']);
const INSTANT_TEXT = /^(?:\d{4,}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+\+00 (?:AD|BC)|-?infinity)$/;

function keyValueFits(value: SeekValue, type: ScalarType): boolean {
  if (value === null) return true;
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value);
    case 'number':
      return typeof value === 'number' || (typeof value === 'string' && NON_FINITE_TEXT.has(value));
    case 'datetime':
      return typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && INSTANT_TEXT.test(value);
    default:
      // The memory source and the engines without a boolean type (SQLite, MySQL) key booleans as 0 and 1.
      return typeof value === 'boolean' || value === 0 || value === 1;
  }
}

function seeks(window: SeekWindow): boolean {
  return window.after !== undefined || window.before !== undefined;
}

function isInvalidValue(error: unknown): error is WepqlError {
  return error instanceof WepqlError && error.diagnostics.some((d) => d.code === 'invalid-value');
}

/** The error for a token issued for an earlier version of the list: its paging state no longer fits; start again. */
function staleToken(why: string): ParameterError {
  return {
    param: 'data-token',
    code: 'outOfRangeError',
    message: `the data token was issued for an earlier version of this list (${why}); start again from page one (without data-token)`,
  };
}

/** A page through `keyedPage` when the source seeks, else through `page` (without keys, so the next token pages by count). */
async function readPage(source: DataSource, q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
  if (source.keyedPage !== undefined) return source.keyedPage(q, window);
  return { rows: await source.page(q, { offset: window.offset, limit: window.limit }) };
}

/**
 * Issues a token with the page's keys, or without them when they would make
 * it longer than `verify` accepts (the next move from it then pages by
 * count). The keyless token always fits: the first page checked the longest
 * one of the walk.
 */
function issueToken(codec: TokenCodec, payload: DataTokenPayload, keys: DataTokenPayload['keys']): string {
  if (keys !== undefined) {
    const keyed = codec.tryIssue({ ...payload, keys });
    if (keyed.ok) return keyed.token;
  }
  return codec.issue(payload);
}

/**
 * Parameters sent again with a token must repeat the token's values, or the
 * client would believe it changed them. They are read as a first page reads
 * them, so a resent `limit` of `0x5` or `5.0` is refused here as there.
 */
function resentConflicts(resent: Extract<ListRequest, { mode: 'token' }>['resent'], state: VerifiedDataToken): ParameterError[] {
  const errors: ParameterError[] = [];
  const why = 'filter, sort, limit and include-deleted come from data-token; start again from page one (without data-token) to change them';
  if (resent.filter !== undefined && resent.filter !== state.filter) {
    errors.push({ param: 'filter', code: 'outOfRangeError', message: `filter differs from the one in data-token; ${why}` });
  }
  if (resent.sort !== undefined && resent.sort !== state.sort) {
    errors.push({ param: 'sort', code: 'outOfRangeError', message: `sort differs from the one in data-token; ${why}` });
  }
  if (resent.limit !== undefined) {
    const limit = readWholeNumber(resent.limit);
    if (limit === undefined) {
      errors.push({
        param: 'limit',
        code: 'intValueError',
        message: `limit must be a whole number, got ${JSON.stringify(resent.limit.slice(0, 40))}`,
      });
    } else if (limit !== state.limit) {
      errors.push({
        param: 'limit',
        code: 'outOfRangeError',
        message: `limit differs from the one in data-token (${state.limit}); ${why}`,
      });
    }
  }
  if (resent.includeDeleted !== undefined && resent.includeDeleted.trim().toLowerCase() !== String(state.includeDeleted)) {
    errors.push({
      param: 'include-deleted',
      code: 'outOfRangeError',
      message: `include-deleted differs from the one in data-token (${state.includeDeleted}); ${why}`,
    });
  }
  return errors;
}

function tokenTooLong(reason: string): ListError {
  return {
    kind: 'validation',
    errors: [
      {
        param: 'filter',
        code: 'tooLongError',
        message: `filter and sort are too long for token paging (${reason}); shorten them or use skip paging`,
      },
    ],
  };
}
