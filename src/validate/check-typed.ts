/**
 * The one check of typed trees. The validator builds typed trees that are
 * right by construction, but callers may build one by hand, from untyped
 * JavaScript or a deserialised cache; the evaluator and the SQL compiler
 * both run this check first, so they agree on what they accept and neither
 * fails open. Kinds and operators are looked up as own, exactly spelled
 * names; every operator must apply to its field's type (the operator
 * table); every value must have its field's type; and every limit holds,
 * worded as the parser words it.
 */
import type { Span } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import type { FilterOperator, OperatorInfo, OperatorKind } from '../ast/operators.js';
import { operatorInfo, SCALAR_TYPES } from '../ast/operators.js';
import { codeInfo, type DiagnosticCode } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';
import { DEPTH_CEILING, LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { hasInvalidCharacter } from '../ast/lexical.js';
import { comparableValue, type ScalarType } from '../schema/values.js';
import { describeApplicableTypes } from './applicability.js';
import type { TypedFilter } from '../ast/typed-tree.js';

/**
 * What `checkTypedFilter` checks against.
 *
 * @example
 * const options: TypedCheckOptions = { limits: DEFAULT_LIMITS, schema: employeeSchema };
 */
export interface TypedCheckOptions {
  readonly limits: Limits;
  /** When given, every field must be this schema's field of that name, spelling and type (SQL needs its columns). */
  readonly schema?: Schema;
}

// Which argument shape each node kind carries; a Map, so `constructor` or
// `__proto__` as a kind finds nothing.
const ARITY_OF_KIND: ReadonlyMap<unknown, OperatorKind | 'group'> = new Map<unknown, OperatorKind | 'group'>([
  ['group', 'group'],
  ['comparison', 'single-value'],
  ['null-check', 'no-value'],
  ['list', 'list'],
  ['in-fields', 'in-fields'],
]);
const SCALAR_TYPE_SET: ReadonlySet<unknown> = new Set(SCALAR_TYPES);

/** An own property, never one inherited through the prototype chain. */
function own(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}

function spanOf(node: unknown): Span {
  const span = own(own(node, 'source'), 'span');
  const start = own(span, 'start');
  const end = own(span, 'end');
  return typeof start === 'number' && typeof end === 'number' ? { start, end } : NO_SPAN;
}

function fail(code: DiagnosticCode, message: string, node: unknown): never {
  const span = spanOf(node);
  const diagnostic: Diagnostic = { code, severity: codeInfo(code).severity, message, start: span.start, end: span.end };
  throw WepqlError.from('filter', [diagnostic]);
}

class TypedChecker {
  private conditions = 0;

  constructor(private readonly options: TypedCheckOptions) {}

  clauses(list: unknown, depth: number, owner: unknown): void {
    if (!Array.isArray(list)) fail('invalid-typed-tree', 'the clauses of a typed filter or group must be an array', owner);
    for (const node of list) this.node(node, depth);
  }

  private node(node: unknown, depth: number): void {
    const kind = own(node, 'kind');
    const arity = ARITY_OF_KIND.get(kind);
    if (arity === undefined) {
      fail(
        'invalid-typed-tree',
        `${describe(kind)} is not a kind of typed clause (group, comparison, null-check, list or in-fields)`,
        node,
      );
    }
    const operator = own(node, 'operator');
    if (arity === 'group') {
      if (operator !== 'And' && operator !== 'Or')
        fail('invalid-typed-tree', `${describe(operator)} is not a group operator (And or Or)`, node);
      const { maxDepth } = this.options.limits;
      if (depth + 1 > Math.min(maxDepth, DEPTH_CEILING)) fail(LIMIT_CODES.maxDepth, limitMessage('maxDepth', maxDepth), node);
      const children = own(node, 'children');
      if (Array.isArray(children) && children.length === 0) fail('empty-group', `${operator}() must contain at least one clause`, node);
      this.clauses(children, depth + 1, node);
      return;
    }
    const info = operatorInfo(operator);
    if (info === undefined || info.arity !== arity) {
      fail('invalid-typed-tree', `${describe(operator)} is not an operator of a ${String(kind)} clause`, node);
    }
    const name = operator as string;
    if (++this.conditions > this.options.limits.maxConditions) {
      fail(LIMIT_CODES.maxConditions, limitMessage('maxConditions', this.options.limits.maxConditions), node);
    }
    if (arity === 'in-fields') this.inFields(node, name, info);
    else this.singleField(node, name, info);
  }

  private singleField(node: unknown, operator: string, info: OperatorInfo): void {
    const field = this.field(own(node, 'field'), node);
    this.applicable(operator, info, field, node);
    if (info.arity === 'single-value') this.value(own(node, 'value'), field, node);
    if (info.arity !== 'list') return;
    const values = own(node, 'values');
    if (!Array.isArray(values) || values.length === 0) fail('missing-value', `${operator} needs at least one value`, node);
    const { maxListValues } = this.options.limits;
    if (values.length > maxListValues) fail(LIMIT_CODES.maxListValues, limitMessage('maxListValues', maxListValues, operator), node);
    for (const value of values) this.value(value, field, node);
  }

  private inFields(node: unknown, operator: string, info: OperatorInfo): void {
    const fields = own(node, 'fields');
    const values = own(node, 'values');
    if (!Array.isArray(fields) || !Array.isArray(values) || fields.length === 0 || fields.length !== values.length) {
      fail('incompatible-in-fields', `${operator} needs one or more fields and one converted value per field`, node);
    }
    const { maxInFields } = this.options.limits;
    if (fields.length > maxInFields) fail(LIMIT_CODES.maxInFields, limitMessage('maxInFields', maxInFields, operator), node);
    fields.forEach((f, i) => {
      const field = this.field(f, node);
      this.applicable(operator, info, field, node);
      this.value(values[i], field, node);
    });
  }

  private applicable(operator: string, info: OperatorInfo, field: ResolvedField, node: unknown): void {
    if (!info.types.includes(field.type)) {
      const op = operator as FilterOperator;
      fail(
        'operator-not-applicable',
        `${op} does not apply to ${field.name}, a ${field.type} field; it takes ${describeApplicableTypes(op)}`,
        node,
      );
    }
  }

  /** A resolved field of a known type; with a schema, that schema's own field. */
  private field(field: unknown, node: unknown): ResolvedField {
    const name = own(field, 'name');
    const type = own(field, 'type');
    const path = own(field, 'path');
    if (
      typeof name !== 'string' ||
      !SCALAR_TYPE_SET.has(type) ||
      !Array.isArray(path) ||
      path.length === 0 ||
      !path.every((s) => typeof s === 'string')
    ) {
      fail('invalid-typed-tree', `a clause's field must have a name, a path of names and a scalar type`, node);
    }
    const schema = this.options.schema;
    if (schema === undefined) return field as ResolvedField;
    const hit = schema.lookup(name);
    if (hit.found !== 'field' || !hit.exactCase || hit.field.type !== type || hit.field.path.join('.') !== path.join('.')) {
      fail('unknown-field', `field ${JSON.stringify(name)} is not a ${String(type)} field of the schema`, node);
    }
    return hit.field;
  }

  private value(value: unknown, field: ResolvedField, node: unknown): void {
    if (comparableValue(value, field.type, false) === undefined) {
      fail('invalid-value', `the value for ${field.name} is not ${describeType(field.type)}`, node);
    }
    if (typeof value === 'string' && hasInvalidCharacter(value)) {
      fail('invalid-character', `a value for ${field.name} contains U+0000 or an unpaired surrogate, which databases reject`, node);
    }
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : value === null ? 'null' : typeof value;
}

function describeType(type: ScalarType): string {
  switch (type) {
    case 'datetime':
      return 'a valid Date in the years 0001 to 9999';
    case 'integer':
      return 'an integer within ±(2^53−1)';
    case 'number':
      return 'a finite number';
    default:
      return `a ${type}`;
  }
}

/**
 * Checks a typed filter built by the validator or by hand before it is
 * evaluated or compiled to SQL, and returns it. Throws `WepqlError` with one
 * diagnostic at the first problem: `invalid-typed-tree` for an unknown kind,
 * operator or field shape; `operator-not-applicable`; `invalid-value` and
 * `invalid-character` for values; `unknown-field` (with a schema);
 * `empty-group`, `missing-value`, `incompatible-in-fields`; and the limit
 * codes (`nesting-too-deep`, `too-many-conditions`, `too-many-list-values`,
 * `too-many-in-fields`). It stops at the first limit passed, so a huge tree
 * costs no more than the limits allow.
 *
 * @example
 * checkTypedFilter(analyzeFilterOrThrow('Gender.Equal(1)', { schema }), { limits: DEFAULT_LIMITS }); // the filter
 * checkTypedFilter({ kind: 'typed-filter', clauses: [{ kind: 'sql' }] }, { limits: DEFAULT_LIMITS }); // throws: invalid-typed-tree
 */
export function checkTypedFilter(filter: unknown, options: TypedCheckOptions): TypedFilter {
  if (own(filter, 'kind') !== 'typed-filter') {
    fail('invalid-typed-tree', `a typed filter must have kind "typed-filter", not ${describe(own(filter, 'kind'))}`, filter);
  }
  new TypedChecker(options).clauses(own(filter, 'clauses'), 0, filter);
  return filter as TypedFilter;
}
