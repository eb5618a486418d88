/**
 * `wepql lint` and `wepql fmt` on 100 files or more set V8's batch settings
 * once the files are found (src/cli/batch-v8-settings.ts), and only when the
 * process is the `wepql` program: run inside another program (`runWepql`
 * imported), the same lint leaves V8's defaults alone.
 *
 * - The young generation is held at the size it has. On a 200-file project
 *   V8 grows it from 1 MB at the process's start to 16 MB; held, it ends at
 *   4 MB (loading the command's modules and finding the files grow it
 *   twice). A module preloaded into each process
 *   (test/fixtures/heap-probe/probe.mjs) reports its size at start and at
 *   exit.
 * - TurboFan stops inlining. V8's `--trace-turbo-inlining` writes a line
 *   "Inlining <callee> into <caller>" to standard output for each callee it
 *   inlines.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark's fixture is plain JavaScript without types
import { writeLintProject } from '../../bench/lint-fixture.mjs';
import { batchV8Flags } from '../../src/cli/batch-v8-settings.js';
import { CLI, runCli } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const PROBE = fileURLToPath(new URL('../fixtures/heap-probe/probe.mjs', import.meta.url));
const projectDir = tempDirs('wepql-batch-v8-');

interface Probe {
  readonly start: number;
  readonly exit: number;
}

function probeOf(stderr: string): Probe {
  const line = stderr.split('\n').find((l) => l.startsWith('heap-probe '));
  expect(line, stderr).toBeDefined();
  return JSON.parse(line!.slice('heap-probe '.length)) as Probe;
}

const probed = { NODE_OPTIONS: `--import ${pathToFileURL(PROBE).href}` };

describe('the V8 settings of a batch command', () => {
  const project = projectDir();
  writeLintProject(project, { files: 200 });

  it.each([
    ['lint', ['lint']],
    ['fmt --check', ['fmt', '--check', 'views']],
  ])('wepql %s keeps the young generation at its size once the files are found', (_name, args) => {
    const r = runCli(args, { cwd: project, env: probed });
    expect(r.code, r.stderr).toBe(1); // the project holds errors, and files fmt would rewrite
    const { start, exit } = probeOf(r.stderr);
    expect(r.stderr).not.toMatch(/unrecognized flag/);
    expect(start).toBeGreaterThan(0);
    // Loading the command's modules and finding the files grow it twice before it is held; a lint that grew it is at 16 times.
    expect(exit).toBeLessThanOrEqual(4 * start);
  });

  it('the same lint run inside another program (runWepql imported) leaves V8 to grow it', () => {
    assertFreshDist();
    const script = `const { runWepql } = await import(${JSON.stringify(pathToFileURL(CLI).href)}); process.exitCode = await runWepql(['lint']);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, ...probed },
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(1);
    const { start, exit } = probeOf(r.stderr);
    expect(exit).toBeGreaterThanOrEqual(8 * start);
  });

  // The callees TurboFan inlined, as `--trace-turbo-inlining` lists them.
  const inlined = (stdout: string): number => stdout.split('\n').filter((l) => l.startsWith('Inlining ')).length;
  const traced = (args: readonly string[]) =>
    spawnSync(process.execPath, ['--trace-turbo-inlining', ...args], {
      cwd: project,
      encoding: 'utf8',
      env: process.env,
      timeout: 60_000,
      maxBuffer: 64 << 20,
    });

  it('wepql lint stops TurboFan inlining, where the same lint imported into another program leaves it on', () => {
    assertFreshDist();
    const program = traced([CLI, 'lint']);
    expect(program.status, program.stderr).toBe(1);
    const imported = traced([
      '--input-type=module',
      '-e',
      `const { runWepql } = await import(${JSON.stringify(pathToFileURL(CLI).href)}); process.exitCode = await runWepql(['lint']);`,
    ]);
    expect(imported.status, imported.stderr).toBe(1);
    // 10 inlined (all before the files are found) against 294–385 on this project.
    expect(inlined(imported.stdout)).toBeGreaterThan(50);
    expect(inlined(program.stdout)).toBeLessThan(inlined(imported.stdout) / 4);
  });

  it('are set only in the wepql program, from 100 files, under V8 11', () => {
    const v8 = '11.3.244.8-node.33';
    const both = ['--semi-space-growth-factor=1', '--no-turbo-inlining'];
    expect(batchV8Flags({ program: true, files: 100, v8 })).toEqual(both);
    expect(batchV8Flags({ program: true, files: 99, v8 })).toEqual([]);
    expect(batchV8Flags({ program: false, files: 10_000, v8 })).toEqual([]);
    expect(batchV8Flags({ program: true, files: 10_000, v8: '12.4.254.21-node.33' })).toEqual([]);
  });
});
