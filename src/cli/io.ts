/**
 * File and stream helpers shared by the subcommands. Problems with the
 * command line's files (unreadable, a device or FIFO, an invalid schema) are
 * `UsageError`s: the CLI exits 2 with a message naming the file.
 */
import { writeFileSync } from 'node:fs';
import { loadSchemaJson } from '../schema/load-schema.js';
import type { Schema } from '../schema/schema.js';
import { decodeSource, encodeSource, readRegularFile, type SourceText } from '../workspace/source-text.js';
import { UsageError } from '../workspace/usage-error.js';

/**
 * Reads a file's text (UTF-8, or Latin-1 when it is not valid UTF-8; a
 * byte-order mark dropped), or standard input when `path` is `-`.
 *
 * @example
 * const text = await readInput('saved.txt');
 */
export async function readInput(path: string, what = 'file'): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return decodeSource(Buffer.concat(chunks)).text;
  }
  // Synchronous: linting a thousand small files, the promise round trips cost more than the reads.
  return decodeSource(readRegularFile(path, what)).text;
}

/**
 * Writes `text` back to a file read as `source`: the same encoding and
 * byte-order mark, so that every byte outside the changed texts stays as it
 * was. Failures are usage errors.
 *
 * @example
 * await writeSourceFile('saved.txt', source, fixed);
 */
export async function writeSourceFile(path: string, source: SourceText, text: string): Promise<void> {
  const bytes = encodeSource(source, text, path);
  try {
    writeFileSync(path, bytes);
  } catch (e) {
    throw new UsageError(`cannot write ${path}: ${(e as Error).message}`);
  }
}

/**
 * Loads a schema JSON file (see docs/schema.md), or throws `UsageError`
 * listing what is wrong with it.
 *
 * @example
 * const schema = await loadSchemaFile('schemas/employee.json');
 */
export async function loadSchemaFile(path: string): Promise<Schema> {
  const text = await readInput(path, 'schema');
  const { value, errors } = loadSchemaJson(text);
  if (value === undefined) {
    throw new UsageError(`invalid schema file ${path}:\n  ${errors.join('\n  ')}`);
  }
  return value;
}
