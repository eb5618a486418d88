/**
 * A small HTTP client for the end-to-end tests: one request over a real
 * socket, the body parsed as JSON when there is one.
 */
import { request as httpRequest } from 'node:http';
import type { Agent } from 'node:http';
import { connect } from 'node:net';

/**
 * What `get` returns.
 *
 * @example
 * const r: HttpResult = await get(`${url}/api/public/clients/1/employees?limit=5`, AUTH); r.body.Data.length; // 5
 */
export interface HttpResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw body text ('' when empty). */
  readonly text: string;
  /** The body parsed as JSON, or undefined when empty. */
  readonly body: any;
}

/**
 * Sends one request (GET by default) and reads the whole response.
 *
 * @example
 * const r = await get(`${url}/api/public/clients/1/employees?limit=5`, { authorization: 'Bearer t' });
 */
export function get(
  url: string,
  headers: Record<string, string> = {},
  options: { method?: string; agent?: Agent } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers, ...(options.agent ? { agent: options.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch (error) {
            reject(new Error(`response is not JSON: ${text.slice(0, 200)} (${String(error)})`));
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Builds a URL with query parameters, encoding each value.
 *
 * @example
 * withQuery('http://x/list', { limit: '5', filter: "A.Equal('b c')" }); // 'http://x/list?limit=5&filter=A.Equal%28%27b+c%27%29'
 */
export function withQuery(url: string, query: Record<string, string>): string {
  const q = new URLSearchParams(query).toString();
  return q === '' ? url : `${url}?${q}`;
}

/**
 * Sends raw request bytes over a socket (for requests no HTTP client would
 * form: malformed targets, raw UTF-8 in the URL) and resolves with the status
 * and the body text of the response. Sends `Connection: close` itself.
 *
 * @example
 * const r = await rawRequest(base, 'GET http://[ HTTP/1.1', { authorization: 'Bearer t' }); // { status: 400, text: '' }
 */
export function rawRequest(
  base: string,
  requestLine: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(base);
  const head = [
    requestLine,
    `Host: ${hostname}:${port}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    'Connection: close',
    '',
    '',
  ];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(Buffer.from(head.join('\r\n'), 'utf8')));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (status === null) return reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`));
      const split = text.indexOf('\r\n\r\n');
      resolve({ status: Number(status[1]), text: split < 0 ? '' : text.slice(split + 4) });
    });
  });
}
