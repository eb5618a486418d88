/**
 * `wepql lint` and `wepql fmt --check`/`--write` walk a repository as ESLint
 * and Prettier do (docs/linting.md, "Which files are read"): the fixture
 * repository test/fixtures/dashboards-repo (package.json, a JSONC
 * wepql.config.json, a schema, nested YAML dashboards, ignored drafts) and
 * this repository itself are linted with `wepql lint .`; files asked for
 * that hold no filter are reported, never a silent pass.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const dashboardsDir = tempDirs('wepql-dashboards-');
const discoveryDir = tempDirs('wepql-discovery-');

const FIXTURE = fileURLToPath(new URL('../fixtures/dashboards-repo/', import.meta.url));

/** A copy of the fixture repository, with a git-ignored build output and a node_modules beside it. */
function fixtureCopy(): string {
  const dir = dashboardsDir();
  cpSync(FIXTURE, dir, { recursive: true });
  mkdirSync(join(dir, 'build'));
  writeFileSync(join(dir, 'build/views.json'), JSON.stringify([{ filter: 'Nope.Equal(1)' }]));
  mkdirSync(join(dir, 'node_modules/dep'), { recursive: true });
  writeFileSync(join(dir, 'node_modules/dep/views.json'), JSON.stringify([{ filter: 'Nope.Equal(2)' }]));
  return dir;
}

