/**
 * wepql text from a model held by a user interface (a query builder's rule
 * group, a data grid's filter model). The converters turn a model into
 * `ModelClause`s that remember where in the model each came from; this
 * module writes them as one filter text, validates that text against the
 * schema once, and reports each diagnostic at the path of the innermost
 * clause it falls in. So a rule's unknown field or bad value is found by the
 * same validator as typed text, and is reported at the rule.
 */
import type { FilterOperator, GroupOperator } from '../ast/operators.js';
import { OPERATORS } from '../ast/operators.js';
import { isFieldPath, quoteValue } from '../ast/lexical.js';
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { hasModelErrors, modelDiagnosticOf } from '../diagnostics/model-diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import { printFilter } from './printer.js';
import { needsQuoting } from './quote.js';

/**
 * One condition of a model: `field.operator(values…)`, or for an InFields
 * operator `values[0].operator(fields…)`. Values are texts (see
 * `modelValueText`).
 *
 * @example
 * const c: ModelCondition = { kind: 'condition', field: 'Salary', operator: 'GreaterThan', values: ['1000'], path: ['rules', 0] };
 */
export interface ModelCondition {
  readonly kind: 'condition';
  readonly field: string;
  readonly operator: FilterOperator;
  readonly values: readonly string[];
  readonly path: ModelPath;
}

/**
 * An InFields condition of a model: `value.operator(fields…)`.
 *
 * @example
 * const c: ModelInFields = { kind: 'in-fields', operator: 'StartsWithInFields', value: 'D', fields: ['FirstName', 'LastName'], path: ['rules', 1] };
 */
export interface ModelInFields {
  readonly kind: 'in-fields';
  readonly operator: FilterOperator;
  readonly value: string;
  readonly fields: readonly string[];
  readonly path: ModelPath;
}

/**
 * A group of a model: `And(…)` or `Or(…)`.
 *
 * @example
 * const g: ModelGroup = { kind: 'group', operator: 'Or', children: [], path: ['rules', 2] };
 */
export interface ModelGroup {
  readonly kind: 'group';
  readonly operator: GroupOperator;
  readonly children: readonly ModelClause[];
  readonly path: ModelPath;
}

/**
 * A clause of a model on its way to text.
 *
 * @example
 * const clauses: ModelClause[] = [{ kind: 'condition', field: 'Gender', operator: 'IsNull', values: [], path: ['Gender'] }];
 */
export type ModelClause = ModelCondition | ModelInFields | ModelGroup;

/**
 * The wepql text of a model (canonical; undefined when any diagnostic is
 * an error) and every diagnostic, each at its path into the model.
 *
 * @example
 * const { filter, diagnostics }: ModelFilterResult = fromRuleGroup(group, { schema });
 */
export interface ModelFilterResult {
  readonly filter: string | undefined;
  /**
   * The text as written from the model before validation (parts with errors
   * of their own left out): what an editor can show, with the text
   * diagnostics' `start`/`end` pointing into it, while `filter` is undefined.
   */
  readonly text: string;
  readonly diagnostics: readonly ModelDiagnostic[];
}

/**
 * The text of one model value, or undefined for a value that has none: a
 * string as it is, a finite number as JavaScript writes it, a boolean as
 * `true`/`false`, a valid `Date` as its ISO instant, a bigint in digits.
 *
 * @example
 * modelValueText(1000);                          // '1000'
 * modelValueText(new Date(Date.UTC(2024, 0, 1))); // '2024-01-01T00:00:00.000Z'
 * modelValueText(NaN);                           // undefined
 */
export function modelValueText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
      return Number.isFinite(value) ? String(value) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return value.toString();
    default:
      return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : undefined;
  }
}

interface Written {
  readonly start: number;
  readonly end: number;
  readonly path: ModelPath;
}

function writeValue(value: string, head: boolean): string {
  return needsQuoting(value, head ? 'in-fields-head' : 'argument') ? quoteValue(value) : value;
}

