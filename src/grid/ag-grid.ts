/**
 * AG Grid: the filter model (`FilterModel`: text, number, date and set
 * filters, combined conditions) and the sort model (`SortModelItem[]`) to
 * wepql text, and back where the grid can hold the filter. Each mapping
 * keeps the meaning AG Grid's client-side filtering gives it: text compares
 * case-insensitively, `notEqual`/`notContains` keep empty cells, number and
 * date conditions never do. Date filters compare days (the recommended
 * `comparator` that compares a cell's UTC day with the filter's day), which
 * are the day ranges of docs/semantics.md.
 *
 * The models' shapes are written out here rather than imported from
 * `ag-grid-community`, so that `wepql/grid` type-checks in a project that
 * installs only one of the grids (`skipLibCheck: false`); they are AG Grid's
 * own shapes with its option keys widened to `string` (AG Grid allows custom
 * options), assignable to and from `FilterModel`, `TextFilterModel`, … and
 * `SortModelItem` (test/types/ui-models.test.ts checks both directions).
 */
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf, modelValueLabel } from '../diagnostics/model-diagnostic.js';
import type { ModelClause, ModelFilterResult } from '../print/model-text.js';
import { modelFilterText, modelValueText } from '../print/model-text.js';
import type { ResolvedField } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import { matchFilterNode } from '../ast/fold.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { FilterOperator, OperatorFamily } from '../ast/operators.js';
import { FILTER_OPERATORS, OPERATORS } from '../ast/operators.js';
import type { TypedComparison, TypedFilterNode, TypedList, TypedNullCheck } from '../ast/typed-tree.js';
import type { DayRelation, GridOptions, GridSortResult, ToGridResult } from './common.js';
import {
  columnField,
  compareOperator,
  cond,
  dayBoundary,
  dayOf,
  dayPeriod,
  emptyTextClause,
  memberClause,
  nullCheck,
  orNull,
  periodClause,
  readBack,
  sortKeys,
  sortText,
} from './common.js';

/**
 * A text filter's condition (AG Grid's `TextFilterModel`).
 *
 * @example
 * const condition: AgGridTextFilter = { filterType: 'text', type: 'startsWith', filter: 'sm' };
 */
export interface AgGridTextFilter {
  /** Always `'text'` (a condition of a combined filter may leave it out). */
  filterType?: 'text';
  /** The filter option: `'contains'`, `'equals'`, `'blank'`, … */
  type?: string | null;
  /** The text compared with. */
  filter?: string | null;
  /** The second text of a two-value option. */
  filterTo?: string | null;
}

/**
 * A number filter's condition (AG Grid's `NumberFilterModel`).
 *
 * @example
 * const condition: AgGridNumberFilter = { filterType: 'number', type: 'greaterThan', filter: 100 };
 */
export interface AgGridNumberFilter {
  /** Always `'number'` (a condition of a combined filter may leave it out). */
  filterType?: 'number';
  /** The filter option: `'equals'`, `'lessThan'`, `'inRange'`, … */
  type?: string | null;
  /** The number compared with (the lower end of `inRange`). */
  filter?: number | null;
  /** The upper end of `inRange`. */
  filterTo?: number | null;
}

/**
 * A date filter's condition (AG Grid's `DateFilterModel`): dates are text,
 * `YYYY-MM-DD hh:mm:ss`.
 *
 * @example
 * const condition: AgGridDateFilter = { filterType: 'date', type: 'equals', dateFrom: '2024-03-21 00:00:00', dateTo: null };
 */
export interface AgGridDateFilter {
  /** Always `'date'` (a condition of a combined filter may leave it out). */
  filterType?: 'date';
  /** The filter option: `'equals'`, `'lessThan'`, `'inRange'`, … */
  type?: string | null;
  /** The date compared with (the start of `inRange`). */
  dateFrom: string | null | undefined;
  /** The end of `inRange`. */
  dateTo: string | null | undefined;
}

/**
 * One condition of a text, number or date filter in an AG Grid filter model:
 * the filters a combined filter (`conditions`) joins.
 *
 * @example
 * const condition: AgGridSimpleFilter = { filterType: 'number', type: 'greaterThan', filter: 100 };
 */
export type AgGridSimpleFilter = AgGridTextFilter | AgGridNumberFilter | AgGridDateFilter;

/**
 * Conditions of one column joined by `AND` or `OR` (AG Grid's `ICombinedSimpleModel`).
 *
 * @example
 * const model: AgGridCombinedFilter = { filterType: 'number', operator: 'OR', conditions: [
 *   { filterType: 'number', type: 'equals', filter: 1 }, { filterType: 'number', type: 'equals', filter: 3 }] };
 */
