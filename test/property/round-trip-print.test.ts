/**
 * SPEC §8's round trip: for every tree T, parse(print(T)) is T (ignoring
 * positions) and printing is a fixed point — in canonical, pretty and
 * quote-all form, for filters and sorts, and from noisy hand-written-style
 * texts to the canonical one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  WepqlError,
  formatFilter,
  formatSort,
  hasErrors,
  parseFilter,
  parseSort,
  printFilter,
  printSort,
} from '../../src/index.js';
import {
  TRICKY_PIECES,
  filterAstArb,
  filterTextArb,
  normalizeAst,
  sortAstArb,
  sortTextArb,
  stripSpans,
} from '../support/arbitraries.js';

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

function assertSameText(actual: string, expected: string): void {
  if (actual !== expected) throw new Error(`printed ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

describe('filter round trip', () => {
  it('parse(printFilter(T)) is T and printing is a fixed point', () => {
    fc.assert(
      fc.property(filterAstArb(), (ast) => {
        const text = printFilter(ast);
        const parsed = parseFilter(text, PARSE);
        assertNoErrors(TEXT_parsed, parsed.diagnostics);
        expect(stripSpans(parsed.ast)).toEqual(stripSpans(ast));
        expect(formatFilter(text, PARSE)).toBe(text);
      }),
      RUNS,
    );
  });

  it('the pretty form parses to the same tree at any width and indent', () => {
    fc.assert(
      fc.property(
        filterAstArb(),
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 0, max: 6 }),
        (ast, width, indent) => {
          const pretty = printFilter(ast, { pretty: true, width, indent });
          const parsed = parseFilter(pretty, PARSE);
          assertNoErrors(TEXT_parsed, parsed.diagnostics);
          expect(stripSpans(parsed.ast)).toEqual(stripSpans(ast));
          expect(formatFilter(pretty, PARSE)).toBe(printFilter(ast));
          expect(printFilter(parsed.ast, { pretty: true, width, indent })).toBe(pretty);
        },
      ),
      RUNS,
    );
  });

  it('the quote-all form parses to the same tree', () => {
    fc.assert(
      fc.property(filterAstArb(), (ast) => {
        const quoted = printFilter(ast, { quoteAllStrings: true });
        const parsed = parseFilter(quoted, PARSE);
        assertNoErrors(TEXT_parsed, parsed.diagnostics);
        expect(normalizeAst(parsed.ast)).toEqual(normalizeAst(ast));
        expect(formatFilter(quoted, PARSE)).toBe(printFilter(ast));
      }),
      RUNS,
    );
  });

  it('a noisy text parses to its tree and formats to the canonical text', () => {
    fc.assert(
      fc.property(filterTextArb(), ({ ast, text }) => {
        const parsed = parseFilter(text, PARSE);
        assertNoErrors(TEXT_parsed, parsed.diagnostics);
        expect(normalizeAst(parsed.ast)).toEqual(normalizeAst(ast));
        expect(formatFilter(text, PARSE)).toBe(printFilter(ast));
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
          expect(error).toBeInstanceOf(WepqlError);
          expect(hasErrors((error as WepqlError).diagnostics)).toBe(true);
          return;
        }
        expect(formatFilter(output, PARSE)).toBe(output);
        expect(normalizeAst(parseFilter(output, PARSE).ast)).toEqual(normalizeAst(parseFilter(text, PARSE).ast));
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
        assertNoErrors(TEXT_parsed, parsed.diagnostics);
        expect(stripSpans(parsed.ast)).toEqual(stripSpans(ast));
        expect(formatSort(text, PARSE)).toBe(text);
        expect(printSort(ast, { pretty: true, width: 1 })).toBe(text);
      }),
      RUNS,
    );
  });

  it('a noisy text parses to its tree and formats to the canonical text', () => {
    fc.assert(
      fc.property(sortTextArb(), ({ ast, text }) => {
        const parsed = parseSort(text, PARSE);
        assertNoErrors(TEXT_parsed, parsed.diagnostics);
        expect(normalizeAst(parsed.ast)).toEqual(normalizeAst(ast));
        expect(formatSort(text, PARSE)).toBe(printSort(ast));
      }),
      RUNS,
    );
  });
});
