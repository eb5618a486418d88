/**
 * `wepql/fastify`: a list route for Fastify 5. The handler answers exactly
 * what `handleListRequest` answers: status, headers and the PascalCase
 * envelopes. Authentication stays the application's (an `onRequest` hook).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ListRouteOptions } from './list-route.js';
import { responseText, serveListRoute } from './list-route.js';

export type { ListRouteOptions } from './list-route.js';

/**
 * A Fastify route handler serving one list route; the client id comes from
 * the path parameter `client_id` (or `options.clientParam`).
 *
 * @example
 * import Fastify from 'fastify';
 * import { listHandler } from 'wepql/fastify';
 * const app = Fastify();
 * app.get('/api/public/clients/:client_id/employees', listHandler({ source, schema: employeeSchema, codec }));
 */
export function listHandler(options: ListRouteOptions): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const param = options.clientParam ?? 'client_id';
  return async (request, reply) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    const value = Object.hasOwn(params, param) ? params[param] : undefined;
    const url = `${request.protocol}://${request.host}${request.raw.url ?? request.url}`;
    const response = await serveListRoute(
      { url, headers: request.raw.headersDistinct, clientText: typeof value === 'string' ? value : undefined },
      options,
    );
    reply.code(response.status).headers(response.headers);
    // A string payload with the content type already set goes out byte for byte.
    await reply.send(response.body === undefined ? undefined : responseText(response));
  };
}