export interface AgGridCombinedFilter {
  /** The conditions' filter type. */
  filterType?: string;
  /** How the conditions are joined. */
  operator: 'AND' | 'OR';
  /** The conditions. */
  conditions: AgGridSimpleFilter[];
}

/**
 * A set filter (AG Grid Enterprise's `SetFilterModel`): the values a row may have.
 *
 * @example
 * const model: AgGridSetFilter = { filterType: 'set', values: ['1', '2'] };
 */
export interface AgGridSetFilter {
  /** Always `'set'`. */
  filterType?: 'set';
  /** The values kept; null keeps empty cells. */
  values: (string | null)[];
}

/**
 * One column's filter in an AG Grid filter model, as this module reads and writes it.
 *
 * @example
 * const model: AgGridColumnFilter = { filterType: 'text', type: 'startsWith', filter: 'sm' };
 */
export type AgGridColumnFilter = AgGridSimpleFilter | AgGridCombinedFilter | AgGridSetFilter;

/**
 * AG Grid's filter model (`FilterModel`, what `api.getFilterModel()`
 * returns): each column id's filter. A column may hold a filter of a kind
 * this module does not read (a multi filter, a custom one); it is reported,
 * so the type leaves the value open.
 *
 * @example
 * const model: AgGridFilterModel = { LastName: { filterType: 'text', type: 'startsWith', filter: 'sm' } };
 */
export interface AgGridFilterModel {
  /** The filter of the column with this id. */
  [colId: string]: any; // as AG Grid's own FilterModel: any column filter, custom ones included
}

/**
 * One key of an AG Grid sort model (`SortModelItem`).
 *
 * @example
 * const key: AgGridSortModelItem = { colId: 'CreatedOn', sort: 'desc' };
 */
export interface AgGridSortModelItem {
  /** The column id (a field name of the schema). */
  colId: string;
  /** The direction. */
  sort: 'asc' | 'desc';
}

// AG Grid's filter options (`type`) of text, number and date filters that this module maps.
type AgGridFilterOption =
  | 'equals'
  | 'notEqual'
  | 'lessThan'
  | 'lessThanOrEqual'
  | 'greaterThan'
  | 'greaterThanOrEqual'
  | 'inRange'
  | 'contains'
  | 'notContains'
  | 'startsWith'
  | 'endsWith'
  | 'blank'
  | 'notBlank';

