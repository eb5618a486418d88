/**
 * Docs that run as printed: every program (```ts, ```js) and command
 * (```sh, ```console) block of README.md and docs/*.md runs here against the
 * BUILT package — or says, in a `<!-- docs-test: skip REASON -->` comment
 * above it, why it cannot (test/support/doc-blocks.ts lists the
 * directives). Programs import `wepql` by its package name, which resolves
 * to dist/ (npm test builds it first); a block that needs a database gets a
 * real PostgreSQL 15 seeded by `wepql db-seed`. A command line of plain
 * `wepql` words (test/support/shell-words.ts: split as sh splits it,
 * optionally ending in `> FILE`) runs the built CLI in the test's process
 * (test/support/srv-cli.ts), its output written to FILE as sh's redirect
 * writes it; any other line, and `wepql lsp` (a server on stdio), runs
 * through bash against the built binary.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../../support/cli.js';
import { assertFreshDist } from '../../support/dist.js';
import { COMMAND_LANGUAGES, PROGRAM_LANGUAGES, allDocBlocks, directive, type DocBlock } from '../../support/doc-blocks.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../../support/postgres-server.js';
import { redirectedWords } from '../../support/shell-words.js';
import { builtCli } from '../../support/srv-cli.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const blocks = allDocBlocks(ROOT).filter((b) => PROGRAM_LANGUAGES.has(b.language) || COMMAND_LANGUAGES.has(b.language));
const name = (b: DocBlock): string => `${b.file}:${b.line}`;
const runnable = blocks.filter((b) => directive(b, 'skip') === undefined && directive(b, 'same-as') === undefined);
const programs = runnable.filter((b) => PROGRAM_LANGUAGES.has(b.language));
const commands = runnable.filter((b) => COMMAND_LANGUAGES.has(b.language));
const needsDatabase = (b: DocBlock): boolean => directive(b, 'postgres') !== undefined;
/** Programs that run together in one process: no database, no environment, not a server. */
const plain = programs.filter((b) => !needsDatabase(b) && directive(b, 'env') === undefined && directive(b, 'serve') === undefined);
const hasPostgres = findPostgresBin() !== undefined;

// Inside the repository, so that `import … from 'wepql'` resolves to this package (dist/) and its dependencies.
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, '.tmp', 'docs-blocks-'));
let database: PostgresServer | undefined;

afterAll(async () => {
  await database?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** The block as a runnable ES module: the prelude, then the block, types stripped. */
async function moduleFile(block: DocBlock): Promise<string> {
  const source = `${directive(block, 'prelude') ?? ''}\n${block.code}`;
  const { code } = await transform(source, { loader: block.language.startsWith('t') ? 'ts' : 'js', format: 'esm', target: 'node20' });
  const file = join(work, `${block.file.replace(/\W/g, '_')}_${block.line}.mjs`);
  writeFileSync(file, code);
  return file;
}

/** The variables a block's `env` directive sets. */
const blockEnv = (block: DocBlock): Record<string, string> => JSON.parse(directive(block, 'env') || '{}') as Record<string, string>;

function environment(block: DocBlock): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...blockEnv(block) };
  if (needsDatabase(block)) env['DATABASE_URL'] = database!.url;
  return env;
}

/** A seeded PostgreSQL database, started on first use; seeded by the built `wepql db-seed` in this process (setup, not a block). */
async function seededDatabase(): Promise<void> {
  if (database !== undefined) return;
  database = await startPostgresServer();
  const seeded = await builtCli(['db-seed', '--database-url', database.url]);
  expect(seeded.code, seeded.stderr).toBe(0);
}

describe('every program and command block of the docs', () => {
  it('finds the blocks', () => {
    expect(programs.length).toBeGreaterThan(15);
    expect(commands.length).toBeGreaterThan(8);
  });

  it.each(blocks.filter((b) => directive(b, 'skip') !== undefined).map((b) => [name(b), b] as const))(
    '%s says why it is not run',
    (_, block) => {
      // A reason a reader can check: what the block needs, and which test covers it instead where one does.
      expect(directive(block, 'skip')!.length).toBeGreaterThan(20);
    },
  );

  it.each(blocks.filter((b) => directive(b, 'same-as') !== undefined).map((b) => [name(b), b] as const))(
    '%s is its file verbatim',
    (_, block) => {
      const file = directive(block, 'same-as')!;
      expect(`${block.code}\n`).toBe(readFileSync(join(ROOT, file), 'utf8'));
    },
  );
});

