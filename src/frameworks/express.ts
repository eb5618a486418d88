/**
 * `wepql/express`: a list route for Express 5. The handler answers exactly
 * what `handleListRequest` answers: status, headers and the PascalCase
 * envelopes. Authentication stays the application's (a middleware before it).
 */
import type { ListRouteOptions } from './list-route.js';
import { responseText, serveListRoute } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * The parts of an Express request the handler reads (Express's `Request` fits).
 *
 * @example
 * const req: ExpressLikeRequest = expressRequest; // from app.get(path, (req, res) => …)
 */
export interface ExpressLikeRequest {
  readonly params: Readonly<Record<string, string | string[] | undefined>>;
  readonly originalUrl: string;
  readonly protocol: string;
  readonly headersDistinct: Readonly<Record<string, string[] | undefined>>;
  /** Reads a request header; the handler reads `host` to name the request's address. */
  get(name: 'host'): string | undefined;
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
  /** Sends the JSON text of an envelope. */
  send(body: string): this;
  /** Ends a response without a body (401-style answers carry none). */
  end(): this;
}

/**
 * An Express route handler serving one list route; the client id comes from
 * the path parameter `client_id` (or `options.clientParam`).
 *
 * @example
 * import express from 'express';
 * import { listHandler } from 'wepql/express';
 * const app = express();
 * app.get('/api/public/clients/:client_id/employees', requireBearer, listHandler({ source, schema: employeeSchema, codec }));
 */
export function listHandler(options: ListRouteOptions): (req: ExpressLikeRequest, res: ExpressLikeResponse, next: (error?: unknown) => void) => void {
  const param = options.clientParam ?? 'client_id';
  return (req, res, next) => {
    const value = Object.hasOwn(req.params, param) ? req.params[param] : undefined;
    const url = `${req.protocol}://${req.get('host') ?? 'localhost'}${req.originalUrl}`;
    serveListRoute({ url, headers: req.headersDistinct, clientText: typeof value === 'string' ? value : undefined }, options).then((response) => {
      res.status(response.status).set(response.headers);
      if (response.body === undefined) res.end();
      else res.send(responseText(response));
    }, next);
  };
}