// Own properties only: a hostile model must not reach the prototype chain.
function prop(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

interface Reader {
  readonly field: ResolvedField;
  readonly out: ModelDiagnostic[];
}

function refuse(r: Reader, path: ModelPath, code: ModelDiagnostic['code'], message: string): undefined {
  r.out.push({ code, severity: 'error', message, path });
  return undefined;
}

function valueOf(r: Reader, model: unknown, key: string, path: ModelPath): string | undefined {
  const text = modelValueText(prop(model, key));
  return text === undefined ? refuse(r, path, 'invalid-value', `the condition's ${key} is missing or not a value`) : text;
}

/**
 * AG Grid's filter option (`type`) for each operator, or null where no
 * option of a text, number or date filter means it (the set filter has no
 * option: it lists values). A text filter takes the options of equality and
 * text operators, a number filter those of equality and order operators, a
 * date filter only day boundaries (`dayBoundary`); `blank` and `notBlank`
 * test presence. A new operator is a compile error here until it is given
 * its option or null.
 */
const AG_GRID_WORDS: Readonly<Record<FilterOperator, AgGridFilterOption | null>> = {
  Equal: 'equals',
  NotEqual: 'notEqual',
  LessThan: 'lessThan',
  LessThanOrEqual: 'lessThanOrEqual',
  GreaterThan: 'greaterThan',
  GreaterThanOrEqual: 'greaterThanOrEqual',
  Contains: 'contains',
  StartsWith: 'startsWith',
  EndsWith: 'endsWith',
  NotContains: 'notContains',
  NotStartsWith: null,
  NotEndsWith: null,
  IsNull: 'blank',
  IsNotNull: 'notBlank',
  InArray: null,
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

const OPERATOR_OF_WORD: ReadonlyMap<unknown, FilterOperator> = new Map(
  FILTER_OPERATORS.filter((op) => AG_GRID_WORDS[op] !== null).map((op) => [AG_GRID_WORDS[op], op] as const),
);

const TEXT_FILTER_FAMILIES: readonly OperatorFamily[] = ['equality', 'text'];
const NUMBER_FILTER_FAMILIES: readonly OperatorFamily[] = ['equality', 'order'];

// The operator an option of a filter whose options are those of `families` stands for.
function operatorOfWord(type: unknown, families: readonly OperatorFamily[]): FilterOperator | undefined {
  const op = OPERATOR_OF_WORD.get(type);
  return op !== undefined && families.includes(OPERATORS[op].family) ? op : undefined;
}

// Text filter: AG Grid keeps empty cells for notEqual and notContains, and counts text of spaces as blank.
function textClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const { field } = r;
  const type = prop(model, 'type');
  if (field.type === 'boolean' && (type === 'true' || type === 'false')) return cond(field.name, compareOperator('='), [type], path);
  if (type === 'blank' || type === 'notBlank') {
    r.out.push({
      code: 'not-expressible',
      severity: 'warning',
      message: 'AG Grid counts text of spaces as blank; wepql tests null and the empty string',
      path,
    });
    return emptyTextClause(field.name, type === 'blank', path);
  }
  if (field.type !== 'string') return refuse(r, path, 'not-expressible', `AG Grid's text filter compares the text of a ${field.type} cell`);
  const op = operatorOfWord(type, TEXT_FILTER_FAMILIES);
  if (op === undefined)
    return refuse(r, path, 'unknown-model-operator', `text filter type ${modelValueLabel(type)} has no wepql counterpart`);
  const value = valueOf(r, model, 'filter', path);
  if (value === undefined) return undefined;
  const inner = cond(field.name, op, [value], path);
  return operatorFacts(op).negated ? orNull(field, inner, path) : inner;
}

// Number filter: empty cells fail every condition but blank; inRange excludes its ends (AG Grid's default).
function numberClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const { field } = r;
  if (field.type !== 'number' && field.type !== 'integer')
    return refuse(r, path, 'not-expressible', `AG Grid's number filter on a ${field.type} field`);
  const type = prop(model, 'type');
  if (type === 'blank' || type === 'notBlank') return nullCheck(field.name, type === 'blank', path);
  if (type === 'inRange') {
    const [from, to] = [valueOf(r, model, 'filter', path), valueOf(r, model, 'filterTo', path)];
    if (from === undefined || to === undefined) return undefined;
    return {
      kind: 'group',
      operator: 'And',
      children: [cond(field.name, compareOperator('>'), [from], path), cond(field.name, compareOperator('<'), [to], path)],
      path,
    };
  }
  const op = operatorOfWord(type, NUMBER_FILTER_FAMILIES);
  if (op === undefined)
    return refuse(r, path, 'unknown-model-operator', `number filter type ${modelValueLabel(type)} has no wepql counterpart`);
  const value = valueOf(r, model, 'filter', path);
  return value === undefined ? undefined : cond(field.name, op, [value], path);
}

const DAY_RELATIONS: Readonly<Record<string, DayRelation>> = {
  equals: 'on',
  notEqual: 'not-on',
  lessThan: 'before',
  lessThanOrEqual: 'on-or-before',
  greaterThan: 'after',
  greaterThanOrEqual: 'on-or-after',
};

function dayOfModel(
  r: Reader,
  model: unknown,
  key: 'dateFrom' | 'dateTo',
  path: ModelPath,
): { start: string; next: string; nextInclusive: boolean } | undefined {
  const day = dayOf(prop(model, key));
  const period = day === undefined ? undefined : dayPeriod(day);
  return period ?? refuse(r, path, 'invalid-value', `the condition's ${key} is not a date (YYYY-MM-DD hh:mm:ss)`);
}

// Date filter: a day, compared as the day ranges of docs/semantics.md; inRange excludes both days.
function dateClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const { field } = r;
  if (field.type !== 'datetime') return refuse(r, path, 'not-expressible', `AG Grid's date filter on a ${field.type} field`);
  const type = prop(model, 'type');
  if (type === 'blank' || type === 'notBlank') return nullCheck(field.name, type === 'blank', path);
  if (type === 'inRange') {
    const [from, to] = [dayOfModel(r, model, 'dateFrom', path), dayOfModel(r, model, 'dateTo', path)];
    if (from === undefined || to === undefined) return undefined;
    return {
      kind: 'group',
      operator: 'And',
      children: [periodClause(field.name, from, 'after', path), periodClause(field.name, to, 'before', path)],
      path,
    };
  }
  const relation = typeof type === 'string' && Object.hasOwn(DAY_RELATIONS, type) ? DAY_RELATIONS[type] : undefined;
  if (relation === undefined) {
    return refuse(
      r,
      path,
      'not-expressible',
      `date filter type ${modelValueLabel(type)} has no wepql counterpart (relative periods such as "today" depend on when the filter runs)`,
    );
  }
  const day = dayOfModel(r, model, 'dateFrom', path);
  return day === undefined ? undefined : periodClause(field.name, day, relation, path);
}

