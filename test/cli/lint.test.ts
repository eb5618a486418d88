import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const lintDir = tempDirs('wepql-lint-');

const SCHEMA = 'schemas/employee.json';

function tempFile(name: string, content: string): string {
  const dir = lintDir();
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

describe('wepql lint', () => {
  it('passes clean files with exit 0 and a summary', async () => {
    const file = tempFile('ok.txt', '# fine\nLastName.StartsWith(Sm)\n\nGender.Equal(1)\n');
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, file]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('1 file, 2 filters checked: 0 errors, 0 warnings');
  });

  it('reports errors like a compiler, with a code frame and suggestion, exit 1', async () => {
    const file = tempFile('bad.txt', 'LastName.StartsWith(Sm)\nGender.Equals(1)\n');
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}:2:8: error unknown-operator:`);
    expect(r.stdout).toContain('  Gender.Equals(1)\n         ^^^^^^');
    expect(r.stdout).toContain('suggestion: Equal');
    expect(r.stdout).toMatch(/1 file, 2 filters checked: 1 error, 0 warnings\n$/);
  });

  it('warnings alone exit 0', async () => {
    const file = tempFile('warn.txt', 'Gender.InArray(1,2,1)\n');
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning duplicate-list-value');
  });

  it('prints one JSON object per finding with --format json', async () => {
    const file = tempFile('saved.json', JSON.stringify([{ name: 'a', filter: 'Nope.Equal(1)', sort: 'LastName' }], null, 2));
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--format', 'json', file]);
    expect(r.code).toBe(1);
    const findings = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(findings).toEqual([
      expect.objectContaining({
        file,
        line: 4,
        column: 16,
        kind: 'filter',
        name: 'a',
        code: 'unknown-field',
        severity: 'error',
        start: 0,
        end: 4,
      }),
      expect.objectContaining({ file, line: 5, kind: 'sort', code: 'implicit-direction', severity: 'warning' }),
    ]);
    expect(r.stderr).toContain('1 file, 1 filter and 1 sort checked: 1 error, 1 warning');
  });

  it('reads NDJSON and standard input', async () => {
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--format', 'json', '-'], {
      input: '{"filter":"Gender.Equal(1)"}\n{"filter":"Gender.Equal(x)"}\n',
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ file: '<stdin>', line: 2, code: 'invalid-value' })]);
  });

  it('emits SARIF 2.1.0', async () => {
    const file = tempFile('s.txt', 'Gender.Equal(1);Gender.Equal(2)\n');
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--format', 'sarif', file]);
    const sarif = JSON.parse(r.stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].tool.driver.name).toBe('wepql');
    const ids = sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId);
    expect(ids).toEqual(['unsatisfiable-filter', 'contradiction']);
    expect(sarif.runs[0].results[1].locations[0].physicalLocation.region).toMatchObject({ startLine: 1, startColumn: 17 });
    expect(sarif.runs[0].tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['contradiction', 'unsatisfiable-filter']);
  });

  it('--fix rewrites fixable lines to canonical form and leaves the rest untouched', async () => {
    const content = '# keep me\r\nlastname.startswith( Sm ) ;; \r\nNope.Equal(1)\r\nGender.InArray(1,2,1)\r\n';
    const file = tempFile('fix.txt', content);
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--fix', file]);
    expect(r.code).toBe(1); // Nope is still unknown
    expect(readFileSync(file, 'utf8')).toBe('# keep me\r\nLastName.StartsWith(Sm)\r\nNope.Equal(1)\r\nGender.InArray(1,2)\r\n');
    expect(r.stdout).toContain('2 fixed');
  });

  it('--fix leaves a file with nothing to change byte-identical', async () => {
    const content = '{ "filter" : "Gender.Equal(1)" ,"x":[1,2]}\n';
    const file = tempFile('same.ndjson', content);
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--fix', file]);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('--fix rewrites only the changed JSON string literals', async () => {
    const content = '[\n  {"name": "x", "filter": "gender.equal(1)",   "sort": "LastName"}\n]\n';
    const file = tempFile('fix.json', content);
    await runCliInProcess(['lint', '--schema', SCHEMA, '--fix', file]);
    expect(readFileSync(file, 'utf8')).toBe('[\n  {"name": "x", "filter": "Gender.Equal(1)",   "sort": "LastName=Asc"}\n]\n');
  });

  it('without --schema checks syntax only', async () => {
    const file = tempFile('nos.txt', 'Whatever.Equal(1)\nA.Foo(1)\n');
    const r = await runCliInProcess(['lint', file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('unknown-operator');
    expect(r.stdout).not.toContain('unknown-field');
    expect(r.stdout).toContain('(no --schema: syntax only)');
  });

  it.each([
    [['lint', '--bogus', 'x.txt'], /unknown option --bogus/],
    [['lint'], /at least one FILE/],
    [['lint', 'does-not-exist.txt'], /cannot read does-not-exist.txt: no such file/],
    [['lint', '--format', 'xml', 'x.txt'], /--format must be pretty, json or sarif/],
    [['lint', '--schema', 'package.json', 'x.txt'], /invalid schema file package.json/],
  ])('usage error %j exits 2', async (args, message) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });

  it('an invalid JSON saved-filter file is a usage error', async () => {
    const file = tempFile('bad.json', '[{"filter": 1}]');
    const r = await runCliInProcess(['lint', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('entry 0: "filter" must be a string');
  });
});

describe('wepql fmt --check', () => {
  it('lists non-canonical files and exits 1', async () => {
    const good = tempFile('good.txt', 'Gender.Equal(1)\n');
    const bad = tempFile('bad.txt', 'gender.equal( 1 )\n');
    const r = await runCliInProcess(['fmt', '--check', good, bad]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`[warn] ${bad}`);
    expect(r.stdout).not.toContain(`[warn] ${good}`);
    expect(r.stdout).toContain('line 1: not canonical, expected gender.Equal(1)');
  });

  it('exits 0 when every file is canonical', async () => {
    const good = tempFile('good.json', '[{"filter":"Gender.Equal(1)","sort":"LastName=Asc"}]');
    const r = await runCliInProcess(['fmt', '--check', good]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Checked 1 file: all in canonical form.');
  });
});
