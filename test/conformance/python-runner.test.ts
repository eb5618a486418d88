/**
 * The Python example runner of docs/conformance.md runs as printed (when
 * python3 is installed) against the built CLI, over every 40th case of the
 * syntax and semantic corpora, and passes; it stays about 30 lines.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const runnerDir = tempDirs('wepql-py-');

const python = spawnSync('python3', ['--version']).status === 0;
if (!python) console.warn('SKIPPED: the Python runner of docs/conformance.md — python3 is not installed');

const guide = readFileSync(join(ROOT, 'docs/conformance.md'), 'utf8');
const code = /<!-- conformance-python-runner -->\n```python\n([\s\S]*?)```/.exec(guide)?.[1];

describe('docs/conformance.md', () => {
  it('holds a Python runner of about 30 lines', () => {
    expect(code).toBeDefined();
    expect(code!.trim().split('\n').length).toBeLessThanOrEqual(32);
  });

  it.skipIf(!python)(
    'runs its Python runner as printed, and it passes',
    () => {
      assertFreshDist();
      const file = join(runnerDir(), 'runner.py');
      writeFileSync(file, code!);
      const r = spawnSync('python3', [file, 'grammar/corpus/', '40'], { cwd: ROOT, encoding: 'utf8', timeout: 170_000 });
      expect(r.stdout, r.stderr).toMatch(/^\d+ cases, 0 failed$/m);
      expect(Number(/^(\d+) cases/m.exec(r.stdout)![1])).toBeGreaterThan(5);
      expect(r.status).toBe(0);
    },
    180_000,
  );
});
