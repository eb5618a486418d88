/**
 * `wepql/hono`: a list route for Hono 4 (on Node through `@hono/node-server`,
 * or any runtime with fetch). The handler answers exactly what
 * `handleListRequest` answers: status, headers and the PascalCase envelopes.
 * Authentication stays the application's (a middleware before it).
 */
import type { Context } from 'hono';
import type { HeaderInput } from '../list/params.js';
import type { ListRouteOptions } from './list-route.js';
import { responseText, serveListRoute } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * A Hono handler serving one list route; the client id comes from the path
 * parameter `client_id` (or `options.clientParam`).
 *
 * @example
 * import { Hono } from 'hono';
 * import { listHandler } from 'wepql/hono';
 * const app = new Hono();
 * app.get('/api/public/clients/:client_id/employees', listHandler({ source, schema: employeeSchema, codec }));
 */
export function listHandler(options: ListRouteOptions): (c: Context) => Promise<Response> {
  const param = options.clientParam ?? 'client_id';
  return async (c) => {
    const response = await serveListRoute({ url: c.req.url, headers: requestHeaders(c), clientText: c.req.param(param) }, options);
    return new Response(response.body === undefined ? null : responseText(response), { status: response.status, headers: response.headers });
  };
}

/**
 * On Node, `@hono/node-server` passes the incoming message as `c.env.incoming`,
 * whose `headersDistinct` keeps repeated headers apart; fetch `Headers` join them.
 */
function requestHeaders(c: Context): HeaderInput {
  const env: unknown = c.env;
  const incoming = typeof env === 'object' && env !== null && Object.hasOwn(env, 'incoming') ? (env as { incoming: unknown }).incoming : undefined;
  const distinct =
    typeof incoming === 'object' && incoming !== null && 'headersDistinct' in incoming ? (incoming as { headersDistinct: unknown }).headersDistinct : undefined;
  return typeof distinct === 'object' && distinct !== null ? (distinct as HeaderInput) : c.req.raw.headers;
}
