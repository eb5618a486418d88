/**
 * Runs the syntax and semantic corpora in process against this package:
 * the parser for the syntax cases, `analyzeFilter`/`analyzeSort` and
 * `query` over the dataset for the semantic ones.
 */
import { hasErrors } from '../diagnostics/diagnostic.js';
import { query } from '../evaluate/query.js';
import { employeeSchema } from '../schema/employee-schema.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import type { SemanticCase, SyntaxCase } from './corpus.js';
import { simplifyFilter, simplifySort } from './simplify.js';

/**
 * What one case got: the values compared with the case's expectations.
 *
 * @example
 * const got: SemanticOutcome = { ids: [3, 4, 22] };
 */
export type SemanticOutcome = { readonly ids: readonly number[] } | { readonly errors: readonly string[] };

/**
 * The filter a semantic case runs: its own, inside the soft-delete scope when the case hides deleted rows.
 *
 * @example
 * scopedFilter({ filter: 'A.IsNull()', deleted: 'hide' }, 'RowStatus.NotInArrayOrNull(3)'); // 'RowStatus.NotInArrayOrNull(3);A.IsNull()'
 */
export function scopedFilter(c: Pick<SemanticCase, 'filter' | 'deleted'>, deletedScope: string): string {
  if (c.deleted !== 'hide') return c.filter;
  return c.filter === '' ? deletedScope : `${deletedScope};${c.filter}`;
}

/**
 * The validation error codes of a case's filter and sort against the employee schema, filter first.
 *
 * @example
 * validationErrors({ filter: 'Nope.Equal(1)', sort: '' }); // ['unknown-field']
 */
export function validationErrors(c: Pick<SemanticCase, 'filter' | 'sort'>): string[] {
  const filter = analyzeFilter(c.filter, { schema: employeeSchema }).diagnostics;
  const sort = analyzeSort(c.sort, { schema: employeeSchema }).diagnostics;
  return [...filter, ...sort].filter((d) => d.severity === 'error').map((d) => d.code);
}

/**
 * Runs one semantic case with `query()` over the dataset: the error codes
 * when the filter or sort is invalid, else the ids in the order returned.
 *
 * @example
 * runSemanticCase(c, records, 'RowStatus.NotInArrayOrNull(3)'); // { ids: [1, 2, 3, 29] }
 */
export function runSemanticCase(c: SemanticCase, records: readonly Record<string, unknown>[], deletedScope: string): SemanticOutcome {
  const errors = validationErrors(c);
  if (errors.length > 0) return { errors };
  const filter = scopedFilter(c, deletedScope);
  const rows = query(records, {
    schema: employeeSchema,
    caseSensitive: c.caseSensitive,
    ...(filter === '' ? {} : { filter }),
    ...(c.sort === '' ? {} : { sort: c.sort }),
  });
  return { ids: rows.map((r) => r['Id'] as number) };
}

/**
 * What a syntax case got: diagnostic codes and the simplified tree.
 *
 * @example
 * runSyntaxCase({ name: 'x', kind: 'sort', input: 'A', diagnostics: ['implicit-direction'] });
 */
export function runSyntaxCase(c: SyntaxCase): { readonly diagnostics: readonly string[]; readonly ast: unknown; readonly clean: boolean } {
  if (c.kind === 'filter') {
    const r = parseFilter(c.input);
    return { diagnostics: r.diagnostics.map((d) => d.code), ast: simplifyFilter(r.ast), clean: !hasErrors(r.diagnostics) };
  }
  const r = parseSort(c.input);
  return { diagnostics: r.diagnostics.map((d) => d.code), ast: simplifySort(r.ast), clean: !hasErrors(r.diagnostics) };
}
