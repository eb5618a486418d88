/**
 * The Chevrotain half of `parseFilter` (parse-filter.ts): the parser that
 * defines the language, for every text the fast path does not take, and
 * `visitFilter` for the tools that follow the grammar. Only functions are
 * exported: the CLI bundle loads this module (and Chevrotain with it) on
 * the first call of one of them, not at start (scripts/bundle.mjs).
 */
import { DEFAULT_LIMITS, type Limits } from '../diagnostics/limits.js';
import { PARSER_DEPTH_CEILING } from './depth-bound.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import type { FilterVisitor } from './filter-events.js';
import { Unterminated } from './filter-lexer.js';
import { FilterParser } from './filter-parser.js';
import { scanFilterShared } from './filter-scanner.js';
import type { ParseFilterResult } from './parse-filter.js';
import type { ParseOptions } from './parse-options.js';
import { runParser } from './parse-support.js';
import { shielded } from './shielded.js';

// One parser instance, reused: Chevrotain's grammar analysis runs once.
let parser: FilterParser | undefined;
const filterParser = (): FilterParser => (parser ??= shielded(() => new FilterParser()));

/**
 * `parseFilter` by the Chevrotain parser alone, the definition of the
 * language: what the fast path must equal on the texts it takes.
 *
 * @example
 * parseFilterWithChevrotain('A.Equal(1);;B.IsNull()').diagnostics[0]?.code; // 'empty-clause'
 */
export function parseFilterWithChevrotain(text: string, options?: ParseOptions): ParseFilterResult {
  // The scanner's tokens are pooled and overwritten by the next call; the parse is done with them before it returns.
  const { nodes, span, diagnostics } = runParser(text, options, 'filter', scanFilterShared, filterParser, (p) => p.filter());
  return { ast: { kind: 'filter', clauses: nodes, span }, diagnostics };
}

// A visit follows the grammar as deep as the parser ever recurses, and no
// limit but depth changes what the parser reads.
const VISIT_LIMITS: Limits = { ...DEFAULT_LIMITS, maxDepth: PARSER_DEPTH_CEILING };

/**
 * Runs the filter parser over `text` and tells `visitor` what it reads
 * (filter-events.ts), for tools that need to know where a position stands
 * in the grammar. The text is not length-checked and no diagnostics are
 * kept: those are `parseFilter`'s.
 *
 * @example
 * const starts: number[] = [];
 * visitFilter('A.Equal(1);Or(B.IsNull())', { enterCondition: (start) => starts.push(start) });
 * starts; // [0, 14]
 */
export function visitFilter(text: string, visitor: FilterVisitor): void {
  // The scanner's tokens are pooled and overwritten by the next call; the visit is done with them before it returns.
  const tokens = scanFilterShared(text);
  if (tokens.length === 0) return;
  const last = tokens[tokens.length - 1]!;
  if (last.tokenType === Unterminated) visitor.unterminatedQuote?.(last.startOffset);
  const p = filterParser();
  p.prepare(text, VISIT_LIMITS, new DiagnosticSink(0, text.length));
  p.visitor = visitor;
  try {
    p.input = tokens;
    p.filter();
  } finally {
    p.visitor = undefined;
  }
}
