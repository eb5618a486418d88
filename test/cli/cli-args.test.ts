/**
 * The command line at its edges: a filter that begins with `-`, `--max-warnings -1`,
 * names other tools give commands, and what a SARIF log says about where the
 * documentation lives.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diagnosticsDocsUri } from '../../src/cli/package-info.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const maxWarningsDir = tempDirs('wepql-max-warnings-');

describe('a TEXT that begins with - (issue 20, item 6)', () => {
  it('wepql fmt -5.x(1) reads the argument as a filter, not as an unknown option', async () => {
    const r = await runCliInProcess(['fmt', '-5.x(1)']);
    expect(r.stderr).not.toContain('unknown option');
    expect(r.stderr).toContain('-5.x(1)');
    expect(r.code).toBe(1);
  });

  it('after -- every argument is text, even one that looks like an option', async () => {
    expect((await runCliInProcess(['fmt', '--', "lastName.equal('-5')"])).stdout).toBe('lastName.Equal(-5)\n');
    const r = await runCliInProcess(['fmt', '--', '--check']);
    expect(r.stderr).not.toContain('unknown option');
    expect(r.code).toBe(1);
  });

  it('a mistyped --option and a lone unknown letter stay usage errors', async () => {
    expect(await runCliInProcess(['fmt', '--wirte', 'x'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('did you mean --write?'),
    });
    expect(await runCliInProcess(['fmt', '-x', 'A.Equal(1)'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('unknown option -x'),
    });
  });
});

describe('--max-warnings -1 means no limit, as in ESLint', () => {
  const dir = maxWarningsDir();
  writeFileSync(join(dir, 'v.wepql'), 'A.Equal(1);;B.Equal(2)\nC.Equal(1);;D.Equal(2)\n');

  it('on the command line', async () => {
    expect((await runCliInProcess(['lint', '--no-config', '--max-warnings', '1', 'v.wepql'], { cwd: dir })).code).toBe(1);
    expect((await runCliInProcess(['lint', '--no-config', '--max-warnings', '-1', 'v.wepql'], { cwd: dir })).code).toBe(0);
    expect((await runCliInProcess(['lint', '--no-config', '--max-warnings=-1', 'v.wepql'], { cwd: dir })).code).toBe(0);
    expect((await runCliInProcess(['lint', '--no-config', '--max-warnings', '-2', 'v.wepql'], { cwd: dir })).code).toBe(2);
  });

  it('in wepql.config.json', async () => {
    const cfg = maxWarningsDir();
    writeFileSync(join(cfg, 'v.wepql'), 'A.Equal(1);;B.Equal(2)\n');
    writeFileSync(join(cfg, 'wepql.config.json'), '{ "maxWarnings": -1 }');
    expect((await runCliInProcess(['lint', 'v.wepql'], { cwd: cfg })).code).toBe(0);
  });
});

describe('names other tools give commands', () => {
  it.each([
    ['format', 'fmt'],
    ['check', 'lint'],
    ['prettier', 'fmt'],
    ['lnit', 'lint'],
  ])('wepql %s suggests wepql %s', async (typed, meant) => {
    const r = await runCliInProcess([typed]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`unknown command "${typed}"; did you mean "${meant}"?`);
  });
});

describe('SARIF points only at addresses the package declares', () => {
  it('the docs address comes from package.json repository or homepage', async () => {
    expect(diagnosticsDocsUri({ repository: { type: 'git', url: 'git+https://github.com/acme/wepql.git' } })).toBe(
      'https://github.com/acme/wepql/blob/HEAD/docs/diagnostics.md',
    );
    expect(diagnosticsDocsUri({ repository: 'github:acme/wepql' })).toBe('https://github.com/acme/wepql/blob/HEAD/docs/diagnostics.md');
    expect(diagnosticsDocsUri({ repository: 'https://gitlab.com/acme/wepql' })).toBe(
      'https://gitlab.com/acme/wepql/-/blob/HEAD/docs/diagnostics.md',
    );
    expect(diagnosticsDocsUri({ homepage: 'https://wepql.example/docs/diagnostics' })).toBe('https://wepql.example/docs/diagnostics');
    expect(diagnosticsDocsUri({})).toBeUndefined();
  });

  it('wepql lint --format sarif carries informationUri only when the package declares where it lives', async () => {
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'sarif', '-'], { input: 'A.Equalz(1)\n' });
    const driver = (
      JSON.parse(r.stdout) as { runs: { tool: { driver: Record<string, unknown> & { rules: Record<string, unknown>[] } } }[] }
    ).runs[0]!.tool.driver;
    const expected = diagnosticsDocsUri();
    expect(driver.informationUri).toBe(expected);
    expect(driver.rules[0]!.helpUri).toBe(expected === undefined ? undefined : `${expected}#unknown-operator`);
    expect(driver.version).toMatch(/^\d+\.\d+\.\d+/);
  });
});
