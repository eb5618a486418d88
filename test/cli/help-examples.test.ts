/**
 * Every example printed by `wepql help <command>` (and `wepql help schema
 * diff`) runs as printed, in a copy of the repository's schemas/ and examples/ with a real PostgreSQL
 * behind `$DATABASE_URL` (and two more databases of that server behind
 * `$SHARD0_URL` and `$SHARD1_URL`, for the `--shards` examples): it ends
 * with 0 or 1 (findings), never a usage error or an internal error. Every
 * help also says what `--` does.
 *
 * An example made only of words — plain, 'single-quoted', or
 * "double-quoted" with $VARIABLES — and optionally ending in `> FILE` is
 * split as sh splits it and run in the test's process
 * (test/support/cli-in-process.ts), its standard output written to FILE as
 * sh's redirect writes it (a later example reads that file); one that needs
 * more of the shell, and `wepql lsp` (a server on stdio), run through
 * /bin/sh against the built binary.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { redirectedWords, shellWords } from '../support/shell-words.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

/** A loopback port nothing listened on a moment ago. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The commands `wepql --help` lists, and the subcommands with a help of their own. */
async function helpTopics(): Promise<string[][]> {
  const list = (await runCliInProcess(['--help'])).stdout;
  const commands = [...list.slice(list.indexOf('commands:')).matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((m) => [m[1]!]);
  return [...commands, ['schema', 'diff']];
}

function examplesOf(help: string): string[] {
  const at = help.search(/^examples?:$/m);
  return help
    .slice(at)
    .split('\n')
    .slice(1)
    .filter((l) => l.startsWith('  wepql '))
    .map((l) => l.trim());
}

const topics = await helpTopics();
// Each topic's help, asked once: the tests below and the list of examples read the same text.
const helps = new Map<string, string>();
for (const topic of topics) helps.set(topic.join(' '), (await runCliInProcess(['help', ...topic])).stdout);

describe('the splitter of examples run in process', () => {
  it.each([
    [`wepql lint --filter-path '$.views[*].filter' a.yaml`, ['wepql', 'lint', '--filter-path', '$.views[*].filter', 'a.yaml']],
    [`wepql db-seed --shards "$A,\${B}" --rows 20`, ['wepql', 'db-seed', '--shards', 'a,', '--rows', '20']],
    [`wepql fmt -- 'lastName.equal(-5)'x"y"`, ['wepql', 'fmt', '--', 'lastName.equal(-5)xy']],
    ['wepql schema --openapi > out.yaml', undefined],
    ['wepql lint *.wepql', undefined],
    ['wepql lint $A', undefined],
    ['wepql fmt "unclosed', undefined],
    [`wepql parse "A.Equal(1;B.Foo(2)"   # three diagnostics`, ['wepql', 'parse', 'A.Equal(1;B.Foo(2)']],
    [`wepql fmt a#b`, undefined],
  ])('%s', (line, words) => {
    expect(shellWords(line, { A: 'a' })).toEqual(words);
  });

  it.each([
    ['wepql schema --openapi > out.yaml', { words: ['wepql', 'schema', '--openapi'], stdout: 'out.yaml' }],
    [`wepql fmt 'a > b'`, { words: ['wepql', 'fmt', 'a > b'] }],
    ['wepql lint a.wepql', { words: ['wepql', 'lint', 'a.wepql'] }],
    ['wepql schema --openapi > out.yaml 2>&1', undefined],
    ['wepql schema --openapi >> out.yaml', undefined],
    ['wepql schema --openapi > $OUT', undefined],
    ['wepql lint *.wepql > out.txt', undefined],
  ])('%s (redirected)', (line, run) => {
    expect(redirectedWords(line, { A: 'a' })).toEqual(run);
  });
});

describe("every command's help", () => {
  it('lists the commands', () => {
    expect(topics.map((t) => t.join(' '))).toEqual(expect.arrayContaining(['lint', 'fmt', 'explain', 'db-index', 'schema diff']));
  });

  it.each(topics.map((t) => [t.join(' '), t] as const))('%s documents -- and has at least one example', (_name, topic) => {
    const help = helps.get(topic.join(' '))!;
    expect(help).toContain('Everything after -- is TEXT or FILE, even when it begins with -');
    expect(examplesOf(help).length).toBeGreaterThan(0);
  });
});

const examples = topics.flatMap((topic) => examplesOf(helps.get(topic.join(' '))!).map((example) => [topic.join(' '), example] as const));
// db-seed fills the table the db-index and lint examples read, so database examples run after it.
const order = (e: readonly [string, string]) => (e[0] === 'db-seed' ? 0 : 1);
const runnable = [...examples].sort((a, b) => order(a) - order(b));

if (findPostgresBin() === undefined) {
  console.warn(`SKIPPED: help examples against PostgreSQL — ${postgresUnavailableReason()}`);
  describe.skip('help examples (PostgreSQL not installed)', () => {});
} else {
  describe('every help example runs as printed', () => {
    let server: PostgresServer;
    const shardUrls: Record<string, string> = {};
    const sandbox = mkdtempSync(join(tmpdir(), 'wepql-help-examples-'));
    const bin = join(sandbox, '.bin');

    let closedPort = 0;

    beforeAll(async () => {
      closedPort = await freePort();
      server = await startPostgresServer();
      cpSync(join(ROOT, 'schemas'), join(sandbox, 'schemas'), { recursive: true });
      cpSync(join(ROOT, 'examples'), join(sandbox, 'examples'), { recursive: true });
      mkdirSync(bin);
      writeFileSync(join(bin, 'wepql'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      chmodSync(join(bin, 'wepql'), 0o755);
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      await client.query('CREATE TABLE employee_views (id integer PRIMARY KEY, filter text)');
      await client.query("INSERT INTO employee_views VALUES (1, 'LastName.StartsWith(Sm)'), (2, 'Nope.Equal(1)')");
      // The shards of `db-seed --shards`: databases of the same server, reached by postgres_fdw on loopback.
      const base = new URL(server.url);
      for (const i of [0, 1]) {
        const name = `${base.pathname.slice(1)}_shard${i}`;
        await client.query(`CREATE DATABASE "${name}"`);
        shardUrls[`SHARD${i}_URL`] = new URL(`/${name}`, base).href;
      }
      await client.end();
    }, 120_000);
    afterAll(async () => {
      // The shared-server coordinator may already be gone at the very end of a run; the database goes with it.
      const client = new pg.Client({ connectionString: server.url });
      await client
        .connect()
        .then(async () => {
          for (const url of Object.values(shardUrls))
            await client.query(`DROP DATABASE IF EXISTS "${new URL(url).pathname.slice(1)}" WITH (FORCE)`);
        })
        .catch(() => {})
        .finally(() => client.end().catch(() => {}));
      await server?.stop().catch(() => {});
      rmSync(sandbox, { recursive: true, force: true });
    });

    it.each(runnable)(
      '%s: %s',
      async (_topic, printed) => {
        // The conformance examples name a server at 127.0.0.1:8080; whatever this machine runs there must not decide
        // the test, so they reach a loopback port just seen free instead (refused: the run reports it and ends 1).
        const example = printed.replaceAll('http://127.0.0.1:8080/', `http://127.0.0.1:${closedPort}/`);
        const env = { DATABASE_URL: server.url, ...shardUrls, NO_COLOR: '1' };
        const inProcess = example.startsWith('wepql lsp') ? undefined : redirectedWords(example, { ...process.env, ...env });
        let r: { status: number | null; stderr: string } | { code: number | null; stderr: string };
        if (inProcess === undefined) {
          r = spawnSync('/bin/sh', ['-c', example], {
            cwd: sandbox,
            encoding: 'utf8',
            input: '',
            timeout: 120_000,
            env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, ...env },
          });
        } else {
          // sh opens (and empties) the file before the command runs.
          if (inProcess.stdout !== undefined) writeFileSync(join(sandbox, inProcess.stdout), '');
          const ran = await runCliInProcess(inProcess.words.slice(1), { cwd: sandbox, env });
          if (inProcess.stdout !== undefined) writeFileSync(join(sandbox, inProcess.stdout), ran.stdout);
          r = ran;
        }
        expect(r.stderr).not.toMatch(/internal error|usage: wepql|unknown option|command not found/);
        expect([0, 1]).toContain('status' in r ? r.status : r.code);
      },
      150_000,
    );
  });
}
