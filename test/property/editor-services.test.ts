/**
 * The editor services never throw on any text or offset, and their ranges
 * stay inside the text: highlighting (disjoint, in order), hover, and the
 * CodeMirror diagnostics (same findings as lintText, actions only with a fix
 * or a suggestion).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wepqlDiagnostics } from '../../src/codemirror/index.js';
import { lintText, highlightTokens, hoverAt } from '../../src/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';

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
  '\n',
  'And',
  'or(',
  'Equal',
  'StartsWith',
  'IsNull',
  'InArray',
  'EqualInFields',
  'Asc',
  'desc',
  'LastName',
  'Gender',
  'CreatedOn',
  'Address.ZipCode',
  '1',
  '2024-03-21',
  'x',
  'é',
  '😀',
  '\u0000',
  '\uD800',
  '__proto__',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join('')),
  fc.string({ maxLength: 60 }),
);
const kind = fc.constantFrom('filter' as const, 'sort' as const);

describe('editor services on any text', () => {
  it('highlightTokens: disjoint ranges in order, inside the text', () => {
    fc.assert(
      fc.property(text, kind, (t, k) => {
        const tokens = highlightTokens(t, { kind: k });
        let at = 0;
        for (const token of tokens) {
          expect(token.start).toBeGreaterThanOrEqual(at);
          expect(token.end).toBeGreaterThan(token.start);
          expect(token.end).toBeLessThanOrEqual(t.length);
          at = token.end;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('hoverAt: undefined or a range inside the text, at every offset', () => {
    fc.assert(
      fc.property(text, kind, fc.nat(), (t, k, n) => {
        const offset = t.length === 0 ? 0 : n % (t.length + 1);
        const hover = hoverAt(t, offset, employeeSchema, { kind: k });
        if (hover === undefined) return;
        expect(0 <= hover.start && hover.start <= hover.end && hover.end <= t.length).toBe(true);
        expect(hover.markdown.length).toBeGreaterThan(0);
      }),
      { numRuns: 400 },
    );
  });

  it('wepqlDiagnostics: the findings of lintText, with actions only for fixes and suggestions', () => {
    fc.assert(
      fc.property(text, kind, (t, k) => {
        const marks = wepqlDiagnostics(t, { schema: employeeSchema, kind: k });
        const findings = lintText(t, k, { schema: employeeSchema });
        expect(marks.map((m) => m.source)).toEqual(findings.map((f) => f.code));
        marks.forEach((m, i) => {
          expect(0 <= m.from && m.from <= m.to && m.to <= t.length).toBe(true);
          const f = findings[i]!;
          const expected = (f.fix !== undefined && f.fix.length > 0 ? 1 : 0) + (f.suggestion ? 1 : 0);
          expect(m.actions?.length ?? 0).toBe(expected);
        });
      }),
      { numRuns: 300 },
    );
  });
});
