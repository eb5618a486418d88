/**
 * The registry of every diagnostic code wepql reports. Codes are stable:
 * tools match on them. `docs/diagnostics.md` documents each one with an
 * example and its fix, and a test keeps the two in step.
 */
import type { Severity } from './diagnostic.js';

/**
 * Which stage reports a code.
 *
 * @example
 * const syntaxCodes = Object.entries(DIAGNOSTIC_CODES).filter(([, info]) => info.stage === 'syntax');
 */
export type DiagnosticStage = 'syntax' | 'limit' | 'validate' | 'policy' | 'lint' | 'schema-change' | 'files';

/**
 * What the registry knows of a code.
 *
 * @example
 * const info: CodeInfo = DIAGNOSTIC_CODES['empty-clause']; // { severity: 'warning', stage: 'syntax', summary: … }
 */
export interface CodeInfo {
  readonly severity: Severity;
  readonly stage: DiagnosticStage;
  /** One line on what the code means. */
  readonly summary: string;
}

/**
 * Every code, with its default severity, stage and a one-line summary.
 *
 * @example
 * DIAGNOSTIC_CODES['unknown-operator'].severity; // 'error'
 */
export const DIAGNOSTIC_CODES = {
  // --- syntax (docs/reference.md §"Lexical rules", §"Filter grammar" and §"Sort grammar") ---
  'unterminated-string': { severity: 'error', stage: 'syntax', summary: 'A quoted value has no closing quote.' },
  'unexpected-quote': {
    severity: 'error',
    stage: 'syntax',
    summary: "A ' appears inside a bare value; quote the whole value and double the quote.",
  },
  'unexpected-token': { severity: 'error', stage: 'syntax', summary: 'A token appears where the grammar does not allow it.' },
  'missing-close-paren': { severity: 'error', stage: 'syntax', summary: 'An opening ( has no matching ).' },
  'unexpected-close-paren': { severity: 'error', stage: 'syntax', summary: 'A ) has no matching (.' },
  'missing-operator': { severity: 'error', stage: 'syntax', summary: 'A clause has no .Operator(...) part.' },
  'unknown-operator': { severity: 'error', stage: 'syntax', summary: 'The operator name is not one of the 26 operators.' },
  'invalid-field-path': {
    severity: 'error',
    stage: 'syntax',
    summary: 'A field path segment is not an identifier [A-Za-z_][A-Za-z0-9_]*.',
  },
  'missing-value': { severity: 'error', stage: 'syntax', summary: 'An operator that needs a value has none, or a list has an empty item.' },
  'too-many-values': { severity: 'error', stage: 'syntax', summary: 'A single-value operator was given more than one value.' },
  'unexpected-argument': { severity: 'error', stage: 'syntax', summary: 'IsNull() / IsNotNull() take no argument.' },
  'empty-clause': { severity: 'warning', stage: 'syntax', summary: 'An empty clause (a;;b or a trailing ;) is dropped.' },
  'empty-group': { severity: 'error', stage: 'syntax', summary: 'And() / Or() must contain at least one clause.' },
  'single-child-group': { severity: 'info', stage: 'syntax', summary: 'A group with one child is the same as the child alone.' },
  'invalid-character': {
    severity: 'error',
    stage: 'syntax',
    summary: 'A value contains U+0000 or an unpaired surrogate, which databases reject.',
  },
  'invalid-direction': { severity: 'error', stage: 'syntax', summary: 'A sort direction is not Asc or Desc.' },
  'sort-comma-separator': { severity: 'error', stage: 'syntax', summary: 'Sort items are separated by ;, not ,.' },
  'implicit-direction': { severity: 'warning', stage: 'syntax', summary: 'A sort item without =Asc/=Desc sorts ascending.' },
  'duplicate-sort-field': {
    severity: 'warning',
    stage: 'syntax',
    summary: 'A field is listed twice in a sort; the later one has no effect.',
  },
  'too-many-errors': { severity: 'error', stage: 'syntax', summary: 'Reporting stopped after the error cap; fix the errors above first.' },
  // --- limits (docs/reference.md §"Limits") ---
  'text-too-long': { severity: 'error', stage: 'limit', summary: 'The filter or sort text is longer than the configured limit.' },
  'nesting-too-deep': { severity: 'error', stage: 'limit', summary: 'Groups nest deeper than the configured limit.' },
  'too-many-conditions': { severity: 'error', stage: 'limit', summary: 'The filter has more conditions than the configured limit.' },
  'too-many-list-values': { severity: 'error', stage: 'limit', summary: 'A list operator has more values than the configured limit.' },
  'too-many-in-fields': { severity: 'error', stage: 'limit', summary: 'An InFields operator lists more fields than the configured limit.' },
  'too-many-sort-keys': { severity: 'error', stage: 'limit', summary: 'The sort has more keys than the configured limit.' },
  // --- validation against a schema (docs/reference.md §"Types and values") ---
  'unknown-field': { severity: 'error', stage: 'validate', summary: 'The field is not in the schema.' },
  'field-case-mismatch': { severity: 'warning', stage: 'validate', summary: "The field's spelling differs in case from the schema's." },
  'operator-not-applicable': { severity: 'error', stage: 'validate', summary: "The operator does not apply to the field's type." },
  'invalid-value': { severity: 'error', stage: 'validate', summary: "The value does not parse as the field's type." },
  'integer-out-of-range': { severity: 'error', stage: 'validate', summary: 'An integer value is outside ±(2^53−1).' },
  'incompatible-in-fields': {
    severity: 'error',
    stage: 'validate',
    summary: 'The fields of an InFields operator do not all accept the operator and value.',
  },
  'not-filterable': { severity: 'error', stage: 'validate', summary: 'The schema marks the field as not filterable.' },
  'not-sortable': { severity: 'error', stage: 'validate', summary: 'The schema marks the field as not sortable.' },
  'not-a-leaf-field': { severity: 'error', stage: 'validate', summary: 'The path names an object, not a field with a value.' },
  'invalid-typed-tree': {
    severity: 'error',
    stage: 'validate',
    summary: 'A typed tree built by code has a node, operator or field the language does not know.',
  },
  'invalid-sql-option': {
    severity: 'error',
    stage: 'validate',
    summary: 'A toSql option (column map, identifier, JSON path, tie-breaker) cannot be used.',
  },
  // --- per-endpoint policies (definePolicy) ---
  'field-not-filterable': { severity: 'error', stage: 'policy', summary: "The endpoint's policy does not allow filtering on the field." },
  'operator-not-allowed': {
    severity: 'error',
    stage: 'policy',
    summary: "The endpoint's policy does not allow the operator on the field.",
  },
  'field-not-sortable': { severity: 'error', stage: 'policy', summary: "The endpoint's policy does not allow sorting by the field." },
  // --- semantic lint rules ---
  contradiction: { severity: 'warning', stage: 'lint', summary: 'Two conditions at the same AND level cannot both be true.' },
  'duplicate-condition': { severity: 'warning', stage: 'lint', summary: 'The same condition appears twice at the same level.' },
  'redundant-or-branch': { severity: 'warning', stage: 'lint', summary: 'An Or branch is implied by another and adds nothing.' },
  'duplicate-list-value': { severity: 'warning', stage: 'lint', summary: 'A list operator repeats a value.' },
  'unsatisfiable-filter': { severity: 'warning', stage: 'lint', summary: 'The filter can match no record.' },
  'date-only-equality': {
    severity: 'warning',
    stage: 'lint',
    summary: 'A datetime is compared for equality with a date without a time, which is one instant, not the day.',
  },
  // --- schema evolution (lint with a previous schema; deprecations) ---
  'field-removed': {
    severity: 'error',
    stage: 'schema-change',
    summary: 'The field was in the previous schema and is gone from the new one.',
  },
  'field-renamed': { severity: 'warning', stage: 'schema-change', summary: 'The field was renamed; `--fix` writes the new name.' },
  'field-retyped': {
    severity: 'warning',
    stage: 'schema-change',
    summary: "The field's type changed and its values now compare differently.",
  },
  'field-retyped-incompatible': {
    severity: 'error',
    stage: 'schema-change',
    summary: "The field's type changed and this condition's values or operator no longer apply.",
  },
  'field-nullability-changed': {
    severity: 'warning',
    stage: 'schema-change',
    summary: 'The field became nullable or stopped being nullable, which changes what a null check matches.',
  },
  'deprecated-field': { severity: 'warning', stage: 'schema-change', summary: 'The schema marks the field as deprecated.' },
  // --- files (what `wepql lint` and `wepql fmt` were asked to read) ---
  'no-filters-found': {
    severity: 'warning',
    stage: 'files',
    summary: 'A file that was asked for holds no saved filter or sort where wepql looks.',
  },
  'file-too-large': {
    severity: 'error',
    stage: 'files',
    summary: 'A file is larger than the longest text JavaScript can hold, so its filters and sorts were not read.',
  },
} as const satisfies Record<string, CodeInfo>;

/**
 * A stable diagnostic code.
 *
 * @example
 * const code: DiagnosticCode = 'unterminated-string';
 */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;

/**
 * Metadata of a code.
 *
 * @example
 * codeInfo('empty-clause').severity; // 'warning'
 */
export function codeInfo(code: DiagnosticCode): CodeInfo {
  return DIAGNOSTIC_CODES[code];
}
