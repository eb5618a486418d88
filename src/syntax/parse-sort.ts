/**
 * `parseSort`: sort text to a syntax tree plus diagnostics (SPEC §4, §9,
 * §10). Never throws; erroneous items are left out of the tree.
 */
import type { SortAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import type { ParseOptions } from './parse-options.js';
import { checkInput } from './parse-support.js';
import { SortParser, sortLexer } from './sort-parser.js';

/** The result of `parseSort`. */
export interface ParseSortResult {
  /** The items that parsed without error, in priority order. */
  readonly ast: SortAst;
  /** Every problem found, in source order; `too-many-errors` last when the cap was hit. */
  readonly diagnostics: readonly Diagnostic[];
}

let parser: SortParser | undefined;

/**
 * Parses a sort: `;`-separated `Field=Asc` / `Field=Desc` items.
 *
 * @example
 * const { ast } = parseSort('LastName=Asc;CreatedOn=desc');
 * ast.items.map((i) => i.direction); // ['Asc', 'Desc']
 */
export function parseSort(text: string, options?: ParseOptions): ParseSortResult {
  const limits = resolveLimits(options?.limits);
  const checked = checkInput(text, limits, 'sort');
  if (checked.diagnostics !== undefined) {
    return { ast: { kind: 'sort', items: [], span: { start: 0, end: checked.length } }, diagnostics: checked.diagnostics };
  }
  const span = { start: 0, end: text.length };
  const { tokens } = sortLexer.tokenize(text);
  if (tokens.length === 0) return { ast: { kind: 'sort', items: [], span }, diagnostics: [] };
  const sink = new DiagnosticSink(limits.maxErrors, text.length);
  parser ??= new SortParser();
  parser.prepare(text, limits, sink);
  parser.input = tokens;
  let items: SortAst['items'] = [];
  try {
    // Chevrotain returns undefined (recovery off) when it cannot match; the
    // grammar accepts every token sequence, so that would be a parser defect.
    const parsed = parser.sort();
    if (parsed === undefined) {
      for (const e of parser.errors) sink.add('unexpected-token', e.message, e.token.startOffset >= 0 ? e.token.startOffset : 0, text.length);
    } else items = parsed;
  } catch (error) {
    items = [];
    sink.add('unexpected-token', `the sort could not be parsed: ${String(error)}`, 0, text.length);
  }
  return { ast: { kind: 'sort', items, span }, diagnostics: sink.finish() };
}
