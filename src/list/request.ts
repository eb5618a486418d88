/**
 * `parseListRequest`: turns the parameters of a list call into a checked
 * `ListRequest` (one of three paging modes) or a `ListError` that renders to
 * the envelopes of docs/reference.md §"Envelopes". It never throws on what a client sends.
 */
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Policy } from '../policy/policy.js';
import { policyLimits } from '../policy/policy.js';
import { checkFilterPolicy, checkSortPolicy } from '../policy/check-policy.js';
import type { Schema } from '../schema/schema.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';
import { createBoundedCache, identityOf, retainedSize } from './bounded-cache.js';
import type { ListError, ParameterError, ValidationErrorCode } from './envelope.js';
import type { HeaderInput, QueryInput } from './params.js';
import { readParameter } from './params.js';
import type { ListParameter } from '../wire/contract.js';
import { parameterHeader } from '../wire/contract.js';

/**
 * Where the parameters of a list call come from: query and headers, or a fetch `Request`.
 *
 * @example
 * const input: ListRequestInput = { query: req.query, headers: req.headersDistinct, url: req.url }; // or a fetch Request
 */
export type ListRequestInput =
  | {
      readonly query?: QueryInput;
      readonly headers?: HeaderInput;
      /** The request address, for messages that name it (unsupported version). */
      readonly url?: string;
    }
  | Request;

/**
 * Filter, sort and soft-delete choice of a first page or a skip page.
 *
 * @example
 * if (parsed.ok && parsed.request.mode === 'first') parsed.request.filterText; // 'Gender.Equal(1)'
 */
export interface ListQuery {
  /** The validated filter; undefined when none was sent. */
  readonly filter: TypedFilter | undefined;
  /** The validated sort; undefined when none was sent. */
  readonly sort: TypedSort | undefined;
  /** The filter text as sent (`''` for none); token paging carries it forward. */
  readonly filterText: string;
  /** The sort text as sent (`''` for none). */
  readonly sortText: string;
  readonly includeDeleted: boolean;
}

/**
 * A move of token paging.
 *
 * @example
 * const move: PageMove = { kind: 'page', page: 3 }; // or { kind: 'next' }, { kind: 'prev' }
 */
export type PageMove = { readonly kind: 'next' } | { readonly kind: 'prev' } | { readonly kind: 'page'; readonly page: number };

/**
 * A checked list request.
 *
 * @example
 * if (parsed.ok && parsed.request.mode === 'token') parsed.request.move; // { kind: 'next' }
 */
export type ListRequest =
  | ({ readonly mode: 'first'; readonly limit: number } & ListQuery)
  | ({ readonly mode: 'skip'; readonly limit: number; readonly skip: number } & ListQuery)
  | {
      readonly mode: 'token';
      readonly dataToken: string;
      readonly move: PageMove;
      /**
       * Parameters that come from the token but were sent again, as raw text.
       * The handler accepts them only when they equal the token's.
       */
      readonly resent: {
        readonly filter?: string;
        readonly sort?: string;
        readonly limit?: string;
        readonly includeDeleted?: string;
      };
    };

/**
 * Options of `parseListRequest`.
 *
 * @example
 * parseListRequest(input, { schema: employeeSchema, maxLimit: 500 } satisfies ListRequestOptions);
 */
export interface ListRequestOptions {
  readonly schema: Schema;
  /** Largest page size; default 1,000 (docs/reference.md §"Limits"). */
  readonly maxLimit?: number;
  /** Limits for the filter and sort analysis. */
  readonly limits?: Partial<Limits>;
  /** The endpoint's policy (`definePolicy`): refusals land in `ValidationErrors`, its caps tighten `limits`. */
  readonly policy?: Policy;
}

/**
 * The outcome of `parseListRequest`.
 *
 * @example
 * const parsed: ParsedListRequest = parseListRequest({ query: { limit: '5' } }, { schema: employeeSchema }); // { ok: true, request: … }
 */
export type ParsedListRequest = { readonly ok: true; readonly request: ListRequest } | { readonly ok: false; readonly error: ListError };

/**
 * The range reported by a paging move that has no valid token to take a range from.
 *
 * @example
 * errorResponse({ kind: 'page-out-of-range', ...NO_TOKEN_RANGE }).body; // { …, Message: 'Page Number out of range. [0-0]' }
 */
export const NO_TOKEN_RANGE = Object.freeze({ first: 0, last: 0 });

/**
 * Reads and checks the list parameters of docs/reference.md §"Parameters" and §"The list
 * contract". Every problem of
 * every parameter is reported at once as a `validation` error; a paging move
 * without a data token is the page-out-of-range error of docs/reference.md §"Token
 * paging" with the range
 * `[0-0]` (no page is reachable without a token).
 *
 * @example
 * const parsed = parseListRequest({ query: { limit: '25', filter: 'Gender.Equal(1)' } }, { schema: employeeSchema });
 * if (parsed.ok && parsed.request.mode === 'first') parsed.request.limit; // 25
 * else if (!parsed.ok) errorResponse(parsed.error); // 400 with the DataValidationError envelope
 */
