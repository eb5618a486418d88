/**
 * `wepql/grid/mui`: MUI X Data Grid's `GridFilterModel` (items joined by
 * `logicOperator`) and `GridSortModel` to wepql text, and back where the grid
 * can hold the filter. Each operator keeps the meaning of the grid's own
 * filter functions: text compares case-insensitively with the filter value
 * trimmed, `doesNotContain`/`doesNotEqual`/`!=` keep empty cells, `is false`
 * on a boolean column keeps them too. `date` columns compare days and
 * `dateTime` columns minutes; a date-only value (or a `Date` at midnight UTC)
 * is a day, anything else a minute — mapped to the ranges of
 * docs/semantics.md.
 *
 * An entry of its own, apart from `wepql/grid`, because its types are MUI's:
 * `logicOperator` is MUI's string enum `GridLogicOperator`, which no shape
 * written without MUI's package can produce, so a model from
 * `toMuiFilterModel` could not be handed to the grid. Importing it needs
 * `@mui/x-data-grid` installed (for types only: nothing of MUI runs);
 * `wepql/grid` needs no grid package.
 *
 * @packageDocumentation
 */
import type { GridFilterItem, GridFilterModel, GridLogicOperator, GridSortModel } from '@mui/x-data-grid';
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf, modelValueLabel } from '../diagnostics/model-diagnostic.js';
import type { ModelClause, ModelFilterResult } from '../print/model-text.js';
import { modelFilterText, modelValueText } from '../print/model-text.js';
import { parseDatetimeText } from '../schema/values.js';
import type { ResolvedField } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import { matchFilterNode } from '../ast/fold.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { FilterOperator, ScalarType } from '../ast/operators.js';
import { FILTER_OPERATORS } from '../ast/operators.js';
import type { TypedComparison, TypedFilterNode, TypedList, TypedNullCheck } from '../ast/typed-tree.js';
import type { DayRelation, GridOptions, GridSortResult, ToGridResult } from './common.js';
import {
  columnField,
  compareOperator,
  cond,
  dayBoundary,
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

// Own properties only: a hostile model must not reach the prototype chain.
function prop(o: unknown, key: string): unknown {
  return typeof o === 'object' && o !== null && Object.hasOwn(o, key) ? (o as Record<string, unknown>)[key] : undefined;
}

interface Reader {
  readonly field: ResolvedField;
  readonly out: ModelDiagnostic[];
  readonly path: ModelPath;
}

function refuse(r: Reader, code: ModelDiagnostic['code'], message: string): undefined {
  r.out.push({ code, severity: 'error', message, path: r.path });
  return undefined;
}

// MUI leaves an item without a value out of the filter; so does wepql, with a note.
function skip(r: Reader): undefined {
  r.out.push({ code: 'skipped', severity: 'info', message: 'an item without a value does not filter', path: r.path });
  return undefined;
}

/**
 * The four kinds of MUI column a field maps to: its `type` is `string`,
 * `number`, `date` (or `dateTime`) or `boolean`, and each has operators of
 * its own.
 */
type MuiColumn = 'string' | 'number' | 'date' | 'boolean';

const COLUMN_OF_TYPE: Readonly<Record<ScalarType, MuiColumn>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  datetime: 'date',
  boolean: 'boolean',
};

/**
 * MUI's operator for each wepql operator, per kind of column, or null where
 * no column has one. A string column's `isEmpty` also matches the empty
 * string and so is no null check; a date column's value is a day, so only
 * the day boundaries (`dayBoundary`) have words here, and the day relations
 * of `DATE_RELATIONS` read the rest. A new operator is a compile error here
 * until it is given its words or null.
 */
