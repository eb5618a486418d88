/**
 * `wepql/querybuilder`: wepql filters as react-querybuilder rule groups and
 * back, and the `<QueryBuilder>` configuration (`fields`, `operators`,
 * `combinators`) generated from a wepql schema. Only react-querybuilder's
 * types are used, so `@react-querybuilder/core` is an optional peer needed
 * for type checking, never at run time.
 *
 * @packageDocumentation
 */
export { toRuleGroup, toIndependentCombinators } from './to-rule-group.js';
export type { ToRuleGroupOptions, ToRuleGroupResult, WepqlRuleMeta } from './to-rule-group.js';
export { fromRuleGroup } from './from-rule-group.js';
export type { FromRuleGroupOptions } from './from-rule-group.js';
export {
  QUERY_BUILDER_OPERATOR_NAMES,
  inputTypeFor,
  queryBuilderConfig,
  queryBuilderFields,
  queryBuilderOperators,
  queryBuilderOperatorsFor,
  ruleOperator,
} from './operators.js';
export type { QueryBuilderConfig, QueryBuilderField, QueryBuilderOperator, RuleOperator } from './operators.js';
export type { ModelFilterResult } from '../print/model-text.js';
export type { ModelDiagnostic, ModelDiagnosticCode, ModelPath } from '../diagnostics/model-diagnostic.js';
