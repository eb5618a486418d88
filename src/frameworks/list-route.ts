/**
 * What the framework adapters share: one list route served through
 * `handleListRequest`. A route is either client-scoped (a path parameter
 * names the client, the data source was created with `clientField`) or not
 * (no client parameter, no `clientField`); the two must agree, which is
 * checked once, not answered per request. Each adapter only reads its
 * framework's request and writes its response.
 */
import type { AdmissionOptions } from '../list/admission.js';
import { createAdmission } from '../list/admission.js';
import { checkCountStrategy } from '../list/count-strategy.js';
import type { ListResponse } from '../list/envelope.js';
import { errorResponse } from '../list/envelope.js';
import type { ListHandlerOptions } from '../list/handler.js';
import { handleListRequest } from '../list/handler.js';
import { listHeaders } from '../list/headers.js';
import type { HeaderInput } from '../list/params.js';
import { headerValues } from '../list/params.js';
import { jsonBytes } from '../list/json-bytes.js';
import { VERSION_HEADERS } from '../wire/contract.js';

/**
 * Options of every adapter's `listHandler`: those of `handleListRequest`,
 * except that the route and the client id come from the request.
 *
 * @example
 * const options: ListRouteOptions = { source, schema: employeeSchema, codec, resolveClient: (id) => (known.has(id) ? Number(id) : undefined) };
 */
export interface ListRouteOptions extends Omit<ListHandlerOptions, 'route' | 'clientId' | 'admission' | 'signal'> {
  /**
   * The queue, deadlines and single-flight in front of the source
   * (`createAdmission`; docs/server.md), one per handler: default on, with
   * the source's `concurrency` (8 when it has none) and `createAdmission`'s
   * defaults; `false` for none.
   */
  readonly admission?: AdmissionOptions | false;
  /**
   * The path parameter that holds the client id; default `client_id`. Only
   * client-scoped routes (a source created with `clientField`) have one.
   */
  readonly clientParam?: string;
  /**
   * Turns the path parameter into the client id given to the data source,
   * or `undefined` for a client that does not exist (a 404 envelope).
   * Default: the parameter's text as is. Only for client-scoped routes.
   */
  readonly resolveClient?: (raw: string) => string | number | undefined | Promise<string | number | undefined>;
  /**
   * The list identity data tokens are bound to. Default: the route as the
   * framework matched it, with its path parameters filled in (such as
   * `/api/public/clients/7/employees`), so a token only pages the list it
   * was issued for. `clientId` is undefined on a route without a client.
   */
  readonly route?: (clientId: string | number | undefined, path: string) => string;
}

/**
 * One request as an adapter reads it from its framework.
 *
 * @example
 * const request: ListRouteRequest = { url: 'http://127.0.0.1:3000/api/public/clients/1/employees?limit=5', headers: req.headersDistinct,
 *   routePattern: '/api/public/clients/:client_id/employees', params: { client_id: '1' } };
 */
export interface ListRouteRequest {
  /** The absolute request address: messages name it, and its query holds the list parameters. */
  readonly url: string;
  /** Node's `headersDistinct`, a plain header record or a fetch `Headers`. */
  readonly headers: HeaderInput | undefined;
  /** The route pattern the framework matched, such as `/api/public/clients/:client_id/employees` (never the `Host` header). */
  readonly routePattern: string;
  /** The path parameters the framework decoded (the client id among them on a client-scoped route). */
  readonly params: Readonly<Record<string, unknown>>;
  /** Aborted when the client goes away: the request's statements and lane work are cancelled. */
  readonly signal?: AbortSignal;
}

/**
 * A list route ready to serve: the options checked once, when the adapter's
 * handler is created.
 *
 * @example
 * const route = createListRoute(options); const response = await route.serve(request);
 */
export interface ListRoute {
  /** Serves one request; never throws. */
  serve(request: ListRouteRequest): Promise<ListResponse>;
}

