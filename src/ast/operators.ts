/**
 * The operator vocabulary of the filter language (SPEC §3), as `as const`
 * arrays so that every union type below is derived from one list.
 */

/** Operators that take exactly one value: `Field.Equal(1)`. */
export const SINGLE_VALUE_OPERATORS = [
  'Equal',
  'NotEqual',
  'LessThan',
  'LessThanOrEqual',
  'GreaterThan',
  'GreaterThanOrEqual',
  'Contains',
  'StartsWith',
  'EndsWith',
  'NotContains',
  'NotStartsWith',
  'NotEndsWith',
] as const;

/** Operators that take no value: `Field.IsNull()`. */
export const NO_VALUE_OPERATORS = ['IsNull', 'IsNotNull'] as const;

/** Operators that take one or more values: `Field.InArray(1,2,3)`. */
export const LIST_OPERATORS = ['InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull'] as const;

/** Operators whose head is a value and whose arguments are fields: `'D'.StartsWithInFields(FirstName,LastName)`. */
export const IN_FIELDS_OPERATORS = [
  'EqualInFields',
  'LessThanInFields',
  'LessThanOrEqualInFields',
  'GreaterThanInFields',
  'GreaterThanOrEqualInFields',
  'ContainsInFields',
  'StartsWithInFields',
  'EndsWithInFields',
] as const;

/** Group keywords. */
export const GROUP_OPERATORS = ['And', 'Or'] as const;

/** Sort directions. */
export const SORT_DIRECTIONS = ['Asc', 'Desc'] as const;

/** @see SINGLE_VALUE_OPERATORS */
export type SingleValueOperator = (typeof SINGLE_VALUE_OPERATORS)[number];
/** @see NO_VALUE_OPERATORS */
export type NoValueOperator = (typeof NO_VALUE_OPERATORS)[number];
/** @see LIST_OPERATORS */
export type ListOperator = (typeof LIST_OPERATORS)[number];
/** @see IN_FIELDS_OPERATORS */
export type InFieldsOperator = (typeof IN_FIELDS_OPERATORS)[number];
/** @see GROUP_OPERATORS */
export type GroupOperator = (typeof GROUP_OPERATORS)[number];
/** @see SORT_DIRECTIONS */
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/** Any of the 26 condition operators. */
export type FilterOperator = SingleValueOperator | NoValueOperator | ListOperator | InFieldsOperator;

/** The four argument shapes of SPEC §3's operator table. */
export type OperatorKind = 'single-value' | 'no-value' | 'list' | 'in-fields';

/** Every condition operator, in the order of SPEC §3's table. */
export const FILTER_OPERATORS: readonly FilterOperator[] = [
  ...SINGLE_VALUE_OPERATORS,
  ...NO_VALUE_OPERATORS,
  ...LIST_OPERATORS,
  ...IN_FIELDS_OPERATORS,
];

const KIND_BY_OPERATOR: ReadonlyMap<string, OperatorKind> = new Map<string, OperatorKind>([
  ...SINGLE_VALUE_OPERATORS.map((op) => [op, 'single-value'] as const),
  ...NO_VALUE_OPERATORS.map((op) => [op, 'no-value'] as const),
  ...LIST_OPERATORS.map((op) => [op, 'list'] as const),
  ...IN_FIELDS_OPERATORS.map((op) => [op, 'in-fields'] as const),
]);

// Keywords match case-insensitively (SPEC §2); a Map keyed by the lower-cased
// spelling avoids any prototype-chain lookups on hostile names like `__proto__`.
const OPERATOR_BY_LOWER: ReadonlyMap<string, FilterOperator> = new Map(
  FILTER_OPERATORS.map((op) => [op.toLowerCase(), op] as const),
);

/**
 * Resolves an operator name written in any case to its canonical spelling.
 *
 * @example
 * canonicalOperator('startswith'); // 'StartsWith'
 * canonicalOperator('Equals');     // undefined
 */
export function canonicalOperator(name: string): FilterOperator | undefined {
  return OPERATOR_BY_LOWER.get(name.toLowerCase());
}

/**
 * The argument shape of a canonical operator name.
 *
 * @example
 * operatorKind('InArray'); // 'list'
 */
export function operatorKind(op: FilterOperator): OperatorKind {
  return KIND_BY_OPERATOR.get(op) as OperatorKind;
}

/**
 * For an InFields operator, the single-field operator it applies to each field
 * (SPEC §6: `v.OpInFields(F1,F2)` is `F1.Op(v) or F2.Op(v)`).
 *
 * @example
 * baseOperatorOfInFields('StartsWithInFields'); // 'StartsWith'
 */
export function baseOperatorOfInFields(op: InFieldsOperator): SingleValueOperator {
  return op.slice(0, -'InFields'.length) as SingleValueOperator;
}
