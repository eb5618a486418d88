/**
 * `wepql query` as a user runs it over examples/employees.json: stdout,
 * stderr and the exit code (0 ok, 1 the filter or sort has errors, 2 usage
 * error) — run in the test's process (test/support/cli-in-process.ts), and
 * NDJSON on standard input through the built binary.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CliResult } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { assertFreshDist } from '../support/dist.js';
import { tempDirs } from '../support/temp-dirs.js';

const queryDir = tempDirs('wepql-query-');

const root = fileURLToPath(new URL('../..', import.meta.url));
const DATA = 'examples/employees.json';
const SCHEMA = 'schemas/employee.json';
type Employee = Record<string, unknown> & { Id: number; LastName: string; ClientId: number; RowStatus: number };
const employees = JSON.parse(readFileSync(join(root, DATA), 'utf8')) as Employee[];

function wepql(args: readonly string[], input?: string): Promise<CliResult> {
  return runCliInProcess(['query', ...args], { cwd: root, input });
}

function spawned(args: readonly string[], input?: string): CliResult {
  const r = spawnSync(process.execPath, ['dist/cli/main.js', 'query', ...args], {
    cwd: root,
    encoding: 'utf8',
    input,
    maxBuffer: 64 << 20,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const dir = queryDir();
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

// npm test builds dist/ once before the run; a missing or stale dist/ fails here.
beforeAll(assertFreshDist);

describe('wepql query', () => {
  it('filters, sorts and pages the sample employees, printing a JSON array with 2-space indent', async () => {
    const r = await wepql([
      '--data',
      DATA,
      '--filter',
      "ClientId.Equal(1);RowStatus.NotEqual(3);LastName.StartsWith('o''')",
      '--sort',
      'FirstName=Asc;Id=Desc',
      '--limit',
      '5',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const expected = employees
      .filter((e) => e.ClientId === 1 && e.RowStatus !== 3 && e.LastName.toLowerCase().startsWith("o'"))
      .sort((a, b) => {
        const x = String(a['FirstName']).toLowerCase();
        const y = String(b['FirstName']).toLowerCase();
        return x < y ? -1 : x > y ? 1 : b.Id - a.Id;
      })
      .slice(0, 5);
    expect(expected.length).toBe(5);
    expect(r.stdout).toBe(JSON.stringify(expected, null, 2) + '\n');
  });

  it('prints every record, in input order, without a filter or sort', async () => {
    const r = await wepql(['--data', DATA, '--schema', SCHEMA]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(employees);
  });

  it('skips and limits', async () => {
    const r = await wepql(['--data', DATA, '--sort', 'Id=Asc', '--skip', '10', '--limit', '3']);
    expect((JSON.parse(r.stdout) as Employee[]).map((e) => e.Id)).toEqual(employees.slice(10, 13).map((e) => e.Id));
  });

  it('reads NDJSON from standard input: the built binary, from a real pipe', () => {
    const ndjson =
      employees
        .slice(0, 50)
        .map((e) => JSON.stringify(e))
        .join('\n') + '\n';
    const r = spawned(['--data', '-', '--filter', 'Gender.IsNull()'], ndjson);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(employees.slice(0, 50).filter((e) => !Object.hasOwn(e, 'Gender')));
  });

  it('matches case-insensitively unless --case-sensitive', async () => {
    const data = file('names.json', JSON.stringify([{ Name: 'Smith' }, { Name: 'smith' }, { Name: 'Jones' }]));
    expect(JSON.parse((await wepql(['--data', data, '--filter', 'Name.Equal(SMITH)'])).stdout)).toEqual([
      { Name: 'Smith' },
      { Name: 'smith' },
    ]);
    expect(JSON.parse((await wepql(['--data', data, '--filter', 'Name.Equal(smith)', '--case-sensitive'])).stdout)).toEqual([
      { Name: 'smith' },
    ]);
    expect((await wepql(['--data', data, '--filter', 'Name.Equal(x)'])).stdout).toBe('[]\n');
  });

  it('exits 1 with a code frame on stderr for an invalid filter', async () => {
    const r = await wepql(['--data', DATA, '--filter', 'LastName.Equalz(Smith);Salary.GreaterThan(5)']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--filter:1:10: error unknown-operator');
    expect(r.stderr).toContain('unknown-field');
    expect(r.stderr).toMatch(/\^+/);
  });

  it('exits 1 for an invalid sort', async () => {
    const r = await wepql(['--data', DATA, '--sort', 'LastName=Up']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--sort:1:');
  });

  it('prints warnings but still answers', async () => {
    const r = await wepql(['--data', DATA, '--filter', 'Id.Equal(10001);', '--sort', 'LastName']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning');
    expect((JSON.parse(r.stdout) as Employee[]).map((e) => e.Id)).toEqual([10001]);
  });

  it.each([
    [['--filter', 'Id.Equal(1)'], '--data FILE is required'],
    [['--data', DATA, '--frobnicate'], 'unknown option --frobnicate'],
    [['--data', DATA, 'extra'], 'unexpected argument'],
    [['--data', DATA, '--limit', '-1'], '--limit must be a whole number'],
    [['--data', DATA, '--skip', 'x'], '--skip must be a whole number'],
    [['--data', 'no/such/file.json'], 'cannot read no/such/file.json'],
  ])('exits 2 for %j', async (args, message) => {
    const r = await wepql(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
  });

  it.each([
    ['broken.json', '[{"a": 1},', 'not valid JSON'],
    ['broken.ndjson', '{"a": 1}\n{"a": \n', 'line 2 is not JSON'],
    ['scalar.json', '42', 'expected a JSON array of records'],
  ])('exits 2 for an invalid data file (%s)', async (name, text, message) => {
    const r = await wepql(['--data', file(name, text)]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  it('exits 2 for an invalid schema file', async () => {
    const r = await wepql(['--data', DATA, '--schema', file('bad-schema.json', '{"fields":{"A":{"type":"money"}}}')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('invalid schema file');
  });

  it('treats an empty data file as no records', async () => {
    expect((await wepql(['--data', file('empty.json', '')])).stdout).toBe('[]\n');
  });
});
