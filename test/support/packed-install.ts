/**
 * The published package installed the way a user installs it: `npm pack` the
 * built tree and install the tarball into an empty app folder, offline — the
 * runtime dependencies are packed from this checkout's node_modules and
 * installed alongside, so npm resolves them without asking a registry. Used
 * by test/e2e/package-install.test.ts and test/e2e/grid-packed-types.test.ts;
 * needs `npm run build` first (assertFreshDist).
 *
 * A run packs and installs once: test files ask `sharedPackedApp()`
 * (test/support/shared-servers.ts), and the shared-server coordinator
 * installs on the first request and hands every later one the same app.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A command's outcome. */
export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly error: Error | undefined;
}

/**
 * Runs a command to its end (`timeoutMs`, 3 minutes by default, at most).
 *
 * @example
 * run('npm', ['--version'], process.cwd()).code; // 0
 */
export function run(command: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000): RunResult {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/** The folders of `names` and of everything they depend on, nested copies first as Node resolves them. */
function dependencyFolders(names: readonly string[]): string[] {
  const folders: string[] = [];
  const queue: [string, string][] = names.map((name) => [name, ROOT]);
  while (queue.length > 0) {
    const [name, from] = queue.shift()!;
    const folder = [join(from, 'node_modules', name), join(ROOT, 'node_modules', name)].find((f) => existsSync(join(f, 'package.json')));
    if (folder === undefined) throw new Error(`${name} is not installed: run npm ci first`);
    if (folders.includes(folder)) continue;
    folders.push(folder);
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push([dep, folder]);
  }
  return folders;
}

// `run` without blocking the event loop: the coordinator answers other files while it installs.
function runAsync(command: string, args: readonly string[], cwd: string): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, encoding: 'utf8', timeout: 180_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      resolve({ code, stdout, stderr, error: error === null || typeof error.code === 'number' ? undefined : error });
    });
  });
}

// `npm pack` of `folders` into `dir`, in ONE npm process (it packs them one after the other): the tarballs' paths.
// Each npm start costs about a CPU-second; packing the checkout and its 18 runtime dependency folders
// one process each took 4–5 times the CPU of this (cpu-of.sh: 29.1 against 7.0 CPU-seconds for the 18).
async function pack(folders: readonly string[], dir: string): Promise<string[]> {
  const packed = await runAsync(npm, ['pack', '--silent', '--ignore-scripts', '--pack-destination', dir, ...folders], ROOT);
  if (packed.code !== 0) throw new Error(`npm pack ${folders.join(' ')} failed:\n${packed.stderr}`);
  const tarballs = packed.stdout
    .trim()
    .split('\n')
    .map((name) => join(dir, name.trim()));
  if (tarballs.length !== folders.length)
    throw new Error(`npm pack of ${folders.length} folders named ${tarballs.length} tarballs:\n${packed.stdout}`);
  for (const tarball of tarballs) if (!existsSync(tarball)) throw new Error(`npm pack wrote no ${tarball}`);
  return tarballs;
}

/**
 * Packs this checkout and installs it, with its runtime dependencies only,
 * into `dir`/app; returns the app folder (the package is in
 * `app/node_modules/wepql`).
 *
 * @example
 * const app = await installPackedWepql(mkdtempSync(join(tmpdir(), 'wepql-pack-')));
 */
export async function installPackedWepql(dir: string): Promise<string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  const app = join(dir, 'app');
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'wepql-install-check', version: '1.0.0', private: true, type: 'module' }),
  );
  const tarballs = await pack([ROOT, ...dependencyFolders(Object.keys(pkg.dependencies ?? {}))], dir);
  const install = await runAsync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], app);
  if (install.code !== 0) throw new Error(`npm install of the tarballs failed:\n${install.stdout}\n${install.stderr}`);
  return app;
}
