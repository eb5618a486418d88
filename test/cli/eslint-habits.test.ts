/**
 * ESLint's habits in `wepql lint`: the "N problems potentially fixable with `--fix`"
 * line, `--fix-dry-run`, silencing one finding in a saved-filter file
 * (`# wepql-disable-next-line code` or a `"wepql-disable"` member), and rule
 * settings per file in the config (`overrides`). Runs in the test's process
 * (test/support/cli-in-process.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const eslintHabitsDir = tempDirs('wepql-eslint-habits-');

function temp(files: Record<string, string | object>): string {
  const dir = eslintHabitsDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}

const SCHEMA = { fields: { Gender: { type: 'integer' }, Id: { type: 'integer' } } };

describe('eslint-habits', () => {
  it('says how many problems --fix would remove, and --fix-dry-run shows the rewrite without writing', async () => {
    const dir = temp({ 'schema.json': SCHEMA, 'a.wepql': 'Gender.Equal(1);Gender.Equal(1)\nGender.IsNull();Gender.Equal(1)\n' });
    const r = await runCliInProcess(['lint', '--no-config', '--schema', 'schema.json', 'a.wepql'], { cwd: dir });
    expect(r.stdout).toContain('1 problem potentially fixable with `--fix` (0 errors, 1 warning); `--fix-dry-run` shows the changes.');
    const dry = await runCliInProcess(['lint', '--no-config', '--schema', 'schema.json', '--fix-dry-run', 'a.wepql'], { cwd: dir });
    expect(dry.stdout).toContain('--fix would rewrite:\n  a.wepql:1: Gender.Equal(1);Gender.Equal(1) → Gender.Equal(1)\n');
    expect(dry.stdout).toContain('1 would be fixed (nothing written)');
    expect(readFileSync(join(dir, 'a.wepql'), 'utf8')).toBe('Gender.Equal(1);Gender.Equal(1)\nGender.IsNull();Gender.Equal(1)\n');
  });

  it("silences one finding by a comment or a per-entry key, and per file by the config's overrides", async () => {
    const dir = temp({
      'schema.json': SCHEMA,
      'wepql.config.json': { schema: 'schema.json', paths: ['.'], overrides: [{ files: ['legacy/**'], rules: { contradiction: 'off' } }] },
      'a.wepql': '# wepql-disable-next-line contradiction\nGender.IsNull();Gender.Equal(1)\nGender.IsNull();Gender.Equal(2)\n',
      'b.json': [{ name: 'x', filter: 'Gender.IsNull();Gender.Equal(1)', 'wepql-disable': ['contradiction', 'unsatisfiable-filter'] }],
      'c.yaml': '# wepql-disable-next-line\n- filter: Gender.IsNull();Gender.Equal(1)\n',
      'legacy/d.wepql': 'Gender.IsNull();Gender.Equal(1)\n',
    });
    const r = await runCliInProcess(['lint', '--format', 'json'], { cwd: dir });
    const findings = JSON.parse(r.stdout) as { file: string; line: number; code: string }[];
    expect(findings.map((f) => [f.file, f.line, f.code])).toEqual([
      ['a.wepql', 2, 'unsatisfiable-filter'],
      ['a.wepql', 3, 'unsatisfiable-filter'],
      ['a.wepql', 3, 'contradiction'],
      ['legacy/d.wepql', 1, 'unsatisfiable-filter'],
    ]);
    const typo = temp({ 'a.wepql': '# wepql-disable-next-line contradictoin\nA.Equal(1)\n' });
    const bad = await runCliInProcess(['lint', '--no-config', 'a.wepql'], { cwd: typo });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown diagnostic code "contradictoin" to disable; did you mean "contradiction"?');
  });
});
