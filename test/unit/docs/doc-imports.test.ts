/**
 * The guides' code imports what each entry really exports: every name in an
 * `import … from 'wepql…'` line of docs/ and the README is an export of that
 * entry (values by importing the entry's source, types by its API report).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations
import { exportEntries, reportName } from '../../../scripts/api-report.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const pages = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'README.md',
];
const entries = new Map<string, string | undefined>(
  (exportEntries() as { specifier: string; source?: string }[]).map((e) => [e.specifier, e.source]),
);

const imports = pages.flatMap((page) =>
  [...readFileSync(join(ROOT, page), 'utf8').matchAll(/^import (type )?\{([^}]*)\} from '(wepql[^']*)';/gm)].flatMap((m) =>
    m[2]!
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '')
      .map((n) => ({
        page,
        specifier: m[3]!,
        type: m[1] !== undefined || n.startsWith('type '),
        name: n
          .replace(/^type /, '')
          .split(' as ')[0]!
          .trim(),
      })),
  ),
);

describe('imports in the guides', () => {
  it('finds them', () => expect(imports.length).toBeGreaterThanOrEqual(15));

  it.each(imports.map((i) => [`${i.page}: ${i.name} from ${i.specifier}`, i] as const))('%s', async (_title, i) => {
    expect(entries.has(i.specifier), `${i.specifier} is not in package.json exports`).toBe(true);
    const source = entries.get(i.specifier)!;
    const report = readFileSync(join(ROOT, 'api', reportName(i.specifier)), 'utf8');
    expect(report.includes(`\n// ${i.name}\n`), `${i.name} is not exported by ${i.specifier}`).toBe(true);
    if (!i.type) {
      const module = (await import(pathToFileURL(join(ROOT, source)).href)) as Record<string, unknown>;
      expect(Object.hasOwn(module, i.name), `${i.name} is not a value export of ${i.specifier}`).toBe(true);
    }
  });
});
