/**
 * What `parseFilter` and `parseSort` share: the checks before any lexing
 * (the input must be a string within `limits.maxLength`, docs/reference.md §"Limits") and the
 * driver that runs one of the Chevrotain parsers without ever throwing.
 */
import type { IRecognitionException, IToken } from 'chevrotain';
import type { Span } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { LIMIT_CODES, limitMessage, resolveLimits, type Limits } from '../diagnostics/limits.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { Unterminated } from './filter-lexer.js';
import type { ParseOptions } from './parse-options.js';

/**
 * Outcome of `checkInput`: diagnostics when the text must not be lexed.
 *
 * @example
 * const checked: InputCheck = checkInput(text, limits, 'sort');
 * if (checked.diagnostics !== undefined) return refuse(checked.diagnostics);
 */
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
          code: LIMIT_CODES.maxLength,
          severity: 'error',
          message: limitMessage('maxLength', limits.maxLength, what),
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
    sink.add(
      'unterminated-string',
      "this quoted value has no closing '; end it with ' (write '' for a quote inside it)",
      last.startOffset,
      last.startOffset + 1,
    );
  }
}

/**
 * The part of a Chevrotain parser that `runParser` drives: `FilterParser`
 * and `SortParser` both have it.
 *
 * @example
 * const driven: DrivenParser = new SortParser();
 */
export interface DrivenParser {
  /** Prepares the parser for one text; called before `input` is set. */
  prepare(text: string, limits: Limits, sink: DiagnosticSink): void;
  input: IToken[];
  readonly errors: IRecognitionException[];
  /** The first token the last parse left unread, if any (never, unless the grammar has a defect). */
  unreadToken(): IToken | undefined;
}

/**
 * What `runParser` returns: the top-level nodes, the text's span and every diagnostic.
 *
 * @example
 * const { nodes, span, diagnostics }: ParserRun<SortItemNode> = runParser(text, undefined, 'sort', tokenize, getParser, (p) => p.sort());
 */
export interface ParserRun<T> {
  readonly nodes: T[];
  readonly span: Span;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Runs one parse: limits, the checks before lexing, tokenizing, the
 * unterminated-quote report, the parser's start rule, and every failure of
 * the parser turned into a diagnostic. Never throws.
 *
 * @example
 * const run = runParser(text, options, 'sort', (t) => sortLexer.tokenize(t).tokens, () => (parser ??= new SortParser()), (p) => p.sort());
 * run.nodes; // the sort items
 */
export function runParser<P extends DrivenParser, T>(
  text: string,
  options: ParseOptions | undefined,
  what: 'filter' | 'sort',
  tokenize: (text: string) => IToken[],
  parser: () => P,
  startRule: (parser: P) => T[] | undefined,
): ParserRun<T> {
  const limits = resolveLimits(options?.limits);
  const checked = checkInput(text, limits, what);
  if (checked.diagnostics !== undefined) return { nodes: [], span: { start: 0, end: checked.length }, diagnostics: checked.diagnostics };
  const span = { start: 0, end: text.length };
  const tokens = tokenize(text);
  if (tokens.length === 0) return { nodes: [], span, diagnostics: [] };
  const sink = new DiagnosticSink(limits.maxErrors, text.length);
  reportUnterminated(tokens, sink);
  let nodes: T[] = [];
  try {
    // Building the parser runs Chevrotain's self-analysis, which walks plain
    // objects; inside the try, a hostile environment (a polluted
    // Object.prototype) costs a diagnostic, never a throw.
    const p = parser();
    p.prepare(text, limits, sink);
    p.input = tokens;
    // With recovery off, Chevrotain returns undefined instead of throwing when
    // it cannot match. Both grammars accept every token sequence, so that
    // would be a parser defect; it is still reported, never thrown.
    const parsed = startRule(p);
    if (parsed === undefined) {
      for (const e of p.errors) sink.add('unexpected-token', e.message, e.token.startOffset >= 0 ? e.token.startOffset : 0, text.length);
    } else nodes = parsed;
    const unread = p.unreadToken();
    if (unread !== undefined) sink.add('unexpected-token', `unexpected "${unread.image}"`, unread.startOffset, text.length);
  } catch (error) {
    nodes = [];
    const deep = error instanceof RangeError;
    sink.add(
      deep ? 'nesting-too-deep' : 'unexpected-token',
      deep ? `the ${what} nests too deeply to parse` : `the ${what} could not be parsed: ${String(error)}`,
      0,
      text.length,
    );
  }
  return { nodes, span, diagnostics: sink.finish() };
}
