/**
 * `wepql lint --cache`: a cached run reports byte for byte what an uncached
 * one does, takes an unchanged file's findings from the cache (a planted
 * finding shows it was not linted again) or its report part (a planted
 * frame shows it was replayed), lints a changed file again (its texts that
 * did not change keep their cached findings), trusts a file's
 * status only once it has settled, and sets the cache aside when the
 * schema, the selectors or the build's settings change. Cases run in the
 * test's process; one spawns the built binary on two threads, whose workers
 * hand their findings back for the cache.
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
  lastWrite.set(dir, Date.now());
  return dir;
}

/** When each project's files were last written (`settled` waits from then). */
const lastWrite = new Map<string, number>();

const lint = (cwd: string, ...args: string[]) => runCliInProcess(['lint', ...args], { cwd });

/** A file of the cache, read back: its first-line row, its details (entries and findings) and its report part's frames. */
interface CachedFileView {
  row: unknown[];
  details: [unknown[][], unknown[][][]];
  frames?: string;
}

/** The cache file (layout 2), read back region by region. */
function cacheOf(path: string): { layout: number; key: string; files: Map<string, CachedFileView> } {
  const bytes = readFileSync(path);
  const newline = bytes.indexOf(10);
  const head = JSON.parse(bytes.toString('utf8', 0, newline)) as { layout: number; key: string; files: Record<string, unknown[]> };
  const region = (at: number, length: number) => bytes.toString('utf8', newline + 1 + at, newline + 1 + at + length);
  const files = new Map<string, CachedFileView>();
  for (const [abs, row] of Object.entries(head.files)) {
    const replay = row[6] as unknown[] | null;
    files.set(abs, {
      row,
      details: JSON.parse(region(row[4] as number, row[5] as number)) as CachedFileView['details'],
      ...(replay === null ? {} : { frames: region(replay[1] as number, replay[2] as number) }),
    });
  }
  return { layout: head.layout, key: head.key, files };
}

/** Writes a cache read by `cacheOf` back, with its regions laid out again. */
function writeCache(path: string, cache: ReturnType<typeof cacheOf>): void {
  const regions: string[] = [];
  let offset = 0;
  const region = (text: string): [number, number] => {
    const at = offset;
    regions.push(text, '\n');
    offset += Buffer.byteLength(text) + 1;
    return [at, Buffer.byteLength(text)];
  };
  const rows: Record<string, unknown[]> = Object.create(null) as Record<string, unknown[]>;
  for (const [abs, file] of cache.files) {
    const row = [...file.row];
    [row[4], row[5]] = region(JSON.stringify(file.details));
    if (Array.isArray(row[6])) {
      const replay = [...(row[6] as unknown[])];
      [replay[1], replay[2]] = region(file.frames!);
      row[6] = replay;
    }
    rows[abs] = row;
  }
  writeFileSync(path, JSON.stringify({ layout: cache.layout, key: cache.key, files: rows }) + '\n' + regions.join(''));
}

/** Rewrites the cache so that `file`'s first entry holds one planted finding (and its report part is dropped): it shows whether that file was linted again. */
function plant(dir: string, file: string): void {
  const at = join(dir, '.wepqlcache');
  const cache = cacheOf(at);
  const entry = cache.files.get(join(dir, file))!;
  entry.details[1][0] = [['contradiction', 'warning', 'PLANTED', 0, 1, null, null]];
  entry.row[6] = null;
  delete entry.frames;
  writeCache(at, cache);
}

