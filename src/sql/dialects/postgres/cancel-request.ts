/**
 * PostgreSQL's protocol cancel request: a 16-byte message on a connection
 * of its own to the server (or to the pooler in front of it) naming the
 * backend by the process id and secret key it sent at startup. It takes no
 * connection of a pool, so a saturated pool can still cancel. It needs
 * Node's sockets (`node:net`, reached through `process.getBuiltinModule`
 * where the runtime has it, so this folder still imports no Node built-in);
 * elsewhere, or for a client that does not show its keys, there is none and
 * the runner cancels with `pg_cancel_backend` instead.
 */

/**
 * Where and whom a cancel request names: the keys a node-postgres `Client`
 * keeps from its connection's startup (`processID`, `secretKey`) and the
 * address it connected to.
 *
 * @example
 * const keys: CancelKeys = { processID: 4242, secretKey: -1234567, host: '127.0.0.1', port: 5432 };
 */
export interface CancelKeys {
  readonly processID: number;
  readonly secretKey: number;
  /** A host name or address, or the directory of a Unix socket (starts with `/`). */
  readonly host: string;
  readonly port: number;
}

/** The cancel request code of the protocol (1234 in the high half, 5678 in the low). */
const CANCEL_REQUEST_CODE = 80877102;
/** How long a cancel request may take to be taken (the server closes the connection once it has signalled the backend). */
const CANCEL_SEND_MS = 2_000;

interface NetSocket {
  once(event: 'close', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'connect', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(data: Uint8Array): unknown;
  destroy(): unknown;
  setTimeout(ms: number, listener: () => void): unknown;
}
type Connect = (options: { host?: string; port?: number; path?: string }) => NetSocket;

const netConnect: Connect | undefined = (() => {
  const get = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule;
  if (typeof get !== 'function') return undefined;
  try {
    const net = get('node:net') as { connect?: Connect } | undefined;
    return typeof net?.connect === 'function' ? net.connect : undefined;
  } catch {
    return undefined;
  }
})();

/**
 * The cancel keys of a pooled client, when it is a node-postgres `Client`
 * (or shows the same fields) and this runtime can open a socket; undefined
 * otherwise.
 *
 * @example
 * const keys = cancelKeysOf(await pool.connect()); // { processID, secretKey, host, port } with `pg`
 */
export function cancelKeysOf(client: unknown): CancelKeys | undefined {
  if (netConnect === undefined || typeof client !== 'object' || client === null) return undefined;
  const c = client as { processID?: unknown; secretKey?: unknown; host?: unknown; port?: unknown };
  const port = Number(c.port);
  if (!isInt32(c.processID) || !isInt32(c.secretKey) || typeof c.host !== 'string' || c.host === '') return undefined;
  if (!(Number.isSafeInteger(port) && port > 0 && port < 65_536)) return undefined;
  return { processID: c.processID, secretKey: c.secretKey, host: c.host, port };
}

function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= -0x8000_0000 && value <= 0xffff_ffff;
}

/**
 * Sends a cancel request and resolves once the server has taken it (it
 * closes the connection after signalling the backend): `true`, or `false`
 * when it could not be sent (no socket in this runtime, refused, or no
 * answer within 2 s). Never rejects.
 *
 * @example
 * if (!(await sendCancelRequest(keys))) await pool.query('SELECT pg_cancel_backend($1)', [pid]);
 */
export function sendCancelRequest(keys: CancelKeys): Promise<boolean> {
  const connect = netConnect;
  if (connect === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    let sent = false;
    let socket: NetSocket;
    try {
      socket = connect(keys.host.startsWith('/') ? { path: `${keys.host}/.s.PGSQL.${keys.port}` } : { host: keys.host, port: keys.port });
    } catch {
      resolve(false);
      return;
    }
    socket.on('error', () => undefined);
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(sent));
    socket.setTimeout(CANCEL_SEND_MS, () => {
      sent = false;
      socket.destroy();
    });
    socket.once('connect', () => {
      const message = new Uint8Array(16);
      const view = new DataView(message.buffer);
      view.setInt32(0, 16);
      view.setInt32(4, CANCEL_REQUEST_CODE);
      view.setUint32(8, keys.processID >>> 0);
      view.setUint32(12, keys.secretKey >>> 0);
      sent = true;
      socket.end(message);
    });
  });
}
