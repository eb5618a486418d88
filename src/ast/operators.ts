/**
 * The operator vocabulary of the filter language (docs/reference.md §"Filter grammar"),
 * as `as const`
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
 * The four argument shapes of the operator table.
 *
 * @example
 * const kind: OperatorKind = operatorKind('EqualInFields'); // 'in-fields'
 */
export type OperatorKind = 'single-value' | 'no-value' | 'list' | 'in-fields';

/**
 * The scalar types a field may have. Declared here, with the operators, since
 * what an operator applies to is part of its meaning; the schema module
 * re-exports it.
 *
 * @example
 * const type: ScalarType = 'datetime';
 */
export type ScalarType = 'string' | 'number' | 'integer' | 'datetime' | 'boolean';

/**
 * Every scalar type, in documentation order.
 *
 * @example
 * SCALAR_TYPES.includes('boolean'); // true
 */
export const SCALAR_TYPES: readonly ScalarType[] = Object.freeze(['string', 'number', 'integer', 'datetime', 'boolean']);

const ORDERED_TYPES = ['number', 'integer', 'datetime'] as const satisfies readonly ScalarType[];
const TEXT_TYPES = ['string'] as const satisfies readonly ScalarType[];

/**
 * What an operator tests: equality, order, a substring, nullness or
 * membership in a list.
 *
 * @example
 * const family: OperatorFamily = OPERATORS.StartsWith.family; // 'text'
 */
export type OperatorFamily = 'equality' | 'order' | 'text' | 'null' | 'membership';

/**
 * How an equality or order operator relates a field value `x` to the value `v`.
 *
 * @example
 * const relation: OperatorRelation = OPERATORS.LessThanOrEqual.relation; // '<='
 */
export type OperatorRelation = '=' | '<>' | '<' | '<=' | '>' | '>=';

/**
 * Where a text operator looks for its value in the field's text.
 *
 * @example
 * const position: TextPosition = OPERATORS.NotStartsWith.position; // 'starts'
 */
export type TextPosition = 'contains' | 'starts' | 'ends';

/**
 * What one operator means. Every stage (validation, evaluation, SQL, lint,
 * explain, completion, the builder's types) reads these facts from
 * `OPERATORS` rather than restating them.
 *
 * @example
 * const info: OperatorInfo = OPERATORS.NotInArrayOrNull;
 * info.nullMatches; // true
 */
export interface OperatorInfo {
  /** The argument shape. */
  readonly arity: OperatorKind;
  /** What the operator tests. */
  readonly family: OperatorFamily;
  /** The field types it applies to (an InFields operator: each listed field's type). */
  readonly types: readonly ScalarType[];
  /**
   * The operator that holds on exactly the non-null values where this one
   * fails (`LessThan` → `GreaterThanOrEqual`); null where none exists (InFields).
   */
  readonly negation: FilterOperator | null;
  /** Whether it is written as the negation of another operator (`NotEqual`, `NotInArrayOrNull`, `IsNotNull`). */
  readonly negative: boolean;
  /** Whether a null field (missing, null, or not of the field's type) satisfies it. */
  readonly nullMatches: boolean;
  /** Equality and order operators: how `x` relates to `v`. */
  readonly relation?: OperatorRelation;
  /** Text operators: where the value must (or, negative, must not) occur. */
  readonly position?: TextPosition;
  /** InFields operators: the single-field operator applied to each listed field. */
  readonly base?: SingleValueOperator;
}

/**
 * The argument shape an operator's name list gives it. The table's `arity`
 * must agree (checked where `OPERATORS` is declared), so arity is stated by
 * the lists above and merely repeated, never contradicted, in the table.
 *
 * @example
 * type Shape = ArityOfName<'InArrayOrNull'>; // 'list'
 */
export type ArityOfName<O extends FilterOperator> = O extends SingleValueOperator
  ? 'single-value'
  : O extends NoValueOperator
    ? 'no-value'
    : O extends ListOperator
      ? 'list'
      : 'in-fields';

/**
 * The operator table: the one place that says what each of the 26 condition
 * operators means. `v.OpInFields(F1,F2)` is `F1.Op(v) or F2.Op(v)`, so an
 * InFields operator takes its base operator's types and is false when every
 * listed field is null. Every operator but `IsNull` and the `…OrNull` lists
 * is false on a null field.
 *
 * @example
 * OPERATORS.Contains.types;            // ['string']
 * OPERATORS.GreaterThan.negation;      // 'LessThanOrEqual'
 * OPERATORS.InArrayOrNull.nullMatches; // true
 */
