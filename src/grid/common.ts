/**
 * What the three grid converters share: looking up a column's field in the
 * schema, the day ranges of date-only filters (docs/semantics.md: a date
 * without a time is midnight UTC, so "on that day" is a range), and sort
 * models in both directions.
 */
import { foldFilter } from '../ast/fold.js';
import { operatorFacts, operatorFor } from '../ast/operator-facts.js';
import type { FilterOperator, OperatorRelation } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf, modelValueLabel } from '../diagnostics/model-diagnostic.js';
import type { ModelClause } from '../print/model-text.js';
import { printFilter, printSort } from '../print/printer.js';
import type { TypedFilterNode } from '../ast/typed-tree.js';
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

/**
 * The schema field a column names, or undefined.
 *
 * @example
 * columnField(employeeSchema, 'lastname')?.name; // 'LastName'
 */
export function columnField(schema: Schema, column: unknown): ResolvedField | undefined {
  if (typeof column !== 'string') return undefined;
  const hit = schema.lookup(column);
  return hit.found === 'field' ? hit.field : undefined;
}

/**
 * `field.operator(value)` as a model clause.
 *
 * @example
 * cond('Gender', compareOperator('='), ['1'], ['Gender']);
 */
export function cond(field: string, operator: FilterOperator, values: readonly string[], path: ModelPath): ModelClause {
  return { kind: 'condition', field, operator, values, path };
}

/**
 * The comparison operator of a relation, named by its facts (`<>` is `=`
 * negated): what a grid's "equals", "greater than" or range end means.
 *
 * @example
 * compareOperator('>='); // 'GreaterThanOrEqual'
 * compareOperator('<>'); // 'NotEqual'
 */
export function compareOperator(relation: OperatorRelation): FilterOperator {
  return relation === '<>'
    ? operatorFor({ test: { kind: 'compare', relation: '=' }, negated: true })
    : operatorFor({ test: { kind: 'compare', relation } });
}

/**
 * `field.IsNull()` as a model clause, or `field.IsNotNull()` when `isNull`
 * is false: a grid's blank and not-blank on a column whose cells hold no
 * text of spaces.
 *
 * @example
 * nullCheck('Gender', true, ['Gender']); // Gender.IsNull() as a model clause
 */
export function nullCheck(field: string, isNull: boolean, path: ModelPath): ModelClause {
  return cond(field, operatorFor({ test: { kind: 'present' }, negated: isNull }), [], path);
}

/**
 * `field.InArray(values)` as a model clause, or `field.InArrayOrNull(values)`
 * when `orNullToo`: a grid's "any of these values" filter.
 *
 * @example
 * memberClause('Gender', ['1', '2'], false, ['Gender']); // Gender.InArray(1,2) as a model clause
 */
export function memberClause(field: string, values: readonly string[], orNullToo: boolean, path: ModelPath): ModelClause {
  return cond(field, operatorFor({ test: { kind: 'member' }, nullMatches: orNullToo }), values, path);
}

/**
 * A text column's "empty" (null or the empty string) as a model clause, or
 * "not empty" (not the empty string, which is false on null) when `empty`
 * is false: what AG Grid's blank, MUI's isEmpty and TanStack's empty come
 * closest to (each also counts text of spaces as empty).
 *
 * @example
 * emptyTextClause('LastName', true, []); // Or(LastName.IsNull();LastName.Equal('')) as a model clause
 */
export function emptyTextClause(field: string, empty: boolean, path: ModelPath): ModelClause {
  if (!empty) return cond(field, compareOperator('<>'), [''], path);
  return { kind: 'group', operator: 'Or', children: [nullCheck(field, true, path), cond(field, compareOperator('='), [''], path)], path };
}

/**
 * A model clause that holds on a null field or on `inner`: grids whose negations match empty cells.
 *
 * @example
 * orNull(genderField, cond('Gender', compareOperator('<>'), ['1'], []), []); // Or(Gender.IsNull();Gender.NotEqual(1))
 */
export function orNull(field: ResolvedField, inner: ModelClause, path: ModelPath): ModelClause {
  return field.nullable ? { kind: 'group', operator: 'Or', children: [nullCheck(field.name, true, path), inner], path } : inner;
}

