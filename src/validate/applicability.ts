/**
 * Which operators apply to which field types (SPEC §5's table, the seed's
 * plus booleans). One table, so the validator, the builder's types, lint
 * rules and editor completions all agree.
 */
import type { FilterOperator } from '../ast/operators.js';
import { FILTER_OPERATORS, IN_FIELDS_OPERATORS, baseOperatorOfInFields } from '../ast/operators.js';
import type { ScalarType } from '../schema/values.js';

const ALL_TYPES: readonly ScalarType[] = Object.freeze(['string', 'number', 'integer', 'datetime', 'boolean']);
const ORDERED_TYPES: readonly ScalarType[] = Object.freeze(['number', 'integer', 'datetime']);
const TEXT_TYPES: readonly ScalarType[] = Object.freeze(['string']);

const ORDERING = new Set<string>(['LessThan', 'LessThanOrEqual', 'GreaterThan', 'GreaterThanOrEqual']);
const SUBSTRING = new Set<string>(['Contains', 'StartsWith', 'EndsWith', 'NotContains', 'NotStartsWith', 'NotEndsWith']);
const IN_FIELDS = new Set<string>(IN_FIELDS_OPERATORS);

/**
 * The field types an operator takes. An InFields operator takes what its
 * single-field form takes (`LessThanInFields` like `LessThan`).
 *
 * @example
 * applicableTypes('StartsWith');        // ['string']
 * applicableTypes('GreaterThanInFields'); // ['number', 'integer', 'datetime']
 */
export function applicableTypes(operator: FilterOperator): readonly ScalarType[] {
  const base: string = IN_FIELDS.has(operator)
    ? baseOperatorOfInFields(operator as (typeof IN_FIELDS_OPERATORS)[number])
    : operator;
  if (ORDERING.has(base)) return ORDERED_TYPES;
  if (SUBSTRING.has(base)) return TEXT_TYPES;
  return ALL_TYPES;
}

/**
 * Whether an operator applies to a field of the given type.
 *
 * @example
 * isOperatorApplicable('Contains', 'number'); // false
 * isOperatorApplicable('Equal', 'boolean');   // true
 */
export function isOperatorApplicable(operator: FilterOperator, type: ScalarType): boolean {
  return applicableTypes(operator).includes(type);
}

/**
 * Every operator that applies to a field type, in SPEC §3's order; what an
 * editor offers after `Field.`.
 *
 * @example
 * operatorsForType('boolean'); // ['Equal', 'NotEqual', 'IsNull', 'IsNotNull', 'InArray', …, 'EqualInFields']
 */
export function operatorsForType(type: ScalarType): readonly FilterOperator[] {
  return FILTER_OPERATORS.filter((op) => isOperatorApplicable(op, type));
}

/**
 * The types an operator takes, as words for messages: "string fields",
 * "number, integer and datetime fields".
 *
 * @example
 * describeApplicableTypes('LessThan'); // 'number, integer and datetime fields'
 */
export function describeApplicableTypes(operator: FilterOperator): string {
  const types = applicableTypes(operator);
  if (types.length === ALL_TYPES.length) return 'fields of every type';
  if (types.length === 1) return `${types[0]} fields`;
  return `${types.slice(0, -1).join(', ')} and ${types[types.length - 1]} fields`;
}
