/**
 * `loadSources`' `trust` hook (what `wepql lint --cache` answers from a
 * file's status): a trusted file is not read — its text is read only when
 * something asks for it — and a walked file the path rules leave out is
 * never offered to the hook.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Candidate } from '../../../src/workspace/discover.js';
import type { SavedEntry } from '../../../src/workspace/saved-filters.js';
import { loadSources } from '../../../src/workspace/sources.js';
import { tempDirs } from '../../support/temp-dirs.js';

const trustDir = tempDirs('wepql-sources-trust-');

const entry: SavedEntry = {
  kind: 'filter',
  text: 'Gender.Equal(1)',
  line: 1,
  column: 12,
  range: { start: 11, end: 28 },
  encoding: 'json-string',
};

describe('loadSources with trust', () => {
  it('takes a trusted file as the hook answers without reading it, and reads its text only when asked', async () => {
    const dir = trustDir();
    // A directory where the file would be: reading it fails, so the load shows nothing was read.
    mkdirSync(join(dir, 'views.json'));
    const candidate: Candidate = { path: 'views.json', abs: join(dir, 'views.json'), origin: 'named' };
    const asked: string[] = [];
    const loaded = await loadSources([candidate], {
      selectors: {},
      exclude: new Set(),
      trust: (c) => {
        asked.push(c.path);
        return { format: 'json', entries: [entry] };
      },
    });
    expect(asked).toEqual(['views.json']);
    expect(loaded.files).toHaveLength(1);
    const [file] = loaded.files;
    expect(file!.file.entries).toEqual([entry]);
    expect(file!.label).toBe('views.json');
    expect(() => file!.source.text).toThrow(/cannot read .*views\.json: is a directory/);
    expect(() => file!.file.content).toThrow(/is a directory/);
  });

  it('reads a file on first use of its text, once', async () => {
    const dir = trustDir();
    const abs = join(dir, 'v.json');
    writeFileSync(abs, '[{"filter":"Gender.Equal(1)"}]');
    const loaded = await loadSources([{ path: 'v.json', abs, origin: 'walk' }], {
      selectors: {},
      exclude: new Set(),
      trust: () => ({ format: 'json', entries: [entry] }),
    });
    const { source, file } = loaded.files[0]!;
    expect(source.text).toBe('[{"filter":"Gender.Equal(1)"}]');
    writeFileSync(abs, '[]');
    expect(file.content).toBe('[{"filter":"Gender.Equal(1)"}]');
    expect(source.encoding).toBe('utf8');
    expect(source.bom).toBe(false);
  });

  it('never offers a walked file the path rules leave out to the hook', async () => {
    const dir = trustDir();
    for (const name of ['package.json', 'tsconfig.base.json', 'x.schema.json', 'left-out.json'])
      writeFileSync(join(dir, name), '[{"filter":"Gender.Equal(1)"}]');
    const asked: string[] = [];
    const walked = ['package.json', 'tsconfig.base.json', 'x.schema.json', 'left-out.json'].map((name): Candidate => ({
      path: name,
      abs: join(dir, name),
      origin: 'walk',
    }));
    const loaded = await loadSources(walked, {
      selectors: {},
      exclude: new Set([join(dir, 'left-out.json')]),
      trust: (c) => {
        asked.push(c.path);
        return { format: 'json', entries: [entry] };
      },
    });
    expect(asked).toEqual([]);
    expect(loaded.files).toEqual([]);
  });
});
