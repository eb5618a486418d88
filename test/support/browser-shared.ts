/**
 * The run's Chromium and built playground, seen from a test file: under
 * `vitest run` the shared-server coordinator keeps one browser and one
 * playground build for the whole run (browser-host.ts, web-playground.ts).
 * A worker connects to that browser once and keeps one context and one
 * page in it, which it lends to its files one after another
 * (`sharedPage`): a new context and page cost Chromium ~2.5 CPU-seconds
 * (a renderer process started, the page's session set up), a document
 * loaded into a kept page ~0.25. A file gets the page back with a fresh
 * document, its viewport and none of the last file's listeners, pages or
 * cookies (the pages keep nothing in storage). Outside a run with a
 * coordinator (a script, a run with `WEPQL_TEST_SERVERS` unset and no
 * global setup) each file launches and builds its own, as these tests
 * always did.
 */
import { existsSync, rmSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './browser-host.js';
import { sharedServersAddress } from './shared-servers.js';
import { buildPlaygroundInto, type BuiltPlayground } from './web-playground.js';

export { CHROMIUM };

/** Whether Debian's Chromium is installed; the browser tests skip, with a warning, where it is not. */
export const hasChromium: boolean = existsSync(CHROMIUM);

async function ask(path: string): Promise<unknown> {
  const response = await fetch(`${sharedServersAddress()!}${path}`, { method: 'POST', body: '{}' });
  const answer = (await response.json()) as { error?: string };
  if (!response.ok) throw new Error(`shared ${path} failed: ${answer.error ?? response.status}`);
  return answer;
}

/** A page lent to one test file by `sharedPage`. */
export interface LentPage {
  /** The page, with a blank document and the viewport asked for. */
  readonly page: Page;
  /** The page's context: a file may open more pages in it (`release()` closes them). */
  readonly context: BrowserContext;
  /** Gives the page back: the file's listeners removed, its other pages closed, a blank document; its own browser closed. */
  release(): Promise<void>;
}

interface Kept {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  lent: boolean;
}

/** This worker's connection, context and page in the run's browser, opened by the first file that asks. */
let kept: Promise<Kept> | undefined;

async function launchOwn(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}

async function openKept(): Promise<Kept> {
  const { chromium } = await import('playwright-core');
  const { wsEndpoint } = (await ask('/browser/endpoint')) as { wsEndpoint: string };
  const browser = await chromium.connect(wsEndpoint);
  const context = await browser.newContext();
  return { browser, context, page: await context.newPage(), lent: false };
}

/**
 * A page for this file: under a coordinator the worker's kept page of the
 * run's browser (lent to one file at a time: a second asker while it is
 * out gets a context of its own), else one of a browser launched for this
 * file. Call `release()` in the file's `afterAll`. The worker's connection
 * ends with the worker, and the browser server closes what it held.
 *
 * @example
 * const { page, release } = await sharedPage({ width: 1200, height: 1000 }); … afterAll(() => release());
 */
export async function sharedPage(viewport: { readonly width: number; readonly height: number }): Promise<LentPage> {
  if (sharedServersAddress() === undefined) {
    const browser = await launchOwn();
    const context = await browser.newContext({ viewport });
    return { page: await context.newPage(), context, release: () => browser.close() };
  }
  let held = await (kept ??= openKept()).catch(() => undefined);
  if (held === undefined || !held.browser.isConnected() || held.page.isClosed()) {
    // A connection the browser server dropped (or a failed first try): a new one, once.
    kept = openKept();
    held = await kept;
  }
  if (held.lent) {
    const context = await held.browser.newContext({ viewport });
    return { page: await context.newPage(), context, release: () => context.close() };
  }
  const lent = held;
  lent.lent = true;
  const { page, context } = lent;
  await page.setViewportSize(viewport);
  // Page is an event emitter (playwright-core's client implements Node's), though its types list only the events.
  const events = page as unknown as Pick<NodeJS.EventEmitter, 'eventNames' | 'listeners' | 'off'>;
  const before = new Map(events.eventNames().map((name) => [name, new Set(events.listeners(name))]));
  return {
    page,
    context,
    release: async () => {
      for (const name of events.eventNames())
        for (const listener of events.listeners(name))
          if (!before.get(name)?.has(listener)) events.off(name, listener as (...args: unknown[]) => void);
      await Promise.all(
        context
          .pages()
          .filter((other) => other !== page)
          .map((other) => other.close()),
      );
      await context.clearCookies();
      await page.goto('about:blank');
      lent.lent = false;
    },
  };
}

/**
 * The run's built playground (read only: copy what a test must change) or,
 * without a coordinator, one built for this file; `release()` removes a
 * build of the file's own and leaves the run's alone.
 *
 * @example
 * const playground = await sharedPlayground(); // playground.dir/index.html
 * afterAll(() => playground.release());
 */
export async function sharedPlayground(): Promise<BuiltPlayground & { release(): void }> {
  if (sharedServersAddress() === undefined) {
    const own = await buildPlaygroundInto();
    return { ...own, release: () => rmSync(own.dir, { recursive: true, force: true }) };
  }
  const shared = (await ask('/web/playground')) as BuiltPlayground;
  return { ...shared, release: () => undefined };
}
