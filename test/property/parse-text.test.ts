import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFilter, parseSort } from '../../src/index.js';
import { filterTextArb, normalizeAst, sortTextArb } from '../support/arbitraries.js';

describe('parsing noisy texts of generated trees', () => {
  it('parseFilter recovers the tree (any case, any spacing, optional quotes, stray ;)', () => {
    fc.assert(
      fc.property(filterTextArb(), ({ ast, text }) => {
        const result = parseFilter(text);
        expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(normalizeAst(result.ast.clauses)).toEqual(normalizeAst(ast.clauses));
      }),
      { numRuns: 1000 },
    );
  });

  it('parseSort recovers the tree', () => {
    fc.assert(
      fc.property(sortTextArb(), ({ ast, text }) => {
        const result = parseSort(text);
        expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
        expect(normalizeAst(result.ast.items)).toEqual(normalizeAst(ast.items));
      }),
      { numRuns: 1000 },
    );
  });

  it('applying every fix of a filter with only fixable warnings leaves no warning', () => {
    fc.assert(
      fc.property(filterTextArb(), ({ text }) => {
        const { diagnostics } = parseFilter(text);
        const edits = diagnostics.filter((d) => d.code === 'empty-clause').flatMap((d) => d.fix ?? []);
        edits.sort((a, b) => b.start - a.start);
        let fixed = text;
        for (const e of edits) fixed = fixed.slice(0, e.start) + e.newText + fixed.slice(e.end);
        expect(parseFilter(fixed).diagnostics.filter((d) => d.code === 'empty-clause')).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });
});