const MUI_WORDS: Readonly<Record<FilterOperator, Readonly<Partial<Record<MuiColumn, string>>> | null>> = {
  Equal: { string: 'equals', number: '=', boolean: 'is' },
  NotEqual: { string: 'doesNotEqual', number: '!=' },
  LessThan: { number: '<', date: 'before' },
  LessThanOrEqual: { number: '<=' },
  GreaterThan: { number: '>' },
  GreaterThanOrEqual: { number: '>=', date: 'onOrAfter' },
  Contains: { string: 'contains' },
  StartsWith: { string: 'startsWith' },
  EndsWith: { string: 'endsWith' },
  NotContains: { string: 'doesNotContain' },
  NotStartsWith: null,
  NotEndsWith: null,
  IsNull: { number: 'isEmpty', date: 'isEmpty' },
  IsNotNull: { number: 'isNotEmpty', date: 'isNotEmpty' },
  InArray: { string: 'isAnyOf', number: 'isAnyOf' },
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

// The MUI operator that means `op` on the column of a field of this type.
function muiWord(op: FilterOperator, type: ScalarType): string | undefined {
  return MUI_WORDS[op]?.[COLUMN_OF_TYPE[type]];
}

// The operator a one-value MUI operator of a column kind stands for.
function operatorOfWord(column: MuiColumn, word: string): FilterOperator | undefined {
  return FILTER_OPERATORS.find((op) => operatorFacts(op).values === 'single-value' && MUI_WORDS[op]?.[column] === word);
}

function stringClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator === 'isEmpty' || operator === 'isNotEmpty') return emptyTextClause(field.name, operator === 'isEmpty', path);
  // MUI trims string filter values itself (JavaScript's trim), so the filter tests the text the grid tests.
  if (operator === 'isAnyOf') {
    const values = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim() : modelValueText(v))) : [];
    if (values.length === 0) return skip(r);
    if (values.some((v) => v === undefined)) return refuse(r, 'invalid-value', 'isAnyOf values are text');
    return memberClause(field.name, values as string[], false, path);
  }
  const op = operatorOfWord('string', operator);
  if (op === undefined) return refuse(r, 'unknown-model-operator', `string operator ${modelValueLabel(operator)} has no wepql counterpart`);
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (!text) return skip(r);
  const inner = cond(field.name, op, [text], path);
  return operatorFacts(op).negated ? orNull(field, inner, path) : inner;
}

function numberClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator === 'isEmpty' || operator === 'isNotEmpty') return nullCheck(field.name, operator === 'isEmpty', path);
  const number = (v: unknown): string | undefined =>
    v === null || v === undefined || v === '' ? undefined : modelValueText(typeof v === 'string' ? Number(v) : v);
  if (operator === 'isAnyOf') {
    const values = Array.isArray(value) ? value.map(number) : [];
    if (values.length === 0) return skip(r);
    if (values.some((v) => v === undefined)) return refuse(r, 'invalid-value', 'isAnyOf values are numbers');
    return memberClause(field.name, values as string[], false, path);
  }
  const op = operatorOfWord('number', operator);
  if (op === undefined) return refuse(r, 'unknown-model-operator', `number operator ${modelValueLabel(operator)} has no wepql counterpart`);
  if (value === null || value === undefined || value === '') return skip(r);
  const text = number(value);
  if (text === undefined) return refuse(r, 'invalid-value', 'the value is not a number');
  const inner = cond(field.name, op, [text], path);
  return operatorFacts(op).negated ? orNull(field, inner, path) : inner;
}

const DATE_RELATIONS: Readonly<Record<string, DayRelation>> = {
  is: 'on',
  not: 'not-on',
  after: 'after',
  onOrAfter: 'on-or-after',
  before: 'before',
  onOrBefore: 'on-or-before',
};

