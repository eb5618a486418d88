/**
 * `parseFilter`: filter text to a syntax tree plus diagnostics (SPEC §2–3,
 * §9, §10). Never throws; erroneous clauses are left out of the tree so
 * that tools still get every clause that parsed cleanly.
 */
import type { FilterAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { scanFilterShared } from './filter-scanner.js';
import { FilterParser } from './filter-parser.js';
import type { ParseOptions } from './parse-options.js';
import { checkInput, reportUnterminated } from './parse-support.js';

/** The result of `parseFilter`. */
export interface ParseFilterResult {
  /** The clauses that parsed without error (all of them when `diagnostics` has no error). */
  readonly ast: FilterAst;
  /** Every problem found, in source order; `too-many-errors` last when the cap was hit. */
  readonly diagnostics: readonly Diagnostic[];
}

// One parser instance, reused: Chevrotain's grammar analysis runs once.
let parser: FilterParser | undefined;

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
  const limits = resolveLimits(options?.limits);
  const checked = checkInput(text, limits, 'filter');
  if (checked.diagnostics !== undefined) {
    return { ast: { kind: 'filter', clauses: [], span: { start: 0, end: checked.length } }, diagnostics: checked.diagnostics };
  }
  const source = text;
  const span = { start: 0, end: source.length };
  const sink = new DiagnosticSink(limits.maxErrors, source.length);
  const tokens = scanFilterShared(source);
  if (tokens.length === 0) return { ast: { kind: 'filter', clauses: [], span }, diagnostics: [] };
  reportUnterminated(tokens, sink);
  parser ??= new FilterParser();
  parser.prepare(source, limits, sink);
  parser.input = tokens;
  let clauses: FilterAst['clauses'] = [];
  try {
    // With recovery off, Chevrotain returns undefined instead of throwing when
    // it cannot match. The grammar accepts every token sequence, so that would
    // be a parser defect; it is still reported, never thrown.
    const parsed = parser.filter();
    if (parsed === undefined) {
      for (const e of parser.errors) sink.add('unexpected-token', e.message, e.token.startOffset >= 0 ? e.token.startOffset : 0, source.length);
    } else clauses = parsed;
    const unread = parser.unreadToken();
    if (unread !== undefined) sink.add('unexpected-token', `unexpected "${unread.image}"`, unread.startOffset, source.length);
  } catch (error) {
    clauses = [];
    sink.add(
      error instanceof RangeError ? 'nesting-too-deep' : 'unexpected-token',
      error instanceof RangeError ? 'the filter nests too deeply to parse' : `the filter could not be parsed: ${String(error)}`,
      0,
      source.length,
    );
  }
  return { ast: { kind: 'filter', clauses, span }, diagnostics: sink.finish() };
}
