/**
 * What the framework adapters share: one list route served through
 * `handleListRequest`, with the client id taken from a path parameter. Each
 * adapter only reads its framework's request and writes its response.
 */
import type { ListResponse } from '../list/envelope.js';
import { errorResponse } from '../list/envelope.js';
import type { ListHandlerOptions } from '../list/handler.js';
import { handleListRequest } from '../list/handler.js';
import { listHeaders } from '../list/headers.js';
import type { HeaderInput } from '../list/params.js';

/**
 * Options of every adapter's `listHandler`: those of `handleListRequest`,
 * except that the route and the client id come from the request.
 *
 * @example
 * const options: ListRouteOptions = { source, schema: employeeSchema, codec, resolveClient: (id) => (known.has(id) ? Number(id) : undefined) };
 */
export interface ListRouteOptions extends Omit<ListHandlerOptions, 'route' | 'clientId'> {
  /** The path parameter that holds the client id; default `client_id`. */
  readonly clientParam?: string;
  /**
   * Turns the path parameter into the client id given to the data source,
   * or `undefined` for a client that does not exist (a 404 envelope).
   * Default: the parameter's text as is.
   */
  readonly resolveClient?: (raw: string) => string | number | undefined | Promise<string | number | undefined>;
  /**
   * The list identity data tokens are bound to, for a client. Default: the
   * request's path without a trailing slash, so a token only pages the list
   * at the address it was issued for.
   */
  readonly route?: (clientId: string | number, path: string) => string;
}

/**
 * One request as an adapter reads it from its framework.
 *
 * @example
 * const request: ListRouteRequest = { url: 'http://127.0.0.1:3000/api/public/clients/1/employees?limit=5', headers: req.headersDistinct, clientText: '1' };
 */
export interface ListRouteRequest {
  /** The absolute request address (messages name it). */
  readonly url: string;
  /** Node's `headersDistinct`, a plain header record or a fetch `Headers`. */
  readonly headers: HeaderInput | undefined;
  /** The client id path parameter, decoded; undefined when the route has none. */
  readonly clientText: string | undefined;
}

/**
 * Serves one list request of a route: resolves the client (404 envelope when
 * unknown), then answers exactly what `handleListRequest` answers. Never
 * throws.
 *
 * @example
 * const response = await serveListRoute({ url, headers: req.headersDistinct, clientText: req.params.client_id }, options);
 */
export async function serveListRoute(request: ListRouteRequest, options: ListRouteOptions): Promise<ListResponse> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    return { status: 400, headers: {}, body: undefined };
  }
  const raw = request.clientText ?? '';
  let clientId: string | number | undefined;
  try {
    clientId = options.resolveClient === undefined ? raw : await options.resolveClient(raw);
  } catch (error) {
    options.onError?.(error);
    return errorResponse({ kind: 'internal', message: 'The request could not be served.' });
  }
  if (clientId === undefined || request.clientText === undefined) {
    const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
    return errorResponse({ kind: 'not-found', message: `Client ${shown} was not found.` });
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  const { clientParam: _param, resolveClient: _resolve, route, ...handler } = options;
  return handleListRequest(
    { query: url.searchParams, headers: listHeaders(request.headers), url: request.url },
    { ...handler, route: route === undefined ? path : route(clientId, path), clientId },
  );
}

/**
 * The response body as the text to send (`''` when there is none).
 *
 * @example
 * responseText({ status: 401, headers: {}, body: undefined }); // ''
 */
export function responseText(response: ListResponse): string {
  return response.body === undefined ? '' : JSON.stringify(response.body);
}
