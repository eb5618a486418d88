/**
 * The suite builds dist/ once (npm test runs `npm run build` before vitest)
 * and no test file rebuilds it: a build in one file while another executes
 * dist/ is a race. Tests that run the built package call `assertFreshDist`,
 * which refuses a missing or stale dist/.
 */
import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { distProblem } from '../../support/dist.js';
import { tempDirs } from '../../support/temp-dirs.js';

const distGuardDir = tempDirs('wepql-dist-guard-');

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function tree(files: Record<string, number>): string {
  const root = distGuardDir();
  for (const [path, seconds] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), '');
    utimesSync(join(root, path), seconds, seconds);
  }
  return root;
}

function* testFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* testFiles(path);
    else if (/\.(ts|mjs)$/.test(entry.name)) yield path;
  }
}

describe('distProblem', () => {
  it('accepts a dist/ built after every source', () => {
    expect(
      distProblem(tree({ 'src/index.ts': 100, 'src/a/b.ts': 100, 'src/a/c.d.ts': 500, 'dist/index.js': 200, 'dist/a/b.js': 200 })),
    ).toBeUndefined();
  });

  it('names a missing dist/, a missing output and a source newer than its output', () => {
    expect(distProblem(tree({ 'src/index.ts': 100 }))).toBe('dist/ is missing');
    expect(distProblem(tree({ 'src/index.ts': 100, 'src/x.ts': 100, 'dist/index.js': 200 }))).toBe(
      'dist/x.js is missing (src/x.ts was never built)',
    );
    expect(distProblem(tree({ 'src/index.ts': 100, 'src/a/b.ts': 300, 'dist/index.js': 200, 'dist/a/b.js': 200 }))).toBe(
      'src/a/b.ts is newer than dist/a/b.js',
    );
  });
});

describe('no test builds dist/', () => {
  it('no file under test/ runs tsc on tsconfig.build.json or `npm run build`', () => {
    // A type check of a copy with `noEmit` (test/unit/ast/new-operator-compile.test.ts) writes nothing and is allowed.
    const typeCheckOnly = (text: string) =>
      /noEmit: true/.test(text) && !/tsconfig\.build\.json|['"]run['"],\s*['"]build['"]|npm run build/.test(text);
    const offenders = [...testFiles(join(ROOT, 'test'))]
      .filter((file) => !file.endsWith('dist-guard.test.ts'))
      .filter((file) => {
        const text = readFileSync(file, 'utf8');
        return (
          /typescript\/bin\/tsc|['"]tsc['"]|['"]-p['"],\s*['"]tsconfig\.build\.json['"]|['"]run['"],\s*['"]build['"]|(exec|spawn)\w*\(\s*['"`]npm run build/.test(
            text,
          ) && !typeCheckOnly(text)
        );
      })
      .map((file) => relative(ROOT, file));
    expect(offenders).toEqual([]);
  });
});
