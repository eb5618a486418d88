/**
 * Every example printed by `wepql help <command>` (and `wepql help schema
 * diff`) runs, as printed, through a shell against the built binary, in a
 * copy of the repository's schemas/ and examples/ with a real PostgreSQL
 * behind `$DATABASE_URL` (and two more databases of that server behind
 * `$SHARD0_URL` and `$SHARD1_URL`, for the `--shards` examples): it ends
 * with 0 or 1 (findings), never a usage error or an internal error. Every
 * help also says what `--` does.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli } from '../support/cli.js';
import { findPostgresBin, postgresUnavailableReason, startPostgresServer, type PostgresServer } from '../support/postgres-server.js';

/** The commands `wepql --help` lists, and the subcommands with a help of their own. */
function helpTopics(): string[][] {
  const list = runCli(['--help']).stdout;
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

const topics = helpTopics();
// Each topic's help, asked once: the tests below and the list of examples read the same text.
const helps = new Map(topics.map((topic) => [topic.join(' '), runCli(['help', ...topic]).stdout]));

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

    beforeAll(async () => {
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
      (_topic, example) => {
        const r = spawnSync('/bin/sh', ['-c', example], {
          cwd: sandbox,
          encoding: 'utf8',
          input: '',
          timeout: 120_000,
          env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, DATABASE_URL: server.url, ...shardUrls, NO_COLOR: '1' },
        });
        expect(r.stderr).not.toMatch(/internal error|usage: wepql|unknown option|command not found/);
        expect([0, 1]).toContain(r.status);
      },
      150_000,
    );
  });
}
