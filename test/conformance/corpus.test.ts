/**
 * Walks grammar/corpus/*.json (the language-neutral conformance cases, see
 * grammar/README.md): diagnostic codes must match exactly and in order, the
 * simplified tree must match, and `canonical` is what the printer writes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as wepql from '../../src/index.js';
import { parseFilter, parseSort } from '../../src/index.js';
import { simplifyFilter, simplifySort } from './simplify.js';

interface CorpusCase {
  readonly name: string;
  readonly kind: 'filter' | 'sort';
  readonly input: string;
  readonly canonical?: string;
  readonly diagnostics?: readonly string[];
  readonly ast?: unknown;
}

// Quoting is how a value is written, not what it is: the canonical form may drop quotes.
function withoutQuoting(tree: unknown): unknown {
  return JSON.parse(JSON.stringify(tree), (_key, value: unknown) =>
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    Object.hasOwn(value, 'quoted')
      ? (value as { quoted: string }).quoted
      : value,
  );
}

const dir = new URL('../../grammar/corpus/', import.meta.url);
// The syntax corpora; semantics.json and list-http.json have runners of their own (semantics.test.ts, http-*.test.ts).
const OTHER_CORPORA = ['semantics.json', 'list-http.json'];
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && !OTHER_CORPORA.includes(f))
  .sort();

// formatFilter/formatSort belong to the printer (src/print/format.ts); until
// they are exported the canonical checks are skipped, never faked.
const formatters = wepql as unknown as Record<string, unknown>;
const formatFilter = formatters['formatFilter'] as ((input: string) => string) | undefined;
const formatSort = formatters['formatSort'] as ((input: string) => string) | undefined;

it('finds the corpus files', () => {
  expect(files).toEqual(expect.arrayContaining(['filter-invalid.json', 'filter-valid.json', 'sort.json']));
});

for (const file of files) {
  const { cases } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { cases: CorpusCase[] };
  describe(file, () => {
    it('has unique case names', () => {
      expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
    });

    it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
      const result = c.kind === 'filter' ? parseFilter(c.input) : parseSort(c.input);
      expect(result.diagnostics.map((d) => d.code)).toEqual(c.diagnostics ?? []);
      if (c.ast !== undefined) {
        const simple = result.ast.kind === 'filter' ? simplifyFilter(result.ast) : simplifySort(result.ast);
        expect(simple).toEqual(c.ast);
      }
      if (c.canonical !== undefined) {
        // The canonical text parses back, without error or fixable warning, to the same tree.
        const again = c.kind === 'filter' ? parseFilter(c.canonical) : parseSort(c.canonical);
        expect(
          again.diagnostics.filter((d) => d.severity === 'error' || d.code === 'empty-clause' || d.code === 'implicit-direction'),
        ).toEqual([]);
        if (again.ast.kind === 'filter' && result.ast.kind === 'filter') {
          expect(withoutQuoting(simplifyFilter(again.ast))).toEqual(withoutQuoting(simplifyFilter(result.ast)));
        } else if (again.ast.kind === 'sort' && result.ast.kind === 'sort') {
          expect(simplifySort(again.ast).map((i) => [i.field, i.direction])).toEqual(
            simplifySort(result.ast).map((i) => [i.field, i.direction]),
          );
        }
      }
    });

    const withCanonical = cases.filter((c) => c.canonical !== undefined);
    const format = file.startsWith('sort') ? formatSort : formatFilter;
    it.skipIf(format === undefined).each(withCanonical.map((c) => [c.name, c] as const))('prints %s canonically', (_name, c) => {
      expect(format!(c.input)).toBe(c.canonical);
    });
  });
}
