/**
 * A cloned repository's wepql.config.json is not the user's word: it may
 * name files, globs and a database, but reading anything outside the project,
 * or any database at all, needs the user's own flag on the command line.
 * Each test is named after the finding it guards and runs in the test's
 * process (test/support/cli-in-process.ts), environment included.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const untrustedDir = tempDirs('wepql-untrusted-');
const catcherDir = tempDirs('wepql-catcher-');

function temp(files: Record<string, string | object>): string {
  const dir = untrustedDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

/**
 * A PostgreSQL impostor in its own process (the CLI runs synchronously): it
 * asks every client for a cleartext password and writes what it receives to
 * `log`, so a test sees whether a password was sent.
 */
async function startPasswordCatcher(log: string): Promise<{ port: number; stop: () => void }> {
  const script = `
    const net = require('node:net'), fs = require('node:fs');
    const log = process.argv[1];
    const server = net.createServer((socket) => {
      fs.appendFileSync(log, 'CONNECT\\n');
      let asked = false;
      socket.on('data', async (data) => {
        fs.appendFileSync(log, data);
        // AuthenticationCleartextPassword after the startup message; hang up once the password came.
        if (!asked) { asked = true; socket.write(Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3])); }
        else socket.destroy();
      });
      socket.on('error', () => {});
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  const child = spawn(process.execPath, ['-e', script, log], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('error', reject);
  });
  return { port, stop: () => child.kill() };
}

describe('config-database-exfiltration', () => {
  it('a config "url" of its choosing is never contacted, so the environment\'s PGPASSWORD stays home', async () => {
    const log = join(catcherDir(), 'received');
    writeFileSync(log, '');
    const catcher = await startPasswordCatcher(log);
    try {
      const dir = temp({
        'wepql.config.json': { database: { url: `postgres://victim@127.0.0.1:${catcher.port}/prod`, table: 'api_keys', column: 'key' } },
      });
      const r = await runCliInProcess(['lint'], { cwd: dir, env: { PGPASSWORD: 'hunter2-from-the-environment' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(
        `"database" asks to read table "api_keys" of the database at 127.0.0.1:${catcher.port}; a config alone never reads a database: pass --allow-database`,
      );
      expect(readFileSync(log, 'utf8')).toBe('');
      // The check is the flag, not a broken connection: with it the impostor is asked, and gets the password.
      await runCliInProcess(['lint', '--allow-database'], { cwd: dir, env: { PGPASSWORD: 'hunter2-from-the-environment' } });
      expect(readFileSync(log, 'utf8')).toContain('hunter2-from-the-environment');
    } finally {
      catcher.stop();
    }
  });

  it('DATABASE_URL is not read for a config either, and the message names the flag', async () => {
    const dir = temp({
      'wepql.config.json': { paths: ['a.wepql'], database: { table: 'pg_authid', column: 'rolpassword' } },
      'a.wepql': 'A.Equal(1)\n',
    });
    const r = await runCliInProcess(['lint'], { cwd: dir, env: { DATABASE_URL: 'postgres://u@127.0.0.1:1/db' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('table "pg_authid" of the database at 127.0.0.1:1');
    expect(r.stderr).toContain('pass --allow-database');
    // Operands name what to lint: the config's database is not asked for, so nothing to refuse.
    expect((await runCliInProcess(['lint', 'a.wepql'], { cwd: dir, env: { DATABASE_URL: 'postgres://u@127.0.0.1:1/db' } })).code).toBe(0);
  });
});

describe('config-schema-policy-paths-unconfined', () => {
  const secretDir = temp({ passwd: 'root:x:0:0:root:/root:/bin/bash\n' });
  const secret = join(secretDir, 'passwd');

  it.each(['schema', 'previousSchema', 'policy'])('a config "%s" outside the project is refused unless --allow-outside', async (key) => {
    const dir = temp({
      'wepql.config.json': { schema: 'schema.json', [key]: secret, paths: ['a.wepql'] },
      'schema.json': { fields: { A: { type: 'integer' } } },
      'a.wepql': 'A.Equal(1)\n',
    });
    const r = await runCliInProcess(['lint'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${key}: ${JSON.stringify(secret)} lies outside the project`);
    expect(r.stderr).toContain('pass --allow-outside to read it');
    expect(r.stdout + r.stderr).not.toContain('root:x');
    expect((await runCliInProcess(['fmt', '--check'], { cwd: dir })).stderr).toContain('lies outside the project');
    // The user's flag lifts the rule: the file is read (and is no schema or policy).
    expect((await runCliInProcess(['lint', '--allow-outside'], { cwd: dir })).stderr).not.toContain('lies outside the project');
  });

  it('a symlink inside the project that leads out is outside too; a relative path inside is fine', async () => {
    const dir = temp({ 'wepql.config.json': { schema: 'linked.json', paths: ['a.wepql'] }, 'a.wepql': 'A.Equal(1)\n' });
    symlinkSync(secret, join(dir, 'linked.json'));
    expect((await runCliInProcess(['lint'], { cwd: dir })).stderr).toContain('lies outside the project');
    writeFileSync(join(dir, 'wepql.config.json'), JSON.stringify({ schema: 'sub/../schema.json', paths: ['a.wepql'] }));
    writeFileSync(join(dir, 'schema.json'), JSON.stringify({ fields: { A: { type: 'integer' } } }));
    expect((await runCliInProcess(['lint'], { cwd: dir })).code).toBe(0);
  });
});

describe('lint-paths-glob-catastrophic', () => {
  // The work bound is proved in test/unit/workspace/glob.test.ts; here the CLI answers the repro at once
  // (a backtracking matcher took minutes, past runCli's 60 s limit, which would leave no exit code).
  const name = 'a'.repeat(120) + '.wepql';
  const pattern = '**/a*a*a*a*a*a*a*a*a*b.wepql';

  it('a config "paths" glob against a name of 120 a\'s answers, with no file matched', async () => {
    const dir = temp({ 'wepql.config.json': { paths: [pattern] }, [`views/${name}`]: 'A.Equal(1)\n' });
    const r = await runCliInProcess(['lint'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no files match ${JSON.stringify(pattern)}`);
  });

  it('on the command line too; an extended glob is refused with a message', async () => {
    const dir = temp({ [`views/${name}`]: 'A.Equal(1)\n' });
    expect((await runCliInProcess(['lint', '--no-config', pattern], { cwd: dir })).code).toBe(2);
    const r = await runCliInProcess(['lint', '--no-config', 'views/+(a|b).wepql'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('extended globs such as +(…) are not supported');
  });
});
