/**
 * The reference list server: `GET /api/public/clients/{client_id}/employees`
 * (or another path, with or without a client) over Node's `http`, with
 * bearer-token, versioning (docs/reference.md §"Envelopes") and 404 behaviour around `handleListRequest`. Small on purpose: it shows how to
 * put the list kit behind any HTTP stack.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Limits } from '../diagnostics/limits.js';
import type { AdmissionOptions } from '../list/admission.js';
import type { CountStrategy } from '../list/count-strategy.js';
import { checkCountStrategy } from '../list/count-strategy.js';
import { createAdmission } from '../list/admission.js';
import type { DataSource } from '../list/data-source.js';
import type { ListResponse } from '../list/envelope.js';
import { errorResponse } from '../list/envelope.js';
import type { ListHandlerOptions } from '../list/handler.js';
import { handleListRequest } from '../list/handler.js';
import { listHeaders } from '../list/headers.js';
import { jsonBytes } from '../list/json-bytes.js';
import { createMemoryDataSource } from '../sources/memory-source.js';
import type { TokenSecret } from '../list/token.js';
import { createTokenCodec } from '../list/token.js';
import { checkApiVersion } from '../list/version.js';
import type { Schema } from '../schema/schema.js';
import { employeeSchema } from '../schema/employee-schema.js';
import { requestAddress } from '../frameworks/list-route.js';

/**
 * Options of `createListServer`.
 *
 * @example
 * createListServer({ records: employees, authToken: 'demo-token', ttlSeconds: 60, port: 0 } satisfies ListServerOptions);
 */
export interface ListServerOptions {
  /** Records to serve from memory (employees of several clients). Give this or `source`. */
  readonly records?: readonly unknown[];
  /**
   * The route served; default `/api/public/clients/{client_id}/employees`.
   * A `{client_id}` segment makes the list per client (`records` are scoped
   * by their `ClientId`; a `source` must be created with `clientField`); a
   * path without one, such as `/api/public/products`, serves one list that
   * is not per client (a `source` created without `clientField`).
   */
  readonly path?: string;
  /** A data source (such as PostgreSQL) to serve from instead of `records`; on a client path it needs `clientExists`. */
  readonly source?: DataSource;
  /** Whether a client id names a known client (client paths only); default for `records`: some record has that `ClientId`. */
  readonly clientExists?: (clientId: number) => Promise<boolean>;
  /**
   * How long a `clientExists` answer for a `source` is reused, in ms (default 5,000; 0 asks on every
   * request). Up to 10,000 clients are remembered. A client created or removed is seen within this time.
   */
  readonly clientCheckTtlMs?: number;
  /** Default: the employee schema. */
  readonly schema?: Schema;
  /** The bearer token clients must send; default: a random one (read it back from the result). */
  readonly authToken?: string;
  /** Data token secret; default: random per server. */
  readonly secret?: TokenSecret;
  readonly previousSecrets?: readonly TokenSecret[];
  /** Data token lifetime; default 60. */
  readonly ttlSeconds?: number;
  /** Clock for data tokens (epoch ms); default `Date.now`. */
  readonly now?: () => number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  readonly maxLimit?: number;
  readonly limits?: Partial<Limits>;
  /** Receives one line per request and errors; default: silent. */
  readonly log?: (line: string) => void;
  /**
   * The queue, deadlines and single-flight in front of the source
   * (`createAdmission`; docs/server.md): default on, with the source's
   * `concurrency` (8 when it has none) and `createAdmission`'s defaults;
   * `false` for none (statements run as they arrive, without a deadline).
   */
  readonly admission?: AdmissionOptions | false;
  /**
   * How a first page's total is found: `'exact'` (default) or `{ estimateAbove, cacheTtlMs }`;
   * a total that is not exact is answered with `x-wepql-total: estimated` (docs/server.md, "Counting").
   */
  readonly count?: CountStrategy;
}

