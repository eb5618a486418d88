/**
 * TanStack Table: `ColumnFiltersState` (with each column's built-in filter
 * function) and `SortingState` to wepql text, and back. The filter function
 * is part of the column definition, not of the state, so it is passed in
 * `filterFns` (column id → built-in name); `'auto'` (the default) picks what
 * TanStack's auto filter picks for a value of the field's type. Each mapping
 * keeps the filter function's meaning, null rows included, so wepql returns
 * the rows `getFilteredRowModel` returns.
 *
 * The state's shapes are written out here rather than imported from
 * `@tanstack/table-core`, so that `wepql/grid` type-checks in a project that
 * installs only one of the grids (`skipLibCheck: false`); they are the
 * package's own shapes, assignable to and from `ColumnFiltersState` and
 * `SortingState` (test/types/ui-models.test.ts checks both directions).
 */
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import type { ModelClause, ModelFilterResult } from '../print/model-text.js';
import { modelFilterText, modelValueText } from '../print/model-text.js';
import type { ResolvedField } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import { matchFilterNode } from '../ast/fold.js';
import type { FilterOperator } from '../ast/operators.js';
import { FILTER_OPERATORS, OPERATORS } from '../ast/operators.js';
import type { TypedComparison, TypedFilterNode, TypedGroup, TypedNullCheck } from '../ast/typed-tree.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { GridOptions, GridSortResult, ToGridResult } from './common.js';
import { columnField, compareOperator, cond, emptyTextClause, memberClause, nullCheck, orNull, sortKeys, sortText } from './common.js';
import { modelDiagnosticOf, modelValueLabel } from '../diagnostics/model-diagnostic.js';

/**
 * The built-in filter functions this module maps (TanStack Table's names).
 *
 * @example
 * const fn: TanStackFilterFn = 'includesString';
 */
export type TanStackFilterFn =
  | 'auto'
  | 'includesString'
  | 'includesStringSensitive'
  | 'equalsString'
  | 'equalsStringSensitive'
  | 'startsWith'
  | 'endsWith'
  | 'equals'
  | 'weakEquals'
  | 'empty'
  | 'notEmpty'
  | 'greaterThan'
  | 'greaterThanOrEqualTo'
  | 'lessThan'
  | 'lessThanOrEqualTo'
  | 'inNumberRange'
  | 'inDateRange'
  | 'arrHas';

/**
 * The built-in filter function that means each operator, or null where none
 * does. On a string column `equals` is written `equalsString` (which
 * compares case-insensitively, as wepql does); the case-sensitive functions
 * and `weakEquals` read as their kin in `SAME_MEANING`. A new operator is a
 * compile error here until it is given its function or null.
 */
const TANSTACK_FILTER_FNS: Readonly<Record<FilterOperator, TanStackFilterFn | null>> = {
  Equal: 'equals',
  NotEqual: null,
  LessThan: 'lessThan',
  LessThanOrEqual: 'lessThanOrEqualTo',
  GreaterThan: 'greaterThan',
  GreaterThanOrEqual: 'greaterThanOrEqualTo',
  Contains: 'includesString',
  StartsWith: 'startsWith',
  EndsWith: 'endsWith',
  NotContains: null,
  NotStartsWith: null,
  NotEndsWith: null,
  IsNull: 'empty',
  IsNotNull: 'notEmpty',
  InArray: 'arrHas',
  InArrayOrNull: null,
  NotInArray: null,
  NotInArrayOrNull: null,
  EqualInFields: null,
  LessThanInFields: null,
  LessThanOrEqualInFields: null,
  GreaterThanInFields: null,
  GreaterThanOrEqualInFields: null,
  ContainsInFields: null,
  StartsWithInFields: null,
  EndsWithInFields: null,
};

// Functions read as another of the table: the case-sensitive ones as their kin (with a warning: wepql compares text case-insensitively), equalsString and weakEquals as equals.
const SAME_MEANING: Readonly<Partial<Record<TanStackFilterFn, TanStackFilterFn>>> = {
  includesStringSensitive: 'includesString',
  equalsString: 'equals',
  equalsStringSensitive: 'equals',
  weakEquals: 'equals',
};

// The operator a filter function of the table (or of SAME_MEANING) stands for.
function operatorOfFn(fn: TanStackFilterFn): FilterOperator {
  const same = SAME_MEANING[fn] ?? fn;
  const op = FILTER_OPERATORS.find((o) => TANSTACK_FILTER_FNS[o] === same);
  if (op === undefined) throw new Error(`operatorOfFn: ${fn} is not in TANSTACK_FILTER_FNS`);
  return op;
}