describe('programs run against the built package', () => {
  const results = new Map<string, { ok: boolean; error?: string }>();

  beforeAll(async () => {
    assertFreshDist();
    // One process for all the plain programs: one start-up of Node and the package instead of one each.
    const files: string[] = [];
    const batch: DocBlock[] = [];
    for (const block of plain) {
      try {
        files.push(await moduleFile(block));
        batch.push(block);
      } catch (error) {
        results.set(name(block), { ok: false, error: `does not compile: ${String(error)}` });
      }
    }
    const runner = join(work, 'run-all.mjs');
    writeFileSync(
      runner,
      `const results = [];
const home = process.cwd();
for (const file of process.argv.slice(2)) {
  try { await import(file); results.push({ ok: true }); }
  catch (error) { results.push({ ok: false, error: String(error?.stack ?? error) }); }
  finally { process.chdir(home); }
}
process.stdout.write('\\n@@results@@' + JSON.stringify(results));
process.exit(0);
`,
    );
    const r = spawnSync(process.execPath, [runner, ...files], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 << 20 });
    const marker = r.stdout.lastIndexOf('@@results@@');
    if (marker < 0) throw new Error(`the programs did not finish (${r.status ?? r.signal}):\n${r.stderr}`);
    const list = JSON.parse(r.stdout.slice(marker + '@@results@@'.length)) as { ok: boolean; error?: string }[];
    batch.forEach((b, i) => results.set(name(b), list[i]!));
  }, 180_000);

  it.each(plain.map((b) => [name(b), b] as const))('%s', (label) => {
    const result = results.get(label)!;
    expect(result.error ?? '').toBe('');
    expect(result.ok).toBe(true);
  });

  const special = programs.filter((b) => !plain.includes(b));
  it.each(special.map((b) => [name(b), b] as const))(
    '%s',
    async (_, block) => {
      if (needsDatabase(block)) {
        if (!hasPostgres) return void console.warn(`SKIPPED ${name(block)}: ${postgresUnavailableReason()}`);
        await seededDatabase();
      }
      const file = await moduleFile(block);
      const path = directive(block, 'serve');
      if (path === undefined) {
        const r = spawnSync(process.execPath, [file], { cwd: ROOT, env: environment(block), encoding: 'utf8', timeout: 60_000 });
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        return;
      }
      const child = spawn(process.execPath, [file], {
        cwd: ROOT,
        env: { ...environment(block), PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          const timer = setTimeout(() => reject(new Error(`${name(block)} did not print "listening on": ${out}`)), 30_000);
          const take = (chunk: Buffer): void => {
            out += chunk.toString();
            const m = /listening on (http:\/\/\S+)/.exec(out);
            if (m !== null) {
              clearTimeout(timer);
              resolve(m[1]!);
            }
          };
          child.stdout.on('data', take);
          child.stderr.on('data', take);
          child.once('exit', (code) => reject(new Error(`${name(block)} exited with ${code}: ${out}`)));
        });
        const response = await fetch(`${url}${path}`);
        const body = await response.text();
        expect(response.status, body).toBe(200);
        const page = JSON.parse(body) as { Data: unknown[] };
        expect(page.Data.length).toBeGreaterThan(0);
      } finally {
        child.kill('SIGTERM');
      }
    },
    90_000,
  );
});

describe('commands run as printed', () => {
  let cwd = '';
  let bin = '';
  let closedPort = 0;

  beforeAll(async () => {
    assertFreshDist();
    // The conformance command names a server at 127.0.0.1:8080; whatever this machine runs there must not decide the
    // test, so it reaches a loopback port just seen free instead (refused: the run reports it and ends 1).
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    // A scratch folder that sees the repository's examples and schemas; what a command writes stays there.
    // Outside the repository: a command that looks for a package.json upwards must not find this one.
    cwd = mkdtempSync(join(tmpdir(), 'wepql-docs-cwd-'));
    for (const entry of ['examples', 'schemas', 'grammar', 'docs']) symlinkSync(join(ROOT, entry), join(cwd, entry));
    bin = join(work, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'wepql'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  });

  afterAll(() => {
    if (cwd !== '') rmSync(cwd, { recursive: true, force: true });
  });

  /** The command lines of a block: continuations joined, comments and blank lines dropped, `npx wepql` run as `wepql`. */
  const linesOf = (block: DocBlock): string[] =>
    block.code
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'))
      .map((l) => l.replace(/^npx wepql\b/, 'wepql'));

  // Only the package's own commands run unmarked: anything else (npm, git, cd, a build) could change the
  // checkout or the machine, so such a block must say `<!-- docs-test: skip REASON -->` and what covers it.
  it.each(commands.map((b) => [name(b), b] as const))('%s runs only wepql and node examples/…', (_, block) => {
    for (const line of linesOf(block))
      expect(line, `${name(block)}: mark the block docs-test: skip with a reason`).toMatch(/^(wepql|node examples\/)\S*( |$)/);
  });

  it.each(commands.map((b) => [name(b), b] as const))(
    '%s',
    async (_, block) => {
      if (!linesOf(block).every((line) => /^(wepql|node examples\/)\S*( |$)/.test(line))) return;
      if (needsDatabase(block)) {
        if (!hasPostgres) return void console.warn(`SKIPPED ${name(block)}: ${postgresUnavailableReason()}`);
        await seededDatabase();
      }
      const env: NodeJS.ProcessEnv = { ...environment(block), PATH: `${bin}:${process.env['PATH']}` };
      for (const printed of linesOf(block)) {
        const line = printed.replaceAll('http://127.0.0.1:8080/', `http://127.0.0.1:${closedPort}/`);
        const inProcess = line.startsWith('wepql lsp') ? undefined : redirectedWords(line, env);
        let r: { status: number | null; stderr: string };
        if (inProcess === undefined || inProcess.words[0] !== 'wepql') {
          r = spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 60_000 });
        } else {
          // bash opens (and empties) the file before the command runs.
          if (inProcess.stdout !== undefined) writeFileSync(join(cwd, inProcess.stdout), '');
          const ran = await builtCli(inProcess.words.slice(1), { cwd, env: { DATABASE_URL: env['DATABASE_URL'], ...blockEnv(block) } });
          if (inProcess.stdout !== undefined) writeFileSync(join(cwd, inProcess.stdout), ran.stdout);
          r = { status: ran.code, stderr: ran.stderr };
        }
        // 0, or 1 where the command reports problems in its input (lint does on purpose); never a usage error.
        expect(r.stderr, line).not.toMatch(/usage:|internal error|command not found|No such file/);
        expect([0, 1], `${line}\n${r.stderr}`).toContain(r.status);
      }
    },
    120_000,
  );
});
