/**
 * react-querybuilder rule group → wepql filter. Rules become conditions,
 * groups `And`/`Or`; groups with independent combinators read the way
 * react-querybuilder reads them (`and` binds tighter than `or`). Whatever
 * wepql cannot say — a negated group, `xor`, a rule comparing two fields,
 * match modes, an unknown operator — is an error at the rule's or group's
 * path (react-querybuilder's own `path`: indices into nested `rules`), and
 * the text is validated against the schema with every diagnostic reported
 * at the rule it comes from.
 */
import type { RuleGroupType, RuleGroupTypeIC } from '@react-querybuilder/core';
import type { PositiveRelation } from '../ast/operator-facts.js';
import { operatorFor } from '../ast/operator-facts.js';
import type { FilterOperator, GroupOperator, InFieldsOperator } from '../ast/operators.js';
import { OPERATORS, operatorInfo } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { ModelDiagnostic } from '../diagnostics/model-diagnostic.js';
import { modelValueLabel } from '../diagnostics/model-diagnostic.js';
import type { ModelClause, ModelFilterResult } from '../print/model-text.js';
import { modelFilterText, modelValueText } from '../print/model-text.js';
import type { Schema } from '../schema/schema.js';
import { ruleOperator } from './operators.js';

/**
 * Options of `fromRuleGroup`.
 *
 * @example
 * const options: FromRuleGroupOptions = { schema: employeeSchema };
 */
export interface FromRuleGroupOptions {
  /** The schema rules are validated against. */
  readonly schema: Schema;
  /** Bounds (nesting depth, number of rules, text length); defaults as everywhere. */
  readonly limits?: Partial<Limits>;
}

type Path = readonly number[];

interface Walk {
  readonly out: ModelDiagnostic[];
  readonly limits: Limits;
  rules: number;
}

interface Item {
  readonly node: unknown;
  readonly path: Path;
}

