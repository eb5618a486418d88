/**
 * The round trip of docs/reference.md §"Canonical form": for every tree T, parse(print(T)) is T (ignoring
 * positions) and printing is a fixed point — in canonical, pretty and
 * quote-all form, for filters and sorts, and from noisy hand-written-style
 * texts to the canonical one.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import type { Diagnostic } from '../../src/index.js';
import { WepqlError, formatFilter, formatSort, hasErrors, parseFilter, parseSort, printFilter, printSort } from '../../src/index.js';
import { TRICKY_PIECES, filterAstArb, filterTextArb, normalizeAst, sortAstArb, sortTextArb, stripSpans } from '../support/arbitraries.js';

// Generated trees can be long (many quoted values); the length limit is not what is tested here.
const PARSE = { limits: { maxLength: 1_000_000 } } as const;
const RUNS = { numRuns: 400 };

// Checks throw small messages of their own: vitest's object diff of two
// trees is slow enough to stall fast-check's shrinking for minutes.
function assertNoErrors(text: string, diagnostics: readonly Diagnostic[]): void {
  const errors = diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`${JSON.stringify(text)} has errors: ${errors.map((d) => `${d.code} ${d.message}`).join('; ')}`);
  }
}

function assertSameTree(text: string, actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Error(`${JSON.stringify(text)} parsed to\n${JSON.stringify(actual)}\nexpected\n${JSON.stringify(expected)}`);
  }
}

function assertSameText(what: string, actual: string, expected: string): void {
  if (actual !== expected) throw new Error(`${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

describe('filter round trip', () => {
  it('parse(printFilter(T)) is T and printing is a fixed point', () => {
    fc.assert(
      fc.property(filterAstArb(), (ast) => {
        const text = printFilter(ast);
        const parsed = parseFilter(text, PARSE);
        assertNoErrors(text, parsed.diagnostics);
        assertSameTree(text, stripSpans(parsed.ast), stripSpans(ast));
        assertSameText('formatFilter(print(T))', formatFilter(text, PARSE), text);
      }),
      RUNS,
    );
  });

  it('the pretty form parses to the same tree at any width and indent', () => {
    fc.assert(
      fc.property(filterAstArb(), fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 6 }), (ast, width, indent) => {
        const pretty = printFilter(ast, { pretty: true, width, indent });
        const parsed = parseFilter(pretty, PARSE);
        assertNoErrors(pretty, parsed.diagnostics);
        assertSameTree(pretty, stripSpans(parsed.ast), stripSpans(ast));
        assertSameText('formatFilter(pretty)', formatFilter(pretty, PARSE), printFilter(ast));
        assertSameText('pretty again', printFilter(parsed.ast, { pretty: true, width, indent }), pretty);
      }),
      RUNS,
    );
  });

  it('the quote-all form parses to the same tree', () => {
    fc.assert(
      fc.property(filterAstArb(), (ast) => {
        const quoted = printFilter(ast, { quoteAllStrings: true });
        const parsed = parseFilter(quoted, PARSE);
        assertNoErrors(quoted, parsed.diagnostics);
        assertSameTree(quoted, normalizeAst(parsed.ast), normalizeAst(ast));
        assertSameText('formatFilter(quote-all)', formatFilter(quoted, PARSE), printFilter(ast));
      }),
      RUNS,
    );
  });

  it('a noisy text parses to its tree and formats to the canonical text', () => {
    fc.assert(
      fc.property(filterTextArb(), ({ ast, text }) => {
        const parsed = parseFilter(text, PARSE);
        assertNoErrors(text, parsed.diagnostics);
        assertSameTree(text, normalizeAst(parsed.ast), normalizeAst(ast));
        assertSameText('formatFilter(noisy)', formatFilter(text, PARSE), printFilter(ast));
      }),
      RUNS,
    );
  });

  it('formatFilter on any text returns a fixed point or throws WepqlError', () => {
    const soup = fc.string({
      unit: fc.constantFrom(...TRICKY_PIECES, 'A', 'B.C', '.Equal(', '.InArray(', '.IsNull()', '.EqualInFields(', 'Or(', 'And(', ')', ';'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(soup, (text) => {
        let output: string;
        try {
          output = formatFilter(text, PARSE);
        } catch (error) {
          if (!(error instanceof WepqlError) || !hasErrors(error.diagnostics)) throw error;
          return;
        }
        assertSameText('formatFilter twice', formatFilter(output, PARSE), output);
        assertSameTree(output, normalizeAst(parseFilter(output, PARSE).ast), normalizeAst(parseFilter(text, PARSE).ast));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('sort round trip', () => {
  it('parse(printSort(T)) is T and printing is a fixed point', () => {
    fc.assert(
      fc.property(sortAstArb(), (ast) => {
        const text = printSort(ast);
        const parsed = parseSort(text, PARSE);
        assertNoErrors(text, parsed.diagnostics);
        assertSameTree(text, stripSpans(parsed.ast), stripSpans(ast));
        assertSameText('formatSort(print(T))', formatSort(text, PARSE), text);
        assertSameText('pretty sort', printSort(ast, { pretty: true, width: 1 }), text);
      }),
      RUNS,
    );
  });

  it('a noisy text parses to its tree and formats to the canonical text', () => {
    fc.assert(
      fc.property(sortTextArb(), ({ ast, text }) => {
        const parsed = parseSort(text, PARSE);
        assertNoErrors(text, parsed.diagnostics);
        assertSameTree(text, normalizeAst(parsed.ast), normalizeAst(ast));
        assertSameText('formatSort(noisy)', formatSort(text, PARSE), printSort(ast));
      }),
      RUNS,
    );
  });
});
