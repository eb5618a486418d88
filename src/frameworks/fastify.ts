/**
 * `wepql/fastify`: a list route for Fastify 5. The handler answers exactly
 * what `handleListRequest` answers: status, headers and the PascalCase
 * envelopes. Authentication stays the application's (an `onRequest` hook).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ListRouteOptions } from './list-route.js';
import { createListRoute, localAuthority, requestAddress, responseText } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * A Fastify route handler serving one list route. On a client-scoped route
 * (a data source created with `clientField`) the client id comes from the
 * path parameter `client_id` (or `options.clientParam`); a route without a
 * client serves a source without `clientField`. Options that contradict the
 * source throw here, when the handler is created; a route pattern that
 * contradicts it is reported to `onError` (500) on its first request.
 *
 * @example
 * import Fastify from 'fastify';
 * import { listHandler } from 'wepql/fastify';
 * const app = Fastify();
 * app.get('/api/public/clients/:client_id/employees', listHandler({ source, schema: employeeSchema, codec }));
 * app.get('/api/public/products', listHandler({ source: products, schema: productSchema, codec }));
 */
export function listHandler(options: ListRouteOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const route = createListRoute(options);
  return async (request, reply) => {
    const response = await route.serve({
      url: requestAddress(request.raw.url ?? request.url, request.protocol, localAuthority(request.raw.socket)),
      headers: request.raw.headersDistinct,
      routePattern: request.routeOptions.url ?? request.url,
      params: (request.params ?? {}) as Record<string, unknown>,
    });
    reply.code(response.status).headers(response.headers);
    // A string payload with the content type already set goes out byte for byte.
    await reply.send(response.body === undefined ? undefined : responseText(response));
  };
}
