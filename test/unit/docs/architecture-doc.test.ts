/**
 * docs/architecture.md is the tree: its floor table is `FLOORS` of
 * scripts/layers.cjs and each folder sits on the lowest floor its imports
 * allow, its Node-only folders are `NODE_ONLY`, every "Where to add" recipe
 * names a test that exists, and the recipes' own lists (the operator's
 * compile errors, the commands, the data sources) are the tree's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations
import { exportEntries } from '../../../scripts/api-report.mjs';
// @ts-expect-error -- a CommonJS script without declarations
import { FLOORS, NODE_ONLY } from '../../../scripts/layers.cjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SRC = join(ROOT, 'src');
const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const floors = FLOORS as string[][];

/** The text of the `## heading` section of the page, up to the next `## `. */
function section(heading: string): string {
  const start = page.indexOf(`\n## ${heading}\n`);
  expect(start, `docs/architecture.md has a section "${heading}"`).toBeGreaterThan(0);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start + 1, end < 0 ? undefined : end);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? filesUnder(join(dir, d.name)) : /\.ts$/.test(d.name) ? [join(dir, d.name)] : [],
  );
}

/** The other folders of src/ that a folder's modules import (type-only imports too, as dependency-cruiser counts them). */
function folderImports(folder: string): Set<string> {
  const out = new Set<string>();
  for (const file of filesUnder(join(SRC, folder))) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.\.?\/[^']+)'/g)) {
      const target = relative(SRC, resolve(dirname(file), m[1]!)).split('/');
      if (target.length > 1 && target[0] !== folder && target[0] !== '..') out.add(target[0]!);
    }
  }
  return out;
}

describe('docs/architecture.md, "Floors"', () => {
  it('lists the floors of scripts/layers.cjs, folder by folder', () => {
    const documented: string[][] = [];
    for (const m of section('Floors').matchAll(/^\| (\d+) \| `([^`]+)\/` \|/gm)) (documented[Number(m[1]) - 1] ??= []).push(m[2]!);
    expect(documented).toEqual(floors);
  });

  it('every folder of src/ is on a floor', () => {
    const folders = readdirSync(SRC, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
      .sort();
    expect(folders).toEqual(floors.flat().sort());
  });

  it('each folder sits on the lowest floor its imports allow', () => {
    const floorOf = new Map(floors.flatMap((names, i) => names.map((name) => [name, i + 1] as const)));
    const misplaced = [...floorOf].flatMap(([folder, floor]) => {
      const imported = [...folderImports(folder)];
      const lowest = 1 + Math.max(0, ...imported.map((other) => floorOf.get(other) ?? Infinity));
      return lowest === floor ? [] : [`${folder}/ is on floor ${floor}, its imports (${imported.join(', ')}) put it on ${lowest}`];
    });
    expect(misplaced).toEqual([]);
  });
});

describe('docs/architecture.md, "Node-only folders"', () => {
  it('names the folders of NODE_ONLY, and the table marks the same ones', () => {
    const sentence = section('Node-only folders').split('\n\n')[1]!.split(';')[0]!;
    const named = [...sentence.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]!);
    expect(named.sort()).toEqual([...(NODE_ONLY as string[])].sort());
    const marked = [...section('Floors').matchAll(/^\| \d+ \| `([^`]+)\/` \|.*\(Node-only\) \|$/gm)].map((m) => m[1]!);
    expect(marked.sort()).toEqual([...(NODE_ONLY as string[])].sort());
  });
});

describe('docs/architecture.md, "Where to add"', () => {
  const recipes = [...page.matchAll(/^## (Where to add [^\n]+)$/gm)].map((m) => m[1]!);

  it('finds the recipes', () => expect(recipes.length).toBeGreaterThanOrEqual(6));

  it.each(recipes)('"%s" names the tests that prove it, and they exist', (heading) => {
    const paths = [...section(heading).matchAll(/`(test\/[^`]+)`/g)].map((m) => m[1]!);
    expect(paths.length, `${heading} names a test`).toBeGreaterThan(0);
    for (const path of paths) expect(existsSync(join(ROOT, path)), path).toBe(true);
  });

  it('an operator: step 2 lists the files new-operator-compile.test.ts expects the compiler to name', () => {
    const step2 = /^2\. [\s\S]*?(?=^3\. )/m.exec(section('Where to add an operator'))![0];
    const listed = [...step2.matchAll(/`(src\/[^`]+\.ts)`/g)].map((m) => m[1]!).sort();
    const test = readFileSync(join(ROOT, 'test/unit/ast/new-operator-compile.test.ts'), 'utf8');
    const expected = /expect\(compileErrors\(\)\)\.toEqual\(\[([\s\S]*?)\]\)/.exec(test)![1]!;
    expect(listed).toEqual([...expected.matchAll(/'(src\/[^']+)'/g)].map((m) => m[1]!).sort());
  });

  it('a CLI command: each command of the table has its module, a page that names it and a test that runs it', () => {
    const main = readFileSync(join(SRC, 'cli/main.ts'), 'utf8');
    const table = /const COMMANDS[^=]*= \{([\s\S]*?)\n\};/.exec(main)![1]!;
    const commands = [...table.matchAll(/^ {2}'?([a-z-]+)'?: \{[\s\S]*?import\('(\.\/commands\/[^']+)\.js'\)/gm)];
    expect(commands.map((m) => m[1])).toEqual(expect.arrayContaining(['parse', 'lint', 'query', 'lsp', 'db-seed']));
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ]
      .map((f) => readFileSync(join(ROOT, f), 'utf8'))
      .join('\n');
    const tests = filesUnder(join(ROOT, 'test'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    for (const [, name, module] of commands) {
      expect(existsSync(join(SRC, 'cli', `${module!}.ts`)), `src/cli/${module!}.ts`).toBe(true);
      expect(pages, `a page names \`wepql ${name!}\``).toContain(`wepql ${name!}`);
      expect(tests, `a test runs \`wepql ${name!}\``).toMatch(new RegExp(`(\\[|CLI, )\\s*'${name!}'`));
    }
  });

  it('a data source: each create…DataSource of src/ is sold by wepql/sources, in docs/server.md and walked by test/engines', () => {
    // createSqlDataSource is the engine-neutral body that each SQL engine's source wraps, not a source of its own.
    const factories = filesUnder(SRC)
      .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/^export (?:async )?function (create\w+DataSource)\(/gm)].map((m) => m[1]!))
      .filter((name) => name !== 'createSqlDataSource');
    expect(factories.length).toBeGreaterThanOrEqual(3);
    const entry = (exportEntries() as { specifier: string; source?: string }[]).find((e) => e.specifier === 'wepql/sources')!;
    const sold = readFileSync(join(ROOT, entry.source!), 'utf8');
    const server = readFileSync(join(ROOT, 'docs/server.md'), 'utf8');
    const walks = readFileSync(join(ROOT, 'test/engines/walks.test.ts'), 'utf8');
    for (const factory of factories) {
      expect(sold, `wepql/sources exports ${factory}`).toMatch(new RegExp(`\\b${factory}\\b`));
      expect(server, `docs/server.md names ${factory}`).toContain(factory);
      expect(walks, `test/engines/walks.test.ts walks ${factory}`).toContain(factory);
    }
  });
});
