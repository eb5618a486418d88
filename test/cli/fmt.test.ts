/**
 * `wepql fmt` as a user runs it: stdout, stderr and the exit code (0 ok, 1
 * input has errors, 2 usage error) — run in the test's process
 * (test/support/cli-in-process.ts), and standard input through the built
 * binary.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const fmtDir = tempDirs('wepql-fmt-');

const root = fileURLToPath(new URL('../..', import.meta.url));

function wepql(args: readonly string[], input?: string): Promise<CliResult> {
  return runCliInProcess(args, { cwd: root, input });
}

function spawned(args: readonly string[], input?: string): CliResult {
  const r = spawnSync(process.execPath, ['dist/cli/main.js', ...args], { cwd: root, encoding: 'utf8', input });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// npm test builds dist/ once before the run; a missing or stale dist/ fails here.
beforeAll(assertFreshDist);

describe('wepql fmt TEXT', () => {
  it.each([
    [
      'lastname.startswith( Sm ) ; or(Gender.Equal(1);Salary.GreaterThan(1e3))',
      'lastname.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1e3))',
    ],
    ["Name.Equal('abc');Name.Equal('O''Brien')", "Name.Equal(abc);Name.Equal('O''Brien')"],
    ['5.5.GreaterThanInFields(A,B)', "'5.5'.GreaterThanInFields(A,B)"],
    ['', ''],
  ])('%j prints %j', async (input, expected) => {
    const r = await wepql(['fmt', input]);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(expected + '\n');
    expect(r.code).toBe(0);
  });

  it('formats a sort with --sort', async () => {
    const r = await wepql(['fmt', '--sort', 'lastname ; CreatedOn = desc']);
    expect(r.stdout).toBe('lastname=Asc;CreatedOn=Desc\n');
    expect(r.stderr).toMatch(/implicit-direction/);
    expect(r.code).toBe(0);
  });

  it('pretty-prints with --pretty --width', async () => {
    const r = await wepql(['fmt', '--pretty', '--width', '20', 'Or(A.Equal(1);And(B.Equal(2);C.Equal(3)))']);
    expect(r.stdout).toBe(['Or(', '  A.Equal(1);', '  And(', '    B.Equal(2);', '    C.Equal(3)', '  )', ')', ''].join('\n'));
    expect(r.code).toBe(0);
  });

  it('quotes every value with --quote-all', async () => {
    const r = await wepql(['fmt', '--quote-all', 'A.Equal(1);B.InArray(x,y)']);
    expect(r.stdout).toBe("A.Equal('1');B.InArray('x','y')\n");
    expect(r.code).toBe(0);
  });

  it('reads standard input for -: the built binary, from a real pipe', () => {
    const r = spawned(['fmt', '-'], 'or( A.equal(1) ;B.isnull())\n');
    expect(r.stdout).toBe('Or(A.Equal(1);B.IsNull())\n');
    expect(r.code).toBe(0);
  });

  it('exits 1 with a code frame on stderr for input with errors', async () => {
    const r = await wepql(['fmt', 'A.Equalz(1)']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error unknown-operator');
    expect(r.stderr).toContain('  A.Equalz(1)\n    ^^^^^^');
  });

  it('exits 1 for a sort with errors', async () => {
    const r = await wepql(['fmt', '--sort', 'A=Asc,B=Desc']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('sort-comma-separator');
  });

  it.each([
    [['fmt']],
    [['fmt', 'A.Equal(1)', 'B.Equal(2)']],
    [['fmt', '--bogus', 'A.Equal(1)']],
    [['fmt', '--width', 'wide', 'A.Equal(1)']],
    [['fmt', '--width', '0', 'A.Equal(1)']],
    [['fmt', '--width']],
    [['fmt', '--check', '--pretty', 'file.txt']],
  ])('%j is a usage error (exit 2)', async (args) => {
    const r = await wepql(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^wepql fmt: .+\nusage: wepql fmt/);
  });
});

describe('wepql fmt --check FILE...', () => {
  // The checker itself belongs to src/cli/fmt-check.ts; this only proves `fmt` hands files to it.
  it('exits 0 for canonical files and 1 naming a file that is not', async () => {
    const dir = fmtDir();
    const good = join(dir, 'good.txt');
    const bad = join(dir, 'bad.txt');
    writeFileSync(good, 'A.Equal(1)\nOr(B.IsNull();C.Equal(x))\n');
    writeFileSync(bad, 'a.equal( 1 )\n');
    expect((await wepql(['fmt', '--check', good])).code).toBe(0);
    const r = await wepql(['fmt', '--check', good, bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(bad);
    expect(r.stdout).not.toContain(good);
  });
});
