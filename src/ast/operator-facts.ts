/**
 * The operator table lowered once to what a stage needs to interpret a
 * condition, so that no stage switches on an operator name: every operator
 * is "a positive test on a non-null value, maybe negated, with a fixed
 * answer on null" (docs/reference.md §"Filter semantics"). A condition
 * `F.Op(v)` holds on a record exactly when
 *
 *     value === null ? facts.nullMatches : passes(facts.test, value) !== facts.negated
 *
 * and `v.OpInFields(F1,F2)` is `F1.Op(v) or F2.Op(v)` with the facts of its
 * base operator. The evaluator's back ends, lint's atoms, schema evolution,
 * explain and the index advisor read these facts.
 */
import type { FilterOperator, OperatorKind, OperatorRelation, TextPosition } from './operators.js';
import { FILTER_OPERATORS, OPERATORS } from './operators.js';

/**
 * A relation of a positive comparison (`NotEqual` is `=` negated).
 *
 * @example
 * const relation: PositiveRelation = operatorFacts('NotEqual').test.relation; // '='
 */
export type PositiveRelation = Exclude<OperatorRelation, '<>'>;

/**
 * The positive test a condition applies to a non-null value: compare it with
 * the value, look for the value in its text, look it up in the list, or
 * nothing (a null check: every non-null value passes).
 *
 * @example
 * const test: ValueTest = { kind: 'text', position: 'starts' };
 */
export type ValueTest =
  | { readonly kind: 'compare'; readonly relation: PositiveRelation }
  | { readonly kind: 'text'; readonly position: TextPosition }
  | { readonly kind: 'member' }
  | { readonly kind: 'present' };

/**
 * What one operator means to an interpreter.
 *
 * @example
 * operatorFacts('NotInArrayOrNull'); // { test: { kind: 'member' }, negated: true, nullMatches: true, values: 'list', … }
 */
export interface ConditionFacts {
  /** The operator as written. */
  readonly operator: FilterOperator;
  /** The positive test on a non-null value (an InFields operator: its base operator's). */
  readonly test: ValueTest;
  /** Whether the operator holds where the positive test fails (`NotContains`, `NotInArray`, `IsNull`). */
  readonly negated: boolean;
  /** Whether a null field (missing, null, or not of the field's type) satisfies it. */
  readonly nullMatches: boolean;
  /** What the arguments are: one value, none, a list of values, or fields (the value is the head). */
  readonly values: OperatorKind;
}

function valueTest(op: FilterOperator): ValueTest {
  const info = OPERATORS[op];
  switch (info.family) {
    case 'equality':
    case 'order': {
      const relation = 'relation' in info ? info.relation : '=';
      return { kind: 'compare', relation: relation === '<>' ? '=' : relation };
    }
    case 'text':
      return { kind: 'text', position: 'position' in info ? info.position : 'contains' };
    case 'membership':
      return { kind: 'member' };
    case 'null':
      return { kind: 'present' };
  }
}

function lower(op: FilterOperator): ConditionFacts {
  const info = OPERATORS[op];
  // `IsNull` is the negated presence test: it fails on every non-null value.
  const negated = info.family === 'null' ? info.nullMatches : info.negative;
  return Object.freeze({ operator: op, test: Object.freeze(valueTest(op)), negated, nullMatches: info.nullMatches, values: info.arity });
}

const FACTS: ReadonlyMap<FilterOperator, ConditionFacts> = new Map(FILTER_OPERATORS.map((op) => [op, lower(op)] as const));

/**
 * The facts of a canonical operator name.
 *
 * @example
 * operatorFacts('NotStartsWith'); // { test: { kind: 'text', position: 'starts' }, negated: true, nullMatches: false, … }
 * operatorFacts('GreaterThanInFields').test; // { kind: 'compare', relation: '>' }
 */
export function operatorFacts(op: FilterOperator): ConditionFacts {
  return FACTS.get(op)!;
}

/**
 * Whether a non-null value passes a positive test, given the condition's
 * value (`compare`, `text`) or values (`member`). Values are compared as
 * they are: fold strings and read datetimes as numbers before calling.
 *
 * @example
 * passesTest({ kind: 'text', position: 'starts' }, 'smith', 'sm', []); // true
 */
export function passesTest(
  test: ValueTest,
  x: string | number | boolean,
  value: string | number | boolean | undefined,
  values: readonly unknown[],
): boolean {
  switch (test.kind) {
    case 'compare':
      return compare(test.relation, x, value!);
    case 'text':
      return textHas(test.position, String(x), String(value));
    case 'member':
      return values.includes(x);
    case 'present':
      return true;
  }
}

function compare(relation: PositiveRelation, x: string | number | boolean, v: string | number | boolean): boolean {
  switch (relation) {
    case '=':
      return x === v;
    case '<':
      return x < v;
    case '<=':
      return x <= v;
    case '>':
      return x > v;
    case '>=':
      return x >= v;
  }
}

function textHas(position: TextPosition, x: string, v: string): boolean {
  switch (position) {
    case 'contains':
      return x.includes(v);
    case 'starts':
      return x.startsWith(v);
    case 'ends':
      return x.endsWith(v);
  }
}

/**
 * What a stage asks of the table when it must name an operator (a grid's
 * "greater than" item, a rule builder's `between`): the positive test and,
 * where they matter, negation, the null answer and the argument shape.
 * Omitted `negated` means `false`; omitted `nullMatches` means either;
 * omitted `values` means any shape but fields.
 *
 * @example
 * const query: OperatorQuery = { test: { kind: 'member' }, negated: true, nullMatches: true };
 */
export interface OperatorQuery {
  /** The positive test on a non-null value. */
  readonly test: ValueTest;
  /** Whether the operator holds where the positive test fails. */
  readonly negated?: boolean;
  /** Whether a null field satisfies it. */
  readonly nullMatches?: boolean;
  /** The argument shape; `'in-fields'` must be asked for. */
  readonly values?: OperatorKind;
}

function sameTest(a: ValueTest, b: ValueTest): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'compare') return a.relation === (b as typeof a).relation;
  if (a.kind === 'text') return a.position === (b as typeof a).position;
  return true;
}

/**
 * The first operator of the table (in its declared order) whose facts answer
 * `query`, so that a stage which must produce an operator names it by what
 * it means rather than by its spelling. Throws when none does: the queries
 * are written in code, so a miss is a programming error.
 *
 * @example
 * operatorFor({ test: { kind: 'compare', relation: '>=' } }); // 'GreaterThanOrEqual'
 * operatorFor({ test: { kind: 'text', position: 'starts' }, negated: true }); // 'NotStartsWith'
 * operatorFor({ test: { kind: 'present' }, negated: true }); // 'IsNull'
 * operatorFor({ test: { kind: 'member' }, nullMatches: true }); // 'InArrayOrNull'
 */
export function operatorFor(query: OperatorQuery): FilterOperator {
  const negated = query.negated ?? false;
  for (const facts of FACTS.values()) {
    if (!sameTest(facts.test, query.test) || facts.negated !== negated) continue;
    if (query.nullMatches !== undefined && facts.nullMatches !== query.nullMatches) continue;
    if (query.values === undefined ? facts.values === 'in-fields' : facts.values !== query.values) continue;
    return facts.operator;
  }
  throw new Error(`operatorFor: no operator answers ${JSON.stringify(query)}`);
}
