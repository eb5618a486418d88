/**
 * The guides' search in a real browser: the guides built with the docs
 * script's own `buildGuides` into a temporary directory, opened from disk
 * (file://, no server) and served by scripts/serve-docs.mjs, and driven with
 * Debian's Chromium (the run's one browser, a page lent to this file:
 * test/support/browser-shared.ts) through playwright-core. Skipped, with a
 * warning, where /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, sharedPage } from '../support/browser-shared.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!hasChromium)
  console.warn(`\n⚠ docs search e2e test SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium, or run .ci/run)\n`);

interface Docs {
  buildGuides(out: string, options?: { docsDir: string }): { pages: string[] };
}
interface Serve {
  serveDirectory(dir: string, port?: number): Promise<Server>;
}

describe.skipIf(!hasChromium)('docs-guide-search in Chromium', () => {
  let dir: string;
  let server: Server;
  let releasePage = (): Promise<void> => Promise.resolve();
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wepql-docs-search-'));
    const docs = (await import(pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href)) as Docs;
    docs.buildGuides(join(dir, 'site'));
    // A guide whose heading and text hold markup, to show the results never run it.
    mkdirSync(join(dir, 'hostile-docs'));
    writeFileSync(
      join(dir, 'hostile-docs', 'index.md'),
      '# Hostile\n\n## Zebra <img src=x onerror="window.pwned=1"> `<script>window.pwned=2</script>`\n\nzebra <img src=y onerror="window.pwned=3">\n',
    );
    docs.buildGuides(join(dir, 'hostile'), { docsDir: join(dir, 'hostile-docs') });
    const { serveDirectory } = (await import(pathToFileURL(join(ROOT, 'scripts', 'serve-docs.mjs')).href)) as Serve;
    server = await serveDirectory(join(dir, 'site'), 0);
    // One page for the file (the worker's kept one), a fresh document per test (each opens its guide with goto): a
    // new page costs Chromium ~1.2 CPU-seconds (two renderer processes started, the page's session set up), a goto ~0.25.
    ({ page, release: releasePage } = await sharedPage({ width: 1200, height: 900 }));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // No network: every request of the site is a file of the site.
    page.on('request', (r) => {
      if (!/^(file:|http:\/\/127\.0\.0\.1:)/.test(r.url())) pageErrors.push(`request to ${r.url()}`);
    });
  }, 120_000);

  afterAll(async () => {
    await releasePage();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a guide in the file's page: a new document, nothing of the test before it left. */
  async function open(url: string): Promise<void> {
    await page.goto(url);
  }

  const hits = (page: Page) => page.locator('#search-results li');

  it.each([
    ['opened from disk', () => pathToFileURL(join(dir, 'site', 'sdk.html')).href],
    ['served by docs:serve', () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/sdk.html`],
  ])('finds a heading of another guide first and clicking lands on its anchor (%s)', async (_, url) => {
    await open(url());
    await page.fill('#site-search', 'scaling out');
    const first = hits(page).first();
    await expect.poll(() => first.locator('strong').textContent()).toBe('Scaling out');
    expect(await first.locator('a').getAttribute('href')).toBe('server.html#scaling-out');
    // The matched words are highlighted in the hit.
    expect(await first.locator('strong mark').allTextContents()).toEqual(['Scaling', 'out']);
    expect(await first.textContent()).toContain('Serving list endpoints');
    await first.locator('a').click();
    await page.waitForURL(/server\.html#scaling-out$/);
    expect(await page.evaluate(() => document.querySelector(':target')?.id)).toBe('scaling-out');
    expect(pageErrors).toEqual([]);
  });

  it('ranks a heading match above text matches, Enter opens the first hit, Escape clears', async () => {
    await open(pathToFileURL(join(dir, 'site', 'index.html')).href);
    // "data tokens" is a heading of the server guide and words of other guides' text: the heading comes first.
    await page.fill('#site-search', 'data tokens');
    await expect.poll(() => hits(page).count()).toBeGreaterThan(1);
    expect(await hits(page).first().locator('a').getAttribute('href')).toBe('server.html#data-tokens');
    expect(await hits(page).nth(1).locator('strong mark').count()).toBe(0);
    await page.press('#site-search', 'Escape');
    expect(await page.inputValue('#site-search')).toBe('');
    expect(await page.locator('#search-results').isHidden()).toBe(true);
    await page.fill('#site-search', 'scaling out');
    await expect.poll(() => hits(page).count()).toBeGreaterThan(0);
    await page.press('#site-search', 'Enter');
    await page.waitForURL(/server\.html#scaling-out$/);
  });

  it('says "No results" for a word no guide has', async () => {
    await open(pathToFileURL(join(dir, 'site', 'sdk.html')).href);
    await page.fill('#site-search', 'qzxjvw');
    await expect.poll(() => hits(page).first().textContent()).toBe('No results for \u201cqzxjvw\u201d');
    expect(await page.locator('#search-results a').count()).toBe(0);
    // Enter with no hit stays on the page.
    await page.press('#site-search', 'Enter');
    expect(page.url()).toMatch(/sdk\.html$/);
  });

  it('shows markup in a heading or text as text, never runs it', async () => {
    await open(pathToFileURL(join(dir, 'hostile', 'index.html')).href);
    await page.fill('#site-search', 'zebra');
    const first = hits(page).first();
    await expect
      .poll(() => first.locator('strong').textContent())
      .toBe('Zebra <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script>');
    expect(await page.locator('#search-results img, #search-results script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });
});
