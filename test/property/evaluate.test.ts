/**
 * The compiled predicate agrees with the reference interpreter
 * (test/support/reference-evaluator.ts) on random records and random
 * type-correct filters, whichever strategy compiled it and whether the
 * filter came as a typed tree or as text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../src/index.js';
import { referenceMatches } from '../support/reference-evaluator.js';
import { recordArb, testSchema, typedFilterArb, typedFilterText } from '../support/typed-arbitraries.js';

describe('compileFilter agrees with the reference interpreter', () => {
  it('for typed trees, with both strategies, case-insensitive and case-sensitive', () => {
    fc.assert(
      fc.property(typedFilterArb(), fc.array(recordArb(), { maxLength: 12 }), fc.boolean(), (filter, records, caseSensitive) => {
        const codegen = compileFilter(filter, { strategy: 'codegen', caseSensitive });
        const closures = compileFilter(filter, { strategy: 'closures', caseSensitive });
        for (const record of records) {
          const expected = referenceMatches(filter, record, { caseSensitive });
          expect(codegen(record)).toBe(expected);
          expect(closures(record)).toBe(expected);
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('for the same filter written as text', () => {
    fc.assert(
      fc.property(typedFilterArb(), fc.array(recordArb(), { maxLength: 8 }), (filter, records) => {
        const text = typedFilterText(filter);
        const matches = compileFilter(text, { schema: testSchema });
        for (const record of records) expect(matches(record)).toBe(referenceMatches(filter, record));
      }),
      { numRuns: 500 },
    );
  });

  it('never throws on any record, whatever it holds', () => {
    fc.assert(
      fc.property(
        typedFilterArb(),
        fc.anything({ withDate: true, withMap: true, withNullPrototype: true, withObjectString: true }),
        (filter, record) => {
          const expected = referenceMatches(filter, record);
          expect(compileFilter(filter, { strategy: 'codegen' })(record)).toBe(expected);
          expect(compileFilter(filter, { strategy: 'closures' })(record)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('Filter regressions found by the properties', () => {
  // Shrunk counterexamples stay here as plain cases.
  it.each([
    ["Name.EndsWith('')", { Name: '' }, true],
    ["Name.NotEndsWith('')", { Name: 'x' }, false],
    ["Score.Equal('0')", { Score: -0 }, true],
    ["BornOn.Equal('2024-01-01T00:00:00.000Z')", { BornOn: '2024-01-01T00:00:00.000000Z' }, true],
    ["BornOn.Equal('2024-01-01T00:00:00.000Z')", { BornOn: '2024-01-01T02:00:00.000+02:00' }, true],
  ] as const)('%s on %o is %s', (filter, record, expected) => {
    expect(compileFilter(filter, { schema: testSchema })(record)).toBe(expected);
  });
});
