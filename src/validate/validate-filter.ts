/**
 * Types a filter's syntax tree against a schema (docs/reference.md §"Types and values"):
 * resolves every
 * field, checks each operator against its field's type and converts every
 * value, reporting all problems in one pass. The evaluator and the SQL
 * compiler consume only the typed tree this returns.
 */
import type { ComparisonNode, FilterAst, FilterNode, GroupNode, InFieldsNode, ListNode, NullCheckNode, ValueNode } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { hasInvalidCharacter } from '../ast/lexical.js';
import { describeApplicableTypes, isOperatorApplicable } from './applicability.js';
import { convertValueText } from './convert-value.js';
import { Reporter, quoteText } from './report.js';
import { resolveField } from './resolve-field.js';
import { matchFilterNodeWith, type MatchWithHandlers } from '../ast/fold.js';
import type {
  TypedComparison,
  TypedFilter,
  TypedFilterNode,
  TypedGroup,
  TypedInFields,
  TypedList,
  TypedNullCheck,
  TypedScalar,
} from '../ast/typed-tree.js';

/**
 * Options of `validateFilter` and `validateSort`.
 *
 * @example
 * const options: ValidateOptions = { limits: { maxConditions: 16 } };
 */
export interface ValidateOptions {
  /** Bounds on the tree (docs/reference.md §"Limits"); unset fields take the defaults. */
  readonly limits?: Partial<Limits>;
}

/**
 * The result of `validateFilter`: the typed tree, undefined exactly when an error was reported.
 *
 * @example
 * const { value, diagnostics }: ValidateFilterResult = validateFilter(parseFilter('Id.Equal(1)').ast, schema);
 */
export interface ValidateFilterResult {
  readonly value: TypedFilter | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Validates a filter's syntax tree against a schema and converts it to the
 * typed tree. Never throws. Reports, each at the offending node's range:
 * `unknown-field` (with the nearest name as suggestion, not as a fix: a guess is not safe to apply),
 * `field-case-mismatch` (a warning; the field still resolves),
 * `not-a-leaf-field`, `not-filterable`, `operator-not-applicable` (at the
 * operator), `invalid-value` and `integer-out-of-range` (at the value),
 * `incompatible-in-fields` (at the InFields field that does not take the
 * operator). A value is not checked when its operator does not apply to the
 * field, since what it should look like then depends on the fix.
 *
 * Trees built by code get the parser's checks too (`nesting-too-deep`,
 * `too-many-conditions`, `too-many-list-values`, `too-many-in-fields`,
 * `empty-group`, `missing-value`, `invalid-character`), so the typed tree
 * always respects the limits; recursion stops at `limits.maxDepth`.
 *
 * @example
 * const { value, diagnostics } = validateFilter(parseFilter('Salary.GreaterThan(1000)').ast, schema);
 * value?.clauses[0]; // { kind: 'comparison', operator: 'GreaterThan', field: { name: 'Salary', … }, value: 1000, … }
 */
export function validateFilter(ast: FilterAst, schema: Schema, options: ValidateOptions = {}): ValidateFilterResult {
  const limits = resolveLimits(options.limits);
  const run = new FilterValidation(schema, limits);
  const clauses = run.clauses(ast.clauses, 0);
  const diagnostics = run.reporter.diagnostics;
  if (run.reporter.hasErrors || clauses === undefined) return { value: undefined, diagnostics };
  return { value: { kind: 'typed-filter', clauses, source: ast }, diagnostics };
}

/**
 * Each node kind's check, made once: the walk passes the run as context
 * (fold.ts `matchFilterNodeWith`), with the depth of the clauses being read
 * on it, so no closure is made per validation.
 */
const VALIDATE_NODE: MatchWithHandlers<FilterNode, FilterValidation, TypedFilterNode | undefined> = {
  group: (node, run) => run.group(node, run.depth + 1),
  comparison: (node, run) => run.comparison(node),
  'null-check': (node, run) => run.nullCheck(node),
  list: (node, run) => run.list(node),
  'in-fields': (node, run) => run.inFields(node),
};

/** A node of a kind outside the tree (built by code from untrusted data) fails its clause; the caller still gets every other problem. */
function outsideTheTree(): undefined {
  return undefined;
}

class FilterValidation {
  readonly reporter: Reporter;
  private conditions = 0;
  /** The number of groups enclosing the node being checked. */
  depth = 0;

  constructor(
    private readonly schema: Schema,
    private readonly limits: Limits,
  ) {
    this.reporter = new Reporter(limits.maxErrors);
  }

  /** `depth` is the number of groups enclosing these clauses. */
  clauses(nodes: readonly FilterNode[], depth: number): TypedFilterNode[] | undefined {
    const out: TypedFilterNode[] = [];
    let ok = true;
    for (const node of nodes) {
      const typed = this.node(node, depth);
      if (typed === undefined) ok = false;
      else out.push(typed);
    }
    return ok ? out : undefined;
  }

  private node(node: FilterNode, depth: number): TypedFilterNode | undefined {
    this.depth = depth;
    return matchFilterNodeWith(node, VALIDATE_NODE, this, outsideTheTree);
  }

  group(node: GroupNode, depth: number): TypedGroup | undefined {
    if (depth > this.limits.maxDepth) {
      // Do not descend: the bound on recursion is the point of this check.
      this.reporter.report(
        'nesting-too-deep',
        node.operatorSpan,
        `groups nest deeper than ${this.limits.maxDepth} levels (limit maxDepth); flatten the filter`,
      );
      return undefined;
    }
    if (node.children.length === 0) {
      this.reporter.report('empty-group', node.span, `${node.operator}() must contain at least one clause`);
      return undefined;
    }
    const children = this.clauses(node.children, depth);
    if (children === undefined) return undefined;
    return { kind: 'group', operator: node.operator, children, source: node };
  }