// Set filter: the listed values; a null entry keeps empty cells too.
function setClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const values = prop(model, 'values');
  if (!Array.isArray(values)) return refuse(r, path, 'invalid-model', 'a set filter needs a values array');
  if (values.length === 0) return refuse(r, path, 'not-expressible', 'an empty set filter keeps no row; wepql lists need a value');
  const texts = values.filter((v) => v !== null).map(modelValueText);
  if (texts.some((t) => t === undefined)) return refuse(r, path, 'invalid-value', 'set filter values are text or null');
  const withNull = texts.length < values.length;
  if (texts.length === 0) return nullCheck(r.field.name, true, path);
  return memberClause(r.field.name, texts as string[], withNull, path);
}

function simpleClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const filterType = prop(model, 'filterType');
  switch (filterType) {
    case 'text':
      return textClause(r, model, path);
    case 'number':
      return numberClause(r, model, path);
    case 'date':
      return dateClause(r, model, path);
    case 'set':
      return setClause(r, model, path);
    default:
      return refuse(r, path, 'unknown-model-operator', `filter type ${modelValueLabel(filterType)} has no wepql counterpart`);
  }
}

function columnClause(r: Reader, model: unknown, path: ModelPath): ModelClause | undefined {
  const conditions = prop(model, 'conditions');
  if (!Array.isArray(conditions)) return simpleClause(r, model, path);
  const operator = prop(model, 'operator');
  if (operator !== 'AND' && operator !== 'OR') return refuse(r, path, 'invalid-model', 'combined conditions need operator AND or OR');
  const filterType = prop(model, 'filterType');
  const children = conditions
    .map((c, i) => simpleClause(r, prop(c, 'filterType') === undefined ? { ...c, filterType } : c, [...path, 'conditions', i]))
    .filter((c) => c !== undefined);
  return { kind: 'group', operator: operator === 'AND' ? 'And' : 'Or', children, path };
}

/**
 * AG Grid filter model → wepql filter text (columns ANDed, as the grid ANDs
 * them). Diagnostics carry the path into the model (`['LastName',
 * 'conditions', 1]`).
 *
 * @example
 * fromAgGridFilterModel({
 *   LastName: { filterType: 'text', type: 'startsWith', filter: 'sm' },
 *   CreatedOn: { filterType: 'date', type: 'equals', dateFrom: '2024-03-21 00:00:00', dateTo: null },
 * }, { schema: employeeSchema }).filter;
 * // 'LastName.StartsWith(sm);And(CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22))'
 */
export function fromAgGridFilterModel(model: AgGridFilterModel, options: GridOptions): ModelFilterResult {
  const out: ModelDiagnostic[] = [];
  const clauses: ModelClause[] = [];
  const entries = typeof model === 'object' && model !== null ? Object.keys(model).map((k) => [k, prop(model, k)] as const) : [];
  for (const [colId, columnModel] of entries) {
    if (columnModel === null || columnModel === undefined) continue;
    const field = columnField(options.schema, colId);
    if (field === undefined) {
      out.push({
        code: 'unknown-field',
        severity: 'error',
        message: `column ${modelValueLabel(colId)} is not a field of the schema`,
        path: [colId],
      });
      continue;
    }
    const clause = columnClause({ field, out }, columnModel, [colId]);
    if (clause !== undefined) clauses.push(clause);
  }
  return modelFilterText(clauses, options, out);
}

/**
 * AG Grid sort model → wepql sort text.
 *
 * @example
 * fromAgGridSortModel([{ colId: 'LastName', sort: 'asc' }, { colId: 'CreatedOn', sort: 'desc' }], { schema: employeeSchema }).sort;
 * // 'LastName=Asc;CreatedOn=Desc'
 */
export function fromAgGridSortModel(model: readonly AgGridSortModelItem[], options: GridOptions): GridSortResult {
  return sortText(
    (Array.isArray(model) ? model : []).map((s: unknown, i) => ({ column: prop(s, 'colId'), direction: prop(s, 'sort'), path: [i] })),
    options,
  );
}

