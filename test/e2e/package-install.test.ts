/**
 * The published package works once installed: `npm pack` the built tree,
 * install the tarball into an empty folder (offline: the runtime dependencies
 * are packed from this checkout's node_modules; test/support/packed-install.ts, once per run), and run the installed commands —
 * `wepql db-seed --help`, `wepql query` over the shipped sample, `npx wepql
 * lint` in the app, the reference server — and import every JavaScript
 * entry of `exports`.
 * Needs `npm run build` first, as `npm test` does.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../support/dist.js';
import { get } from '../support/http.js';
import { run } from '../support/packed-install.js';
import { sharedPackedApp } from '../support/shared-servers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  exports: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
let installed = '';
const children: ChildProcess[] = [];

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

beforeAll(async () => {
  assertFreshDist();
  installed = join(await sharedPackedApp(), 'node_modules', pkg.name);
}, 600_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

describe('the installed package', () => {
  it('ships the sample data the commands read, with its runtime dependencies and nothing of the tree', () => {
    // Dev dependencies are not installed here: the commands and imports below fail if the built code needs one.
    expect(Object.keys(pkg.dependencies ?? {})).toContain('chevrotain');
    for (const dep of Object.keys(pkg.dependencies ?? {})) expect(existsSync(join(installed, '..', dep, 'package.json')), dep).toBe(true);
    expect(existsSync(join(installed, 'examples/employees.json'))).toBe(true);
    expect(existsSync(join(installed, 'dist/reference-server/main.js'))).toBe(true);
    expect(existsSync(join(installed, 'test'))).toBe(false);
    expect(existsSync(join(installed, 'LICENSE'))).toBe(true);
  });

  it('every source map points at a file the package ships (src/ is shipped for them) or carries the source itself', () => {
    const maps: string[] = [];
    const walk = (folder: string): void => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(folder, entry.name));
        else if (entry.name.endsWith('.js.map')) maps.push(join(folder, entry.name));
      }
    };
    walk(join(installed, 'dist'));
    expect(maps.length).toBeGreaterThan(50);
    const dangling = maps.flatMap((map) => {
      const {
        sources,
        sourceRoot = '',
        sourcesContent = [],
      } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[]; sourceRoot?: string; sourcesContent?: (string | null)[] };
      // The bundled commands carry their dependencies' code in the map (those files are elsewhere once installed).
      return sources
        .filter((_, i) => typeof sourcesContent[i] !== 'string')
        .map((source) => resolve(dirname(map), sourceRoot, source))
        .filter((file) => !existsSync(file));
    });
    expect(dangling).toEqual([]);
    // The bundled CLI's map names the shipped src/ files themselves, not copies.
    const cliMap = JSON.parse(readFileSync(join(installed, 'dist/cli/main.js.map'), 'utf8')) as { sources: string[] };
    expect(cliMap.sources.map((source) => resolve(join(installed, 'dist/cli'), source))).toContain(join(installed, 'src/cli/main.ts'));
    // The comment at the end of each script names its map, and the map is there.
    const main = readFileSync(join(installed, 'dist/cli/main.js'), 'utf8');
    expect(main).toMatch(/\n\/\/# sourceMappingURL=main\.js\.map\n?$/);
  });

  it('wepql db-seed --help prints its usage', () => {
    const r = run(join(installed, '..', '.bin', 'wepql'), ['db-seed', '--help'], join(installed, '..', '..'));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^usage: wepql db-seed/);
  });

  it('npx wepql lint checks a file of saved filters in the app, with the schema the package ships', () => {
    const app = join(installed, '..', '..');
    writeFileSync(join(app, 'views.wepql'), '# saved views\nLastName.StartsWith(Sm);Gender.Equal(1)\nFirstName.Equals(Ann)\n');
    const r = run(npx, ['--offline', 'wepql', 'lint', '--schema', join(installed, 'schemas/employee.json'), 'views.wepql'], app, {
      NO_COLOR: '1',
    });
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toMatch(/views\.wepql:3:\d+/);
    expect(`${r.stdout}${r.stderr}`).toContain('Equals');
    // No finding on line 2; the summary counts both filters.
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/views\.wepql:2:/);
    expect(`${r.stdout}${r.stderr}`).toMatch(/1 file, 2 filters checked: 1 error/);
  });

  it('wepql query runs a filter over the shipped sample', () => {
    const r = run(
      join(installed, '..', '.bin', 'wepql'),
      [
        'query',
        '--data',
        join(installed, 'examples/employees.json'),
        '--schema',
        join(installed, 'schemas/employee.json'),
        '--filter',
        'ClientId.Equal(2)',
        '--sort',
        'Id=Asc',
        '--limit',
        '3',
      ],
      join(installed, '..', '..'),
    );
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as unknown;
    const records = (
      Array.isArray(out) ? out : ((out as { Data?: unknown[]; records?: unknown[] }).Data ?? (out as { records?: unknown[] }).records)
    ) as { ClientId: number }[];
    expect(records).toHaveLength(3);
    expect(records.every((e) => e.ClientId === 2)).toBe(true);
  });

  it('package-install-doc-commands: the README\'s "Add wepql to your project" commands run against the shipped files', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Add wepql to your project'), readme.indexOf('## What is in the box'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
    const commands = block
      .split('\n')
      .filter((line) => line.startsWith('npx wepql '))
      .map((line) => line.slice('npx wepql '.length));
    expect(commands.map((c) => c.split(' ')[0])).toEqual(['lint', 'query']);
    const app = join(installed, '..', '..');
    const bin = join(installed, '..', '.bin', 'wepql');
    // Each command as a shell would split it (the quoted filter is one argument).
    const argv = (command: string): string[] => [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const lint = run(bin, argv(commands[0]!), app);
    // The shipped saved filters hold one deliberate error among warnings: exit 1, with the summary line.
    expect(lint.stderr).toBe('');
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('1 file, 8 filters checked: 1 error, 6 warnings, 1 info');
    const q = run(bin, argv(commands[1]!), app);
    expect(q.code, q.stderr).toBe(0);
    expect(q.stdout).toContain('"Gender": 1');
    // The sample data is an export of its own, as the examples import it.
    const script = "import employees from 'wepql/examples/employees.json' with { type: 'json' }; console.log(employees.length);";
    const imported = run(process.execPath, ['--input-type=module', '-e', script], app);
    expect(imported.stderr).toBe('');
    expect(imported.stdout.trim()).toBe('1200');
  });

  it('every JavaScript entry of exports imports by its package name, needing at most optional peers', () => {
    const specifiers = Object.entries(pkg.exports)
      .filter(([, target]) => typeof target === 'object')
      .map(([subpath]) => (subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
    // Optional peer dependencies (frameworks, drivers, editors) are not installed here; an entry
    // may fail for want of one of those and of nothing else.
    const optional = Object.keys(pkg.peerDependenciesMeta ?? {}).filter((name) => pkg.peerDependenciesMeta![name]!.optional === true);
    const script = `
      const optional = new Set(${JSON.stringify(optional)});
      for (const s of ${JSON.stringify(specifiers)}) {
        let m;
        try {
          m = await import(s);
        } catch (e) {
          const missing = e?.code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '([^']+)'/.exec(e.message)?.[1] : undefined;
          if (missing !== undefined && optional.has(missing)) continue;
          throw e;
        }
        if (Object.keys(m).length === 0) throw new Error(s + ' exports nothing');
      }
      console.log('ok');`;
    const r = run(process.execPath, ['--input-type=module', '-e', script], join(installed, '..', '..'));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('ok');
  });

  it("the server's start (dist/reference-server/main.js) serves the shipped sample", async () => {
    // Served from the shipped sample, not a database.
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', WEPQL_DEMO_TOKEN: 'pack-test-token' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [join(installed, 'dist/reference-server/main.js')], {
      cwd: join(installed, '..', '..'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
      const onData = (chunk: Buffer) => {
        out += chunk.toString('utf8');
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m && out.includes('try:')) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${out}`));
      });
    });
    const r = await get(`${url}/api/public/clients/2/employees?limit=3`, { authorization: 'Bearer pack-test-token' });
    expect(r.status).toBe(200);
    expect(r.body.Data).toHaveLength(3);
  }, 60_000);
});
