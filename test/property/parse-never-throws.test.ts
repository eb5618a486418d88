import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, parseFilter, parseSort, type Diagnostic } from '../../src/index.js';

// Pieces of the language itself, so that random strings are mostly almost-filters.
const PIECES = [
  '.',
  ';',
  '(',
  ')',
  ',',
  "'",
  "''",
  '=',
  ' ',
  '\t',
  '\n',
  '\r',
  'And',
  'or',
  'OR(',
  'Equal',
  'equals',
  'IsNull',
  'InArray',
  'EqualInFields',
  'StartsWithInFields',
  'Asc',
  'desc',
  'A',
  'B.C',
  '_x',
  '1',
  '5.5',
  '2024-01-01T00:00:00Z',
  'New York',
  "O'Brien",
  'é',
  '日本',
  '😀',
  '\u0000',
  '\uD800',
  '\uDC00',
  '__proto__',
  'constructor',
];
const pieceString = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join(''));
const anyText = fc.oneof(
  pieceString,
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

function checkDiagnostics(text: string, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) {
    expect(Object.hasOwn(DIAGNOSTIC_CODES, d.code)).toBe(true);
    expect(d.severity).toBe(DIAGNOSTIC_CODES[d.code].severity);
    expect(d.message.length).toBeGreaterThan(0);
    expect(0 <= d.start && d.start <= d.end && d.end <= text.length).toBe(true);
    for (const e of d.fix ?? []) expect(0 <= e.start && e.start <= e.end && e.end <= text.length).toBe(true);
  }
}

function checkSpans(text: string, node: unknown): void {
  if (Array.isArray(node)) {
    for (const n of node) checkSpans(text, n);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'span' || key === 'operatorSpan') {
      const s = value as { start: number; end: number };
      expect(0 <= s.start && s.start <= s.end && s.end <= text.length).toBe(true);
    } else checkSpans(text, value);
  }
}

describe('parseFilter never throws', () => {
  it('on arbitrary text: diagnostics and spans lie inside the input', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { ast, diagnostics } = parseFilter(text);
        expect(ast.kind).toBe('filter');
        checkDiagnostics(text, diagnostics);
        checkSpans(text, ast);
      }),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary text under tight limits', () => {
    fc.assert(
      fc.property(
        anyText,
        fc.record({
          maxDepth: fc.nat(3),
          maxConditions: fc.nat(3),
          maxListValues: fc.nat(3),
          maxInFields: fc.nat(3),
          maxErrors: fc.nat(3),
          maxLength: fc.nat(80),
        }),
        (text, limits) => {
          const { diagnostics } = parseFilter(text, { limits });
          checkDiagnostics(text, diagnostics);
          expect(diagnostics.length).toBeLessThanOrEqual(limits.maxErrors + 1);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('keeps a clean tree when there is no error, and only then', () => {
    fc.assert(
      fc.property(pieceString, (text) => {
        const { ast, diagnostics } = parseFilter(text);
        // A tree built from an error-free text reparses identically: the parser is deterministic.
        expect(parseFilter(text)).toEqual({ ast, diagnostics });
      }),
      { numRuns: 500 },
    );
  });
});

describe('parseSort never throws', () => {
  it('on arbitrary text: diagnostics and spans lie inside the input', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const { ast, diagnostics } = parseSort(text);
        expect(ast.kind).toBe('sort');
        checkDiagnostics(text, diagnostics);
        checkSpans(text, ast);
      }),
      { numRuns: 3000 },
    );
  });

  it('on arbitrary text under tight limits', () => {
    fc.assert(
      fc.property(anyText, fc.record({ maxSortKeys: fc.nat(3), maxErrors: fc.nat(3), maxLength: fc.nat(80) }), (text, limits) => {
        const { diagnostics } = parseSort(text, { limits });
        checkDiagnostics(text, diagnostics);
        expect(diagnostics.length).toBeLessThanOrEqual(limits.maxErrors + 1);
      }),
      { numRuns: 1000 },
    );
  });
});
