/**
 * `wepql lint` and `wepql fmt` on 100 files or more hold V8's young
 * generation at the size it has once the files are found
 * (src/cli/young-generation.ts), and only when the process is the `wepql`
 * program: run inside another program (`runWepql` imported), the same lint
 * leaves V8's own growth alone. On a 200-file project V8 grows it from 1 MB
 * at the process's start to 16 MB; held, it ends at 4 MB (loading the
 * command's modules and finding the files grow it twice). A module
 * preloaded into each process (test/fixtures/heap-probe/probe.mjs) reports
 * its size at start and at exit.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error the benchmark's fixture is plain JavaScript without types
import { writeLintProject } from '../../bench/lint-fixture.mjs';
import { holdsYoungGeneration } from '../../src/cli/young-generation.js';
import { CLI, runCli } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const PROBE = fileURLToPath(new URL('../fixtures/heap-probe/probe.mjs', import.meta.url));
const projectDir = tempDirs('wepql-young-generation-');

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

describe('the young generation of a batch command', () => {
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

  it('is held only in the wepql program, from 100 files, under V8 11', () => {
    const v8 = '11.3.244.8-node.33';
    expect(holdsYoungGeneration({ program: true, files: 100, v8 })).toBe(true);
    expect(holdsYoungGeneration({ program: true, files: 99, v8 })).toBe(false);
    expect(holdsYoungGeneration({ program: false, files: 10_000, v8 })).toBe(false);
    expect(holdsYoungGeneration({ program: true, files: 10_000, v8: '12.4.254.21-node.33' })).toBe(false);
  });
});
