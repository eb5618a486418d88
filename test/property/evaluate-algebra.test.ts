/**
 * And/Or/; algebra (docs/reference.md §"Filter grammar" and §"Filter semantics"): `And(a;b)` ≡ `a;b`, `Or(a)` ≡ `a`,
 * `And(a)` ≡ `a`, and order of clauses does not change which records match.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/index.js';
import { recordsArb, testSchema, typedFilterArb, typedFilterText } from '../support/typed-arbitraries.js';

const clauseArb = typedFilterArb({ maxDepth: 2, maxClauses: 3 })
  .filter((f) => f.clauses.length > 0)
  .map((f) => typedFilterText({ ...f, clauses: f.clauses.slice(0, 1) }));

function same(a: string, b: string, records: readonly unknown[]): void {
  const p = compileFilter(a, { schema: testSchema });
  const q = compileFilter(b, { schema: testSchema });
  expect(records.map((r) => p(r))).toEqual(records.map((r) => q(r)));
}

describe('filter algebra', () => {
  it('And(a;b) ≡ a;b and a;b ≡ b;a', () => {
    fc.assert(
      fc.property(clauseArb, clauseArb, recordsArb({ maxLength: 15 }), (a, b, records) => {
        same(`And(${a};${b})`, `${a};${b}`, records);
        same(`${a};${b}`, `${b};${a}`, records);
      }),
      { numRuns: 300 },
    );
  });

  it('Or(a) ≡ a ≡ And(a), and Or(a;b) ≡ Or(b;a)', () => {
    fc.assert(
      fc.property(clauseArb, clauseArb, recordsArb({ maxLength: 15 }), (a, b, records) => {
        same(`Or(${a})`, a, records);
        same(`And(${a})`, a, records);
        same(`Or(${a};${b})`, `Or(${b};${a})`, records);
      }),
      { numRuns: 300 },
    );
  });

  it('Or(a;b) matches exactly the records that a or b matches; a;b those both match', () => {
    fc.assert(
      fc.property(clauseArb, clauseArb, recordsArb({ maxLength: 15 }), (a, b, records) => {
        const pa = compileFilter(a, { schema: testSchema });
        const pb = compileFilter(b, { schema: testSchema });
        const or = compileFilter(`Or(${a};${b})`, { schema: testSchema });
        const and = compileFilter(`${a};${b}`, { schema: testSchema });
        for (const r of records) {
          expect(or(r)).toBe(pa(r) || pb(r));
          expect(and(r)).toBe(pa(r) && pb(r));
        }
      }),
      { numRuns: 300 },
    );
  });
});
