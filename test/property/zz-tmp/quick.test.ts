import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileTypedFilter } from '../../../src/evaluate/compile-typed-filter.js';
import { compileTypedSort, sortTypedRecords } from '../../../src/evaluate/sort-typed.js';
import { recordArb, recordsArb, typedFilterArb, typedSortArb } from './typed-arbitraries.js';
import { referenceMatches, referenceSort } from './reference-evaluator.js';
describe('quick', () => {
  it('agrees', () => {
    fc.assert(fc.property(typedFilterArb(), fc.array(recordArb(), {maxLength: 10}), fc.boolean(), (f, rs, cs) => {
      for (const strategy of ['codegen', 'closures'] as const) {
        const p = compileTypedFilter(f, { strategy, caseSensitive: cs });
        for (const r of rs) expect(p(r)).toBe(referenceMatches(f, r, { caseSensitive: cs }));
      }
    }), { numRuns: 2000 });
  });
  it('sorts', () => {
    fc.assert(fc.property(typedSortArb(), recordsArb(), fc.boolean(), (s, rs, cs) => {
      const ref = referenceSort(rs, s, { caseSensitive: cs });
      expect(sortTypedRecords(rs, s, { caseSensitive: cs })).toEqual(ref);
      expect([...rs].sort(compileTypedSort(s, { caseSensitive: cs }))).toEqual(ref);
    }), { numRuns: 1000 });
  });
});