/**
 * One entry of TanStack Table's `ColumnFiltersState`: a column id and the
 * value of its filter.
 *
 * @example
 * const state: TanStackColumnFilter[] = [{ id: 'LastName', value: 'sm' }];
 */
export interface TanStackColumnFilter {
  /** The column id (a field name of the schema). */
  id: string;
  /** The filter value, read as the column's filter function reads it. */
  value: unknown;
}

/**
 * One entry of TanStack Table's `SortingState`: a column id and its direction.
 *
 * @example
 * const sorting: TanStackColumnSort[] = [{ id: 'CreatedOn', desc: true }];
 */
export interface TanStackColumnSort {
  /** The column id (a field name of the schema). */
  id: string;
  /** Descending when true. */
  desc: boolean;
}

/**
 * Options of the TanStack converters: the schema, and each column's filter function.
 *
 * @example
 * const options: TanStackOptions = { schema: employeeSchema, filterFns: { LastName: 'startsWith' } };
 */
export interface TanStackOptions extends GridOptions {
  /** Column id → built-in filter function name (default `'auto'`). */
  readonly filterFns?: Readonly<Record<string, TanStackFilterFn>>;
}

// What TanStack's auto filter picks for a first row value of the field's type.
function autoFn(field: ResolvedField): TanStackFilterFn {
  switch (field.type) {
    case 'string':
      return 'includesString';
    case 'number':
    case 'integer':
      return 'inNumberRange';
    case 'datetime':
      return 'inDateRange';
    default:
      return 'equals';
  }
}

// An empty range end is open (TanStack removes blanks); reversed ends are swapped, as inNumberRange does.
function rangeClause(
  field: ResolvedField,
  value: unknown,
  inclusive: boolean,
  swap: boolean,
  path: ModelPath,
  out: ModelDiagnostic[],
): ModelClause | undefined {
  const pair = Array.isArray(value) ? value : [];
  let [low, high] = [pair[0], pair[1]].map((v) => (v === null || v === undefined || v === '' ? undefined : modelValueText(v)));
  if (swap && low !== undefined && high !== undefined && Number(low) > Number(high)) [low, high] = [high, low];
  if (!Array.isArray(value) || pair.length !== 2) {
    out.push({ code: 'invalid-model', severity: 'error', message: 'a range filter value is a [min, max] pair', path });
    return undefined;
  }
  const children: ModelClause[] = [];
  if (low !== undefined) children.push(cond(field.name, compareOperator(inclusive ? '>=' : '>'), [low], path));
  if (high !== undefined) children.push(cond(field.name, compareOperator(inclusive ? '<=' : '<'), [high], path));
  // With both ends open TanStack still keeps only rows holding a value of the type.
  if (children.length === 0) return nullCheck(field.name, false, path);
  return children.length === 1 ? children[0] : { kind: 'group', operator: 'And', children, path };
}

function caseWarning(fn: string, path: ModelPath, out: ModelDiagnostic[]): void {
  out.push({
    code: 'not-expressible',
    severity: 'warning',
    message: `${fn} compares case-sensitively; the API compares text case-insensitively`,
    path,
  });
}

function filterClause(
  field: ResolvedField,
  fn: TanStackFilterFn,
  value: unknown,
  path: ModelPath,
  out: ModelDiagnostic[],
): ModelClause | undefined {
  const text = modelValueText(value);
  const single = (op: FilterOperator): ModelClause | undefined => {
    if (text !== undefined) return cond(field.name, op, [text], path);
    out.push({ code: 'invalid-value', severity: 'error', message: `${fn} needs one value`, path });
    return undefined;
  };
  switch (fn) {
    case 'auto':
      return filterClause(field, autoFn(field), value, path, out);
    case 'includesStringSensitive':
    case 'equalsStringSensitive':
      caseWarning(fn, path, out);
      return single(operatorOfFn(fn));
    case 'includesString':
    case 'equalsString':
    case 'equals':
    case 'weakEquals':
    case 'startsWith':
    case 'endsWith':
      return single(operatorOfFn(fn));
    case 'greaterThan':
    case 'greaterThanOrEqualTo':
    case 'lessThan':
    case 'lessThanOrEqualTo':
      return orderClause(field, fn, text, path, out);
    case 'empty':
    case 'notEmpty':
      return emptyClause(field, fn === 'empty', path, out);
    case 'inNumberRange':
    case 'inDateRange':
      return rangeClause(field, value, true, true, path, out);
    case 'arrHas': {
      const values = (Array.isArray(value) ? value : [value]).map(modelValueText);
      if (values.length > 0 && values.every((v) => v !== undefined)) return memberClause(field.name, values as string[], false, path);
      out.push({ code: 'invalid-value', severity: 'error', message: 'arrHas needs one or more values', path });
      return undefined;
    }
  }
}

