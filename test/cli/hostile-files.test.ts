/**
 * Files as a hostile or unlucky user hands them to the CLI: non-UTF-8 bytes
 * and byte-order marks, symlink loops, user-input errors that must not end
 * as "internal error", files too large for recursion, config paths leading
 * out of the project, and special files. Each test is named after the
 * finding it guards.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const hostileDir = tempDirs('wepql-hostile-');

function temp(files: Record<string, string | Buffer | object>): string {
  const dir = hostileDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' || Buffer.isBuffer(content) ? content : JSON.stringify(content));
  }
  return dir;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const latin1 = (s: string) => Buffer.from(s, 'latin1');

describe('finding 7: fmt --write and lint --fix write files back byte for byte outside the filter texts', () => {
  it('keeps a Latin-1 é in a comment (the file is not UTF-8) through fmt --write', async () => {
    const dir = temp({ 'views.txt': latin1('# café views\na.equal( 1 )\n') });
    const r = await runCliInProcess(['fmt', '--write', 'views.txt'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir, 'views.txt'))).toEqual(latin1('# café views\na.Equal(1)\n'));
  });

  it('keeps a Latin-1 é in a comment through lint --fix', async () => {
    const dir = temp({
      'views.wepql': latin1('# résumé\nGender.Equal(1);Gender.Equal(1)\n'),
      'schema.json': { fields: { Gender: { type: 'integer' } } },
    });
    expect(
      (await runCliInProcess(['lint', '--no-config', '--schema', 'schema.json', '--fix', 'views.wepql'], { cwd: dir })).stdout,
    ).toContain('1 fixed');
    expect(readFileSync(join(dir, 'views.wepql'))).toEqual(latin1('# résumé\nGender.Equal(1)\n'));
  });

  it.each([
    ['views.json', '[{"filter": "a.equal( 1 )"}]\n', '[{"filter": "a.Equal(1)"}]\n'],
    ['views.ndjson', '{"filter": "a.equal( 1 )"}\n', '{"filter": "a.Equal(1)"}\n'],
    ['views.txt', 'a.equal( 1 )\n', 'a.Equal(1)\n'],
    ['views.yaml', '- filter: a.equal( 1 )\n', '- filter: a.Equal(1)\n'],
  ])('a UTF-8 byte-order mark neither breaks reading %s nor is lost on --write', async (name, content, fixed) => {
    const dir = temp({ [name]: Buffer.concat([BOM, Buffer.from(content)]) });
    const lint = await runCliInProcess(['lint', '--no-config', '--format', 'json', name], { cwd: dir });
    expect(lint.code).toBe(0);
    expect(lint.stderr).toContain('1 file, 1 filter checked');
    expect((await runCliInProcess(['fmt', '--write', '--no-config', name], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, name))).toEqual(Buffer.concat([BOM, Buffer.from(fixed)]));
  });
});

describe('finding 8: lint DIR detects symlink loops', () => {
  it('visits each directory once by its real path and finishes', async () => {
    const dir = temp({ 'views/a.wepql': 'Nope.Equal(1)\n', 'views/sub/b.wepql': 'Nope.Equal(2)\n' });
    symlinkSync('..', join(dir, 'views/sub/up'));
    symlinkSync('.', join(dir, 'views/self'));
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', 'views'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('2 files, 2 filters checked: 0 errors, 0 warnings (no --schema: syntax only)\n');
  });
});

describe('finding 12: user-input errors are diagnostics with exit 1 or 2, never "internal error" and 70', () => {
  it.each([
    ['db-index with an unknown sort field', ['db-index', '--sort', 'Nope=Asc', '--fold-collation', 'wepql_fold'], 1],
    ['db-index with a saved filter that does not parse', ['db-index', '--filters', 'bad.txt', '--fold-collation', 'wepql_fold'], 1],
    ['db-index with a file that is not saved filters', ['db-index', '--filters', 'bad.json', '--fold-collation', 'wepql_fold'], 2],
    ['db-index with a YAML file', ['db-index', '--filters', 'views.yaml', '--fold-collation', 'wepql_fold'], 0],
    ['db-index with a missing file', ['db-index', '--filters', 'missing.txt'], 2],
  ])('%s', async (_name, args, code) => {
    const dir = temp({ 'bad.txt': 'LastName.Equal(\n', 'bad.json': '{"filter": 3}', 'views.yaml': '- filter: LastName.Equal(Smith)\n' });
    const r = await runCliInProcess(args as string[], { cwd: dir, env: { DATABASE_URL: '' } });
    expect(r.stderr).not.toContain('internal error');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(code);
  });
});

describe('finding 13: linting a file of more than 120,000 filters does not overflow the stack', () => {
  // Spawned: the built (bundled) binary does this work in about half the time the test's process takes over src/.
  const n = 130_000;
  it('a YAML list', () => {
    const dir = temp({ 'big.yaml': Array.from({ length: n }, (_, i) => `- filter: Gender.Equal(${i % 3})\n`).join('') });
    const r = runCli(['lint', '--no-config', 'big.yaml'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`1 file, ${n} filters checked: 0 errors`);
    expect(r.code).toBe(0);
  }, 240_000);

  it('a JSON document through --filter-path', () => {
    const dir = temp({ 'big.json': { views: Array.from({ length: n }, (_, i) => ({ filter: `Gender.Equal(${i % 3})` })) } });
    const r = runCli(['lint', '--no-config', '--filter-path', '$.views[*].filter', 'big.json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`1 file, ${n} filters checked: 0 errors`);
    expect(r.code).toBe(0);
  }, 240_000);
});

describe('finding 16: config paths stay in the project; special files are refused', () => {
  it('a "paths" entry outside the project is a usage error unless --allow-outside', async () => {
    const outside = temp({ 'secret.txt': 'root:x:0:0\n' });
    const dir = temp({ 'wepql.config.json': { paths: [join(outside, 'secret.txt'), '../' + outside.split('/').pop() + '/secret.txt'] } });
    const r = await runCliInProcess(['lint'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('lies outside the project');
    expect(r.stdout).not.toContain('root:x');
    expect((await runCliInProcess(['lint', '--allow-outside'], { cwd: dir })).code).toBe(1);
  });

  it('a symlink inside the project that leads out is outside too', async () => {
    const outside = temp({ 'views/a.wepql': 'Nope.Equal(1)\n' });
    const dir = temp({ 'wepql.config.json': { paths: ['linked'] } });
    symlinkSync(join(outside, 'views'), join(dir, 'linked'));
    expect((await runCliInProcess(['lint'], { cwd: dir })).stderr).toContain('lies outside the project');
  });

  it.each([
    [
      'a device as the config schema',
      { 'wepql.config.json': { schema: '/dev/zero', paths: ['a.wepql'] }, 'a.wepql': 'A.Equal(1)\n' },
      // Outside the project too: --allow-outside lets the run get as far as opening it.
      ['lint', '--allow-outside'],
    ],
    ['a device as --schema', { 'a.wepql': 'A.Equal(1)\n' }, ['lint', '--no-config', '--schema', '/dev/zero', 'a.wepql']],
    ['a device as input', {}, ['lint', '--no-config', '/dev/zero']],
    ['a device as --config', {}, ['lint', '--config', '/dev/zero', 'x.wepql']],
    ['a FIFO as input', {}, ['lint', '--no-config', 'fifo']],
    ['a FIFO as fmt input', {}, ['fmt', '--check', '--no-config', 'fifo']],
  ])('%s is refused with a clear message', async (_name, files, args) => {
    const dir = temp(files as Record<string, object>);
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const r = await runCliInProcess(args, { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a regular file (a device, FIFO or socket)');
  });
});

describe('lint-huge-file-internal-error', () => {
  it('a file larger than the longest string is reported by name and size, and the other files are still linted', async () => {
    const dir = temp({ 'a.wepql': 'A.Equal(1\n', 'b.wepql': 'B.Equal(2)\n' });
    // Sparse: 600 MB by its size, no disk written; the fix refuses it by size before reading a byte.
    writeFileSync(join(dir, 'big.wepql'), '');
    truncateSync(join(dir, 'big.wepql'), 600 * 2 ** 20);
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', '.'], { cwd: dir });
    expect(r.stderr).not.toContain('internal error');
    expect(r.code).toBe(1);
    const findings = JSON.parse(r.stdout) as { file: string; code: string; severity: string; message: string }[];
    expect(findings.map((f) => [f.file, f.code, f.severity])).toEqual([
      ['big.wepql', 'file-too-large', 'error'],
      ['a.wepql', 'missing-close-paren', 'error'],
    ]);
    expect(findings[0]!.message).toContain('600 MB (629,145,600 bytes) is more than the longest text JavaScript can hold');
    expect(r.stderr).toContain('2 files, 2 filters checked: 2 errors');
    const fmt = await runCliInProcess(['fmt', '--check', '--no-config', '.'], { cwd: dir });
    expect(fmt.code).toBe(1);
    expect(fmt.stderr).toContain('[error] big.wepql: file-too-large: too large to read');
    expect(fmt.stderr).not.toContain('internal error');
  });
});
