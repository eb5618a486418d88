/**
 * The public surface is deliberate: the subpaths of package.json `exports`
 * are the ones docs/architecture.md ("The public surface") lists with a
 * reason each, every code entry is held to the floors like any module, and
 * no entry but `wepql/server` reaches a Node-only folder, so the rest load
 * in a browser.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations
import { exportEntries } from '../../../scripts/api-report.mjs';
// @ts-expect-error -- a CommonJS script without declarations
import { LAYERS, NODE_ONLY } from '../../../scripts/layers.cjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const entries = exportEntries() as { specifier: string; source?: string }[];
const codeEntries = entries.filter((e): e is { specifier: string; source: string } => e.source !== undefined);

/** The subpaths a user imports, as docs/architecture.md decides them. */
const SURFACE = [
  'wepql',
  'wepql/sql',
  'wepql/list',
  'wepql/sources',
  'wepql/sdk',
  'wepql/server',
  'wepql/express',
  'wepql/fastify',
  'wepql/hono',
  'wepql/kysely',
  'wepql/drizzle',
  'wepql/codemirror',
  'wepql/querybuilder',
  'wepql/grid',
  'wepql/grid/mui',
];
const FILES = [
  'wepql/schemas/employee.json',
  'wepql/schemas/wepql-schema.schema.json',
  'wepql/schemas/wepql-config.schema.json',
  'wepql/examples/employees.json',
  'wepql/package.json',
];
/** The entries that may reach Node built-ins: the reference server listens on a port. */
const NODE_ENTRIES = new Set(['wepql/server']);

/** The rows of the page's surface table: the subpath and the reason given for it. */
function documentedSurface(): Map<string, string> {
  const page = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const start = page.indexOf('\n## The public surface');
  expect(start, 'docs/architecture.md has a section "The public surface"').toBeGreaterThan(0);
  const section = page.slice(start + 1, page.indexOf('\n## ', start + 1));
  const rows = new Map<string, string>();
  for (const m of section.matchAll(/^\| `(wepql[^`]*)` \| ([^|]+) \|/gm)) rows.set(m[1]!, m[2]!.trim());
  return rows;
}

/** The src/ files a module imports (relative specifiers; `.js` names the `.ts` source). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.\.?\/[^']+)'/g)) {
    const target = resolve(dirname(file), m[1]!.replace(/\.js$/, '.ts'));
    if (existsSync(target)) out.push(target);
  }
  return out;
}

/** The folders of src/ a module reaches through its imports, type-only ones included. */
function foldersReached(entry: string): Set<string> {
  const seen = new Set<string>();
  const queue = [join(ROOT, entry)];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...importsOf(file));
  }
  return new Set(
    [...seen]
      .map((f) => relative(join(ROOT, 'src'), f).split('/'))
      .filter((parts) => parts.length > 1)
      .map((parts) => parts[0]!),
  );
}

describe('the public surface', () => {
  it('is the curated set of subpaths, code and files', () => {
    expect(codeEntries.map((e) => e.specifier)).toEqual(SURFACE);
    expect(entries.filter((e) => e.source === undefined).map((e) => e.specifier)).toEqual(FILES);
  });

  it('is the set docs/architecture.md gives a reason for', () => {
    const rows = documentedSurface();
    expect([...rows.keys()]).toEqual([...SURFACE, ...FILES]);
    for (const [subpath, reason] of rows) expect(reason.length, `the reason for ${subpath}`).toBeGreaterThan(20);
  });

  it('every code entry is the root or a file of a folder on a floor, so the layer rules hold it', () => {
    for (const { specifier, source } of codeEntries) {
      if (source === 'src/index.ts') continue;
      expect(LAYERS, `${specifier} (${source})`).toContain(source.split('/')[1]);
    }
  });

  it.each(codeEntries.filter((e) => !NODE_ENTRIES.has(e.specifier)).map((e) => [e.specifier, e.source] as const))(
    '%s reaches no Node-only folder',
    (_, source) => {
      const reached = foldersReached(source);
      expect(reached.size).toBeGreaterThan(0);
      expect([...reached].filter((folder) => (NODE_ONLY as string[]).includes(folder))).toEqual([]);
    },
  );

  it('the walk sees the Node-only folders the server reaches', () => {
    const server = codeEntries.find((e) => e.specifier === 'wepql/server')!;
    expect([...foldersReached(server.source)]).toEqual(expect.arrayContaining(['reference-server', 'frameworks', 'sources', 'list']));
  });
});
