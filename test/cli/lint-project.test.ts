/**
 * `wepql lint` over a project the way a team keeps saved filters: files in
 * directories and globs, .gitignore-style ignores, YAML, selectors inside
 * documents, a wepql.config.json found upward, a previous schema, --fix,
 * --quiet and --max-warnings. Every case runs in the test's
 * process (test/support/cli-in-process.ts); the built binary's lint is
 * spawned in cli-ux, hostile-files and help-examples.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const lintProjectDir = tempDirs('wepql-lint-project-');

const V1 = {
  version: 1,
  fields: {
    Surname: { type: 'string' },
    Gender: { type: 'integer', nullable: true },
    Number: { type: 'integer' },
    Suffix: { type: 'string' },
    Email: { type: 'string' },
  },
};
const V2 = {
  version: 2,
  fields: {
    LastName: { type: 'string', renamedFrom: 'Surname' },
    Gender: { type: 'integer' },
    Number: { type: 'string' },
    Email: { type: 'string', deprecated: { replacement: 'LastName' } },
  },
};

/** A project directory with the given files (objects are written as JSON). */
function project(files: Record<string, string | object>): string {
  const dir = lintProjectDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

const json = (r: { stdout: string }) =>
  JSON.parse(r.stdout) as { file: string; code: string; severity: string; line: number; name?: string }[];

describe('wepql lint: where the filters live', () => {
  it('walks a directory for .wepql files and JSON, YAML, NDJSON files of saved filters, skipping .txt, node_modules and other extensions', async () => {
    const dir = project({
      'views/a.json': [{ name: 'a', filter: 'Nope.Equal(1)' }],
      'views/sub/b.yaml': '- name: b\n  filter: Nope.Equal(2)\n',
      'views/sub/c.ndjson': '{"filter":"Nope.Equal(3)"}\n',
      'views/d.wepql': 'Nope.Equal(4)\n',
      'views/notes.txt': 'Nope.Equal(7)\n',
      'views/e.md': 'Nope.Equal(5)\n',
      'views/node_modules/x.json': [{ filter: 'Nope.Equal(6)' }],
      'schema.json': V2,
    });
    const r = await runCliInProcess(['lint', '--no-config', '--schema', 'schema.json', '--format', 'json', 'views'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(json(r).map((f) => f.file)).toEqual(['views/a.json', 'views/d.wepql', 'views/sub/b.yaml', 'views/sub/c.ndjson']);
    expect(r.stderr).toContain('4 files, 4 filters checked: 4 errors, 0 warnings');
  });

  it('expands a quoted glob, and a glob that matches nothing is a usage error', async () => {
    const dir = project({
      'views/a.json': [{ filter: 'Nope.Equal(1)' }],
      'views/deep/b.yaml': 'filter: Nope.Equal(2)\n',
      'views/deep/c.txt': 'Nope.Equal(3)\n',
    });
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', 'views/**/*.{json,yaml}'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('2 files, 2 filters checked');
    const none = await runCliInProcess(['lint', '--no-config', 'views/**/*.yml'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no files match "views/**/*.yml"');
  });

  it('leaves out files matched by .wepqlignore, --ignore-pattern and --ignore-path', async () => {
    const dir = project({
      'views/keep.wepql': 'Nope.Equal(1)\n',
      'views/drafts/skip.wepql': 'Nope.Equal(2)\n',
      'views/old.wepql': 'Nope.Equal(3)\n',
      'views/tmp.wepql': 'Nope.Equal(4)\n',
      '.wepqlignore': '# drafts are not saved yet\ndrafts/\n',
      'more-ignores': 'tmp.wepql\n',
      'schema.json': V2,
    });
    const base = ['lint', '--no-config', '--schema', 'schema.json', '--format', 'json'];
    expect(json(await runCliInProcess([...base, 'views'], { cwd: dir })).map((f) => f.file)).toEqual([
      'views/keep.wepql',
      'views/old.wepql',
      'views/tmp.wepql',
    ]);
    expect(json(await runCliInProcess([...base, '--ignore-pattern', 'old.wepql', 'views'], { cwd: dir })).map((f) => f.file)).toEqual([
      'views/keep.wepql',
      'views/tmp.wepql',
    ]);
    // --ignore-path replaces .wepqlignore.
    expect(json(await runCliInProcess([...base, '--ignore-path', 'more-ignores', 'views'], { cwd: dir })).map((f) => f.file)).toEqual([
      'views/drafts/skip.wepql',
      'views/keep.wepql',
      'views/old.wepql',
    ]);
  });

  it('finds filters and sorts inside documents with --filter-path and --sort-path, naming each by its sibling "name"', async () => {
    const dir = project({
      'dash.yaml':
        'title: Payroll\nviews:\n  - name: smiths\n    filter: LastName.StartsWith(Sm)\n    sort: LastName=Asc\n  - name: bad\n    filter: Nope.Equal(1)\n',
      'dash.json': { views: [{ name: 'j', query: { filter: 'Nope.Equal(2)' } }] },
      'schema.json': V2,
    });
    const r = await runCliInProcess(
      [
        'lint',
        '--no-config',
        '--schema',
        'schema.json',
        '--format',
        'json',
        '--filter-path',
        '$.views[*].filter',
        '--sort-path',
        '$.views[*].sort',
        'dash.yaml',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    expect(json(r)).toEqual([expect.objectContaining({ file: 'dash.yaml', line: 7, name: 'bad', code: 'unknown-field' })]);
    expect(r.stderr).toContain('1 file, 2 filters and 1 sort checked: 1 error, 0 warnings');
    const deep = await runCliInProcess(
      ['lint', '--no-config', '--schema', 'schema.json', '--format', 'json', '--filter-path', '$..filter', 'dash.json'],
      {
        cwd: dir,
      },
    );
    expect(json(deep)).toEqual([expect.objectContaining({ file: 'dash.json', line: 6, code: 'unknown-field' })]);
    const badPath = await runCliInProcess(['lint', '--no-config', '--filter-path', 'views.filter', 'dash.yaml'], { cwd: dir });
    expect(badPath.code).toBe(2);
    expect(badPath.stderr).toContain('a path starts with "$"');
  });

  it('reports a YAML syntax error with its position as a usage error', async () => {
    const dir = project({ 'bad.yaml': 'views:\n  - filter: [unclosed\n' });
    const r = await runCliInProcess(['lint', '--no-config', 'bad.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.yaml: line \d+, column \d+: not valid YAML/);
  });
});

describe('wepql lint: wepql.config.json', () => {
  const files = {
    'wepql.config.json': {
      schema: 'schemas/v2.json',
      previousSchema: 'schemas/v1.json',
      paths: ['views'],
      rules: { 'deprecated-field': 'off', 'field-nullability-changed': 'error' },
    },
    'schemas/v1.json': V1,
    'schemas/v2.json': V2,
    'views/a.json': [
      { name: 'a', filter: 'Surname.Equal(Smith);Gender.IsNull()' },
      { name: 'e', filter: 'Email.Equal(x)' },
    ],
    'app/src/.keep': '',
  };

  it('is found upward from the working directory and lints its paths with no flags', async () => {
    const dir = project(files);
    const r = await runCliInProcess(['lint', '--format', 'json'], { cwd: join(dir, 'app', 'src') });
    expect(r.code).toBe(1);
    expect(json(r).map((f) => [f.file, f.code, f.severity])).toEqual([
      ['../../views/a.json', 'field-renamed', 'warning'],
      ['../../views/a.json', 'field-nullability-changed', 'error'],
    ]);
  });

  it('--config names another file; --no-config ignores it; a misspelled key is a usage error with a suggestion', async () => {
    const dir = project({ ...files, 'ci/lint.json': { schema: '../schemas/v2.json', paths: ['../views'] } });
    const other = await runCliInProcess(['lint', '--config', 'ci/lint.json', '--format', 'json'], { cwd: dir });
    // Without the previous schema an old name is simply unknown.
    expect(json(other).map((f) => f.code)).toEqual(['unknown-field', 'deprecated-field']);
    expect((await runCliInProcess(['lint', '--no-config'], { cwd: dir })).code).toBe(2);
    const typo = project({ 'wepql.config.json': { shema: 'x.json' } });
    const r = await runCliInProcess(['lint'], { cwd: typo });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('shema: unknown key; did you mean "schema"?');
  });

  it('feeds its "policy" key (a path relative to the config) to the same check as --policy', async () => {
    const dir = project({
      'wepql.config.json': { schema: 'schemas/v2.json', paths: ['views'], policy: 'policy.json' },
      'schemas/v2.json': V2,
      'policy.json': { fields: { LastName: { filter: ['Equal'] } } },
      'views/a.wepql': 'LastName.StartsWith(Sm)\n',
    });
    const r = await runCliInProcess(['lint', '--format', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(json(r).map((f) => f.code)).toEqual(['operator-not-allowed']);
    expect(
      (
        await runCliInProcess(
          ['lint', '--no-config', '--schema', 'schemas/v2.json', '--policy', 'policy.json', '--format', 'json', 'views'],
          { cwd: dir },
        )
      ).stdout,
    ).toBe(r.stdout);
  });
});

describe('wepql lint: a schema that changed', () => {
  const base = {
    'v1.json': V1,
    'v2.json': V2,
    'views.json':
      JSON.stringify(
        [
          { name: 'renamed', filter: 'Surname.StartsWith(Sm)', sort: 'Surname=Desc' },
          { name: 'removed', filter: 'Suffix.Equal(Jr)' },
          { name: 'retyped', filter: 'Number.Equal(10)' },
          { name: 'retyped-breaks', filter: 'Number.GreaterThan(10)' },
          { name: 'nulls', filter: 'Gender.IsNull()' },
        ],
        null,
        2,
      ) + '\n',
  };
  const args = ['lint', '--no-config', '--schema', 'v2.json', '--previous-schema', 'v1.json'];

  it('reports removed, renamed, retyped and nullability-changed fields by saved filter', async () => {
    const dir = project(base);
    const r = await runCliInProcess([...args, '--format', 'json', 'views.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(json(r).map((f) => [f.name, f.code, f.severity])).toEqual([
      ['renamed', 'field-renamed', 'warning'],
      ['renamed', 'field-renamed', 'warning'],
      ['removed', 'field-removed', 'error'],
      ['retyped', 'field-retyped', 'warning'],
      ['retyped-breaks', 'field-retyped-incompatible', 'error'],
      ['retyped-breaks', 'operator-not-applicable', 'error'],
      ['nulls', 'field-nullability-changed', 'warning'],
    ]);
  });

  it('--fix rewrites renamed fields in place and leaves every other byte as it was', async () => {
    const dir = project(base);
    const before = readFileSync(join(dir, 'views.json'), 'utf8');
    const r = await runCliInProcess([...args, '--fix', 'views.json'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('2 fixed');
    const after = readFileSync(join(dir, 'views.json'), 'utf8');
    expect(after).toBe(
      before.replace('"Surname.StartsWith(Sm)"', '"LastName.StartsWith(Sm)"').replace('"Surname=Desc"', '"LastName=Desc"'),
    );
    // A second run has nothing left to rename.
    const again = await runCliInProcess([...args, '--fix', '--format', 'json', 'views.json'], { cwd: dir });
    expect(json(again).map((f) => f.code)).not.toContain('field-renamed');
    expect(readFileSync(join(dir, 'views.json'), 'utf8')).toBe(after);
  });

  it('--fix in YAML keeps comments, quoting and layout', async () => {
    const yaml =
      "# saved views\nviews:\n  - name: a   # the first\n    filter: Surname.StartsWith(Sm)\n  - name: b\n    filter: 'Surname.Equal(x)'\n";
    const dir = project({ ...base, 'views.yaml': yaml });
    await runCliInProcess([...args, '--fix', '--filter-path', '$.views[*].filter', 'views.yaml'], { cwd: dir });
    expect(readFileSync(join(dir, 'views.yaml'), 'utf8')).toBe(yaml.replaceAll('Surname.', 'LastName.'));
  });

  it('--previous-schema without --schema is a usage error', async () => {
    const r = await runCliInProcess(['lint', '--no-config', '--previous-schema', 'v1.json', 'views.json'], { cwd: project(base) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--previous-schema needs --schema');
  });
});

describe('wepql lint: --quiet and --max-warnings', () => {
  const dir = project({
    'schema.json': V2,
    'a.txt': 'LastName.Equal(x);LastName.Equal(x)\nNope.Equal(1)\n',
    'w.txt': 'LastName.Equal(x);LastName.Equal(x)\n',
  });
  const base = ['lint', '--no-config', '--schema', 'schema.json'];

  it('--quiet (-q) prints errors only', async () => {
    for (const flag of ['--quiet', '-q']) {
      const r = await runCliInProcess([...base, flag, 'a.txt'], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('error unknown-field');
      expect(r.stdout).not.toContain('warning duplicate-condition');
    }
  });

  it('--max-warnings N fails a run with more than N warnings', async () => {
    expect((await runCliInProcess([...base, '--max-warnings', '1', 'w.txt'], { cwd: dir })).code).toBe(0);
    const r = await runCliInProcess([...base, '--max-warnings', '0', 'w.txt'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('too many warnings (1; --max-warnings allows 0)');
    expect((await runCliInProcess([...base, '--max-warnings', 'many', 'w.txt'], { cwd: dir })).code).toBe(2);
  });
});