// A date column's value is a day; a dateTime column's a minute (MUI drops seconds on both sides).
function periodOf(value: unknown): { start: string; next: string; nextInclusive: boolean } | undefined {
  const text =
    value instanceof Date
      ? Number.isNaN(value.getTime())
        ? undefined
        : value.toISOString()
      : typeof value === 'string'
        ? value.trim() // a grid model value that MUI parses as a date, not filter text: JavaScript's trim
        : undefined;
  if (text === undefined) return undefined;
  const ms = parseDatetimeText(text);
  if (ms === undefined) return undefined;
  if (ms % 86_400_000 === 0 && (text.length === 10 || value instanceof Date)) return dayPeriod(new Date(ms).toISOString().slice(0, 10));
  const minute = Math.floor(ms / 60_000) * 60_000;
  return { start: new Date(minute).toISOString(), next: new Date(minute + 60_000).toISOString(), nextInclusive: false };
}

function dateClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator === 'isEmpty' || operator === 'isNotEmpty') return nullCheck(field.name, operator === 'isEmpty', path);
  const relation = Object.hasOwn(DATE_RELATIONS, operator) ? DATE_RELATIONS[operator] : undefined;
  if (relation === undefined)
    return refuse(r, 'unknown-model-operator', `date operator ${modelValueLabel(operator)} has no wepql counterpart`);
  if (value === null || value === undefined || value === '') return skip(r);
  const period = periodOf(value);
  return period === undefined ? refuse(r, 'invalid-value', 'the value is not a date') : periodClause(field.name, period, relation, path);
}

// MUI tests Boolean(cell) === value, so "is false" also keeps empty cells.
function booleanClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator !== 'is')
    return refuse(r, 'unknown-model-operator', `boolean operator ${modelValueLabel(operator)} has no wepql counterpart`);
  const b = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  if (b === undefined) return skip(r);
  const inner = cond(field.name, compareOperator('='), [String(b)], path);
  return b ? inner : orNull(field, inner, path);
}

function itemClause(r: Reader, item: unknown): ModelClause | undefined {
  const operator = prop(item, 'operator');
  if (typeof operator !== 'string') return refuse(r, 'invalid-model', 'a filter item needs an operator');
  const value = prop(item, 'value');
  switch (r.field.type) {
    case 'string':
      return stringClause(r, operator, value);
    case 'number':
    case 'integer':
      return numberClause(r, operator, value);
    case 'datetime':
      return dateClause(r, operator, value);
    case 'boolean':
      return booleanClause(r, operator, value);
  }
}

/**
 * MUI X Data Grid filter model → wepql filter text: the items, joined by
 * `logicOperator` (`and` by default). The quick filter searches formatted
 * cells of every column and has no wepql form: a `not-expressible` error.
 *
 * @example
 * fromMuiFilterModel({ items: [
 *   { field: 'LastName', operator: 'startsWith', value: 'sm' },
 *   { field: 'Gender', operator: 'isAnyOf', value: [1, 2] },
 * ], logicOperator: 'or' as GridLogicOperator }, { schema: employeeSchema }).filter;
 * // 'Or(LastName.StartsWith(sm);Gender.InArray(1,2))'
 */
export function fromMuiFilterModel(model: GridFilterModel, options: GridOptions): ModelFilterResult {
  const out: ModelDiagnostic[] = [];
  const quick = prop(model, 'quickFilterValues');
  if (Array.isArray(quick) && quick.some((v) => v !== '' && v !== null && v !== undefined)) {
    out.push({
      code: 'not-expressible',
      severity: 'error',
      message: 'the quick filter searches the formatted text of every column; wepql has no such filter',
      path: ['quickFilterValues'],
    });
  }
  const items = prop(model, 'items');
  const clauses: ModelClause[] = [];
  (Array.isArray(items) ? items : []).forEach((item: unknown, i) => {
    const path: ModelPath = ['items', i];
    const field = columnField(options.schema, prop(item, 'field'));
    if (field === undefined) {
      out.push({
        code: 'unknown-field',
        severity: 'error',
        message: `column ${modelValueLabel(prop(item, 'field'))} is not a field of the schema`,
        path,
      });
      return;
    }
    const clause = itemClause({ field, out, path }, item);
    if (clause !== undefined) clauses.push(clause);
  });
  const logic = prop(model, 'logicOperator');
  if (logic !== undefined && logic !== 'and' && logic !== 'or') {
    out.push({ code: 'invalid-model', severity: 'error', message: 'logicOperator is and or or', path: ['logicOperator'] });
  }
  const top: ModelClause[] =
    logic === 'or' && clauses.length > 1 ? [{ kind: 'group', operator: 'Or', children: clauses, path: [] }] : clauses;
  return modelFilterText(top, options, out);
}

