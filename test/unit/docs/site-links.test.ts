/**
 * Every link of the built docs site resolves: `npm run docs` runs
 * `checkSiteLinks` over the whole site (guides, diagrams, API reference,
 * playground) and fails on a broken one. Here the checker itself is tested,
 * and the guides' part of the site is built and checked (the API reference
 * and the playground are TypeDoc's and esbuild's output, built only by
 * `npm run docs`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

interface Docs {
  checkSiteLinks(dir: string): string[];
  buildGuides(dir: string): { pages: string[]; linkedFiles: string[] };
  copyLinkedFiles(dir: string, files: readonly string[]): { written: string[]; missing: string[] };
  buildDiagrams(dir: string): Promise<string[]>;
}
let docs: Docs;
const dirs: string[] = [];
const scratch = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'wepql-site-'));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  docs = (await import(pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href)) as Docs;
});
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('checkSiteLinks', () => {
  it('reports a missing file, a missing anchor and a link out of the site, and passes the rest', () => {
    const site = scratch();
    mkdirSync(join(site, 'api', 'functions'), { recursive: true });
    writeFileSync(
      join(site, 'index.html'),
      '<h1 id="top">x</h1><a href="api/index.html">api</a><a href="sql.html#nope">x</a><a href="#top">top</a>',
    );
    writeFileSync(
      join(site, 'sql.html'),
      '<h2 id="api">API</h2><a href="../examples/sql/a.mjs">a</a><a href="https://example.com/x">ext</a>',
    );
    writeFileSync(
      join(site, 'api', 'index.html'),
      '<a href="functions/f.html#g">f</a><a href="../index.html#top">home</a><a href="../missing.html">m</a>',
    );
    writeFileSync(join(site, 'api', 'functions', 'f.html'), '<a name="g"></a><script>const s = "<a href=\\"gone.html\\">";</script>');
    expect(docs.checkSiteLinks(site).sort()).toEqual([
      'api/index.html → ../missing.html (no such file)',
      'index.html → sql.html#nope (no id "nope" on that page)',
      'sql.html → ../examples/sql/a.mjs (outside the site)',
    ]);
  });
});

describe('the guides of the built site', () => {
  it('link only to pages and files that exist, the repository files they name copied in', async () => {
    const site = scratch();
    const guides = docs.buildGuides(site);
    await docs.buildDiagrams(site);
    const linked = docs.copyLinkedFiles(site, guides.linkedFiles);
    expect(linked.missing).toEqual([]);
    // The 404s of the published site: example programs, the benchmark results, the JSON schemas.
    expect(linked.written).toEqual(
      expect.arrayContaining(['bench/RESULTS.html', 'examples/sdk/employees-client.ts', 'schemas/employee.json']),
    );
    expect(linked.written.filter((f) => f.startsWith('examples/sql/')).length).toBeGreaterThanOrEqual(4);
    // api/ and playground/ are built by TypeDoc and esbuild in npm run docs, not here.
    const broken = docs.checkSiteLinks(site).filter((line) => !/ → (\.\.\/)*(api|playground)\/index\.html \(no such file\)$/.test(line));
    expect(broken).toEqual([]);
  });
});
