/**
 * Turns what a caller passes (text, a syntax tree or a typed tree) into a
 * typed tree, throwing `WepqlError` with every diagnostic when it is not
 * valid against the schema.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { WepqlError } from '../diagnostics/error.js';
import type { Limits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { analyzeFilter, analyzeSort } from '../validate/analyze.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';

interface ResolveOptions {
  readonly schema?: Schema;
  readonly limits?: Partial<Limits>;
}

function requireSchema(schema: Schema | undefined, what: string): Schema {
  if (schema === undefined) {
    throw new WepqlError(`a schema is required to compile ${what} text or a syntax tree (pass options.schema, or a typed tree)`, []);
  }
  return schema;
}

/**
 * The typed filter for any accepted input.
 *
 * @example
 * resolveFilter('Gender.Equal(1)', { schema: employeeSchema }).clauses.length; // 1
 */
export function resolveFilter(input: string | FilterAst | TypedFilter, options: ResolveOptions): TypedFilter {
  if (typeof input !== 'string' && input.kind === 'typed-filter') return input;
  const schema = requireSchema(options.schema, 'filter');
  const limits = options.limits;
  const result = analyzeFilter(input, { schema, ...(limits === undefined ? {} : { limits }) });
  if (result.value === undefined) throw WepqlError.from('filter', result.diagnostics);
  return result.value;
}

/**
 * The typed sort for any accepted input.
 *
 * @example
 * resolveSort('LastName=Asc', { schema: employeeSchema }).keys[0].direction; // 'Asc'
 */
export function resolveSort(input: string | SortAst | TypedSort, options: ResolveOptions): TypedSort {
  if (typeof input !== 'string' && input.kind === 'typed-sort') return input;
  const schema = requireSchema(options.schema, 'sort');
  const limits = options.limits;
  const result = analyzeSort(input, { schema, ...(limits === undefined ? {} : { limits }) });
  if (result.value === undefined) throw WepqlError.from('sort', result.diagnostics);
  return result.value;
}
