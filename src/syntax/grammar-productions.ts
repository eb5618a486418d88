/**
 * The Chevrotain grammars as serialized productions, for tools that draw
 * railroad diagrams (`chevrotain.createSyntaxDiagramsCode`) or otherwise
 * inspect the grammar the parsers actually run.
 */
import type { ISerializedGast } from 'chevrotain';
import { FilterParser } from './filter-parser.js';
import { SortParser } from './sort-parser.js';

/**
 * The filter parser's rules (`filter`, `clauses`, `clause`, `group`,
 * `condition`, `arguments`) as serialized GAST.
 *
 * @example
 * import { createSyntaxDiagramsCode } from 'chevrotain';
 * const html = createSyntaxDiagramsCode(filterGrammarProductions());
 */
export function filterGrammarProductions(): ISerializedGast[] {
  return new FilterParser().getSerializedGastProductions();
}

/**
 * The sort parser's rules (`sort`, `item`) as serialized GAST.
 *
 * @example
 * sortGrammarProductions().map((rule) => rule.name); // ['sort', 'item']
 */
export function sortGrammarProductions(): ISerializedGast[] {
  return new SortParser().getSerializedGastProductions();
}
