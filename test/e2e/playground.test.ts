/**
 * The playground in a real browser: built with the docs script's own build
 * function into a temporary directory (once per run, shared with the visual
 * builder's test: test/support/browser-shared.ts), served on 127.0.0.1, and
 * driven with Debian's Chromium (the run's one browser, a page lent to
 * this file) through playwright-core. Skipped, with a warning, where
 * /usr/bin/chromium is not installed (`.ci/run` installs it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { query } from '../../src/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { CHROMIUM, hasChromium, sharedPage, sharedPlayground } from '../support/browser-shared.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ARTIFACTS = join(ROOT, 'test-artifacts');
const employees = JSON.parse(readFileSync(join(ROOT, 'examples', 'employees.json'), 'utf8')) as Record<string, unknown>[];

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
  let release = (): void => undefined;
  let server: Server;
  let releasePage = (): Promise<void> => Promise.resolve();
  let context: BrowserContext;
  let page: Page;
  const pageErrors: string[] = [];
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    // The same function `npm run docs` uses (scripts/build-docs.mjs buildPlayground), run once for the run.
    const built = await sharedPlayground();
    ({ dir, release } = built);
    expect(built.bytes).toBeGreaterThan(0);
    server = await serve(dir);
    // The worker's kept page of the run's browser: a new context and page cost Chromium ~2.5 CPU-seconds.
    ({ page, context, release: releasePage } = await sharedPage({ width: 1200, height: 1000 }));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    // A failed request (the favicon's 404 was one) is an error in the console too.
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(`${m.text()} (${m.location().url})`);
    });
    const { port } = server.address() as AddressInfo;
    await page.goto(`http://127.0.0.1:${port}/index.html`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  });

  afterAll(async () => {
    // Closes the file:// page too (a page of the lent page's context).
    await releasePage();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    release();
  });

  /** Sets both editors' text through the page's own loader (as the example buttons do). */
  async function load(filter: string, sort: string): Promise<void> {
    await page.evaluate(
      ([f, s]) => (window as unknown as { playground: { load(f: string, s: string): void } }).playground.load(f!, s!),
      [filter, sort],
    );
  }

  /** Empties one editor and types into it key by key, as a person does. */
  async function typeInto(id: 'filter' | 'sort', text: string): Promise<void> {
    // Close what an earlier step left open (a completion menu, a tooltip).
    await page.keyboard.press('Escape');
    await page.mouse.move(0, 0);
    await page.waitForSelector('.cm-tooltip-autocomplete', { state: 'detached', timeout: 5_000 });
    await page.click(`#${id} .cm-content`);
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(text);
  }

  /** The labels of the open completion menu, once it shows `expected` (or times out showing something else). */
  async function completionLabels(expected: readonly string[]): Promise<string[]> {
    const read = (): Promise<string[]> =>
      page.$$eval('.cm-tooltip-autocomplete li .cm-completionLabel', (els) => els.map((e) => e.textContent ?? ''));
    await page
      .waitForFunction(
        (want) =>
          Array.from(document.querySelectorAll('.cm-tooltip-autocomplete li .cm-completionLabel'), (e) => e.textContent).join('|') === want,
        expected.join('|'),
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    // CodeMirror ignores Enter for 75 ms after the menu opens (so a fast typist's Enter is not taken as a choice).
    await page.waitForTimeout(150);
    return read();
  }

  const docOf = (id: 'filter' | 'sort'): Promise<string> =>
    page.$eval(`#${id} .cm-content`, (e) => (e as HTMLElement).innerText.replace(/\u00a0/g, ' '));

  it('shows the canonical form, the explanation and the matching employees', async () => {
    const filter = 'lastname.startswith( S );or(Gender.Equal(1);EePortal.Equal(true))';
    await load(filter, 'lastname=asc;CreatedOn=Desc');
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
    // Highlighting: the parts of the filter are marked by what they are.
    expect(await page.$$eval('#filter .cm-wepql-keyword', (els) => els.map((e) => e.textContent))).toEqual(['or']);
    expect(await page.$$eval('#filter .cm-wepql-operator', (els) => els.map((e) => e.textContent))).toEqual([
      'startswith',
      'Equal',
      'Equal',
    ]);
    expect(await page.$$eval('#sort .cm-wepql-direction', (els) => els.map((e) => e.textContent))).toEqual(['asc', 'Desc']);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'playground.png'), fullPage: true });
  });

  it('shows a diagnostic with its position for a bad filter', async () => {
    await load('LastName.StartWith(Sm);Gender.Equal(x)', 'LastName=Asc');
    const diagnostics = (await page.textContent('#diagnostics')) ?? '';
    expect(diagnostics).toContain('filter:1:10: error unknown-operator: unknown operator "StartWith"; did you mean "StartsWith"?');
    expect(diagnostics).toContain('  LastName.StartWith(Sm);Gender.Equal(x)\n           ^^^^^^^^^');
    expect(await page.textContent('#canonical-filter')).toBe('—');
    expect(await page.textContent('#count')).toBe('Fix the errors above to see matching employees.');
    expect(await page.$$('#results tbody tr')).toHaveLength(0);
    expect(await page.getAttribute('#filter', 'class')).toContain('invalid');
    await page.screenshot({ path: join(ARTIFACTS, 'playground-error.png') });
  });

  it('shows the semantic lint findings, as wepql lint does', async () => {
    await typeInto('filter', 'EmployeeNumber.GreaterThan(500);EmployeeNumber.LessThan(100)');
    const diagnostics = (await page.textContent('#diagnostics')) ?? '';
    expect(diagnostics).toContain('filter:1:33: warning contradiction:');
    expect(diagnostics).toContain('filter:1:1: warning unsatisfiable-filter:');
    expect(diagnostics).not.toContain('No problems.');
  });

  it('typed text gets a lint mark over exactly the wrong range', async () => {
    await typeInto('filter', 'LastName.StartWith(Sm)');
    await page.waitForSelector('#filter .cm-lintRange-error', { timeout: 5_000 });
    // The lint runs a moment after a change: on a loaded machine it can mark a prefix typed so far ("LastNam", an
    // unknown field) before it marks the whole text. Wait for the whole text's mark (or time out and show the one left).
    await page
      .waitForFunction(
        () => Array.from(document.querySelectorAll('#filter .cm-lintRange-error'), (e) => e.textContent).join('') === 'StartWith',
        undefined,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    const marked = await page.$$eval('#filter .cm-lintRange-error', (els) => els.map((e) => e.textContent).join(''));
    expect(marked).toBe('StartWith');
  });

  it('accepts a completion with Enter, inserting the operator and its (', async () => {
    await typeInto('filter', 'LastName.Sta');
    expect(await completionLabels(['StartsWith'])).toEqual(['StartsWith']);
    await page.keyboard.press('Enter');
    expect(await docOf('filter')).toBe('LastName.StartsWith(');
    await page.keyboard.type('Sm)');
    expect(await page.textContent('#canonical-filter')).toBe('LastName.StartsWith(Sm)');
  });

  it('offers sort directions in the sort box', async () => {
    await typeInto('sort', 'LastName=');
    expect(await completionLabels(['Asc', 'Desc'])).toEqual(['Asc', 'Desc']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await docOf('sort')).toBe('LastName=Desc');
    expect(await page.textContent('#sort-explanation')).toBe('by last name (Z→A)');
  });

  it('applies a fix from the lint mark', async () => {
    await typeInto('filter', 'Gender.Equal(1);Gender.Equal(1)');
    await page.waitForSelector('#filter .cm-lintRange-warning', { timeout: 5_000 });
    const marks = await page.$$('#filter .cm-lintRange-warning');
    await marks[marks.length - 1]!.hover();
    const button = await page.waitForSelector('.cm-tooltip-lint .cm-diagnosticAction', { timeout: 5_000 });
    expect(await page.textContent('.cm-tooltip-lint')).toContain('repeats an earlier condition');
    expect(await button.textContent()).toBe('Fix');
    await button.click();
    expect(await docOf('filter')).toBe('Gender.Equal(1)');
    await page.mouse.move(0, 0);
  });

  it('shows the field type and the condition in plain English on hover', async () => {
    await typeInto('filter', 'LastName.StartsWith(Sm);CreatedOn.Equal(2021-03-15)');
    await page.mouse.move(0, 0);
    const word = await page.$$('#filter .cm-wepql-field');
    await word[1]!.hover();
    const tooltip = await page.waitForSelector('.cm-wepql-hover', { timeout: 5_000 });
    const text = (await tooltip.textContent()) ?? '';
    expect(text).toContain('CreatedOn · datetime');
    expect(text).toContain('created on is exactly 2021-03-15T00:00:00Z (that instant only, not the whole day');
    await page.mouse.move(0, 0);
  });

  it('keeps hover and lint tooltips inside the window, below the site header, with "Replace with …" whole (issue 21 #7)', async () => {
    await page.setViewportSize({ width: 760, height: 900 });
    try {
      /** The box of the tooltip holding `selector`, the header's bottom and the viewport, as the page lays them out. */
      const layout = async (selector: string) => {
        // CodeMirror measures and then places a tooltip (off-screen until then).
        await page.waitForFunction(
          (sel) => (document.querySelector(sel)?.closest('.cm-tooltip')?.getBoundingClientRect().top ?? -10000) > -1000,
          selector,
          { timeout: 5_000 },
        );
        return page.evaluate((sel) => {
          const tip = document.querySelector(sel)!.closest('.cm-tooltip')!;
          const box = tip.getBoundingClientRect();
          const action = tip.querySelector('.cm-diagnosticAction');
          return {
            top: box.top,
            bottom: box.bottom,
            left: box.left,
            right: box.right,
            header: document.querySelector('header.site')!.getBoundingClientRect().bottom,
            width: innerWidth,
            height: innerHeight,
            action:
              action === null
                ? undefined
                : {
                    text: action.textContent,
                    right: action.getBoundingClientRect().right,
                    scrollWidth: action.scrollWidth,
                    clientWidth: action.clientWidth,
                  },
          };
        }, selector);
      };
      const inside = (box: Awaited<ReturnType<typeof layout>>) => {
        expect(box.top).toBeGreaterThanOrEqual(box.header - 0.5);
        expect(box.bottom).toBeLessThanOrEqual(box.height + 0.5);
        expect(box.left).toBeGreaterThanOrEqual(-0.5);
        expect(box.right).toBeLessThanOrEqual(box.width + 0.5);
      };
      await page.evaluate(() => window.scrollTo(0, 0));
      await typeInto('filter', 'LastName.StartsWith(Sm)');
      await page.mouse.move(0, 0);
      // A hover opens above its line. Make it taller than the room between the header and the line (but not
      // than the room above the line): placed in the whole window it would cover the header, as long hovers did.
      const room = await page.evaluate(() => ({
        line: document.querySelector('#filter')!.getBoundingClientRect().top,
        header: document.querySelector('header.site')!.getBoundingClientRect().bottom,
      }));
      const tall = await page.addStyleTag({ content: `.cm-wepql-hover { min-height: ${Math.round(room.line - room.header + 20)}px; }` });
      await (await page.$('#filter .cm-wepql-field'))!.hover();
      await page.waitForSelector('.cm-wepql-hover', { timeout: 5_000 });
      inside(await layout('.cm-wepql-hover'));
      await page.mouse.move(0, 0);
      await page.waitForSelector('.cm-wepql-hover', { state: 'detached', timeout: 5_000 });
      await tall.evaluate((element) => (element as HTMLElement).remove());

      await typeInto('filter', 'CreatedOn.Equal(2021-03-15)');
      await page.waitForSelector('#filter .cm-lintRange-warning', { timeout: 5_000 });
      await (await page.$('#filter .cm-lintRange-warning'))!.hover();
      await page.waitForSelector('.cm-tooltip-lint .cm-diagnosticAction', { timeout: 5_000 });
      const lint = await layout('.cm-tooltip-lint');
      inside(lint);
      expect(lint.action!.text).toMatch(/^Replace with CreatedOn\.GreaterThanOrE/);
      // The button's text is shown whole: not clipped by its own box nor past the window's edge.
      expect(lint.action!.scrollWidth).toBeLessThanOrEqual(lint.action!.clientWidth + 1);
      expect(lint.action!.right).toBeLessThanOrEqual(lint.width + 0.5);
      await page.mouse.move(0, 0);
    } finally {
      await page.setViewportSize({ width: 1200, height: 1000 });
    }
  });

  it('is one line: Enter submits into the address instead of breaking the line', async () => {
    await typeInto('filter', 'Gender.Equal(1)');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Enter');
    expect(await docOf('filter')).toBe('Gender.Equal(1)');
    expect(await page.$$('#filter .cm-line')).toHaveLength(1);
    expect(new URL(page.url()).searchParams.get('filter')).toBe('Gender.Equal(1)');
  });

  it('separates the code frames of several diagnostics by a blank line', async () => {
    await load('LastName.StartWith(Sm)', 'LastName=Up');
    const text = (await page.textContent('#diagnostics')) ?? '';
    expect(text).toMatch(/\^+\n {2}suggestion: StartsWith\n\nsort:1:10: error invalid-direction/);
  });

  // The file:// tests share a second page, kept apart from the served page's error lists (the page without its
  // script logs the missing file): a new page costs Chromium ~1.2 CPU-seconds, a goto in one ~0.25.
  let fromDisk: Page | undefined;
  const fromDiskErrors: string[] = [];
  async function openFromDisk(url: string): Promise<Page> {
    if (fromDisk === undefined) {
      fromDisk = await context.newPage();
      await fromDisk.setViewportSize({ width: 1200, height: 1000 });
      fromDisk.on('pageerror', (e) => fromDiskErrors.push(e.message));
    }
    fromDiskErrors.length = 0;
    await fromDisk.goto(url);
    return fromDisk;
  }

  it('works when opened from disk (file://)', async () => {
    const local = await openFromDisk(pathToFileURL(join(dir, 'index.html')).href);
    await local.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    expect(await local.textContent('#canonical-filter')).toBe('LastName.StartsWith(S);Or(Gender.Equal(1);EePortal.Equal(true))');
    expect(await local.isVisible('#load-problem')).toBe(false);
    expect(fromDiskErrors).toEqual([]);
  });

  it('says in the page how to serve it when its script cannot run', async () => {
    // The page without its bundle stands for a browser that refuses scripts from disk.
    const bare = mkdtempSync(join(tmpdir(), 'wepql-playground-bare-'));
    try {
      copyFileSync(join(dir, 'index.html'), join(bare, 'index.html'));
      const local = await openFromDisk(pathToFileURL(join(bare, 'index.html')).href);
      await local.waitForSelector('#load-problem', { state: 'visible', timeout: 10_000 });
      expect(await local.textContent('#load-problem')).toContain('npm run docs:serve');
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });

  it('playground-favicon-404: logged no error in the console (no request for a missing favicon)', () => {
    expect(consoleErrors).toEqual([]);
  });
});
