/**
 * The run's one Chromium, kept by the shared-server coordinator
 * (server-coordinator.ts, its `/browser/endpoint` route): started with
 * playwright-core's `launchServer` the first time a file asks, stopped at
 * the end of the run. Files reach it with `chromium.connect` and open their
 * pages in browser contexts of their own (browser-shared.ts), so a file
 * pays for a context, not for a browser: a Chromium start and stop costs
 * ~4.5 CPU-seconds on the 2-core CI machine, and four files started one each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

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
 * The browser server runs in a Node process of its own, not in the
 * coordinator's: every message between a file and its pages passes through
 * that server, and the coordinator's event loop stands still for seconds
 * while it starts a database (synchronous child processes) — a page load
 * waiting on it timed out.
 *
 * @example
 * const host = browserHost(); const ws = await host.endpoint(); … await host.stop();
 */
export function browserHost(): { endpoint(): Promise<string>; stop(): Promise<void> } {
  let started: Promise<{ wsEndpoint: string; child: ChildProcess; exited: Promise<unknown> }> | undefined;
  const start = async (): Promise<{ wsEndpoint: string; child: ChildProcess; exited: Promise<unknown> }> => {
    const playwright = pathToFileURL(createRequire(import.meta.url).resolve('playwright-core')).href;
    const options = { executablePath: CHROMIUM, args: CHROMIUM_ARGS, host: '127.0.0.1' };
    // Its stdin is the lifeline: closed by stop(), or by the system when the coordinator dies, it closes the browser.
    // playwright-core is CommonJS: its exports are the default export's properties.
    const script = `const { chromium } = (await import(${JSON.stringify(playwright)})).default;
const server = await chromium.launchServer(${JSON.stringify(options)});
process.stdout.write(server.wsEndpoint() + '\\n');
process.stdin.resume();
await new Promise((resolve) => process.stdin.once('end', resolve).once('close', resolve));
await server.close();
process.exit(0);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const lines = createInterface({ input: child.stdout! });
    const wsEndpoint = await new Promise<string>((resolve, reject) => {
      lines.once('line', resolve);
      void exited.then((code) => reject(new Error(`the browser server exited (${String(code)}) before it listened`)));
    });
    return { wsEndpoint, child, exited };
  };
  return {
    endpoint: async () => (await (started ??= start())).wsEndpoint,
    stop: async () => {
      const running = await started?.catch(() => undefined);
      if (running === undefined) return;
      running.child.stdin!.end();
      const timer = setTimeout(() => running.child.kill('SIGKILL'), 30_000);
      await running.exited;
      clearTimeout(timer);
    },
  };
}
