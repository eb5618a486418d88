/**
 * Parse and validate in one call: the usual way in from user text. All
 * diagnostics of both stages come back in one list, in source order.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { codeInfo } from '../diagnostics/codes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import { WepqlError } from '../diagnostics/error.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';
import { validateFilter } from './validate-filter.js';
import { validateSort } from './validate-sort.js';

/**
 * Options of the `analyze…` functions.
 *
 * @example
 * const options: AnalyzeOptions = { schema: employeeSchema, limits: { maxDepth: 8 } };
 */
export interface AnalyzeOptions {
  /** The schema fields resolve against. */
  readonly schema: Schema;
  /** Bounds on the text and the tree (docs/reference.md §"Limits"); unset fields take the defaults. */
  readonly limits?: Partial<Limits>;
}

/**
 * The result of `analyzeFilter`: the tree, the typed tree (undefined exactly when there is an error) and every diagnostic.
 *
 * @example
 * const { ast, value, diagnostics }: AnalyzeFilterResult = analyzeFilter('Gender.Equal(1)', { schema: employeeSchema });
 */
export interface AnalyzeFilterResult {
  readonly ast: FilterAst;
  readonly value: TypedFilter | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The result of `analyzeSort`.
 *
 * @example
 * const { value }: AnalyzeSortResult = analyzeSort('LastName=Asc', { schema: employeeSchema });
 * value?.keys[0]?.direction; // 'Asc'
 */
export interface AnalyzeSortResult {
  readonly ast: SortAst;
  readonly value: TypedSort | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Parses a filter (when given text) and validates it against a schema.
 * Never throws. `value` is undefined when either stage reported an error;
 * the tree is still validated then, so one call reports every problem.
 *
 * @example
 * const { value, diagnostics } = analyzeFilter('LastName.StartsWith(Sm);Salary.GreaterThan(abc)', { schema });
 * value;                 // undefined
 * diagnostics[0].code;   // 'invalid-value' (at "abc", 43–46)
 */
export function analyzeFilter(input: string | FilterAst, options: AnalyzeOptions): AnalyzeFilterResult {
  const limits = options.limits;
  const parsed = typeof input === 'string' ? parseFilter(input, limits === undefined ? {} : { limits }) : undefined;
  const ast = parsed === undefined ? (input as FilterAst) : parsed.ast;
  const validated = validateFilter(ast, options.schema, limits === undefined ? {} : { limits });
  const diagnostics = merge(parsed?.diagnostics ?? [], validated.diagnostics);
  return { ast, value: hasErrors(diagnostics) ? undefined : validated.value, diagnostics };
}

/**
 * Parses a sort (when given text) and validates it against a schema.
 * Never throws.
 *
 * @example
 * analyzeSort('lastname=Asc;CreatedOn=Desc', { schema: employeeSchema }).value?.keys.map((k) => k.field.name);
 * // ['LastName', 'CreatedOn'] (with a field-case-mismatch warning on "lastname")
 */
export function analyzeSort(input: string | SortAst, options: AnalyzeOptions): AnalyzeSortResult {
  const limits = options.limits;
  const parsed = typeof input === 'string' ? parseSort(input, limits === undefined ? {} : { limits }) : undefined;
  const ast = parsed === undefined ? (input as SortAst) : parsed.ast;
  const validated = validateSort(ast, options.schema, limits === undefined ? {} : { limits });
  const diagnostics = merge(parsed?.diagnostics ?? [], validated.diagnostics);
  return { ast, value: hasErrors(diagnostics) ? undefined : validated.value, diagnostics };
}

/**
 * `analyzeFilter`, returning the typed tree or throwing `WepqlError` with
 * every diagnostic.
 *
 * @example
 * const typed = analyzeFilterOrThrow('Gender.Equal(1)', { schema: employeeSchema });
 */
export function analyzeFilterOrThrow(input: string | FilterAst, options: AnalyzeOptions): TypedFilter {
  const { value, diagnostics } = analyzeFilter(input, options);
  if (value === undefined) throw WepqlError.from('filter', diagnostics);
  return value;
}

/**
 * `analyzeSort`, returning the typed sort or throwing `WepqlError` with
 * every diagnostic.
 *
 * @example
 * const typed = analyzeSortOrThrow('CreatedOn=Desc', { schema: employeeSchema });
 */
export function analyzeSortOrThrow(input: string | SortAst, options: AnalyzeOptions): TypedSort {
  const { value, diagnostics } = analyzeSort(input, options);
  if (value === undefined) throw WepqlError.from('sort', diagnostics);
  return value;
}

/**
 * Joins the parser's and the validator's diagnostics in source order. The
 * validator repeats the parser's structural checks for trees built by code;
 * on parsed text those repeats are dropped: the same code at the same
 * range, or a limit the parser already reported.
 */
function merge(parsed: readonly Diagnostic[], validated: readonly Diagnostic[]): Diagnostic[] {
  if (validated.length === 0) return [...parsed];
  const seen = new Set(parsed.map((d) => `${d.code}@${d.start}:${d.end}`));
  const limitCodes = new Set(parsed.filter((d) => codeInfo(d.code).stage === 'limit').map((d) => d.code));
  const parserCapped = parsed.some((d) => d.code === 'too-many-errors');
  const extra = validated.filter(
    (d) => !seen.has(`${d.code}@${d.start}:${d.end}`) && !limitCodes.has(d.code) && !(parserCapped && d.code === 'too-many-errors'),
  );
  // Stable: at equal offsets the parser's diagnostics stay first.
  return [...parsed, ...extra].sort((a, b) => a.start - b.start);
}
