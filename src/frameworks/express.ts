/**
 * `wepql/express`: a list route for Express 5. The handler answers exactly
 * what `handleListRequest` answers: status, headers and the PascalCase
 * envelopes. Authentication stays the application's (a middleware before it).
 *
 * @packageDocumentation
 */
import type { ListRouteOptions } from './list-route.js';
import { createListRoute, localAuthority, requestAddress, responseBuffer } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * The parts of an Express request the handler reads (Express's `Request` fits).
 *
 * @example
 * const req: ExpressLikeRequest = expressRequest; // from app.get(path, (req, res) => …)
 */
export interface ExpressLikeRequest {
  readonly params: Readonly<Record<string, string | string[] | undefined>>;
  /** The request target as sent (origin-form, or absolute-form through a proxy). */
  readonly originalUrl: string;
  /** The path the router this route belongs to was mounted at (`''` for the app itself). */
  readonly baseUrl: string;
  /** The matched route; its `path` is the pattern the route was registered with. */
  readonly route?: { readonly path: unknown } | undefined;
  readonly protocol: string;
  readonly headersDistinct: Readonly<Record<string, string[] | undefined>>;
  /** The connection, whose local address names the server in messages (the `Host` header never does). */
  readonly socket?: { readonly localAddress?: string | undefined; readonly localPort?: number | undefined } | undefined;
}

/**
 * The parts of an Express response the handler writes (Express's `Response` fits).
 *
 * @example
 * const res: ExpressLikeResponse = expressResponse;
 */
export interface ExpressLikeResponse {
  /** Sets the status code. */
  status(code: number): this;
  /** Sets response headers. */
  set(headers: Record<string, string>): this;
  /** Sends an envelope: its JSON as UTF-8 bytes (a Node `Buffer`). */
  send(body: string | Uint8Array): this;
  /** Ends a response without a body (401-style answers carry none). */
  end(): this;
  /** Node's `close` event: a response closed before it finished means the client went away. */
  once?(event: 'close', listener: () => void): unknown;
  readonly writableFinished?: boolean;
}

/**
 * An Express route handler serving one list route. On a client-scoped route
 * (a data source created with `clientField`) the client id comes from the
 * path parameter `client_id` (or `options.clientParam`); a route without a
 * client serves a source without `clientField`. Options that contradict the
 * source throw here, when the handler is created; a route pattern that
 * contradicts it is reported to `onError` (500) on its first request.
 *
 * @example
 * import express from 'express';
 * import { listHandler } from 'wepql/express';
 * const app = express();
 * app.get('/api/public/clients/:client_id/employees', requireBearer, listHandler({ source, schema: employeeSchema, codec }));
 * app.get('/api/public/products', requireBearer, listHandler({ source: products, schema: productSchema, codec }));
 */
export function listHandler(
  options: ListRouteOptions,
): (req: ExpressLikeRequest, res: ExpressLikeResponse, next: (error?: unknown) => void) => void {
  const route = createListRoute(options);
  return (req, res, next) => {
    const path = req.route?.path;
    // A client that goes away before its answer cancels the request's statements.
    const gone = new AbortController();
    res.once?.('close', () => {
      if (res.writableFinished !== true) gone.abort(new Error('the client closed the connection'));
    });
    route
      .serve({
        url: requestAddress(req.originalUrl, req.protocol, localAuthority(req.socket)),
        headers: req.headersDistinct,
        routePattern: `${req.baseUrl}${typeof path === 'string' ? path : String(path ?? '')}`,
        params: req.params,
        signal: gone.signal,
      })
      .then((response) => {
        res.status(response.status).set(response.headers);
        if (response.body === undefined) res.end();
        else res.send(responseBuffer(response));
      }, next);
  };
}
