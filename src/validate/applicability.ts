/**
 * Which operators apply to which field types, read from the operator table
 * so that the validator, the typed-tree check, lint rules and editor
 * completions all agree.
 */
import type { FilterOperator, ScalarType } from '../ast/operators.js';
import { FILTER_OPERATORS, OPERATORS, SCALAR_TYPES } from '../ast/operators.js';

/**
 * The field types an operator takes. An InFields operator takes what its
 * single-field form takes (`LessThanInFields` like `LessThan`).
 *
 * @example
 * applicableTypes('StartsWith');        // ['string']
 * applicableTypes('GreaterThanInFields'); // ['number', 'integer', 'datetime']
 */
export function applicableTypes(operator: FilterOperator): readonly ScalarType[] {
  return OPERATORS[operator].types;
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
 * Every operator that applies to a field type, in the order of docs/reference.md
 * §"Operators"; what an
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
  if (types.length === SCALAR_TYPES.length) return 'fields of every type';
  if (types.length === 1) return `${types[0]} fields`;
  return `${types.slice(0, -1).join(', ')} and ${types[types.length - 1]} fields`;
}