/**
 * MUI X Data Grid sort model → wepql sort text (items without a direction are left out, as the grid does).
 *
 * @example
 * fromMuiSortModel([{ field: 'LastName', sort: 'asc' }, { field: 'CreatedOn', sort: 'desc' }], { schema: employeeSchema }).sort;
 * // 'LastName=Asc;CreatedOn=Desc'
 */
export function fromMuiSortModel(model: GridSortModel, options: GridOptions): GridSortResult {
  return sortText(
    (Array.isArray(model) ? model : []).map((s: unknown, i) => ({ column: prop(s, 'field'), direction: prop(s, 'sort'), path: [i] })),
    options,
  );
}

/**
 * wepql sort text → MUI X Data Grid sort model. (The community grid sorts by one column; Pro and Premium by several.)
 *
 * @example
 * toMuiSortModel('LastName=Asc', { schema: employeeSchema }).model; // [{ field: 'LastName', sort: 'asc' }]
 */
export function toMuiSortModel(sort: string, options: GridOptions): ToGridResult<GridSortModel> {
  const { keys, diagnostics } = sortKeys(sort, options);
  return { model: keys?.map((k) => ({ field: k.field, sort: k.direction })), diagnostics };
}

// isEmpty on number and date columns; a text column's also matches the empty string.
function emptyItem(node: TypedNullCheck): GridFilterItem | string {
  const f = node.field;
  if (f.type === 'string') return "MUI's isEmpty on text also matches the empty string";
  if (f.type === 'boolean') return 'a boolean column has no isEmpty operator';
  const word = muiWord(node.operator, f.type);
  return word === undefined ? `${node.operator} has no MUI ${f.type} operator` : { field: f.name, operator: word };
}

function anyOfItem(node: TypedList): GridFilterItem | string {
  const f = node.field;
  const word = muiWord(node.operator, f.type);
  return word === undefined ? `${node.operator} has no MUI ${f.type} operator` : { field: f.name, operator: word, value: node.values };
}

function comparisonItem(node: TypedComparison): GridFilterItem | string {
  const f = node.field;
  const op = node.operator;
  const text = node.source.value.value;
  const word = muiWord(op, f.type);
  const keepsEmpty = operatorFacts(op).negated && f.nullable;
  if (f.type === 'string') {
    if (word === undefined) return `${op} has no MUI string operator`;
    if (keepsEmpty) return `MUI's ${word} also keeps empty cells`;
    // MUI trims the value with JavaScript's trim: a value it would change cannot round-trip.
    if (text !== text.trim() || text === '') return 'MUI trims filter values and ignores empty ones';
    return { field: f.name, operator: word, value: text };
  }
  if (f.type === 'number' || f.type === 'integer') {
    if (word === undefined) return `${op} has no MUI number operator`;
    if (keepsEmpty) return "MUI's != also keeps empty cells";
    return { field: f.name, operator: word, value: node.value };
  }
  if (f.type === 'boolean') {
    if (word === undefined || (node.value === false && f.nullable))
      return 'MUI\'s boolean filter is only "is", and "is false" keeps empty cells';
    return { field: f.name, operator: word, value: String(node.value) };
  }
  // A day boundary of a date column: x >= D is "on or after D", x < D is "before D".
  const day = dayBoundary(op, text);
  if (day !== undefined && word !== undefined) return { field: f.name, operator: word, value: day };
  return `${f.name}.${op}(${text}) has no MUI date operator (date columns hold whole days)`;
}

