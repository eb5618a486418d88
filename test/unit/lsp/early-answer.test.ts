/**
 * The language server's first answer, written before the protocol library
 * loads (src/lsp/early-answer.ts): `initialize` is answered at once, the
 * library still reads every byte in order, and its own answer to that
 * `initialize` is dropped (and compared) while everything else it writes
 * goes out unchanged.
 */
import { PassThrough, Writable, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { openEarlyStreams } from '../../../src/lsp/early-answer.js';

const frame = (message: unknown): string => {
  const body = JSON.stringify(message);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

/** A writable that keeps what it is given. */
function sink(): { stream: Writable; text(): string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Everything a readable gives until it has `length` bytes (or ends). */
function readBytes(input: Readable, length: number): Promise<string> {
  return new Promise((resolve) => {
    let got = Buffer.alloc(0);
    const done = () => resolve(got.toString('utf8'));
    input.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= length) done();
    });
    input.on('end', done);
  });
}

const CAPABILITIES = { capabilities: { hoverProvider: true, textDocumentSync: 2 }, serverInfo: { name: 'wepql' } };
const INITIALIZE = frame({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { processId: null, rootUri: null, capabilities: { é: 'ü' } },
});
const INITIALIZED = frame({ jsonrpc: '2.0', method: 'initialized', params: {} });

describe('openEarlyStreams', () => {
  it('answers initialize before anything loads, even when its bytes come a few at a time', async () => {
    const stdin = new PassThrough();
    const out = sink();
    const err = sink();
    const opened = openEarlyStreams(stdin, out.stream, err.stream, () => CAPABILITIES);
    const bytes = Buffer.from(INITIALIZE + INITIALIZED, 'utf8');
    for (let i = 0; i < bytes.length; i += 7) stdin.write(bytes.subarray(i, i + 7));
    const { input, output } = await opened;
    expect(out.text()).toBe(frame({ jsonrpc: '2.0', id: 0, result: CAPABILITIES }));
    // The library reads the same bytes, initialize included, and then whatever stdin sends next.
    const replay = readBytes(input, bytes.length + 5);
    stdin.write('after');
    expect(await replay).toBe(INITIALIZE + INITIALIZED + 'after');

    // Its own answer to initialize is dropped; its other messages, split anywhere, go out unchanged.
    const log = frame({ jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'ready ✓' } });
    const written = frame({ jsonrpc: '2.0', id: 0, result: CAPABILITIES }) + log + frame({ jsonrpc: '2.0', id: 1, result: null });
    const before = out.text();
    const chunks = Buffer.from(written, 'utf8');
    for (let i = 0; i < chunks.length; i += 5) output.write(chunks.subarray(i, i + 5));
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.text()).toBe(before + log + frame({ jsonrpc: '2.0', id: 1, result: null }));
    expect(err.text()).toBe('');
  });

  it('says so on stderr when the library answers something else', async () => {
    const stdin = new PassThrough();
    const out = sink();
    const err = sink();
    const opened = openEarlyStreams(stdin, out.stream, err.stream, () => CAPABILITIES);
    stdin.write(INITIALIZE);
    const { output } = await opened;
    output.write(frame({ jsonrpc: '2.0', id: 0, result: { capabilities: { hoverProvider: false } } }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(err.text()).toMatch(/early initialize answer differs from the library's/);
  });

  it('leaves every other first message to the library, untouched', async () => {
    const stdin = new PassThrough();
    const out = sink();
    const opened = openEarlyStreams(stdin, out.stream, sink().stream, () => CAPABILITIES);
    const shutdown = frame({ jsonrpc: '2.0', id: 4, method: 'shutdown' });
    stdin.write(shutdown);
    const { input, output } = await opened;
    expect(out.text()).toBe('');
    expect(output).toBe(out.stream);
    expect(await readBytes(input, Buffer.byteLength(shutdown))).toBe(shutdown);
  });

  it('hands over bytes that are not the base protocol, and an input that ended early', async () => {
    const garbage = new PassThrough();
    const opened = openEarlyStreams(garbage, sink().stream, sink().stream, () => CAPABILITIES);
    garbage.write('x'.repeat(20_000));
    const { input } = await opened;
    expect((await readBytes(input, 20_000)).length).toBe(20_000);

    const ended = new PassThrough();
    const openedEnded = openEarlyStreams(ended, sink().stream, sink().stream, () => CAPABILITIES);
    ended.end('Content-Length: 10\r\n\r\n{"a"');
    const { input: rest } = await openedEnded;
    expect(await readBytes(rest, 1_000)).toBe('Content-Length: 10\r\n\r\n{"a"');
  });
});
