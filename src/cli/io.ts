/**
 * File and stream helpers shared by the subcommands. Problems with the
 * command line's files (unreadable, invalid schema) are `UsageError`s:
 * the CLI exits 2 with a message naming the file.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { loadSchemaJson } from '../schema/load-schema.js';
import type { Schema } from '../schema/schema.js';
import { UsageError } from '../workspace/usage-error.js';

/**
 * Reads a file as UTF-8, or standard input when `path` is `-`.
 *
 * @example
 * const text = await readInput('saved.txt');
 */
export async function readInput(path: string): Promise<string> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    // Synchronous: linting a thousand small files, the promise round trips cost more than the reads.
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String((e as Error).message);
    throw new UsageError(`cannot read ${path}: ${why}`);
  }
}

/**
 * Writes a file as UTF-8, turning failures into usage errors.
 *
 * @example
 * await writeFileText('saved.txt', fixed);
 */
export async function writeFileText(path: string, text: string): Promise<void> {
  try {
    await writeFile(path, text, 'utf8');
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
  const text = await readInput(path);
  const { value, errors } = loadSchemaJson(text);
  if (value === undefined) {
    throw new UsageError(`invalid schema file ${path}:\n  ${errors.join('\n  ')}`);
  }
  return value;
}