// A field that is not a path would re-parse as something else; it is refused here, at its clause.
function checkFields(clause: ModelCondition | ModelInFields, out: ModelDiagnostic[]): boolean {
  const fields = clause.kind === 'condition' ? [clause.field] : clause.fields;
  const bad = fields.find((f) => !isFieldPath(f));
  if (bad === undefined) return true;
  out.push({
    code: 'invalid-field-path',
    severity: 'error',
    message: `"${bad}" is not a field path: each segment must match [A-Za-z_][A-Za-z0-9_]*`,
    path: clause.path,
  });
  return false;
}

function conditionText(clause: ModelCondition | ModelInFields): string {
  if (clause.kind === 'in-fields') return `${writeValue(clause.value, true)}.${clause.operator}(${clause.fields.join(',')})`;
  const values = OPERATORS[clause.operator].arity === 'no-value' ? '' : clause.values.map((v) => writeValue(v, false)).join(',');
  return `${clause.field}.${clause.operator}(${values})`;
}

// Writes clauses joined by `;`, recording each one's range; empty groups are dropped with a warning.
function writeClauses(clauses: readonly ModelClause[], at: number, written: Written[], out: ModelDiagnostic[]): string {
  let text = '';
  for (const clause of clauses) {
    const start = at + text.length + (text.length > 0 ? 1 : 0);
    let piece: string;
    if (clause.kind === 'group') {
      const inner = writeClauses(clause.children, start + clause.operator.length + 1, written, out);
      if (inner.length === 0) {
        out.push({
          code: 'empty-group',
          severity: 'warning',
          message: `an empty ${clause.operator} group matches nothing to test and is left out`,
          path: clause.path,
        });
        continue;
      }
      piece = `${clause.operator}(${inner})`;
    } else {
      if (!checkFields(clause, out)) continue;
      piece = conditionText(clause);
    }
    text += (text.length > 0 ? ';' : '') + piece;
    written.push({ start, end: start + piece.length, path: clause.path });
  }
  return text;
}

// The innermost written clause holding a range: the one that starts last among those that contain it.
function pathAt(written: readonly Written[], start: number, end: number): ModelPath {
  let best: Written | undefined;
  for (const w of written) {
    if (w.start <= start && end <= w.end && (best === undefined || w.start > best.start || (w.start === best.start && w.end < best.end)))
      best = w;
  }
  return best?.path ?? [];
}

/**
 * Writes model clauses (ANDed at the top, like a filter's `;`) as wepql
 * text, validates it against the schema, and returns the canonical text with
 * every diagnostic at its path into the model. Field names are printed in
 * the schema's spelling. Empty groups are left out with an `empty-group`
 * warning at their path.
 *
 * @example
 * modelFilterText([{ kind: 'condition', field: 'lastname', operator: 'StartsWith', values: ['Sm'], path: ['rules', 0] }], { schema });
 * // { filter: 'LastName.StartsWith(Sm)', text: 'LastName.StartsWith(Sm)', diagnostics: [] }
 */
export function modelFilterText(
  clauses: readonly ModelClause[],
  options: { readonly schema: Schema; readonly limits?: Partial<Limits> },
  earlier: readonly ModelDiagnostic[] = [],
): ModelFilterResult {
  const diagnostics: ModelDiagnostic[] = [...earlier];
  const written: Written[] = [];
  const text = writeClauses(clauses, 0, written, diagnostics);
  const analyzed = analyzeFilter(
    text,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  for (const d of analyzed.diagnostics) {
    // The model never spells a field in another case on purpose: the schema's spelling is printed instead.
    if (d.code === 'field-case-mismatch' || d.code === 'single-child-group') continue;
    diagnostics.push(modelDiagnosticOf(d, pathAt(written, d.start, d.end)));
  }
  if (hasModelErrors(diagnostics)) return { filter: undefined, text, diagnostics };
  return { filter: printFilter(analyzed.ast, { schema: options.schema }), text, diagnostics };
}
