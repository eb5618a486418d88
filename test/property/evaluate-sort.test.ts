/**
 * Sorting agrees with the reference (a stable insertion sort), and the
 * comparator is a total preorder.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSort, query, sortRecords } from '../../src/index.js';
import { referenceCompare, referenceSort } from '../support/reference-evaluator.js';
import { recordArb, recordsArb, testSchema, typedSortArb, typedSortText } from '../support/typed-arbitraries.js';

describe('sorting', () => {
  it('sortRecords and the comparator give the reference order (hence stable)', () => {
    fc.assert(
      fc.property(typedSortArb(), recordsArb(), fc.boolean(), (sort, records, caseSensitive) => {
        const expected = referenceSort(records, sort, { caseSensitive });
        expect(sortRecords(records, sort, { caseSensitive })).toEqual(expected);
        expect([...records].sort(compileSort(sort, { caseSensitive }))).toEqual(expected);
        // Identity, not just equality: equal-looking copies must keep their input order.
        const fast = sortRecords(records, sort, { caseSensitive });
        expect(fast.every((r, i) => r === expected[i])).toBe(true);
      }),
      { numRuns: 800 },
    );
  });

  it('the same sort written as text sorts the same way', () => {
    fc.assert(
      fc.property(typedSortArb(), recordsArb(), (sort, records) => {
        expect(query(records, { sort: typedSortText(sort), schema: testSchema })).toEqual(referenceSort(records, sort));
      }),
      { numRuns: 300 },
    );
  });

  it('the comparator is a total preorder that agrees with the reference in sign', () => {
    fc.assert(
      fc.property(typedSortArb(), recordArb(), recordArb(), recordArb(), (sort, a, b, c) => {
        const compare = compileSort(sort);
        const sign = (x: unknown, y: unknown) => Math.sign(compare(x, y));
        expect(sign(a, a)).toBe(0);
        expect(sign(a, b)).toBe(-sign(b, a) || 0);
        expect(sign(a, b)).toBe(referenceCompare(sort, a, b));
        if (sign(a, b) <= 0 && sign(b, c) <= 0) expect(sign(a, c)).toBeLessThanOrEqual(0);
        if (sign(a, b) === 0 && sign(b, c) === 0) expect(sign(a, c)).toBe(0);
      }),
      { numRuns: 2000 },
    );
  });
});