/**
 * Checks the options of one list route and returns its server. Throws a
 * `TypeError` when the options ask for a client (`clientParam`,
 * `resolveClient`) but the data source serves a list that is not per client.
 *
 * @example
 * const route = createListRoute({ source, schema: employeeSchema, codec });
 */
export function createListRoute(options: ListRouteOptions): ListRoute {
  checkCountStrategy(options.count);
  const param = options.clientParam ?? 'client_id';
  const asksForClient = options.clientParam !== undefined || options.resolveClient !== undefined;
  if (asksForClient && options.source.clientScoped === false) {
    throw new TypeError(
      `listHandler: ${options.clientParam !== undefined ? 'clientParam' : 'resolveClient'} is given, but the data source was created without clientField, ` +
        'so its list is not per client; create the source with clientField, or drop the client options for a route without a client',
    );
  }
  const admission =
    options.admission === false ? undefined : createAdmission({ concurrency: options.source.concurrency ?? 8, ...options.admission });
  // A route pattern is checked against the source once; later requests on it reuse the verdict.
  const verdicts = new Map<string, TypeError | { readonly scoped: boolean }>();
  const verdictFor = (pattern: string, params: ListRouteRequest['params']) => {
    let verdict = verdicts.get(pattern);
    if (verdict === undefined) {
      verdict = routeScope(pattern, params, param, options.source.clientScoped, asksForClient);
      if (verdicts.size < 1000) verdicts.set(pattern, verdict);
    }
    return verdict;
  };
  return {
    async serve(request) {
      const verdict = verdictFor(request.routePattern, request.params);
      if (verdict instanceof TypeError) {
        options.onError?.(verdict);
        return errorResponse({ kind: 'internal', message: 'The request could not be served.' });
      }
      return serveRoute(request, options, verdict.scoped ? param : undefined, admission);
    },
  };
}

/**
 * Whether a route pattern is client-scoped, or the error that its client
 * parameter and the source disagree.
 */
function routeScope(
  pattern: string,
  params: ListRouteRequest['params'],
  param: string,
  sourceScoped: boolean | undefined,
  asksForClient: boolean,
): TypeError | { readonly scoped: boolean } {
  const hasParam = Object.hasOwn(params, param) || patternParams(pattern).includes(param);
  const scoped = sourceScoped ?? (hasParam || asksForClient);
  if (scoped && !hasParam) {
    return new TypeError(
      `listHandler: the route ${pattern} has no ${param} path parameter, but the data source serves one client's rows per query ` +
        `(created with clientField); add :${param} to the route, or create the source without clientField`,
    );
  }
  if (!scoped && hasParam) {
    return new TypeError(
      `listHandler: the route ${pattern} has a ${param} path parameter, but the data source was created without clientField, ` +
        "so it would serve every client's rows; create the source with clientField",
    );
  }
  return { scoped };
}

/**
 * The parameter names of a route pattern in the three frameworks' syntaxes
 * (`:name`, `:name(re)`, `:name{re}`, `:name?`, `*name`).
 *
 * @example
 * patternParams('/api/public/clients/:client_id/employees'); // ['client_id']
 */
export function patternParams(pattern: string): string[] {
  return [...pattern.matchAll(/[:*]([A-Za-z_$][\w$]*)/g)].map((m) => m[1]!);
}

/**
 * The route's path with its parameters filled in (each value
 * percent-encoded), the list identity tokens are bound to by default.
 *
 * @example
 * routePath('/api/public/clients/:client_id/employees', { client_id: '7' }); // '/api/public/clients/7/employees'
 */
export function routePath(pattern: string, params: ListRouteRequest['params']): string {
  const filled = pattern.replace(
    /([:*])([A-Za-z_$][\w$]*)?(\([^)]*\)|\{[^}]*\})?\??/g,
    (whole, _sigil: string, name: string | undefined) => {
      const value = Object.hasOwn(params, name ?? '*') ? params[name ?? '*'] : undefined;
      return typeof value === 'string' ? encodeURIComponent(value) : whole;
    },
  );
  return filled.length > 1 ? filled.replace(/\/+$/, '') : filled;
}