export function parseListRequest(input: ListRequestInput, options: ListRequestOptions): ParsedListRequest {
  const { query, headers } = requestParts(input);
  const errors: ParameterError[] = [];
  const fail: Fail = (param, code, message) => void errors.push({ param, code, message });
  const sent = readSentParameters(query, headers, fail);
  if (sent.dataToken !== undefined) return tokenRequest(sent, sent.dataToken, errors, fail);
  if (errors.length > 0) return invalid(errors);
  if (sent.moves > 0) {
    // docs/reference.md §"Token paging": next-page without a data token.
    return {
      ok: false,
      error: { kind: 'page-out-of-range', ...NO_TOKEN_RANGE, token: { reason: 'missing', message: 'no data-token was sent' } },
    };
  }
  return firstOrSkipRequest(sent, options, errors, fail);
}

type Fail = (param: string, code: ValidationErrorCode, message: string) => void;

/** The list parameters as sent (empty values as not sent), with the page number read and the moves counted. */
interface SentParameters {
  readonly dataToken?: string;
  readonly next: boolean;
  readonly prev: boolean;
  readonly pageText?: string;
  readonly page?: number;
  readonly moves: number;
  readonly skipText?: string;
  readonly limitText?: string;
  readonly filterText?: string;
  readonly sortText?: string;
  readonly deletedText?: string;
}

function readSentParameters(query: QueryInput | undefined, headers: HeaderInput | undefined, fail: Fail): SentParameters {
  const raw = (name: ListParameter): string | undefined => {
    const p = readParameter(name, query, headers);
    if (p === undefined) return undefined;
    if ('repeated' in p) {
      fail(
        name,
        'outOfRangeError',
        `${name} was sent more than once with different values (${p.from === 'header' ? `header ${parameterHeader(name)}` : 'query'}); send it once`,
      );
      return undefined;
    }
    // An empty value counts as not sent, so `?filter=` means no filter. Flags are read separately.
    return p.value === '' ? undefined : p.value;
  };
  const dataToken = raw('data-token');
  const next = readFlag('next-page', query, headers, fail);
  const prev = readFlag('prev-page', query, headers, fail);
  const pageText = raw('page');
  let page: number | undefined;
  if (pageText !== undefined) {
    page = readWholeNumber(pageText);
    if (page === undefined) fail('page', 'intValueError', `page must be a whole number, got ${JSON.stringify(clip(pageText))}`);
  }
  const moves = (next ? 1 : 0) + (prev ? 1 : 0) + (pageText !== undefined ? 1 : 0);
  const texts = {
    skipText: raw('skip'),
    limitText: raw('limit'),
    filterText: raw('filter'),
    sortText: raw('sort'),
    deletedText: raw('include-deleted'),
  };
  return { next, prev, moves, ...withoutUndefined({ dataToken, pageText, page, ...texts }) };
}

function readFlag(name: 'next-page' | 'prev-page', query: QueryInput | undefined, headers: HeaderInput | undefined, fail: Fail): boolean {
  const p = readParameter(name, query, headers);
  if (p === undefined) return false;
  if ('repeated' in p) {
    fail(name, 'outOfRangeError', `${name} was sent more than once with different values; send it once`);
    return false;
  }
  const v = p.value.trim().toLowerCase();
  if (v === '' || v === 'true') return true;
  if (v === 'false') return false;
  fail(name, 'regularExpressionError', `${name} is a flag: send true (or leave it out), not ${JSON.stringify(clip(p.value))}`);
  return false;
}

function tokenRequest(sent: SentParameters, dataToken: string, errors: readonly ParameterError[], fail: Fail): ParsedListRequest {
  if (sent.skipText !== undefined) {
    fail('skip', 'outOfRangeError', 'skip cannot be combined with data-token: token paging and skip paging must not be mixed');
  }
  // A flag with a bad value was already reported; "needs one of" would only repeat it.
  if (sent.moves === 0 && errors.length === 0)
    fail('data-token', 'requiredError', 'data-token needs exactly one of next-page, prev-page or page');
  if (sent.moves > 1) {
    const names = [sent.next && 'next-page', sent.prev && 'prev-page', sent.pageText !== undefined && 'page'].filter(Boolean).join(', ');
    fail('data-token', 'outOfRangeError', `send exactly one of next-page, prev-page or page with data-token, not ${names}`);
  }
  if (errors.length > 0) return invalid(errors);
  const move: PageMove = sent.next ? { kind: 'next' } : sent.prev ? { kind: 'prev' } : { kind: 'page', page: sent.page! };
  const resent = withoutUndefined({
    filter: sent.filterText,
    sort: sent.sortText,
    limit: sent.limitText,
    includeDeleted: sent.deletedText,
  });
  return { ok: true, request: { mode: 'token', dataToken, move, resent } };
}

