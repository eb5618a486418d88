/**
 * The run's Chromium and built playground, seen from a test file: under
 * `vitest run` the shared-server coordinator keeps one browser and one
 * playground build for the whole run (browser-host.ts, web-playground.ts);
 * a file connects to that browser and opens its pages in contexts of its
 * own (`browser.newPage()` makes a fresh context each time), so what one
 * file does to its pages — cookies, storage, viewport, focus — never
 * reaches another's. Outside a run with a coordinator (a script, a run
 * with `WEPQL_TEST_SERVERS` unset and no global setup) each file launches
 * and builds its own, as these tests always did.
 */
import { existsSync, rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
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

/**
 * The run's Chromium (connected) or, without a coordinator, one of this
 * file's own (launched). Either way `close()` it in the file's `afterAll`:
 * for the run's browser that closes this file's contexts and disconnects.
 *
 * @example
 * const browser = await sharedBrowser(); const page = await browser.newPage(); … await browser.close();
 */
export async function sharedBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  if (sharedServersAddress() === undefined) return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
  const { wsEndpoint } = (await ask('/browser/endpoint')) as { wsEndpoint: string };
  return chromium.connect(wsEndpoint);
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
