/**
 * Checks shared by `parseFilter` and `parseSort` before any lexing: the
 * input must be a string within `limits.maxLength` (SPEC §10).
 */
import type { IToken } from 'chevrotain';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Limits } from '../diagnostics/limits.js';
import type { DiagnosticSink } from './diagnostic-sink.js';
import { Unterminated } from './filter-lexer.js';

/** Outcome of `checkInput`: diagnostics when the text must not be lexed. */
export interface InputCheck {
  /** Length of the text (0 when it is not a string). */
  readonly length: number;
  readonly diagnostics?: readonly Diagnostic[];
}

/**
 * Refuses non-strings and over-long texts before lexing.
 *
 * @example
 * checkInput('x'.repeat(9000), DEFAULT_LIMITS, 'filter').diagnostics?.[0]?.code; // 'text-too-long'
 */
export function checkInput(text: unknown, limits: Limits, what: 'filter' | 'sort'): InputCheck {
  if (typeof text !== 'string') {
    return {
      length: 0,
      diagnostics: [
        {
          code: 'unexpected-token',
          severity: 'error',
          message: `expected the ${what} as a string, got ${text === null ? 'null' : typeof text}`,
          start: 0,
          end: 0,
        },
      ],
    };
  }
  if (text.length > limits.maxLength) {
    return {
      length: text.length,
      diagnostics: [
        {
          code: 'text-too-long',
          severity: 'error',
          message: `the ${what} is ${text.length} characters long; the limit is ${limits.maxLength} (limit maxLength)`,
          start: Math.max(0, limits.maxLength),
          end: text.length,
        },
      ],
    };
  }
  return { length: text.length };
}

/**
 * Reports an unterminated quoted value. It runs to the end of the text, so
 * it can only be the last token.
 *
 * @example
 * reportUnterminated(filterLexer.tokenize("A.Equal('x)").tokens, sink);
 */
export function reportUnterminated(tokens: readonly IToken[], sink: DiagnosticSink): void {
  const last = tokens[tokens.length - 1];
  if (last !== undefined && last.tokenType === Unterminated) {
    sink.add('unterminated-string', "this quoted value has no closing '; end it with ' (write '' for a quote inside it)", last.startOffset, last.startOffset + 1);
  }
}