function temp(files: Record<string, string | object>): string {
  const dir = discoveryDir();
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

type Finding = { file: string; code: string; severity: string; kind: string; message: string };
const findings = (r: { stdout: string }) => JSON.parse(r.stdout) as Finding[];

describe('a repository of dashboards (test/fixtures/dashboards-repo)', () => {
  it('wepql lint . and plain wepql lint read the nested dashboards the config points at, skipping drafts, build/ and node_modules', async () => {
    const dir = fixtureCopy();
    for (const args of [['lint', '.'], ['lint']]) {
      const r = await runCliInProcess(args, { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.stdout).toContain('2 files, 4 filters and 3 sorts checked: 0 errors, 0 warnings');
      expect(r.code).toBe(0);
    }
  });

  it('without the config, the nested dashboards are reported with the selector that finds them (never "0 filters checked: 0 errors" alone)', async () => {
    const dir = fixtureCopy();
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    const notes = findings(r);
    expect(notes.map((f) => [f.file, f.code, f.severity, f.kind])).toEqual([
      ['dashboards/hr.yaml', 'no-filters-found', 'warning', 'file'],
      ['dashboards/payroll/overview.yaml', 'no-filters-found', 'warning', 'file'],
      ['drafts/wip.yaml', 'no-filters-found', 'warning', 'file'],
    ]);
    expect(notes[0]!.message).toContain("--filter-path '$.dashboards[*].views[*].filter'");
    // package.json, wepql.config.json, tsconfig.json (with comments), the schema and notes/README.txt are never read.
    expect(r.stderr).toContain('0 files, 0 filters checked: 0 errors, 3 warnings');
    const strict = await runCliInProcess(['lint', '--no-config', '--strict', '--format', 'json', '.'], { cwd: dir });
    expect(strict.code).toBe(1);
    expect(findings(strict).every((f) => f.severity === 'error')).toBe(true);
  });

  it('fmt --check and --write take the config (paths, filterPath, ignorePatterns) and rewrite nested dashboards in place', async () => {
    const dir = fixtureCopy();
    expect(await runCliInProcess(['fmt', '--check'], { cwd: dir })).toMatchObject({
      code: 0,
      stdout: 'Checked 2 files: all in canonical form.\n',
    });
    const file = join(dir, 'dashboards/hr.yaml');
    const before = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      before.replace('VeteranStatus.IsNotNull();Deceased.Equal(false)', 'veteranstatus.isnotnull( ) ; deceased.equal(false)'),
    );
    const check = await runCliInProcess(['fmt', '--check'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('dashboards/hr.yaml');
    expect((await runCliInProcess(['fmt', '--write'], { cwd: dir })).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(
      before.replace('VeteranStatus.IsNotNull();Deceased.Equal(false)', 'VeteranStatus.IsNotNull();Deceased.Equal(false)'),
    );
    // The same selectors on the command line, without the config.
    const flags = [
      'fmt',
      '--check',
      '--no-config',
      '--filter-path',
      '$.dashboards[*].views[*].filter',
      '--sort-path',
      '$.dashboards[*].views[*].sort',
    ];
    expect((await runCliInProcess([...flags, '--ignore-pattern', 'drafts/', 'dashboards'], { cwd: dir })).stdout).toBe(
      'Checked 2 files: all in canonical form.\n',
    );
  });
});

describe('this repository', () => {
  it('wepql lint . runs to the end with only real findings (no usage error, nothing read from package.json or schemas)', async () => {
    const r = await runCliInProcess(['lint', '--format', 'json', '.'], { cwd: ROOT });
    expect(r.stderr).not.toMatch(/internal error|usage:/);
    expect([0, 1]).toContain(r.code);
    const files = new Set(findings(r).map((f) => f.file));
    // The conformance corpus's HTTP cases send bad filters and sorts on purpose: real findings too.
    for (const f of files) expect(f).toMatch(/^(examples|test\/fixtures|grammar\/corpus)\//);
    expect(files.has('package.json')).toBe(false);
  });
});

describe('files that hold no filter are reported, never a silent pass', () => {
  const nested = 'title: Payroll\nviews:\n  - name: smiths\n    filter: lastname.startswith( Sm ) ; or(gender.equal(1))\n';

  it('a named YAML or JSON file with nested filters: a warning naming the selector, the same for both formats', async () => {
    const dir = temp({ 'dash.yaml': nested, 'dash.json': { views: [{ name: 'smiths', filter: 'LastName.StartsWith(Sm)' }] } });
    for (const name of ['dash.yaml', 'dash.json']) {
      const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', name], { cwd: dir });
      expect(r.code).toBe(0);
      expect(findings(r)).toEqual([expect.objectContaining({ file: name, code: 'no-filters-found', severity: 'warning' })]);
      expect(findings(r)[0]!.message).toContain("--filter-path '$.views[*].filter'");
      expect((await runCliInProcess(['lint', '--no-config', '--strict', name], { cwd: dir })).code).toBe(1);
    }
  });

  it('fmt --check does not call a file canonical when it cannot see its filters', async () => {
    const dir = temp({ 'dash.yaml': nested });
    const r = await runCliInProcess(['fmt', '--check', '--no-config', 'dash.yaml'], { cwd: dir });
    expect(r.stderr).toContain('dash.yaml: no-filters-found');
    expect(r.stdout).not.toContain('all in canonical form');
    expect((await runCliInProcess(['fmt', '--check', '--no-config', '--strict', 'dash.yaml'], { cwd: dir })).code).toBe(1);
    const found = await runCliInProcess(['fmt', '--check', '--no-config', '--filter-path', '$.views[*].filter', 'dash.yaml'], { cwd: dir });
    expect(found.code).toBe(1);
    expect(found.stdout).toContain('expected lastname.StartsWith(Sm);Or(gender.Equal(1))');
  });

  it('--filter-path that selects nothing in a named file is reported, not dropped', async () => {
    const dir = temp({ 'a.json': { panels: [{ query: { filter: 'Nope.Equal(1)' } }] }, 'b.yaml': 'views:\n  - filter: A.Equal(1)\n' });
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', '--filter-path', '$.views[*].filter', 'a.json', 'b.yaml'], {
      cwd: dir,
    });
    expect(findings(r)).toEqual([expect.objectContaining({ file: 'a.json', code: 'no-filters-found' })]);
    expect(findings(r)[0]!.message).toContain('neither the default shapes nor the --filter-path/--sort-path selectors');
    expect(findings(r)[0]!.message).toContain("'$.panels[*].query.filter'");
    expect(r.stderr).toContain('1 file, 1 filter checked: 0 errors, 1 warning');
  });

  it('filter-path-replaces-default-shapes: a selector adds to the default shapes, so a plain list stays read beside nested views', async () => {
    const dir = temp({
      'plain.json': [{ name: 'smiths', filter: 'Nope.Equal(1)', sort: 'Id=Asc' }],
      'plain.yaml': '- name: smiths\n  filter: Nope.Equal(2)\n',
      'dash.yaml': 'filter: Top.Equal(1)\nviews:\n  - name: a\n    filter: A.Equal(1)\n',
    });
    const args = ['lint', '--no-config', '--format', 'json', '--filter-path', '$.views[*].filter'];
    const r = await runCliInProcess([...args, '--filter-path', '$[*].filter', 'plain.json', 'plain.yaml', 'dash.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(findings(r)).toEqual([]);
    // A string reached by a default shape and by a selector ($[*].filter) is read once.
    expect(r.stderr).toContain('3 files, 4 filters and 1 sort checked: 0 errors, 0 warnings');
    const fmt = await runCliInProcess(['fmt', '--check', '--no-config', '--filter-path', '$.views[*].filter', 'plain.json'], { cwd: dir });
    expect(fmt.stderr).toBe('');
    expect(fmt.stdout).toContain('Checked 1 file: all in canonical form.');
  });

  it('a walk never reads package.json, the config, the schema files or JSON Schemas, even when they hold "filter" strings', async () => {
    const dir = temp({
      'package.json': { name: 'x', scripts: { filter: 'Nope.Equal(1)' } },
      'wepql.config.json': { schema: 'schema.json', paths: ['.'] },
      'schema.json': { fields: { A: { type: 'string' } } },
      'views.schema.json': {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        properties: { filter: { type: 'string' } },
        examples: [{ filter: 'Nope.Equal(1)' }],
      },
      'api.json': { $schema: 'http://json-schema.org/draft-07/schema#', examples: [{ filter: 'Nope.Equal(1)' }] },
      'views/a.wepql': 'A.Equal(1)\n',
    });
    const r = await runCliInProcess(['lint', '--format', 'json'], { cwd: dir });
    expect(r.stdout.trim()).toBe('[]');
    expect(r.stderr).toContain('1 file, 1 filter checked: 0 errors, 0 warnings');
    expect(r.code).toBe(0);
  });

  it('a directory with no saved-filter files at all is reported', async () => {
    const dir = temp({ 'notes/readme.txt': 'hello\n', 'data.json': { rows: [1, 2] } });
    const r = await runCliInProcess(['lint', '--no-config', '--format', 'json', '.'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(findings(r)).toEqual([expect.objectContaining({ file: '.', code: 'no-filters-found' })]);
    expect((await runCliInProcess(['lint', '--no-config', '--strict', '.'], { cwd: dir })).code).toBe(1);
  });

  it('"no-filters-found" follows the config\'s rules like any code', async () => {
    const dir = temp({ 'wepql.config.json': '{ "rules": { "no-filters-found": "off" }, }', 'empty.wepql': '# nothing yet\n' });
    const r = await runCliInProcess(['lint', '--format', 'json', 'empty.wepql'], { cwd: dir });
    expect(r.stdout.trim()).toBe('[]');
    expect(r.code).toBe(0);
  });
});