/**
 * A created (not yet listening) server.
 *
 * @example
 * const app: ListServer = createListServer({ records: employees }); const { url } = await app.listen(); await app.close();
 */
export interface ListServer {
  readonly server: Server;
  /** The bearer token clients must send. */
  readonly authToken: string;
  /** Starts listening; resolves with the base address, such as `http://127.0.0.1:8080`. */
  listen(): Promise<{ readonly url: string; readonly port: number }>;
  /** Stops accepting connections and closes idle keep-alive ones. */
  close(): Promise<void>;
}

/** The route served by default; `{client_id}` marks the client's segment. */
const DEFAULT_PATH = '/api/public/clients/{client_id}/employees';
const CLIENT_SEGMENT = '{client_id}';
const CLIENT_ID = /^\d{1,15}$/;
const EMPTY = new Uint8Array(0);

/** The route a server answers: its pattern, whether it names a client, and the list identity of a client's list. */
interface ServedRoute {
  readonly match: RegExp;
  readonly scoped: boolean;
  identity(clientId: number | undefined): string;
}

/** What answers one request's list part: the data source and how a client is known. */
interface ServedData {
  readonly source: DataSource;
  readonly clientExists: ((clientId: number) => Promise<boolean>) | undefined;
}

/**
 * Creates the reference server. Behaviour, in order: unknown path → 404
 * without a body; not GET/HEAD → 405; missing or wrong bearer token → 401
 * without a body and `WWW-Authenticate: Bearer error="invalid_token"`;
 * unsupported `api-version`/`x-api-version` → 400 `UnsupportedApiVersion`;
 * unknown client → 404 envelope (client-scoped paths only); then the list
 * contract. Throws a `TypeError` when the path and the data source disagree
 * about clients (see `ListServerOptions.path`).
 *
 * @example
 * const app = createListServer({ records: employees, authToken: 'demo-token' });
 * const { url } = await app.listen();
 * await fetch(`${url}/api/public/clients/1/employees?limit=5`, { headers: { authorization: 'Bearer demo-token' } });
 * await app.close();
 */
export function createListServer(options: ListServerOptions): ListServer {
  checkCountStrategy(options.count);
  const schema = options.schema ?? employeeSchema;
  const route = servedRoute(options.path ?? DEFAULT_PATH);
  const data = servedData(options, schema, route.scoped);
  const authToken = options.authToken ?? randomBytes(24).toString('base64url');
  const codec = createTokenCodec({
    secret: options.secret ?? randomBytes(32),
    ...(options.previousSecrets ? { previousSecrets: options.previousSecrets } : {}),
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
    ...(options.now ? { now: options.now } : {}),
  });
  const log = options.log ?? (() => {});
  const handler: Omit<ListHandlerOptions, 'route' | 'clientId'> = {
    source: data.source,
    schema,
    codec,
    apiVersions: false,
    ...(options.maxLimit === undefined ? {} : { maxLimit: options.maxLimit }),
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.count === undefined ? {} : { count: options.count }),
    ...(options.admission === false
      ? {}
      : { admission: createAdmission({ concurrency: data.source.concurrency ?? 8, ...options.admission }) }),
    onError: (error) => log(`error: ${errorText(error)}`),
  };
  let base = '';
  const respond = answerer({ route, data, handler, authorized: bearerCheck(authToken), base: () => base });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    // A client that goes away before its answer cancels the request's statements and lane work.
    const gone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) gone.abort(new Error('the client closed the connection'));
    });
    respond(req, gone.signal)
      .catch((error: unknown): ListResponse => {
        log(`error: ${errorText(error)}`);
        return errorResponse({ kind: 'internal', message: 'The request could not be served.' });
      })
      .then((response) => {
        // The body's bytes once (record by record, `jsonBytes`): their length is the content-length.
        const bytes = response.body === undefined ? EMPTY : jsonBytes(response.body);
        res.writeHead(response.status, { ...response.headers, 'content-length': bytes.length });
        res.end(req.method === 'HEAD' ? undefined : bytes);
        log(`${req.method} ${(req.url ?? '').slice(0, 200)} ${response.status} ${(performance.now() - started).toFixed(1)} ms`);
      });
  });
  return {
    server,
    authToken,
    listen: () => listenOn(server, options).then((bound) => ((base = bound.url), bound)),
    close: () => closeServer(server),
  };
}

