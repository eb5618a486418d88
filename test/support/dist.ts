/**
 * The guard for tests that run the BUILT package (dist/): the CLI, the
 * examples, the packed tarball. `npm test` builds once before vitest
 * starts (`npm run build`); no test builds dist/ itself, since a build in
 * one file while another file executes dist/ is a race (a pack once read a
 * half-written `.d.ts`). When dist/ is missing, or any src/ file is newer
 * than what was built from it, these tests fail with a message that says
 * to build, rather than testing stale code.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

/**
 * What is wrong with dist/, or undefined when every src/*.ts has an output
 * at least as new as itself.
 *
 * @example
 * distProblem(); // undefined after `npm run build`
 */
export function distProblem(root: string = ROOT): string | undefined {
  const src = join(root, 'src');
  if (!existsSync(join(root, 'dist', 'index.js'))) return 'dist/ is missing';
  for (const file of sourceFiles(src)) {
    const name = relative(src, file).replace(/\.ts$/, '.js');
    const built = join(root, 'dist', name);
    if (!existsSync(built)) return `dist/${name} is missing (src/${relative(src, file)} was never built)`;
    if (statSync(file).mtimeMs > statSync(built).mtimeMs) return `src/${relative(src, file)} is newer than dist/${name}`;
  }
  return undefined;
}

let checked: string | undefined | null = null;

/**
 * Throws a clear error unless dist/ is built from the current src/. Call it
 * in `beforeAll` (or before spawning dist/) in any test that runs the
 * built package.
 *
 * @example
 * beforeAll(assertFreshDist);
 */
export function assertFreshDist(): void {
  if (checked === null) checked = distProblem();
  if (checked !== undefined) {
    throw new Error(`${checked}: run \`npm run build\` (npm test builds before it runs the tests; tests never build dist/ themselves)`);
  }
}