async function serveRoute(
  request: ListRouteRequest,
  options: ListRouteOptions,
  clientParam: string | undefined,
  admission: ListHandlerOptions['admission'],
): Promise<ListResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { status: 400, headers: {}, body: undefined };
  }
  let clientId: string | number | undefined;
  if (clientParam !== undefined) {
    const value = Object.hasOwn(request.params, clientParam) ? request.params[clientParam] : undefined;
    const raw = typeof value === 'string' ? value : '';
    try {
      clientId = raw === '' ? undefined : options.resolveClient === undefined ? raw : await options.resolveClient(raw);
    } catch (error) {
      options.onError?.(error);
      return errorResponse({ kind: 'internal', message: 'The request could not be served.' });
    }
    if (clientId === undefined) {
      const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
      return errorResponse({ kind: 'not-found', message: `Client ${shown} was not found.` });
    }
  }
  const path = routePath(request.routePattern, request.params);
  const { clientParam: _param, resolveClient: _resolve, route, admission: _admission, ...handler } = options;
  return handleListRequest(
    { query: url.searchParams, headers: contractHeaders(request.headers), url: request.url },
    {
      ...handler,
      route: route === undefined ? path : route(clientId, path),
      ...(clientId === undefined ? {} : { clientId }),
      ...(admission === undefined ? {} : { admission }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
  );
}

/**
 * Every header the list contract reads: the `x-api-*` parameters (repeated
 * lines kept apart, UTF-8 decoded) and the version headers, which the
 * handler checks like the reference server does.
 *
 * @example
 * contractHeaders({ 'api-version': ['2.0'], 'x-api-limit': ['5'], accept: ['*'] }); // { 'x-api-limit': ['5'], 'api-version': ['2.0'] }
 */
export function contractHeaders(headers: HeaderInput | undefined): Record<string, string[]> {
  const out = listHeaders(headers);
  for (const name of VERSION_HEADERS) {
    const values = headerValues(headers, name);
    if (values !== undefined) out[name] = [...values];
  }
  return out;
}

/**
 * The absolute address of a request for messages and its query: the request
 * target as sent (an absolute-form target, RFC 9112, section 3.2.2, as is; an
 * origin-form one on the server's own origin), never read from `Host`.
 *
 * @example
 * requestAddress('/api/public/clients/1/employees?limit=5', 'http', '127.0.0.1:3000');
 * // 'http://127.0.0.1:3000/api/public/clients/1/employees?limit=5'
 */
export function requestAddress(target: string, protocol: string, localAuthority: string): string {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target)) return target;
  return `${protocol}://${localAuthority}${target.startsWith('/') ? target : `/${target}`}`;
}

/**
 * The server's own `address:port` of a socket, for request addresses that
 * must not come from the `Host` header.
 *
 * @example
 * localAuthority({ localAddress: '::1', localPort: 3000 }); // '[::1]:3000'
 */
export function localAuthority(
  socket: { readonly localAddress?: string | undefined; readonly localPort?: number | undefined } | undefined,
): string {
  const address = socket?.localAddress ?? 'localhost';
  const host = address.includes(':') ? `[${address}]` : address;
  return socket?.localPort === undefined ? host : `${host}:${socket.localPort}`;
}

/**
 * The response body as the bytes to send: its JSON in UTF-8, encoded once
 * record by record (`jsonBytes`); no bytes when there is none.
 *
 * @example
 * responseBytes({ status: 401, headers: {}, body: undefined }).length; // 0
 */
export function responseBytes(response: ListResponse): Uint8Array<ArrayBuffer> {
  return response.body === undefined ? new Uint8Array(0) : jsonBytes(response.body);
}

/**
 * `responseBytes` as a Node `Buffer` over the same memory, which Express and
 * Fastify send as it is (a string they would encode again; Express also
 * hashes the body for its ETag).
 *
 * @example
 * responseBuffer({ status: 401, headers: {}, body: undefined }).length; // 0
 */
export function responseBuffer(response: ListResponse): Buffer {
  const bytes = responseBytes(response);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