/**
 * The route of a path such as `/api/public/clients/{client_id}/employees`;
 * throws a `TypeError` for a path that is not one.
 */
function servedRoute(path: string): ServedRoute {
  const segments = path.split('/');
  const clientSegments = segments.filter((s) => s === CLIENT_SEGMENT).length;
  if (!path.startsWith('/') || clientSegments > 1 || segments.some((s) => s !== CLIENT_SEGMENT && /[{}?#%:*()]/.test(s))) {
    throw new TypeError(
      `createListServer: path must be an absolute path whose segments are literal text, with at most one ${CLIENT_SEGMENT} segment; got ${JSON.stringify(path)}`,
    );
  }
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  const pattern = trimmed
    .split('/')
    .map((s) => (s === CLIENT_SEGMENT ? '([^/]+)' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return {
    match: new RegExp(`^${pattern}/?$`, 'i'),
    scoped: clientSegments === 1,
    identity: (clientId) => (clientId === undefined ? trimmed : trimmed.replace(CLIENT_SEGMENT, String(clientId))),
  };
}

/**
 * The data source and client check for the options; throws a `TypeError`
 * when they disagree with whether the path names a client.
 */
function servedData(options: ListServerOptions, schema: Schema, scoped: boolean): ServedData {
  const path = options.path ?? DEFAULT_PATH;
  if (options.source !== undefined) {
    if (options.source.clientScoped === false && scoped) {
      throw new TypeError(`createListServer: the path ${path} names a client, but the data source was created without clientField`);
    }
    if (options.source.clientScoped === true && !scoped) {
      throw new TypeError(
        `createListServer: the path ${path} has no ${CLIENT_SEGMENT} segment, but the data source serves one client's rows (created with clientField)`,
      );
    }
    if (scoped && options.clientExists === undefined)
      throw new TypeError('createListServer: a custom source on a client path needs clientExists');
  }
  if (!scoped && options.clientExists !== undefined) {
    throw new TypeError(`createListServer: clientExists is given, but the path ${path} has no ${CLIENT_SEGMENT} segment`);
  }
  if (options.source !== undefined) {
    const ttl = options.clientCheckTtlMs ?? CLIENT_CHECK_TTL_MS;
    if (!(Number.isFinite(ttl) && ttl >= 0))
      throw new TypeError(`createListServer: clientCheckTtlMs must be a number of ms ≥ 0, got ${ttl}`);
    const check = options.clientExists;
    return { source: options.source, clientExists: check && ttl > 0 ? rememberedClientCheck(check, ttl, options.now ?? Date.now) : check };
  }
  const records = options.records ?? [];
  const source = createMemoryDataSource(records, {
    schema,
    ...(scoped ? { clientField: 'ClientId' } : {}),
    deleted: { field: 'RowStatus', value: 3 },
    tieBreaker: 'Id',
  });
  if (!scoped) return { source, clientExists: undefined };
  const clients = new Set<number>();
  for (const r of records) {
    const id = typeof r === 'object' && r !== null && Object.hasOwn(r, 'ClientId') ? (r as { ClientId: unknown }).ClientId : undefined;
    if (typeof id === 'number') clients.add(id);
  }
  return { source, clientExists: options.clientExists ?? (async (id) => clients.has(id)) };
}

const CLIENT_CHECK_TTL_MS = 5_000;
const CLIENT_CHECK_ENTRIES = 10_000;

/**
 * `check` with its answers reused for `ttlMs`: without it every request sends the database a
 * statement of its own (`SELECT 1 … LIMIT 1`) before its page, and holds a second pool slot for it.
 * Bounded: past `CLIENT_CHECK_ENTRIES` the oldest answer goes, so distinct ids cannot grow it.
 * Concurrent checks of one id share one statement.
 */
function rememberedClientCheck(
  check: (clientId: number) => Promise<boolean>,
  ttlMs: number,
  now: () => number,
): (clientId: number) => Promise<boolean> {
  const known = new Map<number, { readonly exists: boolean; readonly until: number }>();
  const asking = new Map<number, Promise<boolean>>();
  return async (clientId) => {
    const hit = known.get(clientId);
    if (hit !== undefined && hit.until > now()) return hit.exists;
    const running = asking.get(clientId);
    if (running !== undefined) return running;
    const answer = check(clientId).then(
      (exists) => {
        asking.delete(clientId);
        known.delete(clientId);
        if (known.size >= CLIENT_CHECK_ENTRIES) known.delete(known.keys().next().value!);
        known.set(clientId, { exists, until: now() + ttlMs });
        return exists;
      },
      (error: unknown) => {
        asking.delete(clientId);
        throw error;
      },
    );
    asking.set(clientId, answer);
    return answer;
  };
}

/** A constant-time check of the `Authorization: Bearer` header against the server's token. */
function bearerCheck(authToken: string): (req: IncomingMessage) => boolean {
  const expected = createHash('sha256').update(authToken).digest();
  return (req) => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
    if (match === null) return false;
    // Hash both sides so the comparison is constant-time whatever the lengths.
    return timingSafeEqual(createHash('sha256').update(match[1]!).digest(), expected);
  };
}

/** Answers one request: routing, method, bearer token, version, client, then the list contract. */
function answerer(parts: {
  readonly route: ServedRoute;
  readonly data: ServedData;
  readonly handler: Omit<ListHandlerOptions, 'route' | 'clientId'>;
  readonly authorized: (req: IncomingMessage) => boolean;
  readonly base: () => string;
}): (req: IncomingMessage, signal: AbortSignal) => Promise<ListResponse> {
  const { route, data, handler, authorized } = parts;
  return async (req, signal) => {
    // Node's parser already refuses raw bytes above 0x7f in the target (400), so it is ASCII here.
    const target = req.url ?? '/';
    let url: URL;
    try {
      url = new URL(target, 'http://localhost');
    } catch {
      // An absolute-form target such as `http://[` that no URL parser accepts: the request itself is malformed.
      return { status: 400, headers: {}, body: undefined };
    }
    const matched = route.match.exec(url.pathname);
    if (matched === null) return { status: 404, headers: {}, body: undefined };
    if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, headers: { allow: 'GET, HEAD' }, body: undefined };
    if (!authorized(req)) return { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: undefined };
    const address = requestAddress(target, 'http', parts.base().replace(/^http:\/\//, ''));
    const versionError = checkApiVersion(req.headers, { address });
    if (versionError !== undefined) return errorResponse(versionError);
    let clientId: number | undefined;
    if (route.scoped) {
      const idText = decodeURIComponentSafe(matched[1]!);
      clientId = CLIENT_ID.test(idText) ? Number(idText) : undefined;
      if (clientId === undefined || !(await data.clientExists!(clientId))) {
        const shown = idText.length > 40 ? `${idText.slice(0, 40)}…` : idText;
        return errorResponse({ kind: 'not-found', message: `Client ${shown} was not found.` });
      }
    }
    return handleListRequest(
      { query: url.searchParams, headers: listHeaders(req.headersDistinct), url: address },
      { ...handler, route: route.identity(clientId), signal, ...(clientId === undefined ? {} : { clientId }) },
    );
  };
}

function listenOn(server: Server, options: ListServerOptions): Promise<{ readonly url: string; readonly port: number }> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      const { port, address, family } = server.address() as AddressInfo;
      resolve({ url: `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`, port });
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((error) => (error ? reject(error) : resolve()));
    server.closeIdleConnections();
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