type OrderFn = 'greaterThan' | 'greaterThanOrEqualTo' | 'lessThan' | 'lessThanOrEqualTo';

// TanStack compares an empty cell as 0 (and lessThan is "not greaterThanOrEqualTo"), so whether empty cells pass depends on the value's sign.
function orderClause(
  field: ResolvedField,
  fn: OrderFn,
  text: string | undefined,
  path: ModelPath,
  out: ModelDiagnostic[],
): ModelClause | undefined {
  const v = text === undefined ? Number.NaN : Number(text);
  if (field.type !== 'number' && field.type !== 'integer') {
    out.push({
      code: 'not-expressible',
      severity: 'error',
      message: `${fn} compares ${field.type} values as text in TanStack Table`,
      path,
    });
    return undefined;
  }
  if (text === undefined || Number.isNaN(v)) {
    out.push({ code: 'invalid-value', severity: 'error', message: `${fn} needs a number`, path });
    return undefined;
  }
  const inner = cond(field.name, operatorOfFn(fn), [text], path);
  return emptyPasses(fn, v) ? orNull(field, inner, path) : inner;
}

// Whether an empty cell (read as 0) passes an order function of value v.
function emptyPasses(fn: OrderFn, v: number): boolean {
  return fn === 'greaterThan' || fn === 'greaterThanOrEqualTo' ? 0 > v : v >= 0;
}

// TanStack's empty is "nullish or whitespace only"; wepql can say nullish or '' but not "only whitespace".
function emptyClause(field: ResolvedField, empty: boolean, path: ModelPath, out: ModelDiagnostic[]): ModelClause {
  if (field.type !== 'string') return nullCheck(field.name, empty, path);
  out.push({
    code: 'not-expressible',
    severity: 'warning',
    message: 'text of spaces only counts as empty in TanStack Table; wepql tests null and the empty string',
    path,
  });
  return emptyTextClause(field.name, empty, path);
}

const KNOWN_FNS: ReadonlySet<string> = new Set<TanStackFilterFn>([
  'auto',
  'includesString',
  'includesStringSensitive',
  'equalsString',
  'equalsStringSensitive',
  'startsWith',
  'endsWith',
  'equals',
  'weakEquals',
  'empty',
  'notEmpty',
  'greaterThan',
  'greaterThanOrEqualTo',
  'lessThan',
  'lessThanOrEqualTo',
  'inNumberRange',
  'inDateRange',
  'arrHas',
]);

/**
 * TanStack Table column filters → wepql filter text (the filters are ANDed,
 * as the table ANDs them). Diagnostics carry the filter's index in the state.
 *
 * @example
 * fromTanStackColumnFilters([{ id: 'LastName', value: 'sm' }, { id: 'ClientId', value: [1, 3] }], { schema: employeeSchema });
 * // { filter: 'LastName.Contains(sm);And(ClientId.GreaterThanOrEqual(1);ClientId.LessThanOrEqual(3))', diagnostics: [] }
 */
export function fromTanStackColumnFilters(state: readonly TanStackColumnFilter[], options: TanStackOptions): ModelFilterResult {
  const out: ModelDiagnostic[] = [];
  const clauses: ModelClause[] = [];
  (Array.isArray(state) ? state : []).forEach((entry, i) => {
    const id: unknown = entry?.id;
    const field = columnField(options.schema, id);
    if (field === undefined) {
      out.push({
        code: 'unknown-field',
        severity: 'error',
        message: `column ${modelValueLabel(id)} is not a field of the schema`,
        path: [i],
      });
      return;
    }
    const fn = (
      options.filterFns !== undefined && Object.hasOwn(options.filterFns, String(id)) ? options.filterFns[String(id)] : 'auto'
    ) as string;
    if (!KNOWN_FNS.has(fn)) {
      out.push({
        code: 'unknown-model-operator',
        severity: 'error',
        message: `filter function ${modelValueLabel(fn)} has no wepql counterpart (arrIncludes and its kin test array columns; between and betweenInclusive read an empty cell as 0, which no wepql filter can say for every range)`,
        path: [i],
      });
      return;
    }
    const clause = filterClause(field, fn as TanStackFilterFn, entry.value, [i], out);
    if (clause !== undefined) clauses.push(clause);
  });
  return modelFilterText(clauses, options, out);
}

