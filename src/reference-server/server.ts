/**
 * The reference list server: `GET /api/public/clients/{client_id}/employees`
 * over Node's `http`, with bearer-token, versioning (docs/reference.md §"Envelopes") and 404
 * behaviour around `handleListRequest`. Small on purpose: it shows how to
 * put the list kit behind any HTTP stack.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Limits } from '../diagnostics/limits.js';
import type { DataSource } from '../list/data-source.js';
import type { ListResponse } from '../list/envelope.js';
import { errorResponse } from '../list/envelope.js';
import { handleListRequest } from '../list/handler.js';
import { listHeaders } from '../list/headers.js';
import { createMemoryDataSource } from '../sources/memory-source.js';
import type { TokenSecret } from '../list/token.js';
import { createTokenCodec } from '../list/token.js';
import { checkApiVersion } from '../list/version.js';
import type { Schema } from '../schema/schema.js';
import { employeeSchema } from '../sample/employee-schema.js';

/**
 * Options of `createListServer`.
 *
 * @example
 * createListServer({ records: employees, authToken: 'demo-token', ttlSeconds: 60, port: 0 } satisfies ListServerOptions);
 */
export interface ListServerOptions {
  /** Records to serve from memory (employees of several clients). Give this or `source`. */
  readonly records?: readonly unknown[];
  /** A data source (such as PostgreSQL) to serve from instead of `records`; needs `clientExists`. */
  readonly source?: DataSource;
  /** Whether a client id names a known client; default for `records`: some record has that `ClientId`. */
  readonly clientExists?: (clientId: number) => Promise<boolean>;
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

/** The one route served, with the client id captured. */
const ROUTE = /^\/api\/public\/clients\/([^/]+)\/employees\/?$/i;
const CLIENT_ID = /^\d{1,15}$/;

/**
 * Creates the reference server. Behaviour, in order: unknown path → 404
 * without a body; not GET/HEAD → 405; missing or wrong bearer token → 401
 * without a body and `WWW-Authenticate: Bearer error="invalid_token"`;
 * unsupported `api-version`/`x-api-version` → 400 `UnsupportedApiVersion`;
 * unknown client → 404 envelope; then the list contract.
 *
 * @example
 * const app = createListServer({ records: employees, authToken: 'demo-token' });
 * const { url } = await app.listen();
 * await fetch(`${url}/api/public/clients/1/employees?limit=5`, { headers: { authorization: 'Bearer demo-token' } });
 * await app.close();
 */
export function createListServer(options: ListServerOptions): ListServer {
  const schema = options.schema ?? employeeSchema;
  const authToken = options.authToken ?? randomBytes(24).toString('base64url');
  const expected = createHash('sha256').update(authToken).digest();
  const codec = createTokenCodec({
    secret: options.secret ?? randomBytes(32),
    ...(options.previousSecrets ? { previousSecrets: options.previousSecrets } : {}),
    ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }),
    ...(options.now ? { now: options.now } : {}),
  });
  const log = options.log ?? (() => {});

  let source: DataSource;
  let clientExists: (clientId: number) => Promise<boolean>;
  if (options.source !== undefined) {
    source = options.source;
    if (options.clientExists === undefined) throw new TypeError('createListServer: a custom source needs clientExists');
    clientExists = options.clientExists;
  } else {
    const records = options.records ?? [];
    source = createMemoryDataSource(records, {
      schema,
      clientField: 'ClientId',
      deleted: { field: 'RowStatus', value: 3 },
      tieBreaker: 'Id',
    });
    const clients = new Set<number>();
    for (const r of records) {
      const id = typeof r === 'object' && r !== null && Object.hasOwn(r, 'ClientId') ? (r as { ClientId: unknown }).ClientId : undefined;
      if (typeof id === 'number') clients.add(id);
    }
    clientExists = options.clientExists ?? (async (id) => clients.has(id));
  }

  let base = '';
  const authorized = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
    if (match === null) return false;
    // Hash both sides so the comparison is constant-time whatever the lengths.
    return timingSafeEqual(createHash('sha256').update(match[1]!).digest(), expected);
  };

  const respond = async (req: IncomingMessage): Promise<ListResponse> => {
    // Node's parser already refuses raw bytes above 0x7f in the target (400), so it is ASCII here.
    const target = req.url ?? '/';
    let url: URL;
    try {
      url = new URL(target, 'http://localhost');
    } catch {
      // An absolute-form target such as `http://[` that no URL parser accepts: the request itself is malformed.
      return { status: 400, headers: {}, body: undefined };
    }
    const route = ROUTE.exec(url.pathname);
    if (route === null) return { status: 404, headers: {}, body: undefined };
    if (req.method !== 'GET' && req.method !== 'HEAD') return { status: 405, headers: { allow: 'GET, HEAD' }, body: undefined };
    if (!authorized(req)) {
      return { status: 401, headers: { 'www-authenticate': 'Bearer error="invalid_token"' }, body: undefined };
    }
    const address = base + target;
    const versionError = checkApiVersion(req.headers, { address });
    if (versionError !== undefined) return errorResponse(versionError);
    const idText = decodeURIComponentSafe(route[1]!);
    const clientId = CLIENT_ID.test(idText) ? Number(idText) : undefined;
    if (clientId === undefined || !(await clientExists(clientId))) {
      const shown = idText.length > 40 ? `${idText.slice(0, 40)}…` : idText;
      return errorResponse({ kind: 'not-found', message: `Client ${shown} was not found.` });
    }
    return handleListRequest(
      { query: url.searchParams, headers: listHeaders(req.headersDistinct), url: address },
      {
        source,
        schema,
        codec,
        route: `/api/public/clients/${clientId}/employees`,
        clientId,
        apiVersions: false,
        ...(options.maxLimit === undefined ? {} : { maxLimit: options.maxLimit }),
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        onError: (error) => log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
      },
    );
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    respond(req)
      .catch((error: unknown): ListResponse => {
        log(`error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        return errorResponse({ kind: 'internal', message: 'The request could not be served.' });
      })
      .then((response) => {
        const text = response.body === undefined ? '' : JSON.stringify(response.body);
        res.writeHead(response.status, { ...response.headers, 'content-length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
        log(`${req.method} ${(req.url ?? '').slice(0, 200)} ${response.status} ${(performance.now() - started).toFixed(1)} ms`);
      });
  });

  return {
    server,
    authToken,
    listen() {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
          server.off('error', reject);
          const { port, address, family } = server.address() as AddressInfo;
          base = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
          resolve({ url: base, port });
        });
      });
    },
    close() {
      return new Promise((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
    },
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
