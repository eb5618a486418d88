/**
 * Source comments cite docs/reference.md (or another guide in docs/), never
 * documents a maintainer does not have: the project's SPEC and its numbered
 * sections, or the seed interface document.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Citations of outside documents: `SPEC §N`, `SPEC:`, a bare `§N` (an RFC's sections excepted), or the word "seed" (not `db-seed`, `seedEmployeeTable`, `seeded`). */
export function outsideCitations(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\bSPEC(?:\s*§|:|'s\b)|(?<!RFC \d+ )§\s*\d+|(?<![\w-])[Ss]eed(?![\w-])/g)) found.push(m[0]);
  return found;
}

describe('src/ cites the reference, not documents outside the repository', () => {
  const files = sourceFiles(join(ROOT, 'src')).map((path) => relative(ROOT, path));

  it('finds source files to check', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it.each(files)('%s', (file) => {
    expect(outsideCitations(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['(SPEC §5: values are untyped)', ['SPEC §']],
    ['as §10 says', ['§10']],
    ['(SPEC: names resolve)', ['SPEC:']],
    ["the seed's envelopes", ['seed']],
    ['Seed "Versioning"', ['Seed']],
    ['docs/reference.md §"Limits"', []],
    ['base64url (RFC 4648 §5, no padding)', []],
    ['const SPEC = specOf(definition); parseArgs(argv, SPEC)', []],
    ['wepql db-seed and seedEmployeeTable over the seeded table', []],
  ])('finds the citations in %j', (sample, expected) => {
    expect(outsideCitations(sample)).toEqual(expected);
  });
});
