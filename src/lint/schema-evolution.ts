/**
 * What a schema change does to one saved filter or sort: fields removed
 * (error), renamed (warning with a safe fix to the new name), retyped (error
 * where values or operators stop applying, warning where they compare
 * differently), nullability changed (warning on the operators whose meaning
 * depends on it), and deprecated fields in use. The facts come from
 * `diffSchemas`; this module only places them on the conditions that use
 * each field.
 */
import { conditionsOf } from '../ast/fold.js';
import type { FieldNode, FilterAst, SortAst, Span } from '../ast/nodes.js';
import type { ConditionFacts } from '../ast/operator-facts.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { FilterOperator } from '../ast/operators.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { diffSchemas, type SchemaDiff } from '../schema/diff.js';
import type { FieldLookup, ResolvedField, Schema } from '../schema/schema.js';

const diffs = new WeakMap<Schema, WeakMap<Schema, SchemaDiff>>();

/**
 * `diffSchemas(previous, next)`, computed once per pair of schema objects:
 * linting thousands of filters against the same pair reuses it.
 *
 * @example
 * cachedDiff(previous, next) === cachedDiff(previous, next); // true
 */
export function cachedDiff(previous: Schema, next: Schema): SchemaDiff {
  let inner = diffs.get(previous);
  if (inner === undefined) diffs.set(previous, (inner = new WeakMap()));
  let diff = inner.get(next);
  if (diff === undefined) inner.set(next, (diff = diffSchemas(previous, next)));
  return diff;
}

const aliases = new WeakMap<SchemaDiff, Schema>();

/**
 * The next schema, except that a previous name of a renamed field resolves
 * to the field it became, so that a filter written before the rename is
 * typed (and its other problems found) under the new schema.
 *
 * @example
 * renameAwareSchema(previous, next).lookup('Surname'); // { found: 'field', field: LastName, exactCase: true }
 */
export function renameAwareSchema(previous: Schema, next: Schema): Schema {
  const diff = cachedDiff(previous, next);
  const known = aliases.get(diff);
  if (known !== undefined) return known;
  const schema: Schema = Object.freeze({
    definition: next.definition,
    fields: next.fields,
    lookup(name: string): FieldLookup {
      const hit = next.lookup(name);
      if (hit.found !== 'none') return hit;
      const old = previous.lookup(name);
      if (old.found !== 'field') return hit;
      const field = diff.matches.get(old.field.name.toLowerCase());
      // exactCase: the rename itself is reported, not the spelling of an old name.
      return field === undefined ? hit : { found: 'field', field, exactCase: true };
    },
  });
  aliases.set(diff, schema);
  return schema;
}

interface FieldUse {
  readonly node: FieldNode;
  /** The operator, or `sort` for a sort key. */
  readonly operator: FilterOperator | 'sort';
  /** The whole condition or sort item, for placing analyzer errors. */
  readonly span: Span;
}

function filterUses(ast: FilterAst): FieldUse[] {
  // An InFields condition uses each of its fields; the operator stays as written.
  return conditionsOf(ast.clauses).map((c) => ({ node: c.field, operator: c.operator, span: c.node.span }));
}

function sortUses(ast: SortAst): FieldUse[] {
  return ast.items.map((item) => ({ node: item.field, operator: 'sort', span: item.span }));
}

/** A use whose answer on a null field is not plain "false": a null check or an …OrNull list. */
function nullSensitive(use: FieldUse): boolean {
  const facts = factsOf(use);
  return facts !== undefined && (facts.test.kind === 'present' || facts.nullMatches);
}

/** A sort key or an order comparison: what changes when values compare as text. */
function ordering(use: FieldUse): boolean {
  const facts = factsOf(use);
  return facts === undefined || (facts.test.kind === 'compare' && facts.test.relation !== '=');
}

/** The operator's facts; undefined for a sort key. */
function factsOf(use: FieldUse): ConditionFacts | undefined {
  return use.operator === 'sort' ? undefined : operatorFacts(use.operator);
}

function noLongerNullable(use: FieldUse): string {
  const facts = factsOf(use);
  if (facts?.test.kind !== 'present') return `the "or null" part of ${use.operator} no longer matters`;
  return `${use.operator} now matches ${facts.negated ? 'no record' : 'every record'}`;
}

function quote(name: string): string {
  return `"${name}"`;
}

/** The schemas a use is read under, with their diff when there is a previous schema. */
interface Schemas {
  readonly schema: Schema;
  readonly previousSchema: Schema | undefined;
  readonly diff: SchemaDiff | undefined;
}

/** The field a use names in the next schema and, when it is the same field, in the previous one. */
interface UseFields {
  readonly next: ResolvedField | undefined;
  readonly previous: ResolvedField | undefined;
}

/**
 * Resolves a use's field under both schemas, reporting a field that was
 * removed or renamed. `next` is undefined when the use has no field to
 * check further; `previous` is undefined when the name now means another
 * field (or there is no previous schema), since nothing then changed for it.
 */
function resolveUse(use: FieldUse, schemas: Schemas, what: 'filter' | 'sort', out: Diagnostic[]): UseFields {
  const { node } = use;
  const hit = schemas.schema.lookup(node.name);
  const next = hit.found === 'field' ? hit.field : undefined;
  if (schemas.previousSchema === undefined || schemas.diff === undefined) return { next, previous: undefined };
  const old = schemas.previousSchema.lookup(node.name);
  if (old.found !== 'field') return { next, previous: undefined };
  const became = schemas.diff.matches.get(old.field.name.toLowerCase());
  if (next !== undefined) return { next, previous: became === next ? old.field : undefined };
  if (became === undefined) {
    out.push({
      code: 'field-removed',
      severity: 'error',
      message: `field ${quote(node.name)} was removed from the schema; this ${what} can no longer run`,
      start: node.span.start,
      end: node.span.end,
    });
    return { next: undefined, previous: undefined };
  }
  out.push({
    code: 'field-renamed',
    severity: 'warning',
    message: `field ${quote(node.name)} was renamed to ${quote(became.name)}`,
    start: node.span.start,
    end: node.span.end,
    suggestion: became.name,
    fix: [{ start: node.span.start, end: node.span.end, newText: became.name }],
  });
  return { next: became, previous: old.field };
}