/** Waits until the project's files last changed long enough ago for their status to be trusted (`wepql lint --cache` waits 2 seconds): what is left of it after the runs since. */
async function settled(dir: string): Promise<string> {
  const left = lastWrite.get(dir)! + 2100 - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return dir;
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
    expect([...cacheOf(join(dir, '.wepqlcache')).files.keys()].sort()).toEqual(
      ['views/a.json', 'views/b.yaml', 'views/c.ndjson', 'views/d.wepql', 'views/quiet/e.json'].map((f) => join(dir, f)),
    );
  });

  it("takes an unchanged file's findings from the cache, lints a changed one again, and writes nothing when nothing changed", async () => {
    const dir = project();
    // The content strategy hashes every file and learns no status: whether this run comes 2 seconds after the files changed or not, it learns nothing.
    await lint(dir, '--cache', '--cache-strategy', 'content', '--format', 'json');
    plant(dir, 'views/a.json');
    plant(dir, 'views/d.wepql');
    const before = statSync(join(dir, '.wepqlcache')).mtimeMs;
    const cached = await lint(dir, '--cache', '--cache-strategy', 'content', '--format', 'json');
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
    expect(JSON.stringify(cacheOf(join(dir, '.wepqlcache')).files.get(join(dir, 'views/d.wepql'))!.details)).not.toContain('PLANTED');
  });

  it("keeps the cached findings of a changed file's texts that did not change: only its edited text is linted again", async () => {
    const dir = project();
    await lint(dir, '--cache', '--cache-strategy', 'content', '--format', 'json');
    plant(dir, 'views/a.json');
    // The first filter's text stays; the second is mended.
    const views = JSON.parse(readFileSync(join(dir, 'views/a.json'), 'utf8')) as { filter: string }[];
    views[1]!.filter = 'Gender.Equal(2)';
    writeFileSync(join(dir, 'views/a.json'), JSON.stringify(views, null, 4));
    const r = await lint(dir, '--cache', '--cache-strategy', 'content', '--format', 'json');
    const found = (JSON.parse(r.stdout) as { file: string; line: number; code: string; message: string }[]).filter(
      (f) => f.file === 'views/a.json',
    );
    // The planted finding comes from the cache: that text was not linted again.
    expect(found.map((f) => f.message)).toContain('PLANTED');
    // The mended text was: its syntax error is gone, and the file's lines are where the new layout puts them.
    expect(found.map((f) => f.code)).not.toContain('missing-close-paren');
    expect(found.find((f) => f.message === 'PLANTED')!.line).toBe(4);
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
      '{"layout":2,"key":"x","files":{"__proto__":["h",null,"p","json",0,2,null]}}\n[]\n',
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
    const abs = join(dir, 'views/a.json');
    const finding = (...fields: unknown[]) => [
      ['contradiction', 'warning', 'PLANTED', 0, 1, null, null].map((f, i) => (i < fields.length ? fields[i] : f)),
    ];
    const damage: ((file: CachedFileView) => void)[] = [
      (f) => void (f.details[1] = 'nope' as never),
      (f) => void (f.details[1][0] = [42 as never]),
      (f) => void (f.details[1][0] = ['x' as never]),
      (f) => void (f.details[1][0] = finding('no-such-code')),
      (f) => void (f.details[1][0] = finding('contradiction', 'fatal')),
      (f) => void (f.details[1][0] = finding('contradiction', 'warning', 'PLANTED', -1)),
      (f) => void (f.details[1][0] = finding('contradiction', 'warning', 'PLANTED', 0, 1, null, [[0, 1]])),
      (f) => void (f.details[1][0] = [['contradiction', 'warning', 'PLANTED', 0, 1, null]]),
      (f) => void (f.details[0][0]![2] = 'one'),
      (f) => void (f.details[0][0]![4] = null),
      (f) => void (f.details[0][0]![6] = 'rot13'),
      (f) => void (f.details[0][0]![8] = [1]),
      (f) => void (f.details[0][0] = ['query', ...f.details[0][0]!.slice(1)]),
    ];
    for (const [i, hurt] of damage.entries()) {
      const cache = cacheOf(at);
      hurt(cache.files.get(abs)!);
      cache.files.set('__proto__', cache.files.get(abs)!);
      writeCache(at, cache);
      const r = await lint(dir, '--cache', '--format', 'json');
      expect(r.stdout, `damage ${i}`).toBe(plain.stdout);
      expect(r.stderr, `damage ${i}`).toBe(plain.stderr);
      await lint(dir, '--cache', '--format', 'json');
    }
    // The first line's rows, and the regions they point at: a row that does not fit is a miss, in the pretty format too.
    const pretty = await lint(dir);
    await settled(dir);
    await lint(dir, '--cache');
    await lint(dir, '--cache');
    const good = readFileSync(at);
    const newline = good.indexOf(10);
    const head = JSON.parse(good.toString('utf8', 0, newline)) as { files: Record<string, unknown[]> };
    expect(head.files[abs]![1]).toEqual(expect.any(String));
    expect(head.files[abs]![6]).toEqual(expect.any(Array));
    const rowDamage: ((row: unknown[]) => void)[] = [
      (row) => void (row[4] = 1e9),
      (row) => void (row[5] = (row[5] as number) - 1),
      (row) => void (row[5] = -1),
      (row) => void (row[1] = 7),
      (row) => void (row[3] = 'xml'),
      (row) => void (row.length = 6),
      (row) => void ((row[6] as unknown[])[2] = ((row[6] as unknown[])[2] as number) + 1),
      (row) => void ((row[6] as unknown[])[3] = -2),
      (row) => void ((row[6] as unknown[])[0] = null),
      (row) => void (row[6] = 'frames'),
    ];
    for (const [i, hurt] of rowDamage.entries()) {
      const damaged = structuredClone(head);
      hurt(damaged.files[abs]!);
      writeFileSync(at, Buffer.concat([Buffer.from(JSON.stringify(damaged)), good.subarray(newline)]));
      const r = await lint(dir, '--cache');
      expect(r.stdout, `row damage ${i}`).toBe(pretty.stdout);
      expect(r.stderr, `row damage ${i}`).toBe(pretty.stderr);
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

  it("trusts a settled file's status without reading it, replays its report part under the same rules and view, and hashes a file changed since", async () => {
    const dir = project();
    const at = join(dir, '.wepqlcache');
    const plain = await lint(dir);
    // Just written: too recent to trust by status; the cache is written without one, and hashes next time
    // (checked when the run took under 2 seconds from the write: on a machine slower than that, the file had settled).
    const written = Date.now();
    writeFileSync(join(dir, 'views/a.json'), readFileSync(join(dir, 'views/a.json')));
    lastWrite.set(dir, written);
    await lint(dir, '--cache');
    if (Date.now() - written < 1900) expect(cacheOf(at).files.get(join(dir, 'views/a.json'))!.row[1]).toBeNull();
    await settled(dir);
    const learning = await lint(dir, '--cache');
    expect(learning.stdout).toBe(plain.stdout);
    const learned = cacheOf(at);
    expect(learned.files.get(join(dir, 'views/a.json'))!.row[1]).toMatch(/^\d+:\d+:\d+:\d+:\d+$/);
    // Each file's report part is its frames as the report writes them.
    const parts = [...learned.files.values()].map((f) => f.frames ?? '').filter((f) => f !== '');
    expect(plain.stdout.startsWith(parts.join('\n\n'))).toBe(true);
    // A planted frame is reported as it stands: the file's part was replayed, nothing of it read or linted.
    const replayed = cacheOf(at);
    const a = replayed.files.get(join(dir, 'views/a.json'))!;
    a.frames = a.frames!.replace('Surname', 'PLANTED');
    writeCache(at, replayed);
    const before = statSync(at).mtimeMs;
    const fromParts = await lint(dir, '--cache');
    expect(fromParts.stdout).toBe(plain.stdout.replace('Surname', 'PLANTED'));
    expect(fromParts.code).toBe(plain.code);
    expect(statSync(at).mtimeMs).toBe(before);
    // Another view (--quiet) is not replayed: the entries are read back, the findings worked out, the part written anew.
    const quiet = await lint(dir, '-q');
    expect((await lint(dir, '--cache', '-q')).stdout).toBe(quiet.stdout);
    expect((await lint(dir, '--cache', '-q')).stdout).toBe(quiet.stdout);
    // A rule's change is another view for the files it reaches.
    const config = JSON.parse(readFileSync(join(dir, 'wepql.config.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(
      join(dir, 'wepql.config.json'),
      JSON.stringify({ ...config, rules: { 'implicit-direction': 'off', 'field-renamed': 'error' } }),
    );
    const ruled = await lint(dir);
    expect(ruled.stdout).toContain('error field-renamed');
    expect((await lint(dir, '--cache')).stdout).toBe(ruled.stdout);
    expect((await lint(dir, '--cache')).stdout).toBe(ruled.stdout);
    // A file changed since, to the same size: its status differs (its change time at least), so it is read and linted again.
    const d = join(dir, 'views/d.wepql');
    writeFileSync(d, readFileSync(d, 'utf8').replace('LessThan(3)', 'LessThan(4)'));
    const changed = await lint(dir, '--cache');
    expect(changed.stdout).toBe((await lint(dir)).stdout);
    expect(changed.stdout).toContain('LessThan(4)');
    // The content strategy reads every file, trusting no status: a planted finding in a hashed file shows the text was read.
    plant(dir, 'views/c.ndjson');
    expect((await lint(dir, '--cache', '--cache-strategy', 'content')).stdout).toContain('PLANTED');
  });

  it('writes a cache of more pieces than one gathered write takes, every region where its row says', async () => {
    // 600 files, each a details region and a frames region with their newlines: 2,400 pieces, three writes of at most 1,024.
    const many = Object.fromEntries(
      Array.from({ length: 600 }, (_, i) => [`views/many/f${String(i).padStart(3, '0')}.wepql`, `Gender.Equal(${i});Gender.Equal(${i})\n`]),
    );
    const dir = project(many);
    const plain = await lint(dir);
    expect((await lint(dir, '--cache')).stdout).toBe(plain.stdout);
    const cache = cacheOf(join(dir, '.wepqlcache'));
    expect(cache.files.size).toBe(605);
    for (let i = 0; i < 600; i++) {
      const file = cache.files.get(join(dir, `views/many/f${String(i).padStart(3, '0')}.wepql`))!;
      expect(file.details[0][0]![1]).toBe(`Gender.Equal(${i});Gender.Equal(${i})`);
      expect(file.frames).toContain(`f${String(i).padStart(3, '0')}.wepql:1:`);
    }
  });

  it('--cache-strategy takes metadata or content, and needs --cache', async () => {
    const dir = project();
    const bad = await lint(dir, '--cache', '--cache-strategy', 'mtime');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--cache-strategy must be metadata or content, got "mtime"');
    const alone = await lint(dir, '--cache-strategy', 'content');
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--cache-strategy needs --cache');
  });

  it('with --fix, caches the files it leaves as they are and lints the rewritten ones again', async () => {
    const dir = project();
    const fixed = await lint(dir, '--cache', '--fix', '--format', 'json');
    expect(readFileSync(join(dir, 'views/a.json'), 'utf8')).toContain('LastName.StartsWith(Sm)');
    const files = cacheOf(join(dir, '.wepqlcache')).files;
    // a.json was rewritten: left out; d.wepql has no safe fix: cached.
    expect(files.get(join(dir, 'views/a.json'))).toBeUndefined();
    expect(files.get(join(dir, 'views/d.wepql'))).toBeDefined();
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
    expect(files.size).toBe(35);
    expect(files.get(join(dir, 'views/many/v29.json'))!.details[1]).toHaveLength(10);
    const second = runCli(['lint', '--cache', '--format', 'json'], { cwd: dir, env });
    expect(second.stdout).toBe(plain.stdout);
    expect(second.code).toBe(plain.code);
    // Replayed report parts and linted items, spread over the threads, are reported in the files' order:
    // once settled, every file's part is kept; then one file in the middle changes and is linted again among the replayed.
    const pretty = await lint(dir);
    await settled(dir);
    expect(runCli(['lint', '--cache'], { cwd: dir, env }).stdout).toBe(pretty.stdout);
    writeFileSync(
      join(dir, 'views/many/v15.json'),
      JSON.stringify([{ filter: 'Gender.Equal(1);Gender.Equal(2)' }, { filter: 'Surname.Equal(x)' }]),
    );
    const mixed = runCli(['lint', '--cache'], { cwd: dir, env });
    expect(mixed.stdout).toBe((await lint(dir)).stdout);
    expect(mixed.stdout).toContain('views/many/v15.json:1:');
  });
});
