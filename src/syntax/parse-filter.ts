/**
 * `parseFilter`: filter text to a syntax tree plus diagnostics (docs/reference.md
 * §"Lexical rules", §"Filter grammar", §"Diagnostics" and §"Limits"). Never throws; erroneous clauses are left out of the tree so
 * that tools still get every clause that parsed cleanly. Well-formed text is
 * read by the fast path (filter-fast-path.ts); any other text by the
 * Chevrotain parser (parse-filter-chevrotain.ts), which the CLI bundle
 * loads only when a text needs it (scripts/bundle.mjs).
 */
import type { FilterAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { readWellFormedFilter } from './filter-fast-path.js';
import { parseFilterWithChevrotain } from './parse-filter-chevrotain.js';
import type { ParseOptions } from './parse-options.js';

export { parseFilterWithChevrotain, visitFilter } from './parse-filter-chevrotain.js';

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