/**
 * wepql sort text → AG Grid sort model.
 *
 * @example
 * toAgGridSortModel('LastName=Asc;CreatedOn=Desc', { schema: employeeSchema }).model;
 * // [{ colId: 'LastName', sort: 'asc' }, { colId: 'CreatedOn', sort: 'desc' }]
 */
export function toAgGridSortModel(sort: string, options: GridOptions): ToGridResult<AgGridSortModelItem[]> {
  const { keys, diagnostics } = sortKeys(sort, options);
  return { model: keys?.map((k) => ({ colId: k.field, sort: k.direction })), diagnostics };
}

type Part = { column: string; model: AgGridColumnFilter };

// Blank and not blank, on the columns whose blank is exactly null.
function blankModel(node: TypedNullCheck): Part | string {
  const f = node.field;
  const type = AG_GRID_WORDS[node.operator];
  if (type === null) return `${node.operator} has no AG Grid filter`;
  if (f.type === 'number' || f.type === 'integer') return { column: f.name, model: { filterType: 'number', type } };
  if (f.type === 'datetime') return { column: f.name, model: { filterType: 'date', type, dateFrom: null, dateTo: null } };
  return `AG Grid's blank on a ${f.type} column also matches text of spaces`;
}

// The set filter lists values; a null entry keeps empty cells too. It cannot negate.
function setModel(node: TypedList): Part | string {
  const facts = operatorFacts(node.operator);
  if (facts.negated) return `${node.operator} has no AG Grid filter`;
  const values: (string | null)[] = node.source.values.map((v) => v.value);
  return { column: node.field.name, model: { filterType: 'set', values: facts.nullMatches ? [...values, null] : values } };
}

function comparisonModel(node: TypedComparison): Part | string {
  const f = node.field;
  const op = node.operator;
  const text = node.source.value.value;
  const type = AG_GRID_WORDS[op];
  const family = OPERATORS[op].family;
  if (f.type === 'string') {
    if (type === null || !TEXT_FILTER_FAMILIES.includes(family)) return `${op} has no AG Grid text filter`;
    if (operatorFacts(op).negated && f.nullable) return `AG Grid's ${type} also keeps empty cells`;
    return { column: f.name, model: { filterType: 'text', type, filter: text } };
  }
  if ((f.type === 'number' || f.type === 'integer') && type !== null && NUMBER_FILTER_FAMILIES.includes(family))
    return { column: f.name, model: { filterType: 'number', type, filter: node.value as number } };
  // A day boundary is all the date filter can hold: x >= D is "on or after D", x < D is "before D".
  const day = f.type === 'datetime' ? dayBoundary(op, text) : undefined;
  if (day !== undefined && type !== null)
    return { column: f.name, model: { filterType: 'date', type, dateFrom: `${day} 00:00:00`, dateTo: null } };
  return `${f.name}.${op}(${text}) has no AG Grid ${f.type} filter (date filters hold whole days)`;
}

// One condition as one AG Grid condition when the grid's filter means exactly the same; otherwise why not.
function conditionModel(node: TypedFilterNode): Part | string {
  const spans = 'AG Grid filters columns one by one; this clause spans several';
  return matchFilterNode<TypedFilterNode, Part | string>(node, {
    group: () => spans,
    'in-fields': () => spans,
    'null-check': blankModel,
    list: setModel,
    comparison: comparisonModel,
  });
}

// Every simple filter of a field's column that reads back: each option with each value, and ranges of two values.
function* candidateFilters(field: ResolvedField, values: readonly string[]): Generator<AgGridColumnFilter> {
  const options = FILTER_OPERATORS.map((op) => AG_GRID_WORDS[op]).filter((w) => w !== null);
  if (field.type === 'string' || field.type === 'boolean')
    for (const type of options) for (const filter of values) yield { filterType: 'text', type, filter };
  if (field.type === 'number' || field.type === 'integer') {
    for (const type of options) for (const v of values) yield { filterType: 'number', type, filter: Number(v) };
    for (const from of values)
      for (const to of values) yield { filterType: 'number', type: 'inRange', filter: Number(from), filterTo: Number(to) };
  }
  if (field.type === 'datetime') {
    const days = values.filter((v) => dayPeriod(v) !== undefined).map((v) => `${v} 00:00:00`);
    for (const type of Object.keys(DAY_RELATIONS)) for (const dateFrom of days) yield { filterType: 'date', type, dateFrom, dateTo: null };
    for (const dateFrom of days) for (const dateTo of days) yield { filterType: 'date', type: 'inRange', dateFrom, dateTo };
  }
}