function firstOrSkipRequest(sent: SentParameters, options: ListRequestOptions, errors: ParameterError[], fail: Fail): ParsedListRequest {
  const { limitText, skipText, deletedText, filterText, sortText } = sent;
  let limit: number | undefined;
  if (limitText === undefined) fail('limit', 'requiredError', 'limit is required unless data-token is sent');
  else limit = readCount('limit', limitText, 1, options.maxLimit ?? 1000, fail);
  let skip: number | undefined;
  if (skipText !== undefined) skip = readCount('skip', skipText, 0, Number.MAX_SAFE_INTEGER, fail);
  let includeDeleted = false;
  if (deletedText !== undefined) {
    const v = deletedText.trim().toLowerCase();
    if (v === 'true') includeDeleted = true;
    else if (v !== 'false')
      fail('include-deleted', 'regularExpressionError', `include-deleted must be true or false, got ${JSON.stringify(clip(deletedText))}`);
  }
  const analyzed = analyzeListQuery(filterText ?? '', sortText ?? '', options);
  errors.push(...analyzed.errors);
  if (errors.length > 0) return invalid(errors);
  const common: ListQuery = {
    filter: analyzed.filter,
    sort: analyzed.sort,
    filterText: filterText ?? '',
    sortText: sortText ?? '',
    includeDeleted,
  };
  if (skipText !== undefined) return { ok: true, request: { mode: 'skip', limit: limit!, skip: skip!, ...common } };
  return { ok: true, request: { mode: 'first', limit: limit!, ...common } };
}

/** A copy without the keys whose value is undefined (the request types have optional, not undefined, members). */
function withoutUndefined<T extends object>(value: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as { [K in keyof T]?: Exclude<T[K], undefined> };
}

/**
 * Validates a filter text and a sort text against a schema; `''` means
 * none. Errors come back as parameter errors for the `filter` and `sort`
 * parameters. Used for first pages and again on every token page, since a
 * token carries the texts, not the trees; the results are kept in a bounded
 * cache (2,000 entries, 16 MB by `retainedSize`'s model, keys included) per
 * schema, policy and limits, so a token page does not parse its texts again.
 *
 * @example
 * analyzeListQuery('Gender.Equal(1)', 'LastName=Asc', { schema: employeeSchema }).errors; // []
 */
export function analyzeListQuery(
  filterText: string,
  sortText: string,
  options: Pick<ListRequestOptions, 'schema' | 'limits' | 'policy'>,
): AnalyzedListQuery {
  const key = JSON.stringify([
    identityOf(options.schema),
    options.policy === undefined ? 0 : identityOf(options.policy),
    limitsKey(options.limits),
    filterText,
    sortText,
  ]);
  const hit = analyzed.get(key);
  if (hit !== undefined) return hit;
  const result = analyzeUncached(filterText, sortText, options);
  // The trees, counted by the size model, plus both texts once more: the trees' strings may be
  // slices that keep the whole text alive. The schema's fields belong to the schema.
  const fields = schemaFields(options.schema);
  const bytes = retainedSize(result, (object) => fields.has(object)) + retainedSize(filterText) + retainedSize(sortText);
  analyzed.set(key, result, bytes);
  return result;
}

/**
 * The cache key part of a set of limits: each limit by name, its number written so that every
 * value has its own text (`JSON.stringify` writes `Infinity`, `-Infinity` and `NaN` all as `null`).
 */
function limitsKey(limits: Partial<Limits> | undefined): string {
  if (limits === undefined || limits === null) return '';
  const record = limits as Readonly<Record<string, unknown>>;
  return Object.keys(record)
    .sort()
    .map((name) => {
      const v = record[name];
      const text =
        typeof v === 'number'
          ? Object.is(v, -0)
            ? '-0'
            : String(v)
          : typeof v === 'object' && v !== null
            ? `#${identityOf(v)}`
            : String(v);
      return `${JSON.stringify(name)}:${typeof v}:${text}`;
    })
    .join(',');
}

const fieldSets = new WeakMap<Schema, ReadonlySet<object>>();
function schemaFields(schema: Schema): ReadonlySet<object> {
  let set = fieldSets.get(schema);
  if (set === undefined) fieldSets.set(schema, (set = new Set<object>(schema.fields)));
  return set;
}

/**
 * A filter and sort text analysed against a schema: the trees, or the parameter errors.
 *
 * @example
 * const a: AnalyzedListQuery = analyzeListQuery('Gender.Equal(1)', '', { schema: employeeSchema });
 */
