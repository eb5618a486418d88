/**
 * docs/reference.md is the definition users read; the guides and the
 * README link to its sections rather than cite documents that are not in
 * the package ("SPEC §N", "the seed"), and every link to a section of the
 * reference lands on a heading that exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ESM script without declarations
import { slugify } from '../../../scripts/build-docs.mjs';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const pages = [
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
  'README.md',
];
const text = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/** Citations of documents users do not have: the project's SPEC, its sections, the seed interface document. */
export function citations(markdown: string): string[] {
  const found: string[] = [];
  for (const m of markdown.matchAll(/\bSPEC\b|(?<!RFC \d+ )§\s*\d+|(?<![\w-])seed(?![\w-])/gi)) found.push(m[0]);
  return found;
}

function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6}\s+(.+)$/gm)) {
    let slug = slugify(m[1]!) as string;
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    if (n > 0) slug = `${slug}-${n}`;
    out.add(slug);
  }
  return out;
}

describe('the guides cite the reference, not documents outside the package', () => {
  it.each(pages)('%s', (page) => {
    expect(citations(text(page))).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['as SPEC §5 says', ['SPEC', '§5']],
    ["the seed's error bodies", ['seed']],
    ['Seed data', ['Seed']],
    ['wepql db-seed and seedEmployeeTable', []],
    ['the absolute form (RFC 9112 §3.2.2)', []],
  ])('finds the citations in %j', (sample, expected) => {
    expect(citations(sample)).toEqual(expected);
  });
});

describe('links to sections of the reference land on headings', () => {
  const links = pages
    .flatMap((page) =>
      [...text(page).matchAll(/\]\((?:\.\/)?(?:docs\/)?([a-z-]+\.md)?#([^)\s]+)\)/g)].map((m) => ({
        page,
        target: m[1] === undefined ? page : `docs/${m[1]}`,
        anchor: m[2]!,
      })),
    )
    .filter((l) => l.target === 'docs/reference.md');

  it('the guides link to the reference', () => {
    expect(links.filter((l) => l.target === 'docs/reference.md').length).toBeGreaterThanOrEqual(20);
  });

  it.each(links.map((l) => [`${l.page} → ${l.target}#${l.anchor}`, l] as const))('%s', (_title, link) => {
    expect([...anchors(text(link.target))]).toContain(link.anchor);
  });
});
