/**
 * `nearestNameIn` remembers `nearestName`'s answers for a candidate list:
 * whatever the names asked and their order (again, or past the 1,000 it
 * remembers), it answers as `nearestName` does.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '../../../src/ast/operators.js';
import { nearestName, nearestNameIn } from '../../../src/diagnostics/suggest.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const FIELDS = employeeSchema.fields.map((f) => f.name);

describe('nearestNameIn', () => {
  it.each([
    ['Equals', 'Equal'],
    ['equal', 'Equal'],
    ['StartWith', 'StartsWith'],
    ['Zzz', undefined],
  ])('%s → %s, asked once or twice', (name, expected) => {
    const nearest = nearestNameIn(FILTER_OPERATORS);
    expect(nearest(name)).toBe(expected);
    expect(nearest(name)).toBe(expected);
  });

  it('answers as nearestName does, for names asked in any order and again', () => {
    const nameArb = fc.oneof(
      fc
        .constantFrom(...FIELDS, ...FILTER_OPERATORS)
        .chain((n) =>
          fc.tuple(fc.nat(n.length), fc.constantFrom('', 'x', 'e', 'S')).map(([at, c]) => n.slice(0, at) + c + n.slice(at + 1)),
        ),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(nameArb, { minLength: 1, maxLength: 30 }), (names) => {
        const fields = nearestNameIn(FIELDS);
        const operators = nearestNameIn(FILTER_OPERATORS);
        for (const name of [...names, ...names]) {
          expect(fields(name)).toBe(nearestName(name, FIELDS));
          expect(operators(name)).toBe(nearestName(name, FILTER_OPERATORS));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('still answers past the names it remembers', () => {
    const nearest = nearestNameIn(FIELDS);
    for (let i = 0; i < 1500; i++) nearest(`Name${i}`);
    expect(nearest('LastNam')).toBe('LastName');
    expect(nearest('Name1499')).toBe(nearestName('Name1499', FIELDS));
  });
});
