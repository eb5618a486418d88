import { describe, expect, it } from 'vitest';
import type { FilterOperator, ScalarType } from '../../../src/index.js';
import { FILTER_OPERATORS, SCALAR_TYPES, isOperatorApplicable, operatorsForType } from '../../../src/index.js';
import { applicableTypes, describeApplicableTypes } from '../../../src/validate/applicability.js';
import { convertValueText } from '../../../src/validate/convert-value.js';

// The table of docs/reference.md §"Operator applicability", written out independently of the implementation.
const ALL: ScalarType[] = ['string', 'number', 'integer', 'datetime', 'boolean'];
const ORDERED: ScalarType[] = ['number', 'integer', 'datetime'];
const TEXT: ScalarType[] = ['string'];
const TABLE: Record<FilterOperator, ScalarType[]> = {
  Equal: ALL,
  NotEqual: ALL,
  InArray: ALL,
  InArrayOrNull: ALL,
  NotInArray: ALL,
  NotInArrayOrNull: ALL,
  EqualInFields: ALL,
  IsNull: ALL,
  IsNotNull: ALL,
  LessThan: ORDERED,
  LessThanOrEqual: ORDERED,
  GreaterThan: ORDERED,
  GreaterThanOrEqual: ORDERED,
  LessThanInFields: ORDERED,
  LessThanOrEqualInFields: ORDERED,
  GreaterThanInFields: ORDERED,
  GreaterThanOrEqualInFields: ORDERED,
  Contains: TEXT,
  StartsWith: TEXT,
  EndsWith: TEXT,
  NotContains: TEXT,
  NotStartsWith: TEXT,
  NotEndsWith: TEXT,
  ContainsInFields: TEXT,
  StartsWithInFields: TEXT,
  EndsWithInFields: TEXT,
};

describe('operator applicability', () => {
  it.each(FILTER_OPERATORS.map((op) => [op]))('%s takes the types of docs/reference.md §"Operator applicability"', (op) => {
    expect([...applicableTypes(op)].sort()).toEqual([...TABLE[op]].sort());
    for (const type of SCALAR_TYPES) expect(isOperatorApplicable(op, type)).toBe(TABLE[op].includes(type));
  });

  it('lists the operators of a type in SPEC order', () => {
    expect(operatorsForType('boolean')).toEqual([
      'Equal',
      'NotEqual',
      'IsNull',
      'IsNotNull',
      'InArray',
      'InArrayOrNull',
      'NotInArray',
      'NotInArrayOrNull',
      'EqualInFields',
    ]);
    expect(operatorsForType('string')).toHaveLength(9 + 6 + 3);
  });

  it.each<[FilterOperator, string]>([
    ['LessThan', 'number, integer and datetime fields'],
    ['StartsWithInFields', 'string fields'],
    ['Equal', 'fields of every type'],
  ])('describes %s as taking %s', (op, words) => {
    expect(describeApplicableTypes(op)).toBe(words);
  });
});

describe('convertValueText', () => {
  it.each<[string, ScalarType, unknown]>([
    ['x', 'string', 'x'],
    ['', 'string', ''],
    ['1e3', 'number', 1000],
    ['-2.50', 'number', -2.5],
    ['3.0', 'integer', 3],
    ['-0', 'integer', 0],
    ['9007199254740991', 'integer', 9007199254740991],
    ['2024-01-31', 'datetime', new Date('2024-01-31T00:00:00Z')],
    ['2024-01-01T02:00+02:00', 'datetime', new Date('2024-01-01T00:00:00Z')],
    ['2024-01-31T13:45:00.123456Z', 'datetime', new Date('2024-01-31T13:45:00.123Z')],
    ['TRUE', 'boolean', true],
    ['false', 'boolean', false],
  ])('reads %j as %s', (text, type, value) => {
    expect(convertValueText(text, type)).toEqual({ ok: true, value });
  });

  it.each<[string, ScalarType, string]>([
    ['abc', 'number', 'invalid-value'],
    ['Infinity', 'number', 'invalid-value'],
    ['1e999', 'number', 'invalid-value'],
    ['4.5', 'integer', 'invalid-value'],
    ['9007199254740992', 'integer', 'integer-out-of-range'],
    ['2023-02-29', 'datetime', 'invalid-value'],
    ['2024-01-31 13:45', 'datetime', 'invalid-value'],
    ['1', 'boolean', 'invalid-value'],
  ])('refuses %j as %s with %s', (text, type, code) => {
    expect(convertValueText(text, type)).toMatchObject({ ok: false, code });
  });
});
