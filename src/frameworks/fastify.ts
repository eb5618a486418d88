/**
 * `wepql/fastify`: a list route for Fastify 5. The handler answers exactly
 * what `handleListRequest` answers: status, headers and the PascalCase
 * envelopes. Authentication stays the application's (an `onRequest` hook).
 *
 * @packageDocumentation
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HeaderInput } from '../list/params.js';
import type { ListRouteOptions } from './list-route.js';
import { createListRoute, localAuthority, requestAddress, responseBuffer } from './list-route.js';

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
    // A client that goes away before its answer (the response closes unfinished) cancels the request's statements.
    const gone = new AbortController();
    const raw: Partial<Pick<typeof reply.raw, 'once' | 'writableFinished'>> = reply.raw;
    raw.once?.('close', () => {
      if (raw.writableFinished !== true) gone.abort(new Error('the client closed the connection'));
    });
    const response = await route.serve({
      url: requestAddress(request.raw.url ?? request.url, request.protocol, localAuthority(request.raw.socket)),
      headers: requestHeaders(request),
      routePattern: request.routeOptions.url ?? request.url,
      params: (request.params ?? {}) as Record<string, unknown>,
      signal: gone.signal,
    });
    reply.code(response.status).headers(response.headers);
    // A Buffer payload with the content type already set goes out byte for byte.
    await reply.send(response.body === undefined ? undefined : responseBuffer(response));
  };
}

/**
 * The request's headers with each header line kept apart. `request.headers`
 * is what every Fastify request has — served from a socket, by `inject`
 * (light-my-request), or by a serverless adapter that injects — and it is
 * what hooks see and may change; but Node joins two lines of one header
 * with ", ", which would glue two `x-api-filter` lines into one filter. So a
 * header whose value is exactly the join of its lines in `rawHeaders` (a
 * name sent on more than one line) is read line by line; any other value is
 * read as `request.headers` has it.
 */
function requestHeaders(request: FastifyRequest): HeaderInput {
  const headers = request.headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const raw: unknown = request.raw.rawHeaders;
  if (!Array.isArray(raw) || raw.length === 0) return headers;
  const lines = new Map<string, string[]>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name: unknown = raw[i];
    const value: unknown = raw[i + 1];
    if (typeof name !== 'string' || typeof value !== 'string') continue;
    const key = name.toLowerCase();
    const seen = lines.get(key);
    if (seen === undefined) lines.set(key, [value]);
    else seen.push(value);
  }
  // A prototype-free record: a header named `__proto__` stays an ordinary, absent-from-the-prototype name.
  const out = Object.create(null) as Record<string, string | readonly string[] | undefined>;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    const split = lines.get(name);
    out[name] = split !== undefined && split.length > 1 && value === split.join(', ') ? split : value;
  }
  return out;
}
