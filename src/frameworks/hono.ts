/**
 * `wepql/hono`: a list route for Hono 4 (on Node through `@hono/node-server`,
 * or any runtime with fetch). The handler answers exactly what
 * `handleListRequest` answers: status, headers and the PascalCase envelopes.
 * Authentication stays the application's (a middleware before it).
 *
 * @packageDocumentation
 */
import type { Context } from 'hono';
import type { HeaderInput } from '../list/params.js';
import type { ListRouteOptions } from './list-route.js';
import { createListRoute, localAuthority, requestAddress, responseBytes } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * A Hono handler serving one list route. On a client-scoped route (a data
 * source created with `clientField`) the client id comes from the path
 * parameter `client_id` (or `options.clientParam`); a route without a client
 * serves a source without `clientField`. Options that contradict the source
 * throw here, when the handler is created; a route pattern that contradicts
 * it is reported to `onError` (500) on its first request.
 *
 * @example
 * import { Hono } from 'hono';
 * import { listHandler } from 'wepql/hono';
 * const app = new Hono();
 * app.get('/api/public/clients/:client_id/employees', listHandler({ source, schema: employeeSchema, codec }));
 * app.get('/api/public/products', listHandler({ source: products, schema: productSchema, codec }));
 */
export function listHandler(options: ListRouteOptions): (c: Context) => Promise<Response> {
  const route = createListRoute(options);
  return async (c) => {
    const incoming = nodeIncoming(c);
    const response = await route.serve({
      url: incoming === undefined ? c.req.url : requestAddress(incoming.url ?? c.req.path, 'http', localAuthority(incoming.socket)),
      headers: incoming?.headersDistinct ?? c.req.raw.headers,
      routePattern: c.req.routePath,
      params: c.req.param(),
      // Aborted when the client goes away (on Node, @hono/node-server aborts it when the connection closes).
      signal: c.req.raw.signal,
    });
    return new Response(response.body === undefined ? null : responseBytes(response), {
      status: response.status,
      headers: response.headers,
    });
  };
}

interface NodeIncoming {
  readonly url?: string;
  /** Keeps repeated headers apart; fetch `Headers` join them. */
  readonly headersDistinct?: HeaderInput;
  readonly socket?: { readonly localAddress?: string; readonly localPort?: number };
}

/** On Node, `@hono/node-server` passes the incoming message as `c.env.incoming`. */
function nodeIncoming(c: Context): NodeIncoming | undefined {
  const env: unknown = c.env;
  const incoming =
    typeof env === 'object' && env !== null && Object.hasOwn(env, 'incoming') ? (env as { incoming: unknown }).incoming : undefined;
  return typeof incoming === 'object' && incoming !== null && 'headersDistinct' in incoming ? (incoming as NodeIncoming) : undefined;
}