// The one column filter fromAgGridFilterModel reads as exactly this clause, if any.
function readBackModel(node: TypedFilterNode, options: GridOptions): Part | undefined {
  let column = '';
  const model = readBack(
    node,
    (field, values) => {
      column = field.name;
      return candidateFilters(field, values);
    },
    (m) => {
      const read = fromAgGridFilterModel({ [column]: m }, options);
      return read.diagnostics.length === 0 ? read.filter : undefined;
    },
  );
  return model === undefined ? undefined : { column, model };
}

// A condition as conditionModel maps it, or else the simple filter that reads back as it (a day, a range, "or empty").
function conditionOrReadBack(node: TypedFilterNode, options: GridOptions): Part | string {
  const direct = conditionModel(node);
  return typeof direct === 'string' ? (readBackModel(node, options) ?? direct) : direct;
}

// A top-level clause: one condition, or an And/Or group of conditions on one column (a combined filter).
function clauseModel(node: TypedFilterNode, options: GridOptions): Part | string {
  if (node.kind !== 'group') return conditionOrReadBack(node, options);
  const whole = readBackModel(node, options);
  if (whole !== undefined) return whole;
  const parts = node.children.map((child) => conditionOrReadBack(child, options));
  const bad = parts.find((p) => typeof p === 'string');
  if (bad !== undefined) return bad as string;
  const ok = parts as Part[];
  const filterType = ok[0]!.model.filterType;
  if (ok.some((p) => p.column !== ok[0]!.column || p.model.filterType !== filterType || filterType === 'set')) {
    return 'AG Grid combines conditions of one column and one filter type only';
  }
  return {
    column: ok[0]!.column,
    model: {
      filterType,
      operator: node.operator === 'And' ? 'AND' : 'OR',
      conditions: ok.map((p) => p.model as AgGridSimpleFilter),
    } as AgGridColumnFilter,
  };
}

/**
 * wepql filter → AG Grid filter model, for a filter the grid can hold:
 * top-level clauses, each about one column (a condition, or an `And`/`Or`
 * of conditions of one column — a combined filter); a column named twice at
 * the top is combined with AND. Anything else is a `not-expressible` error
 * with the clause's range in the text.
 *
 * @example
 * toAgGridFilterModel('LastName.StartsWith(sm);Or(ClientId.Equal(1);ClientId.Equal(3))', { schema: employeeSchema }).model;
 * // { LastName: { filterType: 'text', type: 'startsWith', filter: 'sm' },
 * //   ClientId: { filterType: 'number', operator: 'OR', conditions: [{ filterType: 'number', type: 'equals', filter: 1 }, …] } }
 */
export function toAgGridFilterModel(filter: string, options: GridOptions): ToGridResult<AgGridFilterModel> {
  const analyzed = analyzeFilter(
    filter,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  const diagnostics: ModelDiagnostic[] = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { model: undefined, diagnostics };
  const byColumn = new Map<string, AgGridColumnFilter[]>();
  analyzed.value.clauses.forEach((node, i) => {
    const part = clauseModel(node, options);
    if (typeof part === 'string') {
      diagnostics.push({
        code: 'not-expressible',
        severity: 'error',
        message: part,
        path: [i],
        start: node.source.span.start,
        end: node.source.span.end,
      });
      return;
    }
    byColumn.set(part.column, [...(byColumn.get(part.column) ?? []), part.model]);
  });
  const model: AgGridFilterModel = {};
  for (const [column, parts] of byColumn) {
    const flat = parts.length === 1 ? parts[0]! : combineAnd(parts);
    if (typeof flat === 'string')
      diagnostics.push({ code: 'not-expressible', severity: 'error', message: `${column}: ${flat}`, path: [column] });
    else Object.defineProperty(model, column, { value: flat, enumerable: true, writable: true, configurable: true });
  }
  if (diagnostics.some((d) => d.severity === 'error')) return { model: undefined, diagnostics };
  return { model, diagnostics };
}

function combineAnd(parts: readonly AgGridColumnFilter[]): AgGridColumnFilter | string {
  const simple = parts.every((p) => !('conditions' in p) && p.filterType !== 'set' && p.filterType === parts[0]!.filterType);
  if (!simple) return 'several filters on one column combine only as simple conditions of one filter type';
  return { filterType: parts[0]!.filterType, operator: 'AND', conditions: parts as AgGridSimpleFilter[] } as AgGridColumnFilter;
}