/**
 * A field whose type changed: an error when the analyzer found an error in
 * the condition under the new type, a warning when values now read or
 * compare differently; nothing for integer → number, which reads every
 * value alike.
 */
function retypeFinding(use: FieldUse, previous: ResolvedField, next: ResolvedField, analyzerError: boolean): Diagnostic | undefined {
  const { node } = use;
  if (analyzerError) {
    return {
      code: 'field-retyped-incompatible',
      severity: 'error',
      message: `field ${quote(next.name)} changed from ${previous.type} to ${next.type}; this condition no longer applies to it (see the error here)`,
      start: node.span.start,
      end: node.span.end,
    };
  }
  if (previous.type === 'integer' && next.type === 'number') return undefined;
  const how =
    next.type === 'string'
      ? ordering(use)
        ? 'values now compare as text ("10" comes before "9")'
        : 'values now compare as text, not as ' + previous.type + 's'
      : `values are now read as ${next.type}s`;
  return {
    code: 'field-retyped',
    severity: 'warning',
    message: `field ${quote(next.name)} changed from ${previous.type} to ${next.type}: ${how}`,
    start: node.span.start,
    end: node.span.end,
  };
}

/** A field whose nullability changed, used by an operator whose answer on null matters. */
function nullabilityFinding(use: FieldUse, next: ResolvedField): Diagnostic {
  return {
    code: 'field-nullability-changed',
    severity: 'warning',
    message: next.nullable
      ? `field ${quote(next.name)} may now be null: ${use.operator} now matches records it never saw before`
      : `field ${quote(next.name)} is no longer nullable: ${noLongerNullable(use)}`,
    start: use.node.span.start,
    end: use.node.span.end,
  };
}

/** A deprecated field in use, with its replacement as a suggestion. */
function deprecationFinding(node: FieldNode, next: ResolvedField): Diagnostic | undefined {
  if (next.deprecated === undefined) return undefined;
  const { replacement, reason } = next.deprecated;
  return {
    code: 'deprecated-field',
    severity: 'warning',
    message:
      `field ${quote(next.name)} is deprecated` +
      (reason === undefined ? '' : ` (${reason})`) +
      (replacement === undefined ? '' : `; use ${quote(replacement)} instead`),
    start: node.span.start,
    end: node.span.end,
    // A suggestion, not a fix: the replacement may hold its values differently.
    ...(replacement === undefined ? {} : { suggestion: replacement }),
  };
}

/**
 * Findings for the fields a parsed filter or sort uses, given the schema it
 * was written for and the one it will run under. `analyzed` holds the
 * analyzer's diagnostics under `renameAwareSchema`: an error inside a
 * retyped field's condition makes the retype an error for this filter.
 * Deprecated fields are reported whether or not a previous schema is given.
 *
 * @example
 * const { ast, diagnostics } = analyzeFilter('Surname.Equal(Smith)', { schema: renameAwareSchema(previous, next) });
 * evolutionDiagnostics(ast, { schema: next, previousSchema: previous, analyzed: diagnostics });
 * // [{ code: 'field-renamed', fix: [{ start: 0, end: 7, newText: 'LastName' }], … }]
 */
export function evolutionDiagnostics(
  ast: FilterAst | SortAst,
  options: { readonly schema: Schema; readonly previousSchema?: Schema; readonly analyzed?: readonly Diagnostic[] },
): Diagnostic[] {
  const { schema, previousSchema } = options;
  const schemas: Schemas = {
    schema,
    previousSchema,
    diff: previousSchema === undefined ? undefined : cachedDiff(previousSchema, schema),
  };
  const uses = ast.kind === 'filter' ? filterUses(ast) : sortUses(ast);
  const out: Diagnostic[] = [];
  const analyzerErrorIn = (span: Span): boolean =>
    (options.analyzed ?? []).some(
      (d) => d.severity === 'error' && d.start >= span.start && d.end <= span.end && d.code !== 'unknown-field',
    );
  const push = (d: Diagnostic | undefined): void => {
    if (d !== undefined) out.push(d);
  };
  for (const use of uses) {
    const { next, previous } = resolveUse(use, schemas, ast.kind, out);
    if (next === undefined) continue;
    if (previous !== undefined && previous.type !== next.type) push(retypeFinding(use, previous, next, analyzerErrorIn(use.span)));
    if (previous !== undefined && previous.nullable !== next.nullable && nullSensitive(use)) push(nullabilityFinding(use, next));
    push(deprecationFinding(use.node, next));
  }
  return out;
}

const deprecations = new WeakMap<Schema, boolean>();

/**
 * Whether any field of the schema is deprecated (so that linting without a
 * previous schema can skip the field walk when none is). Asked once per
 * text linted, answered once per schema object: a schema's fields are
 * frozen, and walking 80 of them for each of 10,000 texts cost 40 ms.
 *
 * @example
 * hasDeprecations(employeeSchema); // false
 */
export function hasDeprecations(schema: Schema): boolean {
  let known = deprecations.get(schema);
  if (known === undefined) deprecations.set(schema, (known = schema.fields.some((f) => f.deprecated !== undefined)));
  return known;
}
