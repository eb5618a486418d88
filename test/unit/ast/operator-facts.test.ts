import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS } from '../../../src/ast/operators.js';
import { operatorFacts, operatorFor } from '../../../src/ast/operator-facts.js';

describe('operatorFor', () => {
  it('names every operator from its own facts', () => {
    for (const op of FILTER_OPERATORS) {
      const { test, negated, nullMatches, values } = operatorFacts(op);
      expect(operatorFor({ test, negated, nullMatches, values })).toBe(op);
    }
  });

  it('fills omitted facts with the first operator of the table that fits', () => {
    expect(operatorFor({ test: { kind: 'compare', relation: '>=' } })).toBe('GreaterThanOrEqual');
    expect(operatorFor({ test: { kind: 'compare', relation: '=' }, negated: true })).toBe('NotEqual');
    expect(operatorFor({ test: { kind: 'text', position: 'starts' }, negated: true })).toBe('NotStartsWith');
    expect(operatorFor({ test: { kind: 'present' }, negated: true })).toBe('IsNull');
    expect(operatorFor({ test: { kind: 'present' } })).toBe('IsNotNull');
    expect(operatorFor({ test: { kind: 'member' } })).toBe('InArray');
    expect(operatorFor({ test: { kind: 'member' }, nullMatches: true })).toBe('InArrayOrNull');
    expect(operatorFor({ test: { kind: 'text', position: 'ends' }, values: 'in-fields' })).toBe('EndsWithInFields');
  });

  it('throws on a query no operator answers', () => {
    expect(() => operatorFor({ test: { kind: 'text', position: 'starts' }, nullMatches: true })).toThrow(/no operator answers/);
    expect(() => operatorFor({ test: { kind: 'present' }, values: 'in-fields' })).toThrow(/no operator answers/);
  });
});