/**
 * TanStack Table sorting state → wepql sort text.
 *
 * @example
 * fromTanStackSorting([{ id: 'LastName', desc: false }, { id: 'CreatedOn', desc: true }], { schema: employeeSchema }).sort;
 * // 'LastName=Asc;CreatedOn=Desc'
 */
export function fromTanStackSorting(state: readonly TanStackColumnSort[], options: GridOptions): GridSortResult {
  return sortText(
    (Array.isArray(state) ? state : []).map((s, i) => ({ column: s?.id, direction: s?.desc === true ? 'desc' : 'asc', path: [i] })),
    options,
  );
}

/**
 * wepql sort text → TanStack Table sorting state.
 *
 * @example
 * toTanStackSorting('LastName=Asc;CreatedOn=Desc', { schema: employeeSchema }).model;
 * // [{ id: 'LastName', desc: false }, { id: 'CreatedOn', desc: true }]
 */
export function toTanStackSorting(sort: string, options: GridOptions): ToGridResult<TanStackColumnSort[]> {
  const { keys, diagnostics } = sortKeys(sort, options);
  return { model: keys?.map((k) => ({ id: k.field, desc: k.direction === 'desc' })), diagnostics };
}

type ColumnFilter = { id: string; value: unknown; filterFn: TanStackFilterFn };

function comparisonFilter(node: TypedComparison): ColumnFilter | string {
  const f = node.field;
  const fn = TANSTACK_FILTER_FNS[node.operator];
  if (fn === null) return `${node.operator} has no TanStack filter function`;
  // A datetime travels as written: TanStack compares what it is given.
  const value = node.value instanceof Date ? node.source.value.value : node.value;
  const family = OPERATORS[node.operator].family;
  if (family === 'order') {
    // A range with one open end keeps no empty cell: x >= v is [v, ], x <= v is [, v] (as fromTanStackColumnFilters reads them).
    const range = autoFn(f);
    const halfOpen = (): ColumnFilter | undefined =>
      range !== 'inNumberRange' && range !== 'inDateRange'
        ? undefined
        : fn === 'greaterThanOrEqualTo'
          ? { id: f.name, value: [value, undefined], filterFn: range }
          : fn === 'lessThanOrEqualTo'
            ? { id: f.name, value: [undefined, value], filterFn: range }
            : undefined;
    if (f.type !== 'number' && f.type !== 'integer') return halfOpen() ?? `TanStack's ${fn} compares ${f.type} values as text`;
    if (!f.nullable || !emptyPasses(fn as OrderFn, value as number)) return { id: f.name, value, filterFn: fn };
    return halfOpen() ?? `TanStack's ${fn} reads an empty cell as 0, so ${fn}(${String(value)}) keeps empty cells`;
  }
  if (family === 'equality') {
    if (f.type === 'datetime') return 'equals compares Date objects by identity';
    return { id: f.name, value, filterFn: f.type === 'string' ? 'equalsString' : fn };
  }
  return { id: f.name, value, filterFn: fn };
}

const RANGE_ENDS: Readonly<Partial<Record<FilterOperator, 0 | 1>>> = { GreaterThanOrEqual: 0, LessThanOrEqual: 1 };

// And(x >= a; x <= b): the range filter of the field's type, as fromTanStackColumnFilters reads inNumberRange and inDateRange.
function rangeFilter(node: TypedGroup): ColumnFilter | undefined {
  if (node.operator !== 'And' || node.children.length !== 2) return undefined;
  const ends: unknown[] = [undefined, undefined];
  let field: ResolvedField | undefined;
  for (const child of node.children) {
    if (child.kind !== 'comparison') return undefined;
    const end = RANGE_ENDS[child.operator];
    if (end === undefined || ends[end] !== undefined || (field !== undefined && field.name !== child.field.name)) return undefined;
    field = child.field;
    ends[end] = child.value instanceof Date ? child.source.value.value : child.value;
  }
  const fn = field === undefined ? undefined : autoFn(field);
  return fn === 'inNumberRange' || fn === 'inDateRange' ? { id: field!.name, value: ends, filterFn: fn } : undefined;
}

