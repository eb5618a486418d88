/**
 * Diagnostics about a model held by a user interface (a query builder's rule
 * group, a data grid's filter model) rather than about a text: the place is
 * a path into that model (`['rules', 1, 'value']`), not an offset. The
 * converters between wepql and those models report every part that cannot be
 * carried over this way, so nothing is dropped without a word.
 */
import type { DiagnosticCode } from './codes.js';
import type { Diagnostic, Severity } from './diagnostic.js';

/**
 * Where in a model a diagnostic points: property names and array indices
 * from the model's root.
 *
 * @example
 * const path: ModelPath = ['rules', 0, 'rules', 2]; // the third rule of the first group
 */
export type ModelPath = readonly (string | number)[];

/**
 * Codes of model diagnostics: every text code (a rule's field is unknown,
 * its value does not read as the field's type, …) and four of their own.
 *
 * - `not-expressible`: the other side has no way to say this part.
 * - `unknown-model-operator`: the model names an operator the converter does not know.
 * - `invalid-model`: the model is not of the expected shape (a rule without a field, a value of the wrong kind).
 * - `skipped`: the model marks the part as inactive (muted, disabled), so it is not carried over.
 *
 * @example
 * const code: ModelDiagnosticCode = 'not-expressible';
 */
export type ModelDiagnosticCode = DiagnosticCode | 'not-expressible' | 'unknown-model-operator' | 'invalid-model' | 'skipped';

/**
 * One problem found while converting a model to wepql text or wepql text to
 * a model.
 *
 * @example
 * const d: ModelDiagnostic = {
 *   code: 'not-expressible', severity: 'error', path: ['rules', 0],
 *   message: 'the "xor" combinator has no wepql form',
 * };
 */
export interface ModelDiagnostic {
  readonly code: ModelDiagnosticCode;
  readonly severity: Severity;
  readonly message: string;
  /** Where in the model (for text → model, where the model would have held the part). */
  readonly path: ModelPath;
  /** For a problem found in wepql text, the UTF-16 range in that text. */
  readonly start?: number;
  readonly end?: number;
}

/**
 * A text diagnostic as a model diagnostic at `path`, keeping its range.
 *
 * @example
 * const [d] = analyzeFilter('Salary.Equal(x)', { schema }).diagnostics;
 * modelDiagnosticOf(d!, ['rules', 0]); // { code: 'invalid-value', path: ['rules', 0], start: 13, end: 14, … }
 */
export function modelDiagnosticOf(diagnostic: Diagnostic, path: ModelPath): ModelDiagnostic {
  return {
    code: diagnostic.code,
    severity: diagnostic.severity,
    message: diagnostic.message,
    path,
    start: diagnostic.start,
    end: diagnostic.end,
  };
}

/**
 * True when any model diagnostic is an error.
 *
 * @example
 * hasModelErrors([{ code: 'skipped', severity: 'info', message: 'muted', path: [] }]); // false
 */
export function hasModelErrors(diagnostics: readonly ModelDiagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

/**
 * A value taken from a model as a diagnostic's message shows it: its JSON
 * text, a bigint as `12n` (JSON has none: `JSON.stringify` throws on one),
 * and anything JSON cannot write (a cycle, a function, a throwing `toJSON`)
 * by its type. Never throws, so a converter's message cannot turn a bad
 * model into an exception.
 *
 * @example
 * modelValueLabel('Equalz'); // '"Equalz"'
 * modelValueLabel(12n);      // '12n'
 */
export function modelValueLabel(value: unknown): string {
  if (typeof value === 'bigint') return `${value}n`;
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    if (text !== undefined) return text;
  } catch {
    // A cycle, a throwing toJSON or getter: described by its type below.
  }
  if (value === undefined) return 'undefined';
  return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
