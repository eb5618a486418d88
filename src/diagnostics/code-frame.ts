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
  /** The column to print instead of the computed one (a filter that starts further right in its file's line). */
  readonly column?: number;
}

// Characters that would corrupt a terminal or page, or make the shown text
// differ from what is there: C0/C1 controls, bidirectional overrides and
// isolates, zero-width characters, line/paragraph separators, BOM, and lone
// surrogates. Each is replaced by ONE visible character so carets stay aligned.
const INVISIBLE = '\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2069\\ufeff';
const UNSAFE = new RegExp(`[${INVISIBLE}]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`, 'g');
// The same characters with every surrogate, paired or not: text without one has nothing to replace. A report of
// thousands of frames asks for three printable texts each, nearly all plain ASCII, and the search for a lone
// surrogate (its look-behind) costs more than this one test.
const MAYBE_UNSAFE = new RegExp(`[${INVISIBLE}\\ud800-\\udfff]`);

/**
 * Text made safe to print: control characters become their Unicode
 * "control pictures" (`␀`, `␛`), other invisible or reordering characters
 * and lone surrogates become `�`. Length in UTF-16 units is unchanged.
 *
 * @example
 * printableText('a\u0000b\u202ec'); // 'a␀b�c'
 */
export function printableText(text: string): string {
  if (!MAYBE_UNSAFE.test(text)) return text;
  return text.replace(UNSAFE, (ch) => {
    const c = ch.charCodeAt(0);
    if (c < 0x20) return String.fromCharCode(0x2400 + c);
    if (c === 0x7f) return '\u2421';
    return '\ufffd';
  });
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
  const visible = printableText(sourceLine.replace(/\t/g, ' '));
  const caret = ' '.repeat(Math.max(0, caretStart)) + '^'.repeat(Math.min(caretLength, Math.max(1, visible.length - caretStart + 1)));
  const where = `${options.location === undefined ? '' : options.location + ':'}${line + (options.lineOffset ?? 0)}:${options.column ?? column}`;
  const out = [`${printableText(where)}: ${d.severity} ${d.code}: ${printableText(d.message)}`, `  ${visible}`, `  ${caret}`];
  if (d.suggestion !== undefined) out.push(`  suggestion: ${printableText(d.suggestion)}`);
  return out.join('\n');
}
