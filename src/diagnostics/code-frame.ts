/**
 * Renders a diagnostic the way compilers do: the source line, a caret run
 * under the range, then the code and message. Used by the CLI's `parse`,
 * `fmt` and `lint`; core code (no Node built-ins) so a web page can use it.
 */
import type { Diagnostic } from './diagnostic.js';
import { lineColumn } from './diagnostic.js';

/**
 * Options for `renderCodeFrame`.
 *
 * @example
 * renderCodeFrame(text, diagnostic, { location: 'saved.txt', lineOffset: 2 });
 * // saved.txt:3:3: error unknown-operator: …
 */
export interface CodeFrameOptions {
  /** Printed before `:line:column` (a file name); omitted when unset. */
  readonly location?: string;
  /** Line number added to the computed one (for a filter that is line N of a file). Default 0. */
  readonly lineOffset?: number;
}

/**
 * One diagnostic as text: `location:line:col: severity code: message`, the
 * source line, a caret line, and the suggestion when there is one.
 *
 * @example
 * renderCodeFrame('A.Equalz(1)', diagnostic);
 * // 1:3: error unknown-operator: unknown operator "Equalz"; did you mean "Equal"?
 * //   A.Equalz(1)
 * //     ^^^^^^
 */
export function renderCodeFrame(text: string, d: Diagnostic, options: CodeFrameOptions = {}): string {
  const { line, column } = lineColumn(text, d.start);
  const lineStart = d.start - (column - 1);
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  let sourceLine = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  // Keep very long lines readable: show a window around the range.
  let shift = 0;
  const width = 120;
  if (sourceLine.length > width) {
    shift = Math.max(0, Math.min(column - 1 - 40, sourceLine.length - width));
    sourceLine = (shift > 0 ? '…' : '') + sourceLine.slice(shift, shift + width) + (shift + width < sourceLine.length ? '…' : '');
  }
  const caretStart = column - 1 - shift + (shift > 0 ? 1 : 0);
  const caretLength = Math.max(1, Math.min(d.end, lineEnd) - d.start);
  const visible = sourceLine.replace(/\t/g, ' ');
  const caret = ' '.repeat(Math.max(0, caretStart)) + '^'.repeat(Math.min(caretLength, Math.max(1, visible.length - caretStart + 1)));
  const where = `${options.location === undefined ? '' : options.location + ':'}${line + (options.lineOffset ?? 0)}:${column}`;
  const out = [`${where}: ${d.severity} ${d.code}: ${d.message}`, `  ${visible}`, `  ${caret}`];
  if (d.suggestion !== undefined) out.push(`  suggestion: ${d.suggestion}`);
  return out.join('\n');
}
