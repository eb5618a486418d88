/**
 * The playground in a real browser: built with the docs script's own build
 * function into a temporary directory, served on 127.0.0.1, and driven with
 * Debian's Chromium through playwright-core. Skipped, with a warning, where
 * /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { query } from '../../src/index.js';
import { employeeSchema } from '../../src/schemas/employee.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');
const employees = JSON.parse(readFileSync(join(ROOT, 'examples', 'employees.json'), 'utf8')) as Record<string, unknown>[];
const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) {
  console.warn(`\n⚠ playground e2e test SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium, or run .ci/run)\n`);
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const file = normalize(join(dir, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(dir)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end('not found'),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe.skipIf(!hasChromium)('playground in Chromium', () => {
  let dir: string;
  let server: Server;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wepql-playground-'));
    // The same function `npm run docs` uses; the script is plain ESM, so it is loaded by URL.
    const script: string = pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href;
    const { buildPlayground } = (await import(script)) as { buildPlayground(out: string): Promise<{ bytes: number }> };
    const built = await buildPlayground(dir);
    expect(built.bytes).toBeGreaterThan(0);
    server = await serve(dir);
    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = await browser.newPage({ viewport: { width: 1200, height: 1000 } });
    page.on('pageerror', (e) => pageErrors.push(e.message));
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function type(filter: string, sort: string): Promise<void> {
    await page.fill('#filter', filter);
    await page.fill('#sort', sort);
  }

  it('shows the canonical form, the explanation and the matching employees', async () => {
    const filter = 'lastname.startswith( S );or(Gender.Equal(1);EePortal.Equal(true))';
    await type(filter, 'lastname=asc;CreatedOn=Desc');
    expect(await page.textContent('#canonical-filter')).toBe('LastName.StartsWith(S);Or(Gender.Equal(1);EePortal.Equal(true))');
    expect(await page.textContent('#canonical-sort')).toBe('LastName=Asc;CreatedOn=Desc');
    expect(await page.textContent('#explanation')).toBe('last name starts with "S" and (gender is 1 or ee portal is true)');
    expect(await page.textContent('#sort-explanation')).toBe('by last name (A→Z), then by created on (newest first)');
    const expected = query(employees, { filter, sort: 'LastName=Asc;CreatedOn=Desc', schema: employeeSchema });
    expect(expected.length).toBeGreaterThan(0);
    expect(await page.textContent('#count')).toMatch(new RegExp(`^${expected.length} of ${employees.length} employees match`));
    const firstRow = await page.$$eval('#results tbody tr:first-child td', (cells) => cells.map((c) => c.textContent));
    expect(firstRow[0]).toBe(String(expected[0]!.Id));
    // Warnings (here: field spelling) are shown, but do not stop the query.
    expect(await page.textContent('#diagnostics')).toMatch(/warning field-case-mismatch/);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
  });

  it('shows a diagnostic with its position for a bad filter', async () => {
    await type('LastName.StartWith(Sm);Gender.Equal(x)', 'LastName=Asc');
    const diagnostics = (await page.textContent('#diagnostics')) ?? '';
    expect(diagnostics).toContain('filter:1:10: error unknown-operator: unknown operator "StartWith"; did you mean "StartsWith"?');
    expect(diagnostics).toContain('  LastName.StartWith(Sm);Gender.Equal(x)\n           ^^^^^^^^^');
    expect(await page.textContent('#canonical-filter')).toBe('—');
    expect(await page.textContent('#count')).toBe('Fix the errors above to see matching employees.');
    expect(await page.$$('#results tbody tr')).toHaveLength(0);
    expect(await page.getAttribute('#filter', 'class')).toContain('invalid');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-error.png') });
  });

  it('offers completions at the cursor and inserts the chosen one', async () => {
    await type('LastName.Sta', '');
    await page.focus('#filter');
    await page.keyboard.press('End');
    const labels = await page.$$eval('#suggestions button', (buttons) => buttons.map((b) => b.firstChild?.textContent));
    expect(labels).toEqual(['StartsWith']);
    await page.click('#suggestions button');
    expect(await page.inputValue('#filter')).toBe('LastName.StartsWith(');
    await page.keyboard.type('Sm)');
    expect(await page.textContent('#canonical-filter')).toBe('LastName.StartsWith(Sm)');
  });

  it('offers sort directions and fields in the sort box', async () => {
    await type('LastName.StartsWith(Sm)', 'LastName=');
    await page.focus('#sort');
    await page.keyboard.press('End');
    const labels = await page.$$eval('#sort-suggestions button', (buttons) => buttons.map((b) => b.firstChild?.textContent));
    expect(labels).toEqual(['Asc', 'Desc']);
    await page.click('#sort-suggestions button:nth-child(2)');
    expect(await page.inputValue('#sort')).toBe('LastName=Desc');
    expect(await page.textContent('#sort-explanation')).toBe('by last name (Z→A)');
    await page.keyboard.type(';Crea');
    expect(await page.$$eval('#sort-suggestions button', (buttons) => buttons.map((b) => b.firstChild?.textContent))).toEqual(['CreatedOn']);
  });

  it('separates the code frames of several diagnostics by a blank line', async () => {
    await type('LastName.StartWith(Sm)', 'LastName=Up');
    const text = (await page.textContent('#diagnostics')) ?? '';
    expect(text).toMatch(/\^+\n {2}suggestion: StartsWith\n\nsort:1:10: error invalid-direction/);
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
