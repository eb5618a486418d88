/**
 * `wepql lint` spread over worker threads reports what one thread reports,
 * byte for byte: every format, --quiet, --max-warnings, --fix-dry-run, the
 * files --fix rewrites, notices about files, and the exit codes. Each case
 * lints a generated project twice — on one thread (WEPQL_LINT_THREADS=1) in
 * the test's process (test/support/cli-in-process.ts: the sources the built
 * binary is made from, which never start threads), and with the built binary
 * on three (WEPQL_LINT_THREADS=3), batches of a few items so that every
 * thread gets many and the merge crosses batch boundaries everywhere — and
 * the threaded run must say (WEPQL_LINT_TRACE) that its workers linted some
 * of them.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark's fixture is plain JavaScript without types
import { writeLintProject } from '../../bench/lint-fixture.mjs';
import { runCli, type CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const projectDir = tempDirs('wepql-lint-threads-');

/**
 * The benchmark's project, smaller, plus what a real one holds: texts with
 * syntax errors and without fixes, sorts, YAML, a `wepql-disable`, an
 * override of the rules for one directory, repeated texts and a file with
 * no filter. About 140 items: 21 batches of 7, so each of the two workers
 * still lints many and the merge crosses a batch boundary every 7 items.
 */
function generatedProject(): string {
  const dir = projectDir();
  writeLintProject(dir, { files: 12, perFile: 9 });
  const config = JSON.parse(readFileSync(join(dir, 'wepql.config.json'), 'utf8')) as Record<string, unknown>;
  config.overrides = [{ files: ['views/team-3/**'], rules: { 'field-renamed': 'error', 'duplicate-condition': 'off' } }];
  writeFileSync(join(dir, 'wepql.config.json'), JSON.stringify(config, null, 2));
  const extra = join(dir, 'views', 'extra');
  mkdirSync(extra, { recursive: true });
  const odd = [
    { name: 'syntax', filter: 'Surname.Equal(' },
    { name: 'unknown', filter: 'Nope.Equal(1);Gender.Equal(1)' },
    { name: 'dup', filter: 'Gender.Equal(1);Gender.Equal(1)' },
    { name: 'dup again', filter: 'Gender.Equal(1);Gender.Equal(1)' },
    { name: 'silenced', filter: 'Surname.Equal(x);;', 'wepql-disable': ['field-renamed'] },
    { name: 'sorted', filter: 'Id.GreaterThan(1)', sort: 'Surname=Asc;Surname=Desc' },
    { name: 'contradiction', filter: 'EmployeeNumber.Equal(1);EmployeeNumber.Equal(2)' },
    { name: 'empty clauses', filter: 'surname.equal(Smith);;' },
  ];
  for (let i = 0; i < 4; i++) writeFileSync(join(extra, `odd-${i}.json`), JSON.stringify(odd, null, 2) + '\n');
  writeFileSync(join(extra, 'dash.yaml'), '- name: y\n  filter: Surname.StartsWith(A);;\n- name: z\n  filter: Gender.Equal(2)\n');
  writeFileSync(join(extra, 'nothing.json'), JSON.stringify([{ name: 'no filter here' }]) + '\n');
  return dir;
}

const ONE = { WEPQL_LINT_THREADS: '1' };
// The workers take every batch, so the test sees them at work however loaded the machine is (on a busy one this
// thread could lint every batch before a worker starts); MIXED lets this thread lint too, however the run splits.
const THREE = { WEPQL_LINT_THREADS: '3', WEPQL_LINT_BATCH: '7', WEPQL_LINT_TRACE: '1', WEPQL_LINT_WORKERS_ONLY: '1' };
const MIXED = { WEPQL_LINT_THREADS: '3', WEPQL_LINT_BATCH: '7' };

/** Standard error without the threaded run's trace line, and how many batches its workers linted. */
function untraced(r: CliResult): { stderr: string; byWorkers: number } {
  const m = /^wepql lint: \d+ items in \d+ batches: \d+ on this thread, (\d+) on 2 workers\n/m.exec(r.stderr);
  return { stderr: m === null ? r.stderr : r.stderr.replace(m[0], ''), byWorkers: m === null ? -1 : Number(m[1]) };
}

