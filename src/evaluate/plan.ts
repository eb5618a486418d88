/**
 * Lowers a validated filter into a plan that both back ends (generated code
 * and closures) emit from: groups become `all`/`any`, InFields becomes `any`
 * over its fields, and every value is normalised once — strings folded when
 * matching is case-insensitive, datetimes as epoch milliseconds. The typed
 * tree is re-checked (operator against type, value against type, depth),
 * since callers may build one by hand.
 */
import type { Span } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import type { ListOperator, NoValueOperator, SingleValueOperator } from '../ast/operators.js';
import { baseOperatorOfInFields } from '../ast/operators.js';
import { codeInfo } from '../diagnostics/codes.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ResolvedField } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { isOperatorApplicable } from '../validate/applicability.js';
import type { TypedFilter, TypedFilterNode, TypedScalar } from '../validate/typed-tree.js';

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
 * const test: PlanTest = { kind: 'test', path: ['LastName'], type: 'string', operator: 'StartsWith', value: 'sm', values: [], fold: true };
 */
export interface PlanTest {
  readonly kind: 'test';
  readonly path: readonly string[];
  readonly type: ScalarType;
  readonly operator: SingleValueOperator | NoValueOperator | ListOperator;
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

function spanOf(node: { readonly source?: { readonly span?: Span } }): Span {
  return node.source?.span ?? NO_SPAN;
}

function fail(code: DiagnosticCode, message: string, span: Span): never {
  const diagnostic: Diagnostic = { code, severity: codeInfo(code).severity, message, start: span.start, end: span.end };
  throw WepqlError.from('filter', [diagnostic]);
}

/**
 * Reads a typed value as its field's comparison form, or returns undefined
 * when the value does not have the field's type.
 */
function normalizeValue(value: TypedScalar, type: ScalarType, fold: boolean): PlanValue | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? (fold ? value.toLowerCase() : value) : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'datetime': {
      if (!(value instanceof Date)) return undefined;
      const t = value.getTime();
      return Number.isNaN(t) ? undefined : t;
    }
  }
}

function checkedValue(value: TypedScalar, field: ResolvedField, fold: boolean, span: Span): PlanValue {
  const normalized = normalizeValue(value, field.type, fold);
  if (normalized === undefined) {
    fail('invalid-value', `the value for ${field.name} is not a ${field.type} (the typed tree is inconsistent)`, span);
  }
  return normalized;
}

function checkApplicable(operator: SingleValueOperator | NoValueOperator | ListOperator, field: ResolvedField, span: Span): void {
  if (!isOperatorApplicable(operator, field.type)) {
    fail('operator-not-applicable', `${operator} does not apply to ${field.name}, a ${field.type} field`, span);
  }
}

function lowerNode(node: TypedFilterNode, fold: boolean, depth: number, limits: Limits): PlanNode {
  const span = spanOf(node);
  switch (node.kind) {
    case 'group': {
      if (depth + 1 > limits.maxDepth) {
        fail('nesting-too-deep', `groups nest deeper than ${limits.maxDepth} levels (limit maxDepth)`, span);
      }
      const children = node.children.map((child) => lowerNode(child, fold, depth + 1, limits));
      return { kind: node.operator === 'And' ? 'all' : 'any', children };
    }
    case 'comparison':
      checkApplicable(node.operator, node.field, span);
      return test(node.field, node.operator, checkedValue(node.value, node.field, fold, span), [], fold);
    case 'null-check':
      checkApplicable(node.operator, node.field, span);
      return test(node.field, node.operator, undefined, [], fold);
    case 'list': {
      checkApplicable(node.operator, node.field, span);
      const values = node.values.map((v) => checkedValue(v, node.field, fold, span));
      return test(node.field, node.operator, undefined, [...new Set(values)], fold);
    }
    case 'in-fields': {
      const base = baseOperatorOfInFields(node.operator);
      if (node.values.length !== node.fields.length) {
        fail('incompatible-in-fields', `${node.operator} needs one converted value per field`, span);
      }
      // SPEC §6: v.OpInFields(F1,F2) is F1.Op(v) or F2.Op(v) — the field on the left.
      const children = node.fields.map((field, i) => {
        checkApplicable(base, field, span);
        return test(field, base, checkedValue(node.values[i]!, field, fold, span), [], fold);
      });
      return { kind: 'any', children };
    }
  }
}

function test(
  field: ResolvedField,
  operator: PlanTest['operator'],
  value: PlanValue | undefined,
  values: readonly PlanValue[],
  fold: boolean,
): PlanTest {
  return { kind: 'test', path: field.path, type: field.type, operator, value, values, fold: fold && field.type === 'string' };
}

/**
 * Lowers a typed filter into a plan; its top-level clauses become one `all`.
 * Throws `WepqlError` when the tree is inconsistent or nests deeper than
 * `limits.maxDepth`.
 *
 * @example
 * planFilter(typed, { caseSensitive: false, limits: DEFAULT_LIMITS });
 * // { kind: 'all', children: [{ kind: 'test', path: ['LastName'], operator: 'StartsWith', value: 'sm', … }] }
 */
export function planFilter(filter: TypedFilter, options: { readonly caseSensitive: boolean; readonly limits: Limits }): PlanNode {
  const fold = !options.caseSensitive;
  return { kind: 'all', children: filter.clauses.map((clause) => lowerNode(clause, fold, 0, options.limits)) };
}
