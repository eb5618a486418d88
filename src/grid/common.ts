/**
 * What the three grid converters share: looking up a column's field in the
 * schema, the day ranges of date-only filters (docs/semantics.md: a date
 * without a time is midnight UTC, so "on that day" is a range), and sort
 * models in both directions.
 */
import type { FilterOperator } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf } from '../diagnostics/model-diagnostic.js';
import type { ModelClause } from '../print/model-text.js';
import { printSort } from '../print/printer.js';
import { dateOnlyDay } from '../schema/date-only.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { analyzeSort } from '../validate/analyze.js';

/**
 * Options every grid converter takes.
 *
 * @example
 * const options: GridOptions = { schema: employeeSchema };
 */
export interface GridOptions {
  /** The schema columns are fields of (a column's id or field is the field's dotted name). */
  readonly schema: Schema;
  /** Bounds as everywhere. */
  readonly limits?: Partial<Limits>;
}

/**
 * The wepql sort text of a grid's sort model (undefined on errors) and its diagnostics.
 *
 * @example
 * const { sort }: GridSortResult = fromAgGridSortModel([{ colId: 'LastName', sort: 'asc' }], { schema });
 */
export interface GridSortResult {
  readonly sort: string | undefined;
  readonly diagnostics: readonly ModelDiagnostic[];
}

/**
 * The result of converting wepql text to a grid model: the model (undefined
 * when any part cannot be held by the grid) and the diagnostics.
 *
 * @example
 * const { model, diagnostics }: ToGridResult<ColumnFiltersState> = toTanStackColumnFilters('LastName.Contains(sm)', { schema });
 */
export interface ToGridResult<M> {
  readonly model: M | undefined;
  readonly diagnostics: readonly ModelDiagnostic[];
}

/** The schema field a column names, or undefined. */
export function columnField(schema: Schema, column: unknown): ResolvedField | undefined {
  if (typeof column !== 'string') return undefined;
  const hit = schema.lookup(column);
  return hit.found === 'field' ? hit.field : undefined;
}

/** `field.operator(value)` as a model clause. */
export function cond(field: string, operator: FilterOperator, values: readonly string[], path: ModelPath): ModelClause {
  return { kind: 'condition', field, operator, values, path };
}

/** A model clause that holds on a null field or on `inner`: grids whose negations match empty cells. */
export function orNull(field: ResolvedField, inner: ModelClause, path: ModelPath): ModelClause {
  return field.nullable ? { kind: 'group', operator: 'Or', children: [cond(field.name, 'IsNull', [], path), inner], path } : inner;
}

/**
 * Day-range clauses for a date-only value: `on` the day, `not-on` it,
 * `before`/`after` it, `on-or-before`/`on-or-after` it (docs/semantics.md).
 * Undefined when the text is not a date.
 */
export function dayClause(
  field: string,
  dayText: string,
  relation: 'on' | 'not-on' | 'before' | 'after' | 'on-or-before' | 'on-or-after',
  path: ModelPath,
): ModelClause | undefined {
  const day = dateOnlyDay(dayText);
  if (day === undefined) return undefined;
  const belowNext = cond(field, day.nextInclusive ? 'LessThanOrEqual' : 'LessThan', [day.next], path);
  const aboveDay = cond(field, day.nextInclusive ? 'GreaterThan' : 'GreaterThanOrEqual', [day.next], path);
  switch (relation) {
    case 'on':
      return { kind: 'group', operator: 'And', children: [cond(field, 'GreaterThanOrEqual', [day.day], path), belowNext], path };
    case 'not-on':
      return { kind: 'group', operator: 'Or', children: [cond(field, 'LessThan', [day.day], path), aboveDay], path };
    case 'before':
      return cond(field, 'LessThan', [day.day], path);
    case 'on-or-before':
      return belowNext;
    case 'after':
      return aboveDay;
    case 'on-or-after':
      return cond(field, 'GreaterThanOrEqual', [day.day], path);
  }
}

/** The date part of `2024-03-21`, `2024-03-21 00:00:00`, `2024-03-21T10:00` or a `Date` (its UTC day). */
export function dayOf(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T].*)?$/.exec(value.trim());
  return m?.[1];
}

/** Converts `[column, direction]` pairs to wepql sort text validated against the schema; diagnostics at each item's index. */
export function sortText(items: readonly { column: unknown; direction: unknown; path: ModelPath }[], options: GridOptions): GridSortResult {
  const diagnostics: ModelDiagnostic[] = [];
  const parts: { text: string; path: ModelPath }[] = [];
  for (const item of items) {
    if (item.direction === null || item.direction === undefined) continue;
    const dir = typeof item.direction === 'string' ? item.direction.toLowerCase() : '';
    if (dir !== 'asc' && dir !== 'desc') {
      diagnostics.push({ code: 'invalid-direction', severity: 'error', message: `sort direction ${JSON.stringify(item.direction)} is neither asc nor desc`, path: item.path });
      continue;
    }
    const field = columnField(options.schema, item.column);
    if (field === undefined) {
      diagnostics.push({ code: 'unknown-field', severity: 'error', message: `column ${JSON.stringify(item.column)} is not a field of the schema`, path: item.path });
      continue;
    }
    parts.push({ text: `${field.name}=${dir === 'asc' ? 'Asc' : 'Desc'}`, path: item.path });
  }
  const text = parts.map((p) => p.text).join(';');
  const analyzed = analyzeSort(text, options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits });
  let offset = 0;
  const starts = parts.map((p) => {
    const s = offset;
    offset += p.text.length + 1;
    return s;
  });
  for (const d of analyzed.diagnostics) {
    let i = starts.length - 1;
    while (i > 0 && starts[i]! > d.start) i--;
    diagnostics.push(modelDiagnosticOf(d, parts[i]?.path ?? []));
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { sort: undefined, diagnostics };
  return { sort: parts.length === 0 ? '' : printSort(analyzed.ast), diagnostics };
}

/** The keys of a wepql sort text as `[field, 'asc' | 'desc']`, or its diagnostics. */
export function sortKeys(sort: string, options: GridOptions): { keys: { field: string; direction: 'asc' | 'desc' }[] | undefined; diagnostics: ModelDiagnostic[] } {
  const analyzed = analyzeSort(sort, options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits });
  const diagnostics = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { keys: undefined, diagnostics };
  return { keys: analyzed.value.keys.map((k) => ({ field: k.field.name, direction: k.direction === 'Asc' ? 'asc' : 'desc' })), diagnostics };
}
