/**
 * Diagnostics are data (docs/reference.md §"Diagnostics"): a stable code, a severity, a message a
 * person can act on and a UTF-16 source range. Line and column are computed
 * only when rendering.
 */
import type { DiagnosticCode } from './codes.js';

/**
 * How serious a diagnostic is. Only `error` makes input unusable.
 *
 * @example
 * const warnings = parseFilter('A.Equal(1);;').diagnostics.filter((d) => d.severity === 'warning');
 */
export type Severity = 'error' | 'warning' | 'info';

/**
 * A replacement of `source.slice(start, end)` by `newText`.
 *
 * @example
 * const edit: TextEdit = { start: 2, end: 8, newText: 'Equal' };
 * const fixed = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
 */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

/**
 * One problem found in a filter or sort text.
 *
 * @example
 * const [d] = parseFilter('A.Equals(1)').diagnostics;
 * // { code: 'unknown-operator', severity: 'error', start: 2, end: 8, suggestion: 'Equal', message: … }
 */
export interface Diagnostic {
  /** Stable kebab-case identifier; see `docs/diagnostics.md`. */
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** What is wrong and what to do about it. */
  readonly message: string;
  /** UTF-16 offset where the problem starts. */
  readonly start: number;
  /** UTF-16 offset just past the problem (`end >= start`). */
  readonly end: number;
  /** A replacement text a person might mean, such as the nearest operator name. */
  readonly suggestion?: string;
  /** Edits that fix the problem when applied together; only present when the fix is safe. */
  readonly fix?: readonly TextEdit[];
}

/**
 * True when any diagnostic is an error.
 *
 * @example
 * hasErrors(parseFilter('A.Foo(1)').diagnostics); // true
 */
export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  for (const d of diagnostics) if (d.severity === 'error') return true;
  return false;
}

/**
 * Line and column (both 1-based, column in UTF-16 units) of an offset.
 *
 * @example
 * lineColumn('a\nbc', 3); // { line: 2, column: 2 }
 */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const stop = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < stop; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: stop - lineStart + 1 };
}
