/**
 * `parseSort`: sort text to a syntax tree plus diagnostics (docs/reference.md
 * §"Sort grammar", §"Diagnostics" and §"Limits"). Never throws; erroneous items are left out of the tree.
 */
import type { SortAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { ParseOptions } from './parse-options.js';
import { runParser } from './parse-support.js';
import { SortParser, sortLexer } from './sort-parser.js';
import { shielded } from './shielded.js';

/**
 * The result of `parseSort`.
 *
 * @example
 * const result: ParseSortResult = parseSort('LastName;CreatedOn=Desc');
 * result.ast.items.length;               // 2
 * result.diagnostics.map((d) => d.code); // ['implicit-direction']
 */
export interface ParseSortResult {
  /** The items that parsed without error, in priority order. */
  readonly ast: SortAst;
  /** Every problem found, in source order; `too-many-errors` last when the cap was hit. */
  readonly diagnostics: readonly Diagnostic[];
}

let parser: SortParser | undefined;
const sortParser = (): SortParser => (parser ??= shielded(() => new SortParser()));
const tokenizeSort = (text: string) => sortLexer.tokenize(text).tokens;

/**
 * Parses a sort: `;`-separated `Field=Asc` / `Field=Desc` items.
 *
 * @example
 * const { ast } = parseSort('LastName=Asc;CreatedOn=desc');
 * ast.items.map((i) => i.direction); // ['Asc', 'Desc']
 */
export function parseSort(text: string, options?: ParseOptions): ParseSortResult {
  const { nodes, span, diagnostics } = runParser(text, options, 'sort', tokenizeSort, sortParser, (p) => p.sort());
  return { ast: { kind: 'sort', items: nodes, span }, diagnostics };
}