// Own properties only: a hostile model must not reach the prototype chain.
function prop(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

function error(walk: Walk, path: Path, code: ModelDiagnostic['code'], message: string): undefined {
  walk.out.push({ code, severity: 'error', message, path });
  return undefined;
}

// Splits `a, b\,c` the way react-querybuilder's text editors write lists: commas, `\,` for a comma, items trimmed
// with JavaScript's trim, as react-querybuilder's own list reading (`toArray`) trims them.
function splitList(text: string): string[] {
  if (text.trim().length === 0) return [];
  return text.split(/(?<!\\),/).map((s) => s.replaceAll('\\,', ',').trim());
}

function valueTexts(value: unknown, list: boolean): (string | undefined)[] {
  if (Array.isArray(value)) return value.map(modelValueText);
  if (list && typeof value === 'string') return splitList(value);
  return [modelValueText(value)];
}

function ruleValues(walk: Walk, rule: unknown, path: Path, count: 'one' | 'two' | 'list'): string[] | undefined {
  const texts = valueTexts(prop(rule, 'value'), count !== 'one');
  if (texts.some((t) => t === undefined)) {
    return error(walk, path, 'invalid-value', "the rule's value must be text, a finite number, a boolean or a date");
  }
  if (count === 'one' && texts.length !== 1) return error(walk, path, 'invalid-value', 'the rule needs exactly one value');
  if (count === 'two' && texts.length !== 2) return error(walk, path, 'invalid-value', 'between needs two values');
  if (count === 'list' && texts.length === 0) return error(walk, path, 'missing-value', 'the list operator needs at least one value');
  return texts as string[];
}

function ordered(relation: PositiveRelation): FilterOperator {
  return operatorFor({ test: { kind: 'compare', relation } });
}

// react-querybuilder's `between`/`notBetween` are two order conditions in wepql.
function betweenClause(walk: Walk, field: string, negated: boolean, rule: unknown, path: Path): ModelClause | undefined {
  const v = ruleValues(walk, rule, path, 'two');
  if (v === undefined) return undefined;
  const [low, high] = v as [string, string];
  const children: ModelClause[] = negated
    ? [
        { kind: 'condition', field, operator: ordered('<'), values: [low], path },
        { kind: 'condition', field, operator: ordered('>'), values: [high], path },
      ]
    : [
        { kind: 'condition', field, operator: ordered('>='), values: [low], path },
        { kind: 'condition', field, operator: ordered('<='), values: [high], path },
      ];
  return { kind: 'group', operator: negated ? 'Or' : 'And', children, path };
}

function ruleClause(walk: Walk, rule: unknown, path: Path): ModelClause | undefined {
  if (prop(rule, 'muted') === true || prop(rule, 'disabled') === true) {
    walk.out.push({ code: 'skipped', severity: 'info', message: 'a muted or disabled rule is not part of the filter', path });
    return undefined;
  }
  if (++walk.rules > walk.limits.maxConditions)
    return error(walk, path, 'too-many-conditions', `more than ${walk.limits.maxConditions} rules`);
  const field = prop(rule, 'field');
  if (typeof field !== 'string') return error(walk, path, 'invalid-model', 'a rule needs a field name');
  if (prop(rule, 'valueSource') === 'field') {
    return error(walk, path, 'not-expressible', 'wepql compares a field with values, not with another field (valueSource "field")');
  }
  if (prop(rule, 'match') !== undefined || prop(rule, 'lhs') !== undefined) {
    return error(walk, path, 'not-expressible', 'match modes and left-hand expressions have no wepql form');
  }
  const name = prop(rule, 'operator');
  if (typeof name === 'string' && /^(not)?between$/i.test(name)) return betweenClause(walk, field, name.length > 7, rule, path);
  const operator = ruleOperator(name);
  if (operator === undefined)
    return error(walk, path, 'unknown-model-operator', `the operator ${modelValueLabel(name)} has no wepql counterpart`);
  const arity = OPERATORS[operator].arity;
  if (arity === 'no-value') return { kind: 'condition', field, operator, values: [], path };
  const values = ruleValues(walk, rule, path, arity === 'list' ? 'list' : 'one');
  return values === undefined ? undefined : { kind: 'condition', field, operator, values, path };
}

function isGroup(node: unknown): boolean {
  return Array.isArray(prop(node, 'rules'));
}

// The items of a group and how they combine; independent combinators give Or of And runs.
function groupItems(walk: Walk, group: unknown, path: Path): { operator: GroupOperator; runs: Item[][] } | undefined {
  const rules = prop(group, 'rules') as unknown[];
  const combinator = prop(group, 'combinator');
  if (combinator === undefined) return icItems(walk, rules, path);
  const c = typeof combinator === 'string' ? combinator.toLowerCase() : '';
  // The rules are still read after a refused combinator, so that one pass reports every problem.
  if (c !== 'and' && c !== 'or')
    error(walk, path, 'not-expressible', `the combinator ${modelValueLabel(combinator)} has no wepql form; use and or or`);
  return { operator: c === 'and' ? 'And' : 'Or', runs: [rules.map((node, i) => ({ node, path: [...path, i] }))] };
}

function icItems(walk: Walk, rules: unknown[], path: Path): { operator: GroupOperator; runs: Item[][] } | undefined {
  const runs: Item[][] = [[]];
  const seen = new Set<string>();
  for (let i = 0; i < rules.length; i++) {
    if (i % 2 === 0) {
      runs[runs.length - 1]!.push({ node: rules[i], path: [...path, i] });
      continue;
    }
    const c = typeof rules[i] === 'string' ? (rules[i] as string).toLowerCase() : '';
    if (c !== 'and' && c !== 'or')
      return error(walk, [...path, i], 'not-expressible', `the combinator ${modelValueLabel(rules[i])} has no wepql form; use and or or`);
    seen.add(c);
    if (c === 'or') runs.push([]);
  }
  if (seen.size <= 1) return { operator: seen.has('or') ? 'Or' : 'And', runs: [runs.flat()] };
  return { operator: 'Or', runs };
}

// An `or` group whose rules all carry the same `meta.wepqlInFields` and one shared value is that InFields condition again.
function inFieldsOf(group: unknown, items: readonly Item[], path: Path): ModelClause | undefined {
  const first = prop(prop(items[0]?.node, 'meta'), 'wepqlInFields');
  const info = operatorInfo(first);
  if (info === undefined || info.arity !== 'in-fields' || prop(group, 'not') === true) return undefined;
  let value: string | undefined;
  const fields: string[] = [];
  for (const { node } of items) {
    const field = prop(node, 'field');
    const text = modelValueText(prop(node, 'value'));
    if (prop(prop(node, 'meta'), 'wepqlInFields') !== first || ruleOperator(prop(node, 'operator')) !== info.base) return undefined;
    if (typeof field !== 'string' || text === undefined || (value !== undefined && text !== value)) return undefined;
    if (prop(node, 'muted') === true || prop(node, 'disabled') === true || prop(node, 'valueSource') === 'field') return undefined;
    value = text;
    fields.push(field);
  }
  return value === undefined ? undefined : { kind: 'in-fields', operator: first as InFieldsOperator, value, fields, path };
}

function itemClause(walk: Walk, item: Item, depth: number): ModelClause | undefined {
  return isGroup(item.node) ? groupClause(walk, item.node, item.path, depth + 1) : ruleClause(walk, item.node, item.path);
}

function groupClause(walk: Walk, group: unknown, path: Path, depth: number): ModelClause | undefined {
  if (depth > walk.limits.maxDepth) return error(walk, path, 'nesting-too-deep', `groups nest deeper than ${walk.limits.maxDepth}`);
  if (prop(group, 'not') === true) {
    error(
      walk,
      path,
      'not-expressible',
      'wepql cannot negate a group ("not"); negate its rules instead (NotEqual, NotInArray, NotContains, …)',
    );
  }
  const shape = groupItems(walk, group, path);
  if (shape === undefined) return undefined;
  // A one-rule group has no combinator to read when combinators are independent, so it may hold a one-field InFields.
  if (shape.runs.length === 1 && (shape.operator === 'Or' || shape.runs[0]!.length === 1)) {
    const inFields = inFieldsOf(group, shape.runs[0]!, path);
    if (inFields !== undefined) return inFields;
  }
  const clausesOf = (run: Item[]): ModelClause[] => run.map((item) => itemClause(walk, item, depth)).filter((c) => c !== undefined);
  if (shape.runs.length === 1) return { kind: 'group', operator: shape.operator, children: clausesOf(shape.runs[0]!), path };
  const children = shape.runs.map((run): ModelClause => {
    const inner = clausesOf(run);
    return inner.length === 1 ? inner[0]! : { kind: 'group', operator: 'And', children: inner, path: run[0]?.path ?? path };
  });
  return { kind: 'group', operator: 'Or', children, path };
}

/**
 * Converts a react-querybuilder rule group (`RuleGroupType` or
 * `RuleGroupTypeIC`) to wepql filter text in canonical form, validated
 * against the schema. A root `and` group's rules are the filter's top-level
 * clauses; operators may be react-querybuilder's names (`beginsWith`,
 * `notIn`, `between`) or wepql's (`StartsWith`). Never throws: `filter` is
 * undefined when any diagnostic is an error, and each diagnostic carries the
 * `path` of the rule or group it is about.
 *
 * @example
 * fromRuleGroup({ combinator: 'and', rules: [
 *   { field: 'LastName', operator: 'beginsWith', value: 'Sm' },
 *   { combinator: 'or', rules: [{ field: 'Gender', operator: '=', value: 1 }, { field: 'Gender', operator: 'null', value: null }] },
 * ] }, { schema: employeeSchema });
 * // { filter: 'LastName.StartsWith(Sm);Or(Gender.Equal(1);Gender.IsNull())', text: …, diagnostics: [] }
 */
export function fromRuleGroup(ruleGroup: RuleGroupType | RuleGroupTypeIC, options: FromRuleGroupOptions): ModelFilterResult {
  const walk: Walk = { out: [], limits: resolveLimits(options.limits), rules: 0 };
  if (!isGroup(ruleGroup)) {
    return {
      filter: undefined,
      text: '',
      diagnostics: [{ code: 'invalid-model', severity: 'error', message: 'a rule group needs a rules array', path: [] }],
    };
  }
  const root = groupClause(walk, ruleGroup, [], 0);
  // A root `and` group is the filter itself (its clauses are ANDed by `;`); any other root is one clause.
  const clauses =
    root === undefined ? [] : root.kind === 'group' && (root.operator === 'And' || root.children.length === 0) ? root.children : [root];
  return modelFilterText(
    clauses,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
    walk.out,
  );
}