// Or(x.IsNull(); x op v): an order function that keeps empty cells (TanStack reads them as 0), as orderClause reads it.
function orNullFilter(node: TypedGroup): ColumnFilter | undefined {
  if (node.operator !== 'Or' || node.children.length !== 2) return undefined;
  const isNull = node.children.find((c): c is TypedNullCheck => c.kind === 'null-check' && operatorFacts(c.operator).negated);
  const inner = node.children.find((c): c is TypedComparison => c.kind === 'comparison');
  if (isNull === undefined || inner === undefined || isNull.field.name !== inner.field.name) return undefined;
  const fn = TANSTACK_FILTER_FNS[inner.operator];
  const f = inner.field;
  if (OPERATORS[inner.operator].family !== 'order' || fn === null || (f.type !== 'number' && f.type !== 'integer')) return undefined;
  return emptyPasses(fn as OrderFn, inner.value as number) ? { id: f.name, value: inner.value, filterFn: fn } : undefined;
}

// One condition as one column filter, when a built-in filter function means exactly the same.
function columnFilterOf(node: TypedFilterNode): ColumnFilter | string {
  const spans = 'TanStack Table ANDs one filter per column; groups and InFields have no column filter';
  const withFn = (operator: FilterOperator, filter: (fn: TanStackFilterFn) => ColumnFilter): ColumnFilter | string => {
    const fn = TANSTACK_FILTER_FNS[operator];
    return fn === null ? `${operator} has no TanStack filter function` : filter(fn);
  };
  return matchFilterNode<TypedFilterNode, ColumnFilter | string>(node, {
    group: (g) => rangeFilter(g) ?? orNullFilter(g) ?? spans,
    'in-fields': () => spans,
    'null-check': (n) =>
      n.field.type === 'string'
        ? "TanStack Table's empty also matches text of spaces"
        : withFn(n.operator, (filterFn) => ({ id: n.field.name, value: true, filterFn })),
    list: (n) => withFn(n.operator, (filterFn) => ({ id: n.field.name, value: [...n.values], filterFn })),
    comparison: comparisonFilter,
  });
}

/**
 * wepql filter → TanStack Table column filters and the filter function each
 * column needs (set it as the column's `filterFn`). Only a filter TanStack
 * can hold converts: top-level conditions, one per column, each with a
 * built-in function of the same meaning (a range `And(x >= a; x <= b)` is
 * `inNumberRange` or `inDateRange`, as `fromTanStackColumnFilters` reads
 * them, so what one direction writes the other takes back); anything else is a
 * `not-expressible` error (its range in the text, its clause index as path).
 *
 * @example
 * toTanStackColumnFilters('LastName.StartsWith(sm);Gender.InArray(1,2)', { schema: employeeSchema }).model;
 * // { columnFilters: [{ id: 'LastName', value: 'sm' }, { id: 'Gender', value: [1, 2] }], filterFns: { LastName: 'startsWith', Gender: 'arrHas' } }
 */
export function toTanStackColumnFilters(
  filter: string,
  options: GridOptions,
): ToGridResult<{ columnFilters: TanStackColumnFilter[]; filterFns: Record<string, TanStackFilterFn> }> {
  const analyzed = analyzeFilter(
    filter,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  const diagnostics: ModelDiagnostic[] = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { model: undefined, diagnostics };
  const columnFilters: TanStackColumnFilter[] = [];
  const filterFns: Record<string, TanStackFilterFn> = Object.create(null);
  analyzed.value.clauses.forEach((node, i) => {
    const r = columnFilterOf(node);
    const span = node.source.span;
    if (typeof r === 'string' || Object.hasOwn(filterFns, r.id)) {
      const message = typeof r === 'string' ? r : `TanStack Table holds one filter per column; ${r.id} has two`;
      diagnostics.push({ code: 'not-expressible', severity: 'error', message, path: [i], start: span.start, end: span.end });
      return;
    }
    columnFilters.push({ id: r.id, value: r.value });
    filterFns[r.id] = r.filterFn;
  });
  if (diagnostics.some((d) => d.severity === 'error')) return { model: undefined, diagnostics };
  return { model: { columnFilters, filterFns: { ...filterFns } }, diagnostics };
}
