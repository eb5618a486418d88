/**
 * The command line as a user meets it: help for every command from its own
 * definition, version, "did you mean", colour rules, a closed pipe, records
 * nested too deep, one stdin label, fmt --write/--check, schema diff and the
 * progress line. Each case runs in the test's process
 * (test/support/cli-in-process.ts) unless it is about what only a process
 * shows — the binary's version, a real pipe or terminal, variables a
 * program starts with — and those run the built binary.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const uxDir = tempDirs('wepql-ux-');

const COMMANDS = ['parse', 'fmt', 'lint', 'query', 'explain', 'schema', 'db-seed'] as const;
const ESC = '\u001b[';

function temp(files: Record<string, string>): string {
  const dir = uxDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
  return dir;
}

describe('help', () => {
  it.each(COMMANDS)('`wepql %s --help` describes every option with an example, and `wepql help` prints the same', async (name) => {
    const module = (await import(`../../src/cli/commands/${name}.ts`)) as {
      definition: { options: { flag: string; description: string }[] };
    };
    const r = await runCliInProcess([name, '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^usage: wepql ${name}`));
    for (const o of module.definition.options) {
      expect(r.stdout).toContain(o.flag);
      expect(r.stdout).toContain(o.description);
    }
    expect(r.stdout).toMatch(/\nexamples?:\n {2}wepql /);
    expect((await runCliInProcess(['help', name])).stdout).toBe(r.stdout);
  });

  it('`wepql schema diff --help` and `wepql help schema diff` give the subcommand its own help', async () => {
    const r = await runCliInProcess(['schema', 'diff', '--help']);
    expect(r.stdout).toMatch(/^usage: wepql schema diff \[options\] OLD\.json NEW\.json/);
    expect(r.stdout).toContain('--format text|json');
    expect((await runCliInProcess(['help', 'schema', 'diff'])).stdout).toBe(r.stdout);
  });

  // The built binary once: the version it reports is read next to it. `-v` takes the same branch of runWepql as
  // `--version` (src/cli/main.ts), so it runs in process.
  it.each([
    ['--version', 'spawned'],
    ['-v', 'in process'],
  ] as const)('%s prints the package version (%s)', async (flag, how) => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = how === 'spawned' ? runCli([flag]) : await runCliInProcess([flag]);
    expect(r).toEqual({ code: 0, stdout: `wepql ${version}\n`, stderr: '' });
  });
});

describe('did you mean', () => {
  it.each([
    [['pars', 'A.Equal(1)'], 'unknown command "pars"; did you mean "parse"?'],
    [['lnt'], 'unknown command "lnt"; did you mean "lint"?'],
    [['help', 'explian'], 'unknown command "explian"; did you mean "explain"?'],
    [['lint', '--qiet', 'x.txt'], 'unknown option --qiet; did you mean --quiet?'],
    [['fmt', '--wirte', 'x.txt'], 'unknown option --wirte; did you mean --write?'],
    [['query', '--fliter', 'A.Equal(1)'], 'unknown option --fliter; did you mean --filter?'],
    [['schema', 'dif', 'a', 'b'], 'unknown subcommand "dif"; did you mean "diff"?'],
  ])('%j', async (args, message) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    // A mistyped command gets a pointer, not the whole help.
    expect(r.stderr).not.toContain('commands:');
  });
});

describe('colour', () => {
  const dir = temp({ 'w.txt': 'A.Equal(1);;B.Equal(2)\n' });
  const lint = ['lint', join(dir, 'w.txt')];
  const clean = { FORCE_COLOR: undefined, NO_COLOR: undefined };

  // Spawned where the decision rests on what only a process has: its stdout a real pipe, variables it was started with.
  it.each([
    ['no colour when piped', [], {}, false, 'spawned'],
    ['--color forces it', ['--color'], {}, true, 'in process'],
    ['FORCE_COLOR=1 forces it', [], { FORCE_COLOR: '1' }, true, 'spawned'],
    ['FORCE_COLOR=0 turns it off', ['--color'], { FORCE_COLOR: '0' }, true, 'in process'],
    ['--no-color wins over FORCE_COLOR', ['--no-color'], { FORCE_COLOR: '1' }, false, 'in process'],
    ['NO_COLOR turns it off', [], { NO_COLOR: '1', FORCE_COLOR: '1' }, false, 'spawned'],
  ] as const)('%s (%s)', async (_title, flags, env, coloured, how) => {
    const options = { env: { ...clean, ...env } };
    const r = how === 'spawned' ? runCli([...lint, ...flags], options) : await runCliInProcess([...lint, ...flags], options);
    expect(r.stdout).toContain('empty-clause');
    expect(r.stdout.includes(ESC)).toBe(coloured);
  });
});

describe('pipes, deep records and standard input', () => {
  it('a reader that closes the pipe early ends the command quietly with status 0', async () => {
    const r = spawnSync(
      'bash',
      ['-c', `set -o pipefail; "${process.execPath}" "${CLI}" query --data examples/employees.json | head -c 10 >/dev/null`],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('a record nested 5,000 levels deep is a clear error naming the record and line, never a stack trace', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    const r = await runCliInProcess(['query', '--data', '-'], { input: `{"Id":1}\n{"Id":2,"x":${deep}}\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid data file <stdin>: record 2 (line 2) nests deeper than 256 levels');
    expect(r.stderr).not.toMatch(/RangeError|at .*\.js/);
    const arr = await runCliInProcess(['query', '--data', '-'], { input: `[{"Id":1},${deep}]` });
    expect(arr.code).toBe(2);
    expect(arr.stderr).toContain('record 2 nests deeper');
  });

  it.each([[['parse', '-']], [['fmt', '-']], [['explain', '-']], [['lint', '-']]])('%j calls standard input <stdin>', async (args) => {
    const r = await runCliInProcess(args, { input: 'A.Equalz(1)\n' });
    expect(r.stdout + r.stderr).toContain('<stdin>:1:3: error unknown-operator');
  });

  it('lint --format json calls standard input <stdin> too, read from a real pipe', () => {
    const r = runCli(['lint', '--format', 'json', '-'], { input: 'A.Equalz(1)\n' });
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ file: '<stdin>', code: 'unknown-operator' })]);
  });
});

describe('fmt --write and --check', () => {
  it('--check names each file that would change; --write rewrites only those texts and names the files', async () => {
    const dir = temp({
      'good.wepql': 'A.Equal(1)\n',
      'bad.wepql': '# keep me\na.equal( 1 )\nB.IsNull()\n',
      'bad.json': '[\n  {"name": "x", "filter": "or(a.equal(1);b.equal(2))"}\n]\n',
    });
    const check = await runCliInProcess(['fmt', '--check', dir]);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(join(dir, 'bad.wepql'));
    expect(check.stdout).toContain(join(dir, 'bad.json'));
    expect(check.stdout).not.toContain(join(dir, 'good.wepql'));
    expect(check.stdout).toContain('Canonical-form issues found in 2 files. Run `wepql fmt --write` to fix them.');

    for (const flag of ['--write', '-w']) {
      const write = await runCliInProcess(['fmt', flag, dir]);
      expect(write.code).toBe(0);
      if (flag === '--write') {
        expect(write.stdout).toContain(`${join(dir, 'bad.wepql')} (1 entry rewritten)`);
        expect(write.stdout).toContain('Formatted 3 files: 2 files changed.');
      } else expect(write.stdout).toContain('Formatted 3 files: all were already in canonical form.');
    }
    expect(readFileSync(join(dir, 'bad.wepql'), 'utf8')).toBe('# keep me\na.Equal(1)\nB.IsNull()\n');
    expect(readFileSync(join(dir, 'bad.json'), 'utf8')).toBe('[\n  {"name": "x", "filter": "Or(a.Equal(1);b.Equal(2))"}\n]\n');
    expect((await runCliInProcess(['fmt', '--check', dir])).code).toBe(0);
  });

  it('fmt-write-syntax-error-misreport: counts only files changed, and sends syntax errors to the hand, not to --write', async () => {
    const broken = temp({ 'broken.wepql': 'A.Equal(1\n' });
    const alone = await runCliInProcess(['fmt', '--write', '--no-config', 'broken.wepql'], { cwd: broken });
    expect(alone.code).toBe(1);
    expect(alone.stdout).not.toContain('1 file changed');
    expect(alone.stdout).toContain('[error] broken.wepql (not changed)\n  line 1: cannot be formatted (missing-close-paren');
    expect(alone.stdout).toContain('Formatted 1 file: no file changed.\n');
    expect(alone.stdout).toContain('1 file holds entries with errors that `wepql fmt --write` cannot fix (named above)');
    expect(readFileSync(join(broken, 'broken.wepql'), 'utf8')).toBe('A.Equal(1\n');
    const check = await runCliInProcess(['fmt', '--check', '--no-config', 'broken.wepql'], { cwd: broken });
    expect(check.code).toBe(1);
    expect(check.stdout).not.toContain('Run `wepql fmt --write` to fix them');
    expect(check.stdout).toContain('cannot fix (named above); fix them by hand');

    // Over a repository: three files change, a fourth holds only a syntax error, a fifth is canonical.
    const repo = temp({
      'a.wepql': 'a.equal( 1 )\n',
      'b.wepql': 'b.equal( 2 )\nB.Equal(\n',
      'c.json': '[{"filter": "or(a.equal(1);b.equal(2))"}]\n',
      'd.wepql': 'Or(A.Equal(1)\n',
      'e.wepql': 'A.Equal(1)\n',
    });
    const before = await runCliInProcess(['fmt', '--check', '--no-config', '.'], { cwd: repo });
    expect(before.stdout).toContain('Canonical-form issues found in 3 files. Run `wepql fmt --write` to fix them.');
    expect(before.stdout).toContain('2 files hold entries with errors that `wepql fmt --write` cannot fix');
    const write = await runCliInProcess(['fmt', '--write', '--no-config', '.'], { cwd: repo });
    expect(write.code).toBe(1);
    expect(write.stdout).toContain('Formatted 5 files: 3 files changed.\n');
    expect(write.stdout).toContain('[error] b.wepql\n  line 2: cannot be formatted');
    expect(write.stdout).toContain('[error] d.wepql (not changed)\n');
    expect(readFileSync(join(repo, 'b.wepql'), 'utf8')).toBe('b.Equal(2)\nB.Equal(\n');
    const again = await runCliInProcess(['fmt', '--write', '--no-config', '.'], { cwd: repo });
    expect(again.stdout).toContain('Formatted 5 files: no file changed.\n');
  });

  it.each([[['fmt', '--write', '-']], [['fmt', '--write', '--check', 'x.txt']], [['fmt', '--write']]])(
    '%j is a usage error',
    async (args) => {
      expect((await runCliInProcess(args)).code).toBe(2);
    },
  );
});

describe('wepql schema diff', () => {
  const dir = temp({
    'v1.json': JSON.stringify({
      version: 1,
      fields: { Surname: { type: 'string' }, Age: { type: 'integer' }, Suffix: { type: 'string' } },
    }),
    'v2.json': JSON.stringify({
      version: 2,
      fields: { LastName: { type: 'string', renamedFrom: 'Surname' }, Age: { type: 'number', nullable: true }, Email: { type: 'string' } },
    }),
    'v3.json': JSON.stringify({
      version: 3,
      fields: {
        LastName: { type: 'string', renamedFrom: ['Surname'] },
        Age: { type: 'number', nullable: true },
        Suffix: { type: 'string' },
      },
    }),
  });

  it('prints each change and exits 1 when a saved filter can break', async () => {
    const r = await runCliInProcess(['schema', 'diff', join(dir, 'v1.json'), join(dir, 'v2.json')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('(version 1 → 2)');
    expect(r.stdout).toContain('  renamed    Surname → LastName\n');
    expect(r.stdout).toContain('  retyped    Age: integer → number (values keep their meaning)\n');
    expect(r.stdout).toContain('  nullable   Age: may now be null\n');
    expect(r.stdout).toContain('  removed    Suffix (string)\n');
    expect(r.stdout).toContain('  added      Email (string)\n');
    expect(r.stdout).toContain('5 changes; saved filters can break');
  });

  it('exits 0 when nothing breaks, and --format json lists the changes', async () => {
    const r = await runCliInProcess(['schema', 'diff', '--format', 'json', join(dir, 'v1.json'), join(dir, 'v3.json')]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      previousVersion: 1,
      nextVersion: 3,
      breaking: false,
      changes: [
        { kind: 'renamed', field: 'Surname', to: 'LastName' },
        { kind: 'retyped', field: 'Age', from: 'integer', to: 'number', impact: 'same-meaning' },
        { kind: 'nullability', field: 'Age', nullable: true },
      ],
    });
  });

  it('needs exactly two schema files', async () => {
    expect((await runCliInProcess(['schema', 'diff', join(dir, 'v1.json')])).code).toBe(2);
    expect((await runCliInProcess(['schema'])).code).toBe(2);
  });
});

describe('progress', () => {
  it('draws a progress line on a terminal for long runs, and nothing when piped', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `A.Equal(${i});B.InArray(1,2,${i})`).join('\n');
    const dir = temp({ 'many.txt': lines + '\n' });
    const command = `"${process.execPath}" "${CLI}" lint "${join(dir, 'many.txt')}" >/dev/null`;
    // `script` gives the command a terminal; the delay is lowered so the test need not run a full second.
    const tty = spawnSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      env: { ...process.env, WEPQL_PROGRESS_AFTER_MS: '0' },
    });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/wepql: \d+\/3000 filters and sorts \(\d+%\)/);
    const piped = await runCliInProcess(['lint', join(dir, 'many.txt')], { env: { WEPQL_PROGRESS_AFTER_MS: '0' } });
    expect(piped.stderr).toBe('');
  });
});