/** Runs `wepql lint ...args` on one thread (in this process) and on three (the built binary); `linted: false` for a run that ends before linting. */
async function expectSame(args: readonly string[], dir: string, { linted = true } = {}): Promise<CliResult> {
  const serial = await runCliInProcess(['lint', ...args], { cwd: dir, env: ONE });
  const threaded = runCli(['lint', ...args], { cwd: dir, env: THREE });
  const { stderr, byWorkers } = untraced(threaded);
  if (linted) expect(byWorkers, threaded.stderr).toBeGreaterThan(0);
  else expect(byWorkers).toBe(-1);
  expect(untraced(serial).byWorkers).toBe(-1);
  expect({ code: threaded.code, stdout: threaded.stdout, stderr }).toEqual({
    code: serial.code,
    stdout: serial.stdout,
    stderr: serial.stderr,
  });
  return serial;
}

/** Every file of a directory, by relative path. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.isFile()) out[relative(dir, join(d, e.name))] = readFileSync(join(d, e.name), 'utf8');
    }
  };
  walk(dir);
  return out;
}

// Each test runs the built binary several times (seconds each on a loaded 2-core machine): more than vitest's 60 s.
describe('wepql lint on worker threads', () => {
  const dir = generatedProject();

  it('reports the pretty format, JSON and SARIF as one thread does', { timeout: 240_000 }, async () => {
    const pretty = await expectSame([], dir);
    expect(pretty.code).toBe(1);
    expect(pretty.stdout).toMatch(/field-renamed/);
    expect(pretty.stdout).toMatch(/problems? potentially fixable with `--fix`/);
    expect((await expectSame(['--format', 'json'], dir)).stdout).toMatch(/"code": "duplicate-condition"/);
    expect((await expectSame(['--format', 'sarif'], dir)).stdout).toMatch(/"ruleId": "unknown-field"/);
    const mixed = runCli(['lint'], { cwd: dir, env: MIXED });
    expect({ code: mixed.code, stdout: mixed.stdout, stderr: mixed.stderr }).toEqual({
      code: pretty.code,
      stdout: pretty.stdout,
      stderr: pretty.stderr,
    });
  });

  it('in colour, with --quiet, --max-warnings and --strict', { timeout: 240_000 }, async () => {
    expect((await expectSame(['--color'], dir)).stdout).toMatch(/\u001b\[/);
    await expectSame(['--quiet'], dir);
    expect((await expectSame(['--max-warnings', '0', '--format', 'json'], dir)).stderr).toMatch(/too many warnings/);
    expect((await expectSame(['--strict', '--no-color', 'views/extra/nothing.json', 'views'], dir)).stdout).toMatch(
      /nothing\.json:1:1: error no-filters-found/,
    );
  });

  it('--fix-dry-run lists, and --fix writes, the same rewrites', { timeout: 240_000 }, async () => {
    expect((await expectSame(['--fix-dry-run'], dir)).stdout).toMatch(/--fix would rewrite:/);
    const serialDir = projectDir();
    const threadedDir = projectDir();
    cpSync(dir, serialDir, { recursive: true });
    cpSync(dir, threadedDir, { recursive: true });
    const serial = await runCliInProcess(['lint', '--fix'], { cwd: serialDir, env: ONE });
    const threaded = runCli(['lint', '--fix'], { cwd: threadedDir, env: THREE });
    expect(untraced(threaded).byWorkers).toBeGreaterThan(0);
    expect({ code: threaded.code, stdout: threaded.stdout, stderr: untraced(threaded).stderr }).toEqual({
      code: serial.code,
      stdout: serial.stdout,
      stderr: serial.stderr,
    });
    const after = snapshot(serialDir);
    expect(after).not.toEqual(snapshot(dir));
    expect(snapshot(threadedDir)).toEqual(after);
  });

  it('a file it cannot read ends both runs alike (exit 2), and so does a broken link', { timeout: 240_000 }, async () => {
    const fifoDir = projectDir();
    cpSync(dir, fifoDir, { recursive: true });
    execFileSync('mkfifo', [join(fifoDir, 'views', 'extra', 'pipe.json')]);
    const fifo = await expectSame(['views', 'views/extra/pipe.json'], fifoDir, { linted: false });
    expect(fifo.code).toBe(2);
    expect(fifo.stderr).toMatch(/pipe\.json/);
    const linkDir = projectDir();
    cpSync(dir, linkDir, { recursive: true });
    symlinkSync(join(linkDir, 'missing.json'), join(linkDir, 'views', 'extra', 'gone.json'));
    await expectSame([], linkDir);
  });
});
