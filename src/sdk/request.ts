/**
 * Encoding a list request (docs/reference.md §"Parameters"): the nine parameters as
 * query parameters or as `x-api-<name>`
 * headers. Only WHATWG globals (`URLSearchParams`), so it runs anywhere.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { WepqlError } from '../diagnostics/error.js';
import { printFilter, printSort } from '../print/printer.js';
import type { Filter } from '../builder/filter-builder.js';
import { isBuiltFilter } from '../builder/filter-builder.js';
import type { Sort } from '../builder/sort-builder.js';
import { isBuiltSort } from '../builder/sort-builder.js';
import type { ListParameter } from '../wire/contract.js';
import { parameterHeader } from '../wire/contract.js';

/**
 * A filter as text, as a syntax tree, or as a builder from `where()`.
 *
 * @example
 * const filter: FilterInput = where<Employee>().field('Gender').equal(1); // or 'Gender.Equal(1)'
 */
export type FilterInput = string | FilterAst | Filter<any, any>;
/**
 * A sort as text, as a syntax tree, or as a builder from `orderBy()`.
 *
 * @example
 * const sort: SortInput = orderBy<Employee>('LastName'); // or 'LastName=Asc'
 */
export type SortInput = string | SortAst | Sort<any, any>;

/**
 * The parameters of one list request, by meaning rather than by wire name.
 *
 * @example
 * const first: ListRequestParams = { filter: 'Gender.Equal(1)', limit: 50 };
 * const next: ListRequestParams = { dataToken: token, page: 'next' };
 */
export interface ListRequestParams {
  /** Filter query; omitted when empty. */
  readonly filter?: FilterInput;
  /** Sort query; omitted when empty. */
  readonly sort?: SortInput;
  /** Page size: a whole number of at least 1. */
  readonly limit?: number;
  /** Records to skip (skip paging); sending it, even 0, asks for skip paging. */
  readonly skip?: number;
  /** Include soft-deleted records. */
  readonly includeDeleted?: boolean;
  /** The `DataToken` of the previous response (token paging). */
  readonly dataToken?: string;
  /** The paging move that goes with `dataToken`: a page number, or the next or previous page. */
  readonly page?: number | 'next' | 'prev';
}

/**
 * Where the parameters travel.
 *
 * @example
 * encodeListRequest({ limit: 10 }, { style: 'headers' }).headers; // { 'x-api-limit': '10' }
 */
export interface EncodeListRequestOptions {
  /**
   * `query` (default): query parameters. `headers`: `x-api-<name>` headers,
   * except values no HTTP header can carry unchanged (characters outside
   * printable ASCII, or leading/trailing whitespace), which fall back to the
   * query string — the server reads both (docs/reference.md §"Parameters").
   */
  readonly style?: 'query' | 'headers';
}

/**
 * The encoded request: query parameters to append to the URL, and headers to send.
 *
 * @example
 * const { search, headers }: EncodedListRequest = encodeListRequest({ limit: 10 });
 */
export interface EncodedListRequest {
  readonly search: URLSearchParams;
  readonly headers: Record<string, string>;
}

function fail(message: string): never {
  throw new WepqlError(message, []);
}

function wholeNumber(name: string, value: unknown, min: number): string {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    fail(`${name} must be a whole number of at least ${min}, got ${typeof value === 'number' ? String(value) : typeof value}`);
  }
  return String(value);
}

/**
 * The text of a filter given as text, tree or builder.
 *
 * @example
 * toFilterText(where<Employee>().field('Gender').equal(1)); // 'Gender.Equal(1)'
 */
export function toFilterText(filter: FilterInput): string {
  if (typeof filter === 'string') return filter;
  if (isBuiltFilter(filter)) return filter.toString();
  if (typeof filter === 'object' && filter !== null && (filter as FilterAst).kind === 'filter') return printFilter(filter as FilterAst);
  return fail('filter must be a string, a filter tree or a where() builder');
}

/**
 * The text of a sort given as text, tree or builder.
 *
 * @example
 * toSortText(orderBy<Employee>('LastName')); // 'LastName=Asc'
 */
export function toSortText(sort: SortInput): string {
  if (typeof sort === 'string') return sort;
  if (isBuiltSort(sort)) return sort.toString();
  if (typeof sort === 'object' && sort !== null && (sort as SortAst).kind === 'sort') return printSort(sort as SortAst);
  return fail('sort must be a string, a sort tree or an orderBy() builder');
}

// A header value survives HTTP unchanged only as printable ASCII without
// leading or trailing whitespace (which HTTP strips); fetch refuses non-Latin-1.
function headerSafe(value: string): boolean {
  return /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/.test(value);
}

/**
 * Encodes list parameters with the names of docs/reference.md §"Parameters": `limit`,
 * `skip`, `filter`,
 * `sort`, `include-deleted`, `next-page`, `prev-page`, `page`, `data-token`
 * as query parameters, or as `x-api-<name>` headers with `style: 'headers'`.
 * Flags are sent as `true`. Empty filter and sort texts are left out. Throws
 * `WepqlError` for a `limit` or `page` that is not a whole number ≥ 1 or a
 * `skip` that is not one ≥ 0. It encodes what it is given: protocol rules
 * (a paging move needs `dataToken`) are the server's to check.
 *
 * @example
 * encodeListRequest({ filter: 'LastName.StartsWith(Sm)', limit: 25 }).search.toString();
 * // 'limit=25&filter=LastName.StartsWith%28Sm%29'
 * encodeListRequest({ dataToken: 't', page: 'next' }, { style: 'headers' }).headers;
 * // { 'x-api-next-page': 'true', 'x-api-data-token': 't' }
 */
export function encodeListRequest(request: ListRequestParams, options: EncodeListRequestOptions = {}): EncodedListRequest {
  const style = options.style ?? 'query';
  if (style !== 'query' && style !== 'headers') fail(`style must be 'query' or 'headers', got ${String(style)}`);
  const search = new URLSearchParams();
  const headers: Record<string, string> = {};
  const put = (name: ListParameter, value: string): void => {
    if (style === 'headers' && headerSafe(value)) headers[parameterHeader(name)] = value;
    else search.set(name, value);
  };

  if (request.limit !== undefined) put('limit', wholeNumber('limit', request.limit, 1));
  if (request.skip !== undefined) put('skip', wholeNumber('skip', request.skip, 0));
  if (request.filter !== undefined) {
    const text = toFilterText(request.filter);
    if (text !== '') put('filter', text);
  }
  if (request.sort !== undefined) {
    const text = toSortText(request.sort);
    if (text !== '') put('sort', text);
  }
  if (request.includeDeleted !== undefined) put('include-deleted', request.includeDeleted ? 'true' : 'false');
  const page = request.page;
  if (page === 'next') put('next-page', 'true');
  else if (page === 'prev') put('prev-page', 'true');
  else if (page !== undefined) put('page', wholeNumber('page', page, 1));
  if (request.dataToken !== undefined) {
    if (typeof request.dataToken !== 'string' || request.dataToken === '') fail('dataToken must be a non-empty string');
    put('data-token', request.dataToken);
  }
  return { search, headers };
}
