/**
 * Source comments cite docs/reference.md (or another guide in docs/), never
 * documents a maintainer does not have: the project's SPEC and its numbered
 * sections, or the seed interface document. `src/` is held to the strict
 * pattern (no "seed" at all: nothing there draws random numbers); the rest
 * of the tree (tests, benchmarks, examples, scripts, the grammar corpus,
 * editor packages) uses seeds for random generators, so there only the
 * phrases that name the document count. Every `docs/reference.md §"…"`
 * citation anywhere must name a heading of the reference.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

// Folders that are generated, installed or not ours.
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'out', 'coverage', 'site']);
const TEXT_FILE = /\.(?:ts|tsx|mts|cts|js|mjs|cjs|json|md|txt|ebnf|sh)$/;

function sourceFiles(dir: string, pattern = /\.ts$/): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) || entry.name.startsWith('.') ? [] : sourceFiles(path, pattern);
    return pattern.test(entry.name) ? [path] : [];
  });
}

/** Citations of outside documents: `SPEC §N`, `SPEC:`, a bare `§N` (an RFC's sections excepted), or the word "seed" (not `db-seed`, `seedEmployeeTable`, `seeded`). */
export function outsideCitations(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/\bSPEC(?:\s*§|:|'s\b)|(?<!RFC \d+ )§\s*\d+|(?<![\w-])[Ss]eed(?![\w-])/g)) found.push(m[0]);
  return found;
}

/** Outside citations in files where "seed" may also be a random generator's: SPEC and § as above, and only the phrases that name the interface document. */
export function documentCitations(text: string): string[] {
  const found: string[] = [];
  const pattern =
    /\bSPEC(?:\s*§|:|'s\b)|(?<!RFC \d+ )§\s*\d+|\b[Tt]he seed\b(?!\s+(?:of|for)\b)|\b[Ss]eed's\b|\b[Ss]eed(?:-style| examples?\b| fields?\b| order\b| document\b)|"seed:/g;
  for (const m of text.matchAll(pattern)) found.push(m[0]);
  return found;
}

const REFERENCE_SECTIONS = new Set(
  [...readFileSync(join(ROOT, 'docs/reference.md'), 'utf8').matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => m[1]!.trim()),
);

/** The sections that `docs/reference.md §"…"` citations in `text` name but the reference has no heading for. */
export function missingSections(text: string): string[] {
  const missing: string[] = [];
  // A citation may name several sections: `docs/reference.md §"A", §"B" and §"C"`.
  for (const m of text.matchAll(/docs\/reference\.md((?:(?:,\s*|\s+and\s+|\s*)§\\?"[^"\\]+\\?")+)/g)) {
    for (const s of m[1]!.matchAll(/§\\?"([^"\\]+)\\?"/g)) {
      // A comment may wrap a heading over lines: `§"Filter\n * semantics"`.
      const heading = s[1]!.replace(/\s*\n\s*(?:\*(?!\/)|\/\/|#)?\s*/g, ' ');
      if (!REFERENCE_SECTIONS.has(heading)) missing.push(heading);
    }
  }
  return missing;
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

// The files that define the patterns quote what they look for.
const CHECKERS = new Set(['test/unit/docs/no-outside-citations.test.ts', 'test/unit/docs/reference-links.test.ts']);
const OTHER_DIRS = ['test', 'bench', 'examples', 'scripts', 'grammar', 'editors'];

describe('tests, benchmarks, examples, scripts, the grammar corpus and editor packages cite the reference, not documents outside the repository', () => {
  const files = OTHER_DIRS.flatMap((dir) => sourceFiles(join(ROOT, dir), TEXT_FILE))
    .map((path) => relative(ROOT, path))
    .filter((file) => !CHECKERS.has(file));

  it('finds files in each folder', () => {
    for (const dir of OTHER_DIRS)
      expect(
        files.some((f) => f.startsWith(`${dir}/`)),
        dir,
      ).toBe(true);
  });

  it.each(files)('%s', (file) => {
    expect(documentCitations(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['(SPEC §6–7) on 100,000 employees', ['SPEC §']],
    ['the seed\'s "Employee record" table', ['the seed']],
    ['(the seed does not give meanings)', ['the seed']],
    ['"name": "seed: AND nested inside OR"', ['"seed:']],
    ['// seed examples', ['seed examples']],
    ['seed-style three independent errors', ['seed-style']],
    ['fc.sample(arb, { numRuns: 30, seed: SEED })', []],
    ['let seed = 7; const rand = () => (seed = (seed * 48271) % 2147483647)', []],
    ['/** The fast-check seed of every engines suite. */', []],
    ['the seed of the committed sample', []],
    ['wepql db-seed --rows 20000; seeded 20,000 rows', []],
  ])('finds the citations in %j', (sample, expected) => {
    expect(documentCitations(sample)).toEqual(expected);
  });
});

describe('every docs/reference.md §"…" citation names a heading of the reference', () => {
  const files = ['src', 'docs', ...OTHER_DIRS]
    .flatMap((dir) => sourceFiles(join(ROOT, dir), TEXT_FILE))
    .concat(join(ROOT, 'README.md'))
    .map((path) => relative(ROOT, path))
    .filter((file) => !CHECKERS.has(file));

  it.each(files)('%s', (file) => {
    expect(missingSections(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });

  it.each<[string, string[]]>([
    ['docs/reference.md §"Limits"', []],
    ['docs/reference.md §"Filter semantics" and §"Sort semantics"', []],
    ['(docs/reference.md §\\"Lexical rules\\", §\\"Diagnostics\\")', []],
    ['docs/reference.md §"Filter semantix"', ['Filter semantix']],
    ['docs/reference.md §"Limits", §"Paging"', ['Paging']],
    ['// docs/reference.md §"Filter\n * semantics"', []],
  ])('checks the sections in %j', (sample, expected) => {
    expect(missingSections(sample)).toEqual(expected);
  });
});
