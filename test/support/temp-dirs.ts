/**
 * Temporary folders a test file makes and removes: call `tempDirs(prefix)`
 * at the top of the file, then the function it returns in any test; every
 * folder it made is removed after the file's last test. (The run's global
 * setup also removes whatever a file forgets, and lists it: test/global-setup.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/**
 * A maker of temporary folders named `prefix` + six random characters,
 * removed after this file's tests. Call it at a file's top level (it
 * registers an `afterAll` hook).
 *
 * @example
 * const tempDir = tempDirs('wepql-lint-');
 * it('…', () => { const dir = tempDir(); … });
 */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