/**
 * The day of a condition a grid's date filter holds as a day boundary, or
 * undefined: `x >= D` is "on or after D" and `x < D` is "before D" when D
 * is a date without a time (docs/semantics.md: midnight UTC); any other
 * condition on a datetime is not a whole day.
 *
 * @example
 * dayBoundary(compareOperator('<'), '2024-03-21'); // '2024-03-21'
 * dayBoundary(compareOperator('>'), '2024-03-21'); // undefined
 */
export function dayBoundary(operator: FilterOperator, valueText: string): string | undefined {
  const facts = operatorFacts(operator);
  const test = facts.test;
  const boundary = test.kind === 'compare' && !facts.negated && (test.relation === '>=' || test.relation === '<');
  return boundary ? dayPeriod(valueText)?.start : undefined;
}

/**
 * How a grid relates a cell to a day (or a minute): on it, not on it,
 * before or after it, on or before, on or after.
 *
 * @example
 * const relation: DayRelation = 'on-or-after';
 */
export type DayRelation = 'on' | 'not-on' | 'before' | 'after' | 'on-or-before' | 'on-or-after';

/**
 * Clauses for a cell's relation to the period [start, next) of a datetime
 * field (a day, or a minute): `on` is `start <= x < next`, `after` is
 * `x >= next`, and so on (docs/semantics.md). With `nextInclusive` the bound
 * is the period's last millisecond (9999-12-31 has no next day to write).
 *
 * @example
 * periodClause('CreatedOn', { start: '2024-03-21', next: '2024-03-22', nextInclusive: false }, 'on', ['CreatedOn']);
 * // And(CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22)) as a model clause
 */
export function periodClause(
  field: string,
  period: { readonly start: string; readonly next: string; readonly nextInclusive: boolean },
  relation: DayRelation,
  path: ModelPath,
): ModelClause {
  const belowNext = cond(field, compareOperator(period.nextInclusive ? '<=' : '<'), [period.next], path);
  const aboveNext = cond(field, compareOperator(period.nextInclusive ? '>' : '>='), [period.next], path);
  const fromStart = cond(field, compareOperator('>='), [period.start], path);
  const beforeStart = cond(field, compareOperator('<'), [period.start], path);
  switch (relation) {
    case 'on':
      return { kind: 'group', operator: 'And', children: [fromStart, belowNext], path };
    case 'not-on':
      return { kind: 'group', operator: 'Or', children: [beforeStart, aboveNext], path };
    case 'before':
      return beforeStart;
    case 'on-or-before':
      return belowNext;
    case 'after':
      return aboveNext;
    case 'on-or-after':
      return fromStart;
  }
}

/**
 * The day a date-only text names as a period for `periodClause`, or undefined.
 *
 * @example
 * dayPeriod('2024-03-21'); // { start: '2024-03-21', next: '2024-03-22', nextInclusive: false }
 */
export function dayPeriod(dayText: string): { start: string; next: string; nextInclusive: boolean } | undefined {
  const day = dateOnlyDay(dayText);
  return day === undefined ? undefined : { start: day.day, next: day.next, nextInclusive: day.nextInclusive };
}

/**
 * The date part of `2024-03-21`, `2024-03-21 00:00:00`, `2024-03-21T10:00` or a `Date` (its UTC day).
 *
 * @example
 * dayOf('2024-03-21 00:00:00'); // '2024-03-21'
 */
export function dayOf(value: unknown): string | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.toISOString().slice(0, 10);
  if (typeof value !== 'string') return undefined;
  // A grid's model value, not filter text, so JavaScript's trim: only the day found reaches the filter.
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T].*)?$/.exec(value.trim());
  return m?.[1];
}

/**
 * Converts `[column, direction]` pairs to wepql sort text validated against the schema; diagnostics at each item's path.
 *
 * @example
 * sortText([{ column: 'LastName', direction: 'asc', path: [0] }], { schema }).sort; // 'LastName=Asc'
 */