// prettier-ignore
export const OPERATORS = {
  Equal: { arity: 'single-value', family: 'equality', types: SCALAR_TYPES, negation: 'NotEqual', negative: false, nullMatches: false, relation: '=' },
  NotEqual: { arity: 'single-value', family: 'equality', types: SCALAR_TYPES, negation: 'Equal', negative: true, nullMatches: false, relation: '<>' },
  LessThan: { arity: 'single-value', family: 'order', types: ORDERED_TYPES, negation: 'GreaterThanOrEqual', negative: false, nullMatches: false, relation: '<' },
  LessThanOrEqual: { arity: 'single-value', family: 'order', types: ORDERED_TYPES, negation: 'GreaterThan', negative: false, nullMatches: false, relation: '<=' },
  GreaterThan: { arity: 'single-value', family: 'order', types: ORDERED_TYPES, negation: 'LessThanOrEqual', negative: false, nullMatches: false, relation: '>' },
  GreaterThanOrEqual: { arity: 'single-value', family: 'order', types: ORDERED_TYPES, negation: 'LessThan', negative: false, nullMatches: false, relation: '>=' },
  Contains: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'NotContains', negative: false, nullMatches: false, position: 'contains' },
  StartsWith: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'NotStartsWith', negative: false, nullMatches: false, position: 'starts' },
  EndsWith: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'NotEndsWith', negative: false, nullMatches: false, position: 'ends' },
  NotContains: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'Contains', negative: true, nullMatches: false, position: 'contains' },
  NotStartsWith: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'StartsWith', negative: true, nullMatches: false, position: 'starts' },
  NotEndsWith: { arity: 'single-value', family: 'text', types: TEXT_TYPES, negation: 'EndsWith', negative: true, nullMatches: false, position: 'ends' },
  IsNull: { arity: 'no-value', family: 'null', types: SCALAR_TYPES, negation: 'IsNotNull', negative: false, nullMatches: true },
  IsNotNull: { arity: 'no-value', family: 'null', types: SCALAR_TYPES, negation: 'IsNull', negative: true, nullMatches: false },
  InArray: { arity: 'list', family: 'membership', types: SCALAR_TYPES, negation: 'NotInArray', negative: false, nullMatches: false },
  InArrayOrNull: { arity: 'list', family: 'membership', types: SCALAR_TYPES, negation: 'NotInArrayOrNull', negative: false, nullMatches: true },
  NotInArray: { arity: 'list', family: 'membership', types: SCALAR_TYPES, negation: 'InArray', negative: true, nullMatches: false },
  NotInArrayOrNull: { arity: 'list', family: 'membership', types: SCALAR_TYPES, negation: 'InArrayOrNull', negative: true, nullMatches: true },
  EqualInFields: { arity: 'in-fields', family: 'equality', types: SCALAR_TYPES, negation: null, negative: false, nullMatches: false, relation: '=', base: 'Equal' },
  LessThanInFields: { arity: 'in-fields', family: 'order', types: ORDERED_TYPES, negation: null, negative: false, nullMatches: false, relation: '<', base: 'LessThan' },
  LessThanOrEqualInFields: { arity: 'in-fields', family: 'order', types: ORDERED_TYPES, negation: null, negative: false, nullMatches: false, relation: '<=', base: 'LessThanOrEqual' },
  GreaterThanInFields: { arity: 'in-fields', family: 'order', types: ORDERED_TYPES, negation: null, negative: false, nullMatches: false, relation: '>', base: 'GreaterThan' },
  GreaterThanOrEqualInFields: { arity: 'in-fields', family: 'order', types: ORDERED_TYPES, negation: null, negative: false, nullMatches: false, relation: '>=', base: 'GreaterThanOrEqual' },
  ContainsInFields: { arity: 'in-fields', family: 'text', types: TEXT_TYPES, negation: null, negative: false, nullMatches: false, position: 'contains', base: 'Contains' },
  StartsWithInFields: { arity: 'in-fields', family: 'text', types: TEXT_TYPES, negation: null, negative: false, nullMatches: false, position: 'starts', base: 'StartsWith' },
  EndsWithInFields: { arity: 'in-fields', family: 'text', types: TEXT_TYPES, negation: null, negative: false, nullMatches: false, position: 'ends', base: 'EndsWith' },
} as const satisfies { readonly [O in FilterOperator]: OperatorInfo & { readonly arity: ArityOfName<O> } };

/**
 * The operators whose table entry lists type `K`: what a field of that type
 * accepts, as a type.
 *
 * @example
 * type BooleanOps = OperatorsForType<'boolean'>; // 'Equal' | 'NotEqual' | 'IsNull' | … | 'EqualInFields'
 */
export type OperatorsForType<K extends ScalarType> = {
  [O in FilterOperator]: K extends (typeof OPERATORS)[O]['types'][number] ? O : never;
}[FilterOperator];

/**
 * Every condition operator, in the order of the operator table.
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

// Keywords match case-insensitively; a Map keyed by the lower-cased spelling
// avoids any prototype-chain lookups on hostile names like `__proto__`.
const OPERATOR_BY_LOWER: ReadonlyMap<string, FilterOperator> = new Map(FILTER_OPERATORS.map((op) => [op.toLowerCase(), op] as const));

// Exact spellings only, for trees built by code: `constructor` or
// `toString` must never reach an inherited property of `OPERATORS`.
const OPERATOR_BY_NAME: ReadonlyMap<unknown, OperatorInfo> = new Map(
  FILTER_OPERATORS.map((op) => [op, OPERATORS[op] as OperatorInfo] as const),
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
 * The table entry of an exactly spelled operator name, or undefined for
 * anything else (another case, `constructor`, a non-string): the lookup a
 * tree built by code must go through.
 *
 * @example
 * operatorInfo('InArray')?.arity; // 'list'
 * operatorInfo('constructor');    // undefined
 */
export function operatorInfo(name: unknown): OperatorInfo | undefined {
  return OPERATOR_BY_NAME.get(name);
}

/**
 * The argument shape of a canonical operator name.
 *
 * @example
 * operatorKind('InArray'); // 'list'
 */
export function operatorKind(op: FilterOperator): OperatorKind {
  return OPERATORS[op].arity;
}

/**
 * For an InFields operator, the single-field operator it applies to each
 * field (`v.OpInFields(F1,F2)` is `F1.Op(v) or F2.Op(v)`).
 *
 * @example
 * baseOperatorOfInFields('StartsWithInFields'); // 'StartsWith'
 */
export function baseOperatorOfInFields(op: InFieldsOperator): SingleValueOperator {
  return OPERATORS[op].base;
}
