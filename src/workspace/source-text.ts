/**
 * Files as bytes: what `wepql lint --fix` and `wepql fmt --write` read and
 * write back. A rewrite must leave every byte outside the filter texts as it
 * was, so a file is decoded in a way that encodes back to the same bytes:
 *
 * - a UTF-8 byte-order mark is set aside (the parsers never see it) and
 *   written back in front;
 * - valid UTF-8 is decoded as UTF-8 (which re-encodes to the same bytes);
 * - anything else (a Latin-1 `é` in a comment) is decoded byte for byte as
 *   Latin-1, where every byte is one character and re-encodes to itself.
 *
 * Files named for reading (inputs, schemas, configs) must be regular files:
 * a device or FIFO (`/dev/zero`, a named pipe) would never end.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { constants as bufferConstants, isUtf8 } from 'node:buffer';
import { UsageError } from './usage-error.js';

/**
 * A file's text and how to turn it back into the same bytes.
 *
 * @example
 * const source: SourceText = decodeSource(readFileSync('views.json'));
 */
export interface SourceText {
  /** The text without a byte-order mark. */
  readonly text: string;
  /** How the bytes were decoded. */
  readonly encoding: 'utf8' | 'latin1';
  /** The file began with a UTF-8 byte-order mark. */
  readonly bom: boolean;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The most bytes a file read as text may hold: the longest string V8 makes.
 * Decoded as UTF-8 or Latin-1 a file never has more characters than bytes,
 * so a file within the limit always decodes; one past it would end the run
 * with an internal error, so it is refused before a byte is read.
 *
 * @example
 * statSync(path).size > MAX_SOURCE_BYTES; // too large to read
 */
export const MAX_SOURCE_BYTES: number = bufferConstants.MAX_STRING_LENGTH;

/**
 * A file larger than `MAX_SOURCE_BYTES`: a usage error for a schema or a
 * config; for a file of saved filters, `wepql lint` reports it
 * (`file-too-large`) and goes on with the others.
 *
 * @example
 * try { readRegularFile(path); } catch (e) { if (e instanceof FileTooLargeError) console.log(e.bytes); }
 */
export class FileTooLargeError extends UsageError {
  constructor(
    readonly path: string,
    readonly bytes: number,
  ) {
    super(`cannot read ${path}: ${tooLargeReason(bytes)}`);
    this.name = 'FileTooLargeError';
  }
}

/**
 * Why a file of `bytes` bytes is not read, for messages.
 *
 * @example
 * tooLargeReason(600 * 2 ** 20); // '600 MB (629,145,600 bytes) is more than the longest text, 512 MB (…)'
 */
export function tooLargeReason(bytes: number): string {
  const mb = (n: number) => `${Math.round(n / 2 ** 20)} MB (${n.toLocaleString('en-US')} bytes)`;
  return `${mb(bytes)} is more than the longest text JavaScript can hold, ${mb(MAX_SOURCE_BYTES)}`;
}

/**
 * Decodes bytes losslessly (see the module comment).
 *
 * @example
 * decodeSource(Buffer.from([0xef, 0xbb, 0xbf, 0x41])); // { text: 'A', encoding: 'utf8', bom: true }
 */
export function decodeSource(bytes: Uint8Array): SourceText {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buffer.length >= 3 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
  const body = bom ? buffer.subarray(3) : buffer;
  if (isUtf8(body)) return { text: body.toString('utf8'), encoding: 'utf8', bom };
  return { text: body.toString('latin1'), encoding: 'latin1', bom };
}

/**
 * The bytes of `text` written as `source` was read: the same encoding and
 * byte-order mark. Throws `UsageError` when a Latin-1 file would need a
 * character Latin-1 cannot hold (the file would change meaning).
 *
 * @example
 * encodeSource(decodeSource(bytes), 'Gender.Equal(1)\n');
 */
export function encodeSource(source: SourceText, text: string, path = 'the file'): Buffer {
  if (source.encoding === 'latin1' && /[^\u0000-\u00ff]/.test(text)) {
    throw new UsageError(`cannot write ${path}: it is not UTF-8 (read as Latin-1) and the new text holds characters Latin-1 cannot encode`);
  }
  const body = Buffer.from(text, source.encoding);
  return source.bom ? Buffer.concat([BOM, body]) : body;
}

/** Refuses a directory, a device, a FIFO or a socket. */
function checkRegular(stat: Stats, refuse: (why: string) => never): void {
  if (stat.isDirectory()) refuse('is a directory');
  if (!stat.isFile()) refuse('not a regular file (a device, FIFO or socket); name a file');
}

/**
 * Reads a regular file's bytes. Throws `UsageError` naming `what` (an input
 * file, a schema, a config) for a missing or unreadable file, a directory,
 * or a special file (a device or FIFO, which would block or never end), and
 * `FileTooLargeError` for a file larger than `MAX_SOURCE_BYTES`.
 *
 * @example
 * const bytes = readRegularFile('schemas/employee.json', 'schema');
 */
export function readRegularFile(path: string, what = 'file'): Buffer {
  const refuse = (why: string): never => {
    throw new UsageError(`cannot read ${path}${what === 'file' ? '' : ` (${what})`}: ${why}`);
  };
  let fd: number | undefined;
  try {
    // Opened non-blocking, since opening a FIFO for reading waits for a writer; where there is no
    // non-blocking open (Windows), checked before opening. What was opened is checked either way.
    if (constants.O_NONBLOCK === undefined) checkRegular(statSync(path), refuse);
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    const stat = fstatSync(fd);
    checkRegular(stat, refuse);
    if (stat.size > MAX_SOURCE_BYTES) throw new FileTooLargeError(path, stat.size);
    return readFileSync(fd);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    return refuse(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message,
    );
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Reads a regular file as text (UTF-8, or Latin-1 when it is not valid
 * UTF-8; a byte-order mark dropped), for files only read, never rewritten.
 *
 * @example
 * const json = readRegularText('wepql.config.json', 'config');
 */
export function readRegularText(path: string, what = 'file'): string {
  return decodeSource(readRegularFile(path, what)).text;
}
