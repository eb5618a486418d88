/**
 * `parseFilter` and `visitFilter`: filter text to a syntax tree plus diagnostics (docs/reference.md
 * §"Lexical rules", §"Filter grammar", §"Diagnostics" and §"Limits"). Never throws; erroneous clauses are left out of the tree so
 * that tools still get every clause that parsed cleanly.
 */
import type { FilterAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { DEFAULT_LIMITS, resolveLimits, type Limits } from '../diagnostics/limits.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { readWellFormedFilter } from './filter-fast-path.js';
import type { FilterVisitor } from './filter-events.js';
import { Unterminated } from './filter-lexer.js';
import { scanFilterShared } from './filter-scanner.js';
import { FilterParser, PARSER_DEPTH_CEILING } from './filter-parser.js';
import type { ParseOptions } from './parse-options.js';
import { runParser } from './parse-support.js';
import { shielded } from './shielded.js';

/**
 * The result of `parseFilter`.
 *
 * @example
 * const result: ParseFilterResult = parseFilter('A.Equal(1);B.Foo(2)');
 * result.ast.clauses.length;                 // 1 (the clause that parsed)
 * result.diagnostics.map((d) => d.code);     // ['unknown-operator']
 */
export interface ParseFilterResult {
  /** The clauses that parsed without error (all of them when `diagnostics` has no error). */
  readonly ast: FilterAst;
  /** Every problem found, in source order; `too-many-errors` last when the cap was hit. */
  readonly diagnostics: readonly Diagnostic[];
}

// One parser instance, reused: Chevrotain's grammar analysis runs once.
let parser: FilterParser | undefined;
const filterParser = (): FilterParser => (parser ??= shielded(() => new FilterParser()));

/**
 * Parses a filter. Keywords match in any case and are stored canonical;
 * values keep their raw text and whether they were quoted.
 *
 * @example
 * const { ast, diagnostics } = parseFilter("LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))");
 * ast.clauses.length; // 2
 * diagnostics;        // []
 */
export function parseFilter(text: string, options?: ParseOptions): ParseFilterResult {
  // Text without errors takes the fast path (filter-fast-path.ts), which
  // answers exactly what the Chevrotain parser would; anything else, the parser.
  if (typeof text === 'string') {
    const limits = resolveLimits(options?.limits);
    if (text.length <= limits.maxLength) {
      const fast = readWellFormedFilter(text, limits);
      if (fast !== undefined) return fast;
    }
  }
  return parseFilterWithChevrotain(text, options);
}

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