// Every item of a field's column that reads back, without a value and with each of `values`.
function* candidateItems(field: ResolvedField, values: readonly string[]): Generator<GridFilterItem> {
  const column = COLUMN_OF_TYPE[field.type];
  const words = new Set(['isEmpty', 'isNotEmpty']);
  for (const op of FILTER_OPERATORS) {
    const word = MUI_WORDS[op]?.[column];
    if (word !== undefined && word !== 'isAnyOf') words.add(word);
  }
  if (column === 'date') for (const word of Object.keys(DATE_RELATIONS)) words.add(word);
  for (const operator of words) {
    yield { field: field.name, operator };
    for (const value of values) yield { field: field.name, operator, value: column === 'number' ? Number(value) : value };
  }
}

// The one item fromMuiFilterModel reads as exactly this clause, if any.
function readBackItem(node: TypedFilterNode, options: GridOptions): GridFilterItem | undefined {
  return readBack(node, candidateItems, (item) => {
    const read = fromMuiFilterModel({ items: [item] }, options);
    return read.diagnostics.length === 0 ? read.filter : undefined;
  });
}

// One condition as one MUI filter item, when the grid's operator means exactly the same; otherwise why not.
function itemOf(node: TypedFilterNode): GridFilterItem | string {
  const nested = 'MUI X Data Grid joins items with one logic operator; nested groups and InFields have no item';
  return matchFilterNode<TypedFilterNode, GridFilterItem | string>(node, {
    group: () => nested,
    'in-fields': () => nested,
    'null-check': emptyItem,
    list: anyOfItem,
    comparison: comparisonItem,
  });
}

/**
 * wepql filter → MUI X Data Grid filter model, for a filter the grid can
 * hold: top-level conditions (`logicOperator: 'and'`) or one `Or` group of
 * conditions (`'or'`), each with an operator of the same meaning. Anything
 * else is a `not-expressible` error with the clause's range in the text.
 * (The community grid applies one item; Pro and Premium apply several.)
 *
 * @example
 * toMuiFilterModel('Or(LastName.StartsWith(sm);Gender.InArray(1,2))', { schema: employeeSchema }).model;
 * // { items: [{ field: 'LastName', operator: 'startsWith', value: 'sm' }, { field: 'Gender', operator: 'isAnyOf', value: [1, 2] }], logicOperator: 'or' }
 */
export function toMuiFilterModel(filter: string, options: GridOptions): ToGridResult<GridFilterModel> {
  const analyzed = analyzeFilter(
    filter,
    options.limits === undefined ? { schema: options.schema } : { schema: options.schema, limits: options.limits },
  );
  const diagnostics: ModelDiagnostic[] = analyzed.diagnostics.map((d) => modelDiagnosticOf(d, []));
  if (analyzed.value === undefined) return { model: undefined, diagnostics };
  const clauses = analyzed.value.clauses;
  const single = clauses.length === 1 ? clauses[0] : undefined;
  // A lone Or that is one item (a text's isEmpty, a nullable column's doesNotEqual) stays one item.
  const or = single?.kind === 'group' && single.operator === 'Or' && readBackItem(single, options) === undefined;
  const nodes = or ? single.children : clauses;
  const items: GridFilterItem[] = [];
  nodes.forEach((node, i) => {
    const direct = itemOf(node);
    const item = typeof direct === 'string' ? (readBackItem(node, options) ?? direct) : direct;
    if (typeof item === 'string') {
      diagnostics.push({
        code: 'not-expressible',
        severity: 'error',
        message: item,
        path: ['items', i],
        start: node.source.span.start,
        end: node.source.span.end,
      });
    } else {
      items.push({ ...item, id: i });
    }
  });
  if (diagnostics.some((d) => d.severity === 'error')) return { model: undefined, diagnostics };
  return { model: { items, logicOperator: (or ? 'or' : 'and') as GridLogicOperator }, diagnostics };
}
