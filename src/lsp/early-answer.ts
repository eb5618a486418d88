/**
 * The first answer of `wepql lsp`, written before the protocol library
 * loads. An editor's first message is `initialize`, and its answer — the
 * server's capabilities — is fixed: nothing in it depends on the language
 * or the client. So the server reads that one message off stdin, answers
 * it here, and only then loads vscode-languageserver (its module bodies and
 * `createConnection` are most of a start) and the language behind it.
 *
 * The library still sees every message, `initialize` included, in order:
 * `openEarlyStreams` hands it an input that replays the bytes read so far
 * and then follows stdin, and an output that forwards everything except its
 * own answer to that `initialize` (the client already has one). When the
 * two answers differ the server says so on stderr, so a capability added to
 * the library's answer and not to the early one is seen, not silently lost
 * (test/lsp/lsp.test.ts checks stderr stays empty).
 *
 * Messages are framed as the base protocol says: `Content-Length: N`
 * headers, an empty line, then N bytes of UTF-8 JSON.
 */
import { PassThrough, Writable, type Readable } from 'node:stream';

/** The longest header block read before giving up on an early answer (the library then handles everything). */
const MAX_HEADER_BYTES = 16 * 1024;
/** The longest first message held back for an early answer (initialize params are a few kilobytes). */
const MAX_FIRST_MESSAGE_BYTES = 4 * 1024 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

/**
 * What the protocol library reads and writes once the early answer is out.
 *
 * @example
 * const { input, output }: EarlyStreams = await earlyStreams(initializeResult);
 */
export interface EarlyStreams {
  readonly input: Readable;
  readonly output: Writable;
}

/** One framed message found at the start of a buffer. */
interface Frame {
  /** The bytes of the whole frame, headers included. */
  readonly length: number;
  /** The JSON body, parsed; undefined when it is not JSON. */
  readonly body: unknown;
}

/**
 * The message at the start of `buffer`: a frame, `'partial'` when more bytes
 * are needed, or `'invalid'` when the headers are not the base protocol's.
 */
function frameAt(buffer: Buffer): Frame | 'partial' | 'invalid' {
  const end = buffer.indexOf(HEADER_END);
  if (end < 0) return buffer.length > MAX_HEADER_BYTES ? 'invalid' : 'partial';
  const match = /(?:^|\r\n)content-length:\s*(\d+)\s*(?:\r\n|$)/i.exec(buffer.subarray(0, end).toString('ascii'));
  if (match === null) return 'invalid';
  const size = Number(match[1]);
  const start = end + HEADER_END.length;
  if (start + size > buffer.length) return start + size > MAX_FIRST_MESSAGE_BYTES ? 'invalid' : 'partial';
  let body: unknown;
  try {
    body = JSON.parse(buffer.subarray(start, start + size).toString('utf8'));
  } catch {
    body = undefined;
  }
  return { length: start + size, body };
}

/** Frames a JSON message as the base protocol does. */
function framed(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/** The request id of an `initialize` request, or undefined for any other message. */
function initializeId(body: unknown): string | number | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const message = body as { method?: unknown; id?: unknown };
  if (message.method !== 'initialize') return undefined;
  return typeof message.id === 'number' || typeof message.id === 'string' ? message.id : undefined;
}

/** Reads stdin until the first message is whole (or cannot be one); resolves with the bytes read. */
function readFirstMessage(input: Readable): Promise<{ bytes: Buffer; frame: Frame | undefined }> {
  return new Promise((resolve) => {
    let bytes = Buffer.alloc(0);
    const finish = (frame: Frame | undefined) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.pause();
      resolve({ bytes, frame });
    };
    const onData = (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      const found = frameAt(bytes);
      if (found === 'partial') return;
      finish(found === 'invalid' ? undefined : found);
    };
    const onEnd = () => finish(undefined);
    input.on('data', onData);
    input.on('end', onEnd);
  });
}

/**
 * An output for the library: forwards every frame to `out`, except the first
 * answer to request `id`, which it compares with `early` and drops.
 */
function withoutSecondAnswer(out: Writable, id: string | number, early: string, err: Writable): Writable {
  let pending = Buffer.alloc(0);
  let dropped = false;
  return new Writable({
    write(chunk: Buffer | string, encoding, callback) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
      if (dropped) {
        out.write(bytes, callback);
        return;
      }
      pending = Buffer.concat([pending, bytes]);
      for (let frame = frameAt(pending); frame !== 'partial'; frame = frameAt(pending)) {
        const length = frame === 'invalid' ? pending.length : frame.length;
        const head = pending.subarray(0, length);
        pending = pending.subarray(length);
        const body = frame === 'invalid' ? undefined : (frame.body as { id?: unknown; result?: unknown } | undefined);
        if (!dropped && body?.id === id && 'result' in body) {
          dropped = true;
          if (JSON.stringify(body.result) !== early) {
            err.write(`wepql lsp: the early initialize answer differs from the library's: ${JSON.stringify(body.result)}\n`);
          }
          out.write(pending, callback);
          pending = Buffer.alloc(0);
          return;
        }
        out.write(head);
        if (pending.length === 0) break;
      }
      callback();
    },
  });
}

/**
 * The streams the protocol library reads and writes, after the first
 * `initialize` (if that is the first message) was answered with `answer()`.
 *
 * @example
 * const { input, output } = await openEarlyStreams(process.stdin, process.stdout, process.stderr, () => ({ capabilities: {} }));
 */
export async function openEarlyStreams(stdin: Readable, stdout: Writable, stderr: Writable, answer: () => unknown): Promise<EarlyStreams> {
  const { bytes, frame } = await readFirstMessage(stdin);
  const input = new PassThrough();
  input.write(bytes);
  // An input that ended before a whole message ends the library's input too (it then exits as on a closed pipe).
  if (stdin.readableEnded) input.end();
  else stdin.pipe(input);
  const id = frame === undefined ? undefined : initializeId(frame.body);
  if (id === undefined) return { input, output: stdout };
  // Written now, compared later: the library may add to the capabilities object it is given.
  const early = JSON.stringify(answer());
  stdout.write(framed({ jsonrpc: '2.0', id, result: JSON.parse(early) as unknown }));
  return { input, output: withoutSecondAnswer(stdout, id, early, stderr) };
}

/** The process's early streams, once asked for (`earlyStreams`). */
let early: Promise<EarlyStreams> | undefined;

/**
 * `openEarlyStreams` on the process's stdin, stdout and stderr, opened once
 * per process: the CLI's entry asks first, before the language server's
 * module loads, and the server gets the same streams when it starts.
 *
 * @example
 * const { input, output } = await earlyStreams(initializeResult);
 */
export function earlyStreams(answer: () => unknown): Promise<EarlyStreams> {
  early ??= openEarlyStreams(process.stdin, process.stdout, process.stderr, answer);
  return early;
}
