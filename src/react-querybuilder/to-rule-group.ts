/**
 * wepql filter → react-querybuilder rule group. The filter is validated
 * first, so every rule holds a field of the schema, an operator that applies
 * to it and values of its type: numbers and booleans as JavaScript values,
 * strings and datetimes as text (a datetime keeps the form it was written
 * in). An InFields condition becomes an `or` group with one rule per field,
 * which means the same; each rule carries `meta.wepqlInFields` so that
 * `fromRuleGroup` writes the InFields condition back while the group is
 * still of that shape.
 */
import type { RuleGroupType, RuleGroupTypeIC, RuleType } from '@react-querybuilder/core';
import type { FoldHandlers } from '../ast/fold.js';
import { foldFilter } from '../ast/fold.js';
import type { FilterAst } from '../ast/nodes.js';
import type { InFieldsOperator } from '../ast/operators.js';
import { OPERATORS } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ModelDiagnostic } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf } from '../diagnostics/model-diagnostic.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import type { TypedFilterNode, TypedScalar } from '../ast/typed-tree.js';
import type { ValueNode } from '../ast/nodes.js';
import { QUERY_BUILDER_OPERATOR_NAMES } from './operators.js';

/**
 * Options of `toRuleGroup`.
 *
 * @example
 * const options: ToRuleGroupOptions = { schema: employeeSchema, independentCombinators: true };
 */
export interface ToRuleGroupOptions {
  /** The schema the filter is validated against. */
  readonly schema: Schema;
  /** Return a `RuleGroupTypeIC` (combinators between rules) instead of a `RuleGroupType`. */
  readonly independentCombinators?: boolean;
  /** Bounds on the filter text (defaults as everywhere). */
  readonly limits?: Partial<Limits>;
}

/**
 * What `rule.meta` holds on the rules of an InFields condition.
 *
 * @example
 * const meta: WepqlRuleMeta = { wepqlInFields: 'StartsWithInFields' };
 */
export interface WepqlRuleMeta {
  readonly wepqlInFields?: InFieldsOperator;
}

/**
 * The result of `toRuleGroup`: the rule group (undefined when the filter
 * has errors) and the filter's diagnostics (with their ranges in the text).
 *
 * @example
 * const { ruleGroup, diagnostics }: ToRuleGroupResult<RuleGroupType> = toRuleGroup('Gender.IsNull()', { schema });
 */
export interface ToRuleGroupResult<G> {
  readonly ruleGroup: G | undefined;
  readonly diagnostics: readonly ModelDiagnostic[];
}

// Numbers and booleans travel as values, so exports such as JsonLogic compare them as such.
function ruleValue(field: ResolvedField, value: TypedScalar, source: ValueNode): unknown {
  return field.type === 'string' || field.type === 'datetime' ? (typeof value === 'string' ? value : source.value) : value;
}

function rule(field: ResolvedField, operator: keyof typeof QUERY_BUILDER_OPERATOR_NAMES, value: unknown, meta?: WepqlRuleMeta): RuleType {
  const r: RuleType = { field: field.name, operator: QUERY_BUILDER_OPERATOR_NAMES[operator], value };
  return meta === undefined ? r : { ...r, meta };
}

// Conditions are rules, groups rule groups, and an InFields condition an `or` group of one rule per field.
const TO_RULES: FoldHandlers<TypedFilterNode, RuleType | RuleGroupType> = {
  comparison: (node) => rule(node.field, node.operator, ruleValue(node.field, node.value, node.source.value)),
  'null-check': (node) => rule(node.field, node.operator, null),
  list: (node) =>
    rule(
      node.field,
      node.operator,
      node.values.map((v, i) => ruleValue(node.field, v, node.source.values[i]!)),
    ),
  'in-fields': (node) => {
    const base = OPERATORS[node.operator].base;
    const meta: WepqlRuleMeta = { wepqlInFields: node.operator };
    return { combinator: 'or', rules: node.fields.map((f, i) => rule(f, base, ruleValue(f, node.values[i]!, node.source.value), meta)) };
  },
  group: (node, rules) => ({ combinator: node.operator === 'And' ? 'and' : 'or', rules: [...rules] }),
};

function nodeToRules(node: TypedFilterNode): RuleType | RuleGroupType {
  return foldFilter(node, TO_RULES);
}

/**
 * A standard rule group with combinators between its rules instead.
 *
 * @example
 * toIndependentCombinators({ combinator: 'or', rules: [a, b] }); // { rules: [a, 'or', b] }
 */
export function toIndependentCombinators(group: RuleGroupType): RuleGroupTypeIC {
  const rules: unknown[] = [];
  group.rules.forEach((r, i) => {
    if (i > 0) rules.push(group.combinator);
    rules.push('rules' in r ? toIndependentCombinators(r) : r);
  });
  const ic = { rules } as RuleGroupTypeIC;
  return group.not === true ? { ...ic, not: true } : ic;
}

/**
 * Converts a wepql filter (text or tree) to a react-querybuilder rule
 * group: the top-level clauses are the root's `and` rules, `And`/`Or` are
 * groups, conditions are rules with react-querybuilder's operator names
 * (`QUERY_BUILDER_OPERATOR_NAMES`), and an InFields condition is an `or`
 * group of one rule per field. Never throws; a filter with errors gives no
 * rule group and its diagnostics.
 *
 * @example
 * toRuleGroup("LastName.StartsWith(Sm);Or(Gender.Equal(1);Gender.IsNull())", { schema: employeeSchema }).ruleGroup;
 * // { combinator: 'and', rules: [
 * //   { field: 'LastName', operator: 'beginsWith', value: 'Sm' },
 * //   { combinator: 'or', rules: [{ field: 'Gender', operator: '=', value: 1 }, { field: 'Gender', operator: 'null', value: null }] },
 * // ] }
 */
export function toRuleGroup(
  filter: string | FilterAst,
  options: ToRuleGroupOptions & { readonly independentCombinators: true },
): ToRuleGroupResult<RuleGroupTypeIC>;
export function toRuleGroup(filter: string | FilterAst, options: ToRuleGroupOptions): ToRuleGroupResult<RuleGroupType>;
export function toRuleGroup(filter: string | FilterAst, options: ToRuleGroupOptions): ToRuleGroupResult<RuleGroupType | RuleGroupTypeIC> {
  const analyzed = analyzeFilter(
    filter,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  const diagnostics = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { ruleGroup: undefined, diagnostics };
  const group: RuleGroupType = { combinator: 'and', rules: analyzed.value.clauses.map(nodeToRules) };
  return { ruleGroup: options.independentCombinators === true ? toIndependentCombinators(group) : group, diagnostics };
}
