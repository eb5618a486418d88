/**
 * Lowers a validated filter into a plan that both back ends (generated code
 * and closures) emit from: groups become `all`/`any`, InFields becomes `any`
 * over its fields, and every value is normalised once — strings folded when
 * matching is case-insensitive, datetimes as epoch milliseconds. Callers may
 * build typed trees by hand, so the tree goes through `checkTypedFilter`
 * (the same check the SQL compiler runs) before it is lowered.
 */
import type { ListOperator, NoValueOperator, SingleValueOperator } from '../ast/operators.js';
import { baseOperatorOfInFields } from '../ast/operators.js';
import type { ConditionFacts } from '../ast/operator-facts.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ResolvedField } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { comparableValue } from '../schema/values.js';
import { checkTypedFilter } from '../validate/check-typed.js';
import { foldClauses, type FoldHandlers } from '../ast/fold.js';
import type { TypedFilter, TypedFilterNode, TypedScalar } from '../ast/typed-tree.js';

/**
 * A value ready to compare with a record value read the same way: folded
 * text, a number (datetimes as epoch ms) or a boolean.
 *
 * @example
 * const since: PlanValue = Date.UTC(2024, 0, 1);
 */
export type PlanValue = string | number | boolean;

/**
 * One condition on one field.
 *
 * @example
 * const test: PlanTest = { kind: 'test', path: ['LastName'], type: 'string', operator: 'StartsWith', facts: operatorFacts('StartsWith'), value: 'sm', values: [], fold: true };
 */
export interface PlanTest {
  readonly kind: 'test';
  readonly path: readonly string[];
  readonly type: ScalarType;
  readonly operator: SingleValueOperator | NoValueOperator | ListOperator;
  /** What the operator means (ast/operator-facts.ts): what both back ends emit from. */
  readonly facts: ConditionFacts;
  /** For single-value operators. */
  readonly value: PlanValue | undefined;
  /** For list operators, without duplicates. */
  readonly values: readonly PlanValue[];
  /** Whether record strings are lower-cased before comparing (values already are). */
  readonly fold: boolean;
}

/**
 * A node of the plan. `all` of nothing is true, `any` of nothing is false.
 *
 * @example
 * const everything: PlanNode = { kind: 'all', children: [] };
 */
export type PlanNode =
  | { readonly kind: 'all'; readonly children: readonly PlanNode[] }
  | { readonly kind: 'any'; readonly children: readonly PlanNode[] }
  | PlanTest;

/** A value `checkTypedFilter` accepted, in its comparison form. */
function planValue(value: TypedScalar | undefined, field: ResolvedField, fold: boolean): PlanValue {
  return comparableValue(value, field.type, fold)!;
}

/**
 * How each kind of node lowers, folded bottom-up (a group gets its lowered
 * children). The fold runs at plan time, so no record ever pays for it.
 */
function lowering(fold: boolean): FoldHandlers<TypedFilterNode, PlanNode> {
  return {
    group: (node, children) => ({ kind: node.operator === 'And' ? 'all' : 'any', children }),
    comparison: (node) => test(node.field, node.operator, planValue(node.value, node.field, fold), [], fold),
    'null-check': (node) => test(node.field, node.operator, undefined, [], fold),
    list: (node) => {
      const values = node.values.map((v) => planValue(v, node.field, fold));
      return test(node.field, node.operator, undefined, [...new Set(values)], fold);
    },
    'in-fields': (node) => {
      const base = baseOperatorOfInFields(node.operator);
      // v.OpInFields(F1,F2) is F1.Op(v) or F2.Op(v): the field on the left.
      const children = node.fields.map((field, i) => test(field, base, planValue(node.values[i], field, fold), [], fold));
      return { kind: 'any', children };
    },
  };
}

/** The two lowerings, built once: case-insensitive (values folded) and case-sensitive. */
const FOLDED = lowering(true);
const EXACT = lowering(false);

function test(
  field: ResolvedField,
  operator: PlanTest['operator'],
  value: PlanValue | undefined,
  values: readonly PlanValue[],
  fold: boolean,
): PlanTest {
  return {
    kind: 'test',
    path: field.path,
    type: field.type,
    operator,
    facts: operatorFacts(operator),
    value,
    values,
    fold: fold && field.type === 'string',
  };
}

/**
 * Lowers a typed filter into a plan; its top-level clauses become one `all`.
 * The tree goes through `checkTypedFilter` first, so an inconsistent tree,
 * one past a limit or one with an unknown kind or operator throws
 * `WepqlError` instead of evaluating.
 *
 * @example
 * planFilter(typed, { caseSensitive: false, limits: DEFAULT_LIMITS });
 * // { kind: 'all', children: [{ kind: 'test', path: ['LastName'], operator: 'StartsWith', value: 'sm', … }] }
 */
export function planFilter(filter: TypedFilter, options: { readonly caseSensitive: boolean; readonly limits: Limits }): PlanNode {
  const fold = !options.caseSensitive;
  const checked = checkTypedFilter(filter, { limits: options.limits });
  return { kind: 'all', children: foldClauses(checked.clauses, fold ? FOLDED : EXACT) };
}