  private countCondition(node: FilterNode): boolean {
    this.conditions++;
    if (this.conditions === this.limits.maxConditions + 1) {
      this.reporter.report(
        'too-many-conditions',
        node.span,
        `the filter has more than ${this.limits.maxConditions} conditions (limit maxConditions)`,
      );
    }
    return this.conditions <= this.limits.maxConditions;
  }

  comparison(node: ComparisonNode): TypedComparison | undefined {
    const counted = this.countCondition(node);
    const field = resolveField(node.field, this.schema, 'filter', this.reporter);
    if (field === undefined || !this.applies(node, field)) return undefined;
    const value = this.convert(node.value, field);
    if (value === undefined || !counted) return undefined;
    return { kind: 'comparison', operator: node.operator, field, value, source: node };
  }

  nullCheck(node: NullCheckNode): TypedNullCheck | undefined {
    const counted = this.countCondition(node);
    const field = resolveField(node.field, this.schema, 'filter', this.reporter);
    if (field === undefined || !this.applies(node, field) || !counted) return undefined;
    return { kind: 'null-check', operator: node.operator, field, source: node };
  }

  list(node: ListNode): TypedList | undefined {
    const counted = this.countCondition(node);
    let ok = counted;
    const max = this.limits.maxListValues;
    if (node.values.length > max) {
      const first = node.values[max]!;
      const last = node.values[node.values.length - 1]!;
      this.reporter.report(
        'too-many-list-values',
        { start: first.span.start, end: last.span.end },
        `${node.operator} has ${node.values.length} values; at most ${max} are allowed (limit maxListValues)`,
      );
      ok = false;
    }
    if (node.values.length === 0) {
      this.reporter.report('missing-value', node.span, `${node.operator} needs one or more values`);
      ok = false;
    }
    const field = resolveField(node.field, this.schema, 'filter', this.reporter);
    if (field === undefined || !this.applies(node, field)) return undefined;
    const values: TypedScalar[] = [];
    // Past the limit the values are not read: that is what the limit bounds.
    for (const v of node.values.slice(0, max)) {
      const typed = this.convert(v, field);
      if (typed === undefined) ok = false;
      else values.push(typed);
    }
    if (!ok) return undefined;
    return { kind: 'list', operator: node.operator, field, values, source: node };
  }

  inFields(node: InFieldsNode): TypedInFields | undefined {
    let ok = this.countCondition(node);
    const max = this.limits.maxInFields;
    if (node.fields.length > max) {
      const first = node.fields[max]!;
      const last = node.fields[node.fields.length - 1]!;
      this.reporter.report(
        'too-many-in-fields',
        { start: first.span.start, end: last.span.end },
        `${node.operator} lists ${node.fields.length} fields; at most ${max} are allowed (limit maxInFields)`,
      );
      ok = false;
    }
    if (node.fields.length === 0) {
      this.reporter.report('missing-value', node.span, `${node.operator} needs one or more fields`);
      ok = false;
    }
    if (!this.valueCharactersOk(node.value)) ok = false;
    const fields: ResolvedField[] = [];
    const values: TypedScalar[] = [];
    // The head value reads once per field type; report each type it fails once.
    const failedTypes = new Set<ScalarType>();
    for (const fieldNode of node.fields.slice(0, max)) {
      const field = resolveField(fieldNode, this.schema, 'filter', this.reporter);
      if (field === undefined) {
        ok = false;
        continue;
      }
      if (!isOperatorApplicable(node.operator, field.type)) {
        this.reporter.report(
          'incompatible-in-fields',
          fieldNode.span,
          `${quoteText(field.name)} is ${aField(field.type)} and does not take ${node.operator}, which takes ${describeApplicableTypes(node.operator)}`,
        );
        ok = false;
        continue;
      }
      if (failedTypes.has(field.type)) continue;
      const converted = convertValueText(node.value.value, field.type);
      if (!converted.ok) {
        if (!failedTypes.has(field.type)) {
          failedTypes.add(field.type);
          this.reporter.report(
            converted.code,
            node.value.span,
            `${quoteText(node.value.value)} is not a valid value for ${quoteText(field.name)} (${aField(field.type)}): ${converted.reason}`,
          );
        }
        ok = false;
        continue;
      }
      fields.push(field);
      values.push(converted.value);
    }
    if (!ok) return undefined;
    return { kind: 'in-fields', operator: node.operator, fields, values, source: node };
  }

  private applies(node: ComparisonNode | NullCheckNode | ListNode, field: ResolvedField): boolean {
    if (isOperatorApplicable(node.operator, field.type)) return true;
    this.reporter.report(
      'operator-not-applicable',
      node.operatorSpan,
      `${node.operator} does not apply to ${quoteText(field.name)}, ${aField(field.type)}; it takes ${describeApplicableTypes(node.operator)}`,
    );
    return false;
  }

  private valueCharactersOk(value: ValueNode): boolean {
    if (!hasInvalidCharacter(value.value)) return true;
    this.reporter.report(
      'invalid-character',
      value.span,
      'the value contains U+0000 or an unpaired surrogate, which databases reject; remove it',
    );
    return false;
  }

  private convert(value: ValueNode, field: ResolvedField): TypedScalar | undefined {
    if (!this.valueCharactersOk(value)) return undefined;
    const converted = convertValueText(value.value, field.type);
    if (converted.ok) return converted.value;
    this.reporter.report(
      converted.code,
      value.span,
      `${quoteText(value.value)} is not a valid value for ${quoteText(field.name)} (${aField(field.type)}): ${converted.reason}`,
    );
    return undefined;
  }
}

function aField(type: ScalarType): string {
  return `${type === 'integer' ? 'an' : 'a'} ${type} field`;
}
