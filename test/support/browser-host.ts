/**
 * The run's one Chromium, kept by the shared-server coordinator
 * (server-coordinator.ts, its `/browser/endpoint` route): started with
 * playwright-core's `launchServer` the first time a file asks, stopped at
 * the end of the run. Files reach it with `chromium.connect` and open their
 * pages in browser contexts of their own (browser-shared.ts), so a file
 * pays for a context, not for a browser: a Chromium start and stop costs
 * ~4.5 CPU-seconds on the 2-core CI machine, and four files started one each.
 */
import type { BrowserServer } from 'playwright-core';

/** Debian's Chromium (`.ci/run` installs it); the browser tests skip, with a warning, where it is missing. */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * The flags of every test browser: headless, no sandbox (CI runs as root),
 * and nothing that talks to the network or updates itself in the
 * background — none of them changes how a page lays out or runs.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * The coordinator's browser: `endpoint()` starts it on the first call (a
 * failed start is not retried: every asker sees its error) and answers the
 * same WebSocket address after; `stop()` closes it if it started.
 *
 * @example
 * const host = browserHost(); const ws = await host.endpoint(); … await host.stop();
 */
export function browserHost(): { endpoint(): Promise<string>; stop(): Promise<void> } {
  let server: Promise<BrowserServer> | undefined;
  return {
    endpoint: async () => {
      server ??= import('playwright-core').then(({ chromium }) =>
        // Loopback only; the endpoint's path is a random token besides.
        chromium.launchServer({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], host: '127.0.0.1' }),
      );
      return (await server).wsEndpoint();
    },
    stop: async () => {
      if (server !== undefined) await (await server.catch(() => undefined))?.close();
    },
  };
}