export interface AnalyzedListQuery {
  readonly filter: TypedFilter | undefined;
  readonly sort: TypedSort | undefined;
  readonly errors: readonly ParameterError[];
}

// At most 2,000 analyses or 16 MB: the texts of a busy filter bar fit many times over.
const analyzed = createBoundedCache<AnalyzedListQuery>({ maxEntries: 2000, maxBytes: 16 << 20 });

function analyzeUncached(
  filterText: string,
  sortText: string,
  options: Pick<ListRequestOptions, 'schema' | 'limits' | 'policy'>,
): AnalyzedListQuery {
  const errors: ParameterError[] = [];
  const fail = (param: string, code: ValidationErrorCode, message: string): void => {
    errors.push({ param, code, message });
  };
  const { policy } = options;
  const limits = policyLimits(options.limits, policy);
  const analysis = { schema: options.schema, ...(limits ? { limits } : {}) };
  let filter: TypedFilter | undefined;
  if (filterText !== '') {
    const analyzed = analyzeFilter(filterText, analysis);
    reportDiagnostics('filter', analyzed.diagnostics, fail);
    if (analyzed.value !== undefined && policy !== undefined) reportDiagnostics('filter', checkFilterPolicy(analyzed.value, policy), fail);
    filter = analyzed.value;
  }
  let sort: TypedSort | undefined;
  if (sortText !== '') {
    const analyzed = analyzeSort(sortText, analysis);
    reportDiagnostics('sort', analyzed.diagnostics, fail);
    if (analyzed.value !== undefined && policy !== undefined) reportDiagnostics('sort', checkSortPolicy(analyzed.value, policy), fail);
    sort = analyzed.value;
  }
  return Object.freeze(errors.length > 0 ? { filter: undefined, sort: undefined, errors } : { filter, sort, errors });
}

/**
 * The validation code (docs/reference.md §"Envelopes") for a filter or sort diagnostic:
 * text too long
 * → `tooLongError`, other limits and out-of-range integers →
 * `outOfRangeError`, everything else (syntax, unknown field, wrong type) →
 * `regularExpressionError`.
 *
 * @example
 * validationCodeFor({ code: 'text-too-long', … }); // 'tooLongError'
 */
export function validationCodeFor(d: Pick<Diagnostic, 'code'>): ValidationErrorCode {
  switch (d.code) {
    case 'text-too-long':
      return 'tooLongError';
    case 'nesting-too-deep':
    case 'too-many-conditions':
    case 'too-many-list-values':
    case 'too-many-in-fields':
    case 'too-many-sort-keys':
    case 'integer-out-of-range':
      return 'outOfRangeError';
    default:
      return 'regularExpressionError';
  }
}

function reportDiagnostics(
  param: string,
  diagnostics: readonly Diagnostic[],
  fail: (param: string, code: ValidationErrorCode, message: string) => void,
): void {
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    fail(param, validationCodeFor(d), `${d.message} (${d.code} at ${d.start}-${d.end})`);
  }
}

function readCount(name: string, text: string, min: number, max: number, fail: Fail): number | undefined {
  const n = readWholeNumber(text);
  const t = text.trim();
  if (n === undefined) {
    fail(name, 'intValueError', `${name} must be a whole number, got ${JSON.stringify(clip(text))}`);
    return undefined;
  }
  if (!(n >= min && n <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
    fail(name, 'outOfRangeError', `${name} must be ${range}, got ${clip(t)}`);
    return undefined;
  }
  return n;
}

/**
 * A count parameter's value as a first page reads it: optional sign and
 * decimal digits, spaces around allowed; undefined for anything else
 * (`0x5`, `5e0`, `5.0`). Token pages read a resent `limit` with it too.
 *
 * @example
 * readWholeNumber(' 25 '); // 25
 * readWholeNumber('0x5'); // undefined
 */
export function readWholeNumber(text: string): number | undefined {
  const t = text.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : undefined;
}

function invalid(errors: readonly ParameterError[]): ParsedListRequest {
  return { ok: false, error: { kind: 'validation', errors } };
}

// Echoing a hostile 8 KB value back in every message helps nobody.
function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/**
 * Splits a `ListRequestInput` into query, headers and address.
 *
 * @example
 * requestParts(new Request('http://x/list?limit=5')).query?.toString(); // 'limit=5'
 */
export function requestParts(input: ListRequestInput): { query?: QueryInput; headers?: HeaderInput; url?: string } {
  if (typeof Request !== 'undefined' && input instanceof Request) {
    let query: URLSearchParams | undefined;
    try {
      query = new URL(input.url).searchParams;
    } catch {
      query = undefined;
    }
    return { ...(query ? { query } : {}), headers: input.headers, url: input.url };
  }
  const plain = input as Exclude<ListRequestInput, Request>;
  return plain ?? {};
}
