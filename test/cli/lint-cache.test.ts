/**
 * `wepql lint --cache`: a cached run reports byte for byte what an uncached
 * one does, takes an unchanged file's findings from the cache (a planted
 * finding shows it was not linted again), lints a changed file again, and
 * sets the cache aside when the schema, the selectors or the build's
 * settings change. Cases run in the test's process; one spawns the built
 * binary on two threads, whose workers hand their findings back for the cache.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const cacheProjectDir = tempDirs('wepql-lint-cache-');

const V1 = { version: 1, fields: { Surname: { type: 'string' }, Gender: { type: 'integer', nullable: true } } };
const V2 = { version: 2, fields: { LastName: { type: 'string', renamedFrom: 'Surname' }, Gender: { type: 'integer' } } };

/** A project: views in JSON, YAML, NDJSON and .wepql, a config with a rule override, and both schemas. */
function project(extra: Record<string, string | object> = {}): string {
  const dir = cacheProjectDir();
  const files: Record<string, string | object> = {
    'wepql.config.json': {
      schema: 'schemas/v2.json',
      previousSchema: 'schemas/v1.json',
      paths: ['views'],
      rules: { 'implicit-direction': 'off' },
      overrides: [{ files: ['views/quiet/**'], rules: { 'field-renamed': 'off' } }],
    },
    'schemas/v1.json': V1,
    'schemas/v2.json': V2,
    'views/a.json': [
      { name: 'renamed', filter: 'Surname.StartsWith(Sm)' },
      { name: 'broken', filter: 'Gender.Equal(' },
      { name: 'both', filter: 'Gender.Equal(1);Gender.Equal(1)', sort: 'LastName=Asc' },
    ],
    'views/b.yaml':
      '- name: y\n  filter: Gender.IsNull()\n# wepql-disable-next-line duplicate-condition\n- filter: Gender.Equal(2);Gender.Equal(2)\n',
    'views/c.ndjson': '{"filter":"Nope.Equal(3)"}\n{"filter":"LastName.Equal(x)"}\n',
    'views/d.wepql': 'Gender.GreaterThan(5);Gender.LessThan(3)\n',
    'views/quiet/e.json': [{ filter: 'Surname.Equal(Jones)' }],
    ...extra,
  };
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

const lint = (cwd: string, ...args: string[]) => runCliInProcess(['lint', ...args], { cwd });

/** The cache file, parsed. */
function cacheOf(path: string): { key: string; files: Record<string, { path: string; found: { code: string; message: string }[][] }> } {
  return JSON.parse(readFileSync(path, 'utf8')) as ReturnType<typeof cacheOf>;
}

/** Rewrites the cache so that `file`'s first entry holds one planted finding: it shows whether that file was linted again. */
function plant(dir: string, file: string): void {
  const at = join(dir, '.wepqlcache');
  const cache = cacheOf(at);
  const entry = cache.files[join(dir, file)]!;
  entry.found[0] = [{ code: 'contradiction', severity: 'warning', message: 'PLANTED', start: 0, end: 1 } as never];
  writeFileSync(at, JSON.stringify(cache));
}

describe('wepql lint --cache', () => {
  it('reports byte for byte what a run without it does, in every format, on the first run and on the cached ones', async () => {
    const dir = project();
    for (const format of ['pretty', 'json', 'sarif']) {
      const plain = await lint(dir, '--format', format);
      expect(plain.code).toBe(1);
      const first = await lint(dir, '--cache', '--format', format);
      const second = await lint(dir, '--cache', '--format', format);
      for (const r of [first, second]) {
        expect(r.code).toBe(plain.code);
        expect(r.stdout).toBe(plain.stdout);
        expect(r.stderr).toBe(plain.stderr);
      }
    }
    expect(Object.keys(cacheOf(join(dir, '.wepqlcache')).files).sort()).toEqual(
      ['views/a.json', 'views/b.yaml', 'views/c.ndjson', 'views/d.wepql', 'views/quiet/e.json'].map((f) => join(dir, f)),
    );
  });

  it("takes an unchanged file's findings from the cache, lints a changed one again, and writes nothing when nothing changed", async () => {
    const dir = project();
    await lint(dir, '--cache', '--format', 'json');
    plant(dir, 'views/a.json');
    plant(dir, 'views/d.wepql');
    const before = statSync(join(dir, '.wepqlcache')).mtimeMs;
    const cached = await lint(dir, '--cache', '--format', 'json');
    const messages = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { file: string; message: string }[]).map((f) => `${f.file} ${f.message}`);
    expect(messages(cached)).toContain('views/a.json PLANTED');
    expect(messages(cached)).toContain('views/d.wepql PLANTED');
    // Nothing new was learned: the file (with its planted findings) is left as it was.
    expect(statSync(join(dir, '.wepqlcache')).mtimeMs).toBe(before);
    // One byte more in d.wepql: linted again, and the cache learns it; a.json still comes from the cache.
    writeFileSync(join(dir, 'views/d.wepql'), 'Gender.GreaterThan(5);Gender.LessThan(3) \n');
    const changed = await lint(dir, '--cache', '--format', 'json');
    expect(messages(changed)).toContain('views/a.json PLANTED');
    expect(messages(changed).filter((m) => m.startsWith('views/d.wepql'))).not.toContain('views/d.wepql PLANTED');
    expect(messages(changed).some((m) => m.startsWith('views/d.wepql') && m.includes('contradicts'))).toBe(true);
    expect(JSON.stringify(cacheOf(join(dir, '.wepqlcache')).files[join(dir, 'views/d.wepql')])).not.toContain('PLANTED');
  });

  it('sets the whole cache aside when the schema, the selectors or --case-sensitive change', async () => {
    const dir = project();
    await lint(dir, '--cache');
    const key = cacheOf(join(dir, '.wepqlcache')).key;
    const changes: [string, () => Promise<unknown>][] = [
      ['schema file', async () => writeFileSync(join(dir, 'schemas/v2.json'), JSON.stringify({ ...V2, version: 3 }))],
      ['previous schema file', async () => writeFileSync(join(dir, 'schemas/v1.json'), JSON.stringify({ ...V1, version: 0 }))],
    ];
    let last = key;
    for (const [what, change] of changes) {
      plant(dir, 'views/a.json');
      await change();
      const r = await lint(dir, '--cache', '--format', 'json');
      expect(r.stdout, what).not.toContain('PLANTED');
      const now = cacheOf(join(dir, '.wepqlcache')).key;
      expect(now, what).not.toBe(last);
      last = now;
    }
    for (const flags of [['--case-sensitive'], ['--filter-path', '$[*].filter']]) {
      plant(dir, 'views/a.json');
      const r = await lint(dir, '--cache', '--format', 'json', ...flags);
      expect(r.stdout, flags.join(' ')).not.toContain('PLANTED');
      expect(cacheOf(join(dir, '.wepqlcache')).key, flags.join(' ')).not.toBe(last);
      last = cacheOf(join(dir, '.wepqlcache')).key;
    }
    // A config rule changes no finding before the rules: the cache stands, and the rule still applies.
    await lint(dir, '--cache');
    plant(dir, 'views/a.json');
    const config = JSON.parse(readFileSync(join(dir, 'wepql.config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(dir, 'wepql.config.json'),
      JSON.stringify({ ...config, rules: { 'implicit-direction': 'off', 'field-renamed': 'off' } }),
    );
    const ruled = await lint(dir, '--cache', '--format', 'json');
    expect(ruled.stdout).toContain('PLANTED');
    expect(ruled.stdout).not.toContain('field-renamed');
  });

  it('ignores a damaged or hostile cache, and says so only when it cannot write one', async () => {
    const dir = project();
    const plain = await lint(dir, '--format', 'json');
    const at = join(dir, '.wepqlcache');
    for (const damaged of [
      'not json',
      '[]',
      'null',
      JSON.stringify({ layout: 1, key: 'another run', files: {} }),
      '{"layout":1,"key":"x","files":{"__proto__":{"hash":1}}}',
    ]) {
      writeFileSync(at, damaged);
      const r = await lint(dir, '--cache', '--format', 'json');
      expect(r.stdout).toBe(plain.stdout);
      expect(r.stderr).toBe(plain.stderr);
      expect(() => cacheOf(at)).not.toThrow();
    }
    // Entries of the right key but the wrong shape are read as misses, one by one: never trusted, never a crash.
    await lint(dir, '--cache', '--format', 'json');
    const good = readFileSync(at, 'utf8');
    const abs = join(dir, 'views/a.json');
    type Entry = { found: unknown[]; entries: Record<string, unknown>[] };
    const damage: ((file: Entry) => void)[] = [
      (f) => void (f.found = 'nope' as never),
      (f) => void (f.found[0] = [42]),
      (f) => void (f.found[0] = ['x']),
      (f) => void (f.found[0] = [{ code: 'no-such-code', severity: 'warning', message: 'PLANTED', start: 0, end: 1 }]),
      (f) => void (f.found[0] = [{ code: 'contradiction', severity: 'fatal', message: 'PLANTED', start: 0, end: 1 }]),
      (f) => void (f.found[0] = [{ code: 'contradiction', severity: 'warning', message: 'PLANTED', start: -1, end: 1 }]),
      (f) => void (f.found[0] = [{ code: 'contradiction', severity: 'warning', message: 'PLANTED', start: 0, end: 1, fix: [{}] }]),
      (f) => void (f.entries[0] = { ...f.entries[0], line: 'one' }),
      (f) => void (f.entries[0] = { ...f.entries[0], range: null }),
      (f) => void (f.entries[0] = { ...f.entries[0], encoding: 'rot13' }),
      (f) => void (f.entries[0] = { ...f.entries[0], disable: [1] }),
    ];
    for (const [i, hurt] of damage.entries()) {
      const cache = JSON.parse(good) as { files: Record<string, Entry> };
      hurt(cache.files[abs]!);
      (cache.files as Record<string, unknown>)['__proto__'] = { polluted: true };
      writeFileSync(at, JSON.stringify(cache));
      const r = await lint(dir, '--cache', '--format', 'json');
      expect(r.stdout, `damage ${i}`).toBe(plain.stdout);
      expect(r.stderr, `damage ${i}`).toBe(plain.stderr);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A cache that cannot be written: the findings and exit code stand, and standard error says why.
    const blocked = await lint(dir, '--cache', '--cache-location', 'views/d.wepql/cache', '--format', 'json');
    expect(blocked.code).toBe(plain.code);
    expect(blocked.stdout).toBe(plain.stdout);
    expect(blocked.stderr).toMatch(
      /^wepql lint: the cache was not written \(E[A-Z]+: .*views\/d\.wepql.*\); the next run lints every file$/m,
    );
  });

  it('--cache-location takes a file or a directory, is never read as saved filters, and needs --cache', async () => {
    const dir = project();
    mkdirSync(join(dir, 'cache-dir'));
    await lint(dir, '--cache', '--cache-location', 'cache-dir');
    expect(existsSync(join(dir, 'cache-dir', '.wepqlcache'))).toBe(true);
    await lint(dir, '--cache', '--cache-location', 'new-dir/deeper/');
    expect(existsSync(join(dir, 'new-dir', 'deeper', '.wepqlcache'))).toBe(true);
    // A file in a walked folder, with a saved-filter extension: excluded from the run like the schemas.
    const plain = await lint(dir, '--format', 'json', 'views');
    await lint(dir, '--cache', '--cache-location', 'views/cache.json', '--format', 'json', 'views');
    const again = await lint(dir, '--cache', '--cache-location', 'views/cache.json', '--format', 'json', 'views');
    expect(existsSync(join(dir, 'views/cache.json'))).toBe(true);
    expect(again.stdout).toBe(plain.stdout);
    const alone = await lint(dir, '--cache-location', 'x');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--cache-location needs --cache');
    const fromStdin = await runCliInProcess(['lint', '--cache', '--schema', '-', 'views'], { cwd: dir, input: JSON.stringify(V2) });
    expect(fromStdin.code).toBe(2);
    expect(fromStdin.stderr).toContain('--cache needs the schema, previous schema and policy as files');
  });

  it('with --fix, caches the files it leaves as they are and lints the rewritten ones again', async () => {
    const dir = project();
    const fixed = await lint(dir, '--cache', '--fix', '--format', 'json');
    expect(readFileSync(join(dir, 'views/a.json'), 'utf8')).toContain('LastName.StartsWith(Sm)');
    const files = cacheOf(join(dir, '.wepqlcache')).files;
    // a.json was rewritten: left out; d.wepql has no safe fix: cached.
    expect(files[join(dir, 'views/a.json')]).toBeUndefined();
    expect(files[join(dir, 'views/d.wepql')]).toBeDefined();
    const plain = await lint(dir, '--format', 'json');
    const cached = await lint(dir, '--cache', '--format', 'json');
    expect(cached.stdout).toBe(plain.stdout);
    expect(fixed.code).toBe(1);
  });

  it('the built binary, on two threads, caches what its workers linted', async () => {
    const dir = project(
      Object.fromEntries(
        Array.from({ length: 30 }, (_, i) => [
          `views/many/v${i}.json`,
          Array.from({ length: 10 }, (_, j) => ({ filter: `Gender.Equal(${i * 10 + j})` })),
        ]),
      ),
    );
    const env = { WEPQL_LINT_THREADS: '2', WEPQL_LINT_BATCH: '25', WEPQL_LINT_WORKERS_ONLY: '1', WEPQL_LINT_TRACE: '1' };
    // The report without the cache, from the test's process (one thread, the same report byte for byte).
    const plain = await lint(dir, '--format', 'json');
    const first = runCli(['lint', '--cache', '--format', 'json'], { cwd: dir, env });
    expect(first.stderr).toMatch(/on 1 workers/);
    expect(first.stdout).toBe(plain.stdout);
    const files = cacheOf(join(dir, '.wepqlcache')).files;
    expect(Object.keys(files)).toHaveLength(35);
    expect(files[join(dir, 'views/many/v29.json')]!.found).toHaveLength(10);
    const second = runCli(['lint', '--cache', '--format', 'json'], { cwd: dir, env });
    expect(second.stdout).toBe(plain.stdout);
    expect(second.code).toBe(plain.code);
  });
});
