/**
 * `npm run docs` fails on any TypeDoc warning, and once failed on main for
 * one (`Simple`, referenced by `wepql/grid.AgGridColumnFilter`, was not
 * exported) because nothing in `npm test` ran TypeDoc. Here TypeDoc's
 * validation runs on the built declarations of every entry (the checks of
 * the docs build without writing the site), and a fixture shows the check
 * fails on the warning that broke the build. Needs `npm run build` first, as
 * `npm test` does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../../support/dist.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Validation {
  exports: number;
  undocumented: string[];
  withoutExample: string[];
  withoutOverview: string[];
  warnings: string[];
}
interface Docs {
  validateApiDocs(options?: {
    root?: string;
    entryPoints?: string[];
    typedocOptions?: Record<string, unknown>;
    compilerOptions?: Record<string, unknown>;
  }): Promise<Validation>;
}
let docs: Docs;
const dirs: string[] = [];

beforeAll(async () => {
  docs = (await import(pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href)) as Docs;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('npm-run-docs-typedoc-warning', () => {
  it('the API of every entry converts with no TypeDoc warning, every export documented with an @example', async () => {
    assertFreshDist();
    const result = await docs.validateApiDocs();
    expect(result.warnings).toEqual([]);
    expect(result.undocumented).toEqual([]);
    expect(result.withoutExample).toEqual([]);
    expect(result.exports).toBeGreaterThan(300);
    // api-module-overview: every entry's module page opens with overview text.
    expect(result.withoutOverview).toEqual([]);
  }, 240_000);

  it('reports a type that an export names but no entry exports (the warning that failed the build)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wepql-typedoc-fixture-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'fixture', version: '1.0.0', types: 'entry.d.ts' }));
    writeFileSync(
      join(dir, 'entry.d.ts'),
      [
        'type Simple = { a: number };',
        '/**',
        ' * A column filter.',
        ' *',
        ' * @example',
        ' * const f: ColumnFilter = { a: 1 };',
        ' */',
        'export type ColumnFilter = Simple | string;',
        'export {};',
        '',
      ].join('\n'),
    );
    const result = await docs.validateApiDocs({
      root: dir,
      entryPoints: ['entry.d.ts'],
      // typedoc.json's own options (but its list of wepql's names left unexported), on the fixture's entry.
      typedocOptions: { ...(JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as object), intentionallyNotExported: [] },
      // The fixture names no DOM or Node type: without those libraries its program is one file and ES5's
      // globals (0.1 CPU-seconds against 1.3–2.6 with the repository's lib and types).
      compilerOptions: { lib: ['es5'], types: [] },
    });
    expect(result.warnings).toEqual([
      expect.stringMatching(/Simple, defined in .*entry\.d\.ts, is referenced by .*ColumnFilter but not included in the documentation/),
    ]);
  }, 120_000);
});
