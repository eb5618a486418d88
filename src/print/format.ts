/**
 * The printer's public face: print a tree, or format a text (parse, then
 * print) in canonical or pretty form (docs/reference.md §"Canonical form").
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';
import { parseFilter } from '../syntax/parse-filter.js';
import type { ParseOptions } from '../syntax/parse-options.js';
import { parseSort } from '../syntax/parse-sort.js';
import type { PrintOptions } from './printer.js';
import { printFilter, printSort } from './printer.js';

export type { PrintOptions } from './printer.js';
export { printFilter, printSort } from './printer.js';
export type { ValuePosition } from './quote.js';
export { needsQuoting, quoteValue } from './quote.js';

/**
 * Formats a filter: parses a text (or takes a tree) and prints it
 * canonically, or pretty with `pretty: true`. Warnings do not stop it (an
 * empty clause is simply dropped); errors throw `WepqlError` carrying every
 * diagnostic. `limits` bound both the parse and the print.
 *
 * @example
 * formatFilter("lastname.startswith( 'Sm' );;");                 // 'lastname.StartsWith(Sm)'
 * formatFilter('Or(A.Equal(1);B.Equal(2))', { pretty: true, width: 20 });
 * // 'Or(\n  A.Equal(1);\n  B.Equal(2)\n)'
 */
export function formatFilter(input: string | FilterAst, options: PrintOptions & ParseOptions = {}): string {
  if (typeof input !== 'string') return printFilter(input, options);
  const { ast, diagnostics } = parseFilter(input, options);
  if (hasErrors(diagnostics)) throw WepqlError.from('filter', diagnostics);
  return printFilter(ast, options);
}

/**
 * Formats a sort: parses a text (or takes a tree) and prints it canonically,
 * every item with an explicit direction. Errors throw `WepqlError`.
 *
 * @example
 * formatSort('lastname ; CreatedOn = desc'); // 'lastname=Asc;CreatedOn=Desc'
 */
export function formatSort(input: string | SortAst, options: PrintOptions & ParseOptions = {}): string {
  if (typeof input !== 'string') return printSort(input, options);
  const { ast, diagnostics } = parseSort(input, options);
  if (hasErrors(diagnostics)) throw WepqlError.from('sort', diagnostics);
  return printSort(ast, options);
}
