/**
 * The operator vocabulary of the filter language (SPEC §3), as `as const`
 * arrays so that every union type below is derived from one list.
 */

/**
 * Operators that take exactly one value: `Field.Equal(1)`.
 *
 * @example
 * SINGLE_VALUE_OPERATORS.includes('Equal'); // true
 */
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

/**
 * Operators that take no value: `Field.IsNull()`.
 *
 * @example
 * NO_VALUE_OPERATORS; // ['IsNull', 'IsNotNull']
 */
export const NO_VALUE_OPERATORS = ['IsNull', 'IsNotNull'] as const;

/**
 * Operators that take one or more values: `Field.InArray(1,2,3)`.
 *
 * @example
 * LIST_OPERATORS.length; // 4
 */
export const LIST_OPERATORS = ['InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull'] as const;

/**
 * Operators whose head is a value and whose arguments are fields: `'D'.StartsWithInFields(FirstName,LastName)`.
 *
 * @example
 * IN_FIELDS_OPERATORS.map(baseOperatorOfInFields); // ['Equal', 'LessThan', …, 'EndsWith']
 */
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

/**
 * Group keywords.
 *
 * @example
 * GROUP_OPERATORS; // ['And', 'Or']
 */
export const GROUP_OPERATORS = ['And', 'Or'] as const;

/**
 * Sort directions.
 *
 * @example
 * SORT_DIRECTIONS; // ['Asc', 'Desc']
 */
export const SORT_DIRECTIONS = ['Asc', 'Desc'] as const;

/**
 * One of `SINGLE_VALUE_OPERATORS`, as a type.
 *
 * @see SINGLE_VALUE_OPERATORS
 *
 * @example
 * const op: SingleValueOperator = 'StartsWith';
 */
export type SingleValueOperator = (typeof SINGLE_VALUE_OPERATORS)[number];
/**
 * One of `NO_VALUE_OPERATORS`, as a type.
 *
 * @see NO_VALUE_OPERATORS
 *
 * @example
 * const op: NoValueOperator = 'IsNotNull';
 */
export type NoValueOperator = (typeof NO_VALUE_OPERATORS)[number];
/**
 * One of `LIST_OPERATORS`, as a type.
 *
 * @see LIST_OPERATORS
 *
 * @example
 * const op: ListOperator = 'NotInArrayOrNull';
 */
export type ListOperator = (typeof LIST_OPERATORS)[number];
/**
 * One of `IN_FIELDS_OPERATORS`, as a type.
 *
 * @see IN_FIELDS_OPERATORS
 *
 * @example
 * const op: InFieldsOperator = 'ContainsInFields';
 */
export type InFieldsOperator = (typeof IN_FIELDS_OPERATORS)[number];
/**
 * One of `GROUP_OPERATORS`, as a type.
 *
 * @see GROUP_OPERATORS
 *
 * @example
 * const op: GroupOperator = 'Or';
 */
export type GroupOperator = (typeof GROUP_OPERATORS)[number];
/**
 * One of `SORT_DIRECTIONS`, as a type.
 *
 * @see SORT_DIRECTIONS
 *
 * @example
 * const direction: SortDirection = 'Desc';
 */
export type SortDirection = (typeof SORT_DIRECTIONS)[number];
/**
 * Any of the 26 condition operators.
 *
 * @example
 * const op: FilterOperator | undefined = canonicalOperator('isnull'); // 'IsNull'
 */
export type FilterOperator = SingleValueOperator | NoValueOperator | ListOperator | InFieldsOperator;

/**
 * The four argument shapes of SPEC §3's operator table.
 *
 * @example
 * const kind: OperatorKind = operatorKind('EqualInFields'); // 'in-fields'
 */
export type OperatorKind = 'single-value' | 'no-value' | 'list' | 'in-fields';

/**
 * Every condition operator, in the order of SPEC §3's table.
 *
 * @example
 * FILTER_OPERATORS.length; // 26
 */
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