export function sortText(items: readonly { column: unknown; direction: unknown; path: ModelPath }[], options: GridOptions): GridSortResult {
  const diagnostics: ModelDiagnostic[] = [];
  const parts: { text: string; path: ModelPath }[] = [];
  for (const item of items) {
    if (item.direction === null || item.direction === undefined) continue;
    const dir = typeof item.direction === 'string' ? item.direction.toLowerCase() : '';
    if (dir !== 'asc' && dir !== 'desc') {
      diagnostics.push({
        code: 'invalid-direction',
        severity: 'error',
        message: `sort direction ${modelValueLabel(item.direction)} is neither asc nor desc`,
        path: item.path,
      });
      continue;
    }
    const field = columnField(options.schema, item.column);
    if (field === undefined) {
      diagnostics.push({
        code: 'unknown-field',
        severity: 'error',
        message: `column ${modelValueLabel(item.column)} is not a field of the schema`,
        path: item.path,
      });
      continue;
    }
    parts.push({ text: `${field.name}=${dir === 'asc' ? 'Asc' : 'Desc'}`, path: item.path });
  }
  const text = parts.map((p) => p.text).join(';');
  const analyzed = analyzeSort(
    text,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
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

/**
 * The keys of a wepql sort text as `{ field, direction: 'asc' | 'desc' }`, or its diagnostics.
 *
 * @example
 * sortKeys('LastName=Desc', { schema }).keys; // [{ field: 'LastName', direction: 'desc' }]
 */
export function sortKeys(
  sort: string,
  options: GridOptions,
): { keys: { field: string; direction: 'asc' | 'desc' }[] | undefined; diagnostics: ModelDiagnostic[] } {
  const analyzed = analyzeSort(
    sort,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  const diagnostics = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { keys: undefined, diagnostics };
  return {
    keys: analyzed.value.keys.map((k) => ({ field: k.field.name, direction: k.direction === 'Asc' ? 'asc' : 'desc' })),
    diagnostics,
  };
}

/**
 * The grid model a grid's own reader reads as exactly `node`, found among
 * `candidates`: the way back for the clauses a reader writes for one model
 * but no operator maps to one by one (a day as a range, a negation that
 * keeps empty cells, a blank text). `read` returns the filter text a model
 * reads as (undefined when it reads with any warning or error), so what
 * comes back reads as the clause it came from, by construction.
 *
 * @example
 * readBack(node, (field, values) => values.map((v) => ({ field: field.name, operator: 'is', value: v })), readItem);
 */
export function readBack<M>(
  node: TypedFilterNode,
  candidates: (field: ResolvedField, values: readonly string[]) => Iterable<M>,
  read: (model: M) => string | undefined,
): M | undefined {
  const field = clauseField(node);
  if (field === undefined) return undefined;
  const target = printFilter({ kind: 'filter', clauses: [node.source], span: node.source.span });
  for (const model of candidates(field, clauseValues(node))) if (read(model) === target) return model;
  return undefined;
}

// The one field every condition of a clause tests, or undefined.
function clauseField(node: TypedFilterNode): ResolvedField | undefined {
  return foldFilter<TypedFilterNode, ResolvedField | undefined>(node, {
    group: (_group, fields) => {
      const first = fields[0];
      return first !== undefined && fields.every((f) => f?.name === first.name) ? first : undefined;
    },
    comparison: (n) => n.field,
    'null-check': (n) => n.field,
    list: (n) => n.field,
    'in-fields': () => undefined,
  });
}

// The value texts of a clause, and the day before each date-only one (a day's "after" is written from the next day).
function clauseValues(node: TypedFilterNode): string[] {
  const texts = new Set<string>();
  foldFilter<TypedFilterNode, void>(node, {
    group: () => undefined,
    comparison: (n) => void texts.add(n.source.value.value),
    'null-check': () => undefined,
    list: (n) => n.source.values.forEach((v) => texts.add(v.value)),
    'in-fields': () => undefined,
  });
  for (const text of [...texts]) {
    const day = dateOnlyDay(text);
    if (day === undefined) continue;
    const [y, m, d] = day.day.split('-').map(Number) as [number, number, number];
    const before = new Date(Date.UTC(y, m - 1, d - 1));
    if (before.getUTCFullYear() >= 0 && before.getUTCFullYear() <= 9999) texts.add(before.toISOString().slice(0, 10));
  }
  return [...texts];
}
