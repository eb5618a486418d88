/**
 * The order the suite starts its files in (test/support/sequencer.ts) and
 * the committed durations behind it (test/durations.json): longest first,
 * each project's files together, an unknown file first; the list names no
 * file that is gone, and `npm run test:durations` merges a run's figures
 * into it.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { orderLongestFirst, readDurationsList } from '../../support/sequencer.js';
import { tempDirs } from '../../support/temp-dirs.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const tempDir = tempDirs('wepql-durations-');

describe('orderLongestFirst', () => {
  it('starts the longest file first and the shortest last', () => {
    const files = [
      { project: 'p', path: 'b', seconds: 1 },
      { project: 'p', path: 'a', seconds: 30 },
      { project: 'p', path: 'c', seconds: 4 },
    ];
    expect(orderLongestFirst(files).map((f) => f.path)).toEqual(['a', 'c', 'b']);
  });

  it('takes a file of unknown duration for the longest', () => {
    const files = [
      { project: 'p', path: 'known', seconds: 40 },
      { project: 'p', path: 'new', seconds: undefined },
    ];
    expect(orderLongestFirst(files).map((f) => f.path)).toEqual(['new', 'known']);
  });

  it("keeps each project's files together, the project with the longest file first", () => {
    const files = [
      { project: 'shared', path: 's1', seconds: 5 },
      { project: 'isolated', path: 'i1', seconds: 20 },
      { project: 'shared', path: 's2', seconds: 29 },
      { project: 'isolated', path: 'i2', seconds: 43 },
      { project: 'shared', path: 's3', seconds: 0.1 },
    ];
    expect(orderLongestFirst(files).map((f) => f.path)).toEqual(['i2', 'i1', 's2', 's1', 's3']);
  });

  it('ranks the projects by known durations: a new file goes first in its project, not its project first', () => {
    const files = [
      { project: 'shared', path: 'new', seconds: undefined },
      { project: 'shared', path: 's1', seconds: 29 },
      { project: 'isolated', path: 'i1', seconds: 43 },
    ];
    expect(orderLongestFirst(files).map((f) => f.path)).toEqual(['i1', 'new', 's1']);
  });

  it('breaks ties by path, so two runs of the same files start them in the same order', () => {
    const files = ['z', 'm', 'a'].map((path) => ({ project: 'p', path, seconds: 2 }));
    expect(orderLongestFirst(files).map((f) => f.path)).toEqual(['a', 'm', 'z']);
  });
});

describe('test/durations.json', () => {
  const list = readDurationsList(new URL('../../durations.json', import.meta.url));

  it('holds a duration for most test files and for no file that is gone (npm run test:durations drops those)', () => {
    const paths = Object.keys(list.files);
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
    expect(paths.filter((path) => !path.endsWith('.test.ts'))).toEqual([]);
  });

  it('reads as empty when missing or malformed, so the sequencer then takes every file for unknown', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.json'), '{ not json');
    writeFileSync(join(dir, 'odd.json'), '{"files": {"a.test.ts": "slow", "b.test.ts": 3}}');
    const url = (name: string): URL => new URL(`file://${join(dir, name)}`);
    expect(readDurationsList(url('missing.json')).files).toEqual({});
    expect(readDurationsList(url('bad.json')).files).toEqual({});
    expect(readDurationsList(url('odd.json')).files).toEqual({ 'b.test.ts': 3 });
  });
});

describe('npm run test:durations', () => {
  it("merges a run's durations into the list, keeps the others and drops files that are gone", () => {
    const root = tempDir();
    mkdirSync(join(root, 'test'), { recursive: true });
    for (const name of ['kept', 'ran', 'new']) writeFileSync(join(root, 'test', `${name}.test.ts`), '');
    const out = join(root, 'test', 'durations.json');
    writeFileSync(out, JSON.stringify({ files: { 'test/kept.test.ts': 7, 'test/ran.test.ts': 1, 'test/gone.test.ts': 9 } }));
    const report = join(root, 'report.json');
    writeFileSync(report, JSON.stringify({ files: { 'test/ran.test.ts': 12.5, 'test/new.test.ts': 0.3 } }));
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'test-durations.mjs'), '--root', root, '--report', report, '--out', out]);
    const written = JSON.parse(readFileSync(out, 'utf8')) as { files: Record<string, number> };
    expect(written.files).toEqual({ 'test/kept.test.ts': 7, 'test/new.test.ts': 0.3, 'test/ran.test.ts': 12.5 });
    expect(Object.keys(written.files)).toEqual(['test/kept.test.ts', 'test/new.test.ts', 'test/ran.test.ts']);
  });
});
