import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS, OPERATORS, operatorInfo, type FilterOperator, type OperatorInfo } from '../../../src/ast/operators.js';

const entries = FILTER_OPERATORS.map((op): [FilterOperator, OperatorInfo] => [op, OPERATORS[op]]);

describe('the operator table', () => {
  it('lists every operator once, as own properties', () => {
    expect(Object.keys(OPERATORS)).toEqual([...FILTER_OPERATORS]);
  });

  it.each(entries)('%s: negation holds on exactly the non-null values where it fails', (op, info) => {
    if (info.negation === null) {
      expect(info.arity).toBe('in-fields');
      return;
    }
    const back: OperatorInfo = OPERATORS[info.negation];
    expect(back.negation).toBe(op);
    expect(back.arity).toBe(info.arity);
    // LessThan and GreaterThanOrEqual negate each other; neither is written as a negation.
    expect(back.negative).toBe(info.family === 'order' ? false : !info.negative);
    expect(back.types).toEqual(info.types);
  });

  it.each(entries.filter(([, i]) => i.arity === 'in-fields'))('%s takes what its base operator takes', (op, info) => {
    const base: OperatorInfo = OPERATORS[info.base!];
    expect(op).toBe(`${info.base}InFields`);
    expect(info.types).toEqual(base.types);
    expect(info.family).toBe(base.family);
    expect(info.relation).toBe(base.relation);
    expect(info.position).toBe(base.position);
  });

  it('only IsNull and the OrNull lists match a null field', () => {
    expect(FILTER_OPERATORS.filter((op) => OPERATORS[op].nullMatches)).toEqual(['IsNull', 'InArrayOrNull', 'NotInArrayOrNull']);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'equal', 'EQUAL', '', 42, null, undefined])(
    'operatorInfo(%j) is undefined: own exact names only',
    (name) => {
      expect(operatorInfo(name)).toBeUndefined();
    },
  );
});
