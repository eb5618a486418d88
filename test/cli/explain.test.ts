/**
 * `wepql explain` as a user runs it: stdout, stderr and the exit code (0
 * explained, 1 input has errors, 2 usage error) — run in the test's process
 * (test/support/cli-in-process.ts), and once through the built binary.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const explainDir = tempDirs('wepql-explain-');

const root = fileURLToPath(new URL('../..', import.meta.url));
const EMPLOYEE = 'schemas/employee.json';

function wepql(args: readonly string[], input?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runCliInProcess(args, { cwd: root, input });
}

describe('the built binary', () => {
  // npm test builds dist/ once before the run; a missing or stale dist/ fails here.
  beforeAll(assertFreshDist);

  it('explains a filter, and refuses an invalid one with exit 1', async () => {
    const spawned = (args: readonly string[]) =>
      spawnSync(process.execPath, ['dist/cli/main.js', ...args], { cwd: root, encoding: 'utf8' });
    const ok = spawned(['explain', 'Gender.InArray(1,2,3)']);
    expect({ code: ok.status, stdout: ok.stdout, stderr: ok.stderr }).toEqual({
      code: 0,
      stdout: 'gender is one of 1, 2 or 3\n',
      stderr: '',
    });
    const bad = spawned(['explain', '--schema', EMPLOYEE, 'Nope.Equal(1)']);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/Nope/);
  });
});

describe('wepql explain TEXT', () => {
  it.each([
    [
      'LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))',
      'last name starts with "Sm" and (gender is 1 or salary is greater than 1000)',
    ],
    ["'D'.StartsWithInFields(FirstName,LastName)", 'first name or last name starts with "D"'],
    ['Gender.InArray(1,2,3)', 'gender is one of 1, 2 or 3'],
    ['', 'every record'],
  ])('%s', async (filter, expected) => {
    const r = await wepql(['explain', filter]);
    expect(r).toEqual({ code: 0, stdout: expected + '\n', stderr: '' });
  });

  it.each([
    ['CreatedOn.GreaterThanOrEqual(2024-01-01);Gender.IsNull()', 'created on is on or after 2024-01-01 and gender is not set'],
    // docs/reference.md §"Filter semantics": NotEqual is false on a null field; Gender may be null, FirstName may not.
    ['Gender.NotEqual(1);FirstName.NotEqual(Bob)', 'gender is not 1 (and is set) and first name is not "Bob"'],
    ['LastName.Equal(123)', 'last name is "123"'],
    ['HCE.Equal(TRUE)', 'HCE is true'],
  ])('--schema: %s', async (filter, expected) => {
    const r = await wepql(['explain', '--schema', EMPLOYEE, filter]);
    expect(r).toEqual({ code: 0, stdout: expected + '\n', stderr: '' });
  });

  it('explains a sort with --sort, wording by type with --schema', async () => {
    const r = await wepql(['explain', '--sort', '--schema', EMPLOYEE, 'LastName=Asc;CreatedOn=Desc']);
    expect(r).toEqual({ code: 0, stdout: 'by last name (A→Z), then by created on (newest first)\n', stderr: '' });
  });

  it('prints warnings on stderr and still explains', async () => {
    const r = await wepql(['explain', '--sort', 'LastName']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('by last name (ascending)\n');
    expect(r.stderr).toMatch(/warning implicit-direction/);
  });

  it('uses the schema spelling and warns about a case mismatch', async () => {
    const r = await wepql(['explain', '--schema', EMPLOYEE, 'lastname.equal(123)']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('last name is "123"\n');
    expect(r.stderr).toMatch(/warning field-case-mismatch/);
  });

  it('takes TEXT after -- even when it looks like a flag', async () => {
    expect(await wepql(['explain', '--', '--help'])).toMatchObject({ code: 1, stdout: '' });
    expect(await wepql(['explain', '--', '-5.LessThanInFields(A,B)'])).toEqual({ code: 0, stdout: 'a or b is less than -5\n', stderr: '' });
  });

  it('shows hidden characters of a value escaped', async () => {
    const r = await wepql(['explain', 'A.Equal(x\u202eevil)']);
    expect(r.stdout).toBe('a is "x\\u202eevil"\n');
  });

  it('reads TEXT from stdin with -', async () => {
    const r = await wepql(['explain', '-'], 'Gender.Equal(1)\n');
    expect(r).toEqual({ code: 0, stdout: 'gender is 1\n', stderr: '' });
  });
});

describe('wepql explain: invalid input exits 1 with code frames', () => {
  it('shows each error under its source', async () => {
    const r = await wepql(['explain', 'LastName.StartWith(Sm)']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      [
        '1:10: error unknown-operator: unknown operator "StartWith"; did you mean "StartsWith"?',
        '  LastName.StartWith(Sm)',
        '           ^^^^^^^^^',
        '  suggestion: StartsWith',
        '',
      ].join('\n'),
    );
  });

  it('reports validation errors against --schema', async () => {
    const r = await wepql(['explain', '--schema', EMPLOYEE, 'Gender.Contains(x);Nope.Equal(1)']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error operator-not-applicable/);
    expect(r.stderr).toMatch(/error unknown-field/);
    expect(r.stderr).toMatch(/\n {2}Gender\.Contains\(x\);Nope\.Equal\(1\)\n/);
  });

  it('reports sort errors', async () => {
    const r = await wepql(['explain', '--sort', 'LastName=Up']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error invalid-direction/);
  });
});

describe('wepql explain: usage errors exit 2', () => {
  it.each([
    [[], /missing the filter/],
    [['a', 'b'], /expected one TEXT, got 2/],
    [['--bogus', 'A.Equal(1)'], /unknown option --bogus/],
    [['--schema'], /--schema needs a value/],
    [['--schema', 'no/such/file.json', 'A.Equal(1)'], /cannot read no\/such\/file\.json/],
  ])('%j', async (args, message) => {
    const r = await wepql(['explain', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/usage: wepql explain/);
  });

  it('refuses a schema file that is not a schema', async () => {
    const dir = explainDir();
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"fields":{"A":{"type":"text"}}}');
    const r = await wepql(['explain', '--schema', file, 'A.Equal(1)']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/invalid schema file/);
  });
});
