/**
 * Reading the list parameters of docs/reference.md §"Parameters" from query parameters and
 * `x-api-*` headers. A header wins over the query parameter of the same
 * name; header names are case-insensitive, query names exact.
 */
import type { ListParameter } from '../wire/contract.js';
import { parameterHeader } from '../wire/contract.js';

/**
 * Query parameters as a plain record (Node, Express, Fastify) or as `URLSearchParams`.
 *
 * @example
 * const query: QueryInput = new URLSearchParams('limit=5&filter=Gender.Equal(1)'); // or req.query
 */
export type QueryInput = Readonly<Record<string, string | readonly string[] | undefined>> | URLSearchParams;
/**
 * Request headers as a plain record (Node's `IncomingHttpHeaders`) or as a fetch `Headers`.
 *
 * @example
 * const headers: HeaderInput = req.headersDistinct; // or a fetch Headers, or { 'x-api-limit': '5' }
 */
export type HeaderInput = Readonly<Record<string, string | readonly string[] | undefined>> | Headers;

/**
 * A parameter's value and where it came from.
 *
 * @example
 * readParameter('limit', { limit: '5' }, undefined); // { value: '5', from: 'query' }
 */
export interface ParameterValue {
  readonly value: string;
  readonly from: 'header' | 'query';
}

/**
 * A parameter sent more than once with different values.
 *
 * @example
 * readParameter('limit', new URLSearchParams('limit=5&limit=6'), undefined); // { repeated: true, from: 'query' }
 */
export interface RepeatedParameter {
  readonly repeated: true;
  readonly from: 'header' | 'query';
}

/**
 * The value of one list parameter: the `x-api-<name>` header when sent,
 * else the query parameter; undefined when neither is sent. A parameter
 * sent several times with different values comes back as `RepeatedParameter`
 * rather than silently picking one.
 *
 * @example
 * readParameter('limit', new URLSearchParams('limit=5'), { 'X-Api-Limit': '10' }); // { value: '10', from: 'header' }
 */
export function readParameter(
  name: ListParameter,
  query: QueryInput | undefined,
  headers: HeaderInput | undefined,
): ParameterValue | RepeatedParameter | undefined {
  const header = headerValues(headers, parameterHeader(name));
  if (header !== undefined) return single(header, 'header');
  const fromQuery = queryValues(query, name);
  if (fromQuery !== undefined) return single(fromQuery, 'query');
  return undefined;
}

/**
 * Every value of a header, matched case-insensitively; undefined when absent.
 *
 * @example
 * headerValues({ 'API-Version': '1.0' }, 'api-version'); // ['1.0']
 */
export function headerValues(headers: HeaderInput | undefined, name: string): readonly string[] | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (isHeaders(headers)) {
    const v = headers.get(name);
    return v === null ? undefined : [v];
  }
  const values: string[] = [];
  let found = false;
  for (const key of Object.keys(headers)) {
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const v = headers[key];
    if (v === undefined) continue;
    found = true;
    if (typeof v === 'string') values.push(v);
    else if (Array.isArray(v)) for (const item of v) if (typeof item === 'string') values.push(item);
  }
  return found ? values : undefined;
}

function queryValues(query: QueryInput | undefined, name: string): readonly string[] | undefined {
  if (query === undefined || query === null) return undefined;
  if (query instanceof URLSearchParams) {
    const all = query.getAll(name);
    return all.length === 0 ? undefined : all;
  }
  // Own properties only: a hostile `__proto__` or `constructor` parameter name must not reach the prototype.
  if (!Object.hasOwn(query, name)) return undefined;
  const v = query[name];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return undefined;
}

function single(values: readonly string[], from: 'header' | 'query'): ParameterValue | RepeatedParameter | undefined {
  const distinct = [...new Set(values)];
  if (distinct.length === 0) return undefined;
  if (distinct.length > 1) return { repeated: true, from };
  return { value: distinct[0]!, from };
}

function isHeaders(h: unknown): h is Headers {
  return typeof Headers !== 'undefined' && h instanceof Headers;
}
