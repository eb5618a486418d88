/**
 * Types a sort's syntax tree against a schema: resolves every key's field
 * and drops keys that repeat a field already sorted on.
 */
import type { SortAst } from '../ast/nodes.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { resolveLimits } from '../diagnostics/limits.js';
import type { Schema } from '../schema/schema.js';
import { Reporter } from './report.js';
import { resolveField } from './resolve-field.js';
import type { TypedSort, TypedSortKey } from '../ast/typed-tree.js';
import type { ValidateOptions } from './validate-filter.js';

/**
 * The result of `validateSort`: the typed sort, undefined exactly when an error was reported.
 *
 * @example
 * const { value }: ValidateSortResult = validateSort(parseSort('LastName=Asc').ast, schema);
 */
export interface ValidateSortResult {
  readonly value: TypedSort | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Validates a sort's syntax tree against a schema. Never throws. Reports
 * `unknown-field`, `field-case-mismatch`, `not-a-leaf-field`, `not-sortable`
 * at each key's field, and `too-many-sort-keys` for a tree built by code.
 * A key naming a field already sorted on (after case-insensitive
 * resolution) is left out of `keys`, since it cannot change the order; it
 * is not reported here because the parser already warns
 * `duplicate-sort-field` on the text.
 *
 * @example
 * validateSort(parseSort('lastname=Asc;LastName=Desc').ast, schema).value?.keys;
 * // [{ field: { name: 'LastName', … }, direction: 'Asc', … }]
 */
export function validateSort(ast: SortAst, schema: Schema, options: ValidateOptions = {}): ValidateSortResult {
  const limits = resolveLimits(options.limits);
  const reporter = new Reporter(limits.maxErrors);
  if (ast.items.length > limits.maxSortKeys) {
    const first = ast.items[limits.maxSortKeys]!;
    const last = ast.items[ast.items.length - 1]!;
    reporter.report(
      'too-many-sort-keys',
      { start: first.span.start, end: last.span.end },
      `the sort has ${ast.items.length} keys; at most ${limits.maxSortKeys} are allowed (limit maxSortKeys)`,
    );
  }
  const keys: TypedSortKey[] = [];
  const seen = new Set<string>();
  // Keys past the limit are not resolved: that is what the limit bounds.
  for (const item of ast.items.slice(0, limits.maxSortKeys)) {
    const field = resolveField(item.field, schema, 'sort', reporter);
    if (field === undefined || seen.has(field.name)) continue;
    seen.add(field.name);
    keys.push({ field, direction: item.direction, source: item });
  }
  if (reporter.hasErrors) return { value: undefined, diagnostics: reporter.diagnostics };
  return { value: { kind: 'typed-sort', keys, source: ast }, diagnostics: reporter.diagnostics };
}
