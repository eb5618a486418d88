/**
 * The playground built once per run: scripts/build-docs.mjs `buildPlayground`
 * (the function `npm run docs` uses) bundles docs/playground/main.ts with
 * esbuild, minified and with a source map — ~4 CPU-seconds, which the
 * playground and visual builder tests each paid. The shared-server
 * coordinator (server-coordinator.ts, its `/web/playground` route) builds it
 * into a folder of the run's own on the first request and answers every
 * later one with that folder; files only read it (a test that needs a
 * changed page copies what it needs elsewhere).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A built playground: its folder (index.html, main.js, main.js.map) and the bundle's size in bytes. */
export interface BuiltPlayground {
  readonly dir: string;
  readonly bytes: number;
}

/**
 * Builds the playground into a new temporary folder with the docs script's own function.
 *
 * @example
 * const { dir } = await buildPlaygroundInto(); // dir/index.html
 */
export async function buildPlaygroundInto(): Promise<BuiltPlayground> {
  const dir = mkdtempSync(join(tmpdir(), 'wepql-web-playground-'));
  // The script is plain ESM outside src/: loaded by URL (so the coordinator's bundle imports it rather than inlining it).
  const script = pathToFileURL(join(ROOT, 'scripts', 'build-docs.mjs')).href;
  const { buildPlayground } = (await import(script)) as { buildPlayground(out: string): Promise<{ bytes: number }> };
  const { bytes } = await buildPlayground(dir);
  return { dir, bytes };
}

/**
 * The coordinator's playground: built on the first `built()` (a failed
 * build is not retried: every asker sees its error), removed by `stop()`.
 *
 * @example
 * const host = playgroundHost(); const { dir } = await host.built(); … await host.stop();
 */
export function playgroundHost(): { built(): Promise<BuiltPlayground>; stop(): Promise<void> } {
  let built: Promise<BuiltPlayground> | undefined;
  return {
    built: () => (built ??= buildPlaygroundInto()),
    stop: async () => {
      const done = await built?.catch(() => undefined);
      if (done !== undefined) rmSync(done.dir, { recursive: true, force: true });
    },
  };
}
