/**
 * MUI X Data Grid: `GridFilterModel` (items joined by `logicOperator`) and
 * `GridSortModel` to wepql text, and back where the grid can hold the
 * filter. Each operator keeps the meaning of the grid's own filter
 * functions: text compares case-insensitively with the filter value trimmed,
 * `doesNotContain`/`doesNotEqual`/`!=` keep empty cells, `is false` on a
 * boolean column keeps them too. `date` columns compare days and `dateTime`
 * columns minutes; a date-only value (or a `Date` at midnight UTC) is a day,
 * anything else a minute — mapped to the ranges of docs/semantics.md.
 */
import type { GridFilterItem, GridFilterModel, GridLogicOperator, GridSortModel } from '@mui/x-data-grid';
import type { ModelDiagnostic, ModelPath } from '../diagnostics/model-diagnostic.js';
import { modelDiagnosticOf } from '../diagnostics/model-diagnostic.js';
import type { ModelClause, ModelFilterResult } from '../print/model-text.js';
import { modelFilterText, modelValueText } from '../print/model-text.js';
import { parseDatetimeText } from '../schema/values.js';
import type { ResolvedField } from '../schema/schema.js';
import { analyzeFilter } from '../validate/analyze.js';
import type { TypedFilterNode } from '../ast/typed-tree.js';
import type { DayRelation, GridOptions, GridSortResult, ToGridResult } from './common.js';
import { columnField, cond, dayPeriod, orNull, periodClause, sortKeys, sortText } from './common.js';

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

const TEXT_OPS = {
  contains: 'Contains',
  doesNotContain: 'NotContains',
  equals: 'Equal',
  doesNotEqual: 'NotEqual',
  startsWith: 'StartsWith',
  endsWith: 'EndsWith',
} as const;

function stringClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator === 'isEmpty')
    return { kind: 'group', operator: 'Or', children: [cond(field.name, 'IsNull', [], path), cond(field.name, 'Equal', [''], path)], path };
  if (operator === 'isNotEmpty') return cond(field.name, 'NotEqual', [''], path);
  if (operator === 'isAnyOf') {
    const values = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v.trim() : modelValueText(v))) : [];
    if (values.length === 0) return skip(r);
    if (values.some((v) => v === undefined)) return refuse(r, 'invalid-value', 'isAnyOf values are text');
    return cond(field.name, 'InArray', values as string[], path);
  }
  const op = Object.hasOwn(TEXT_OPS, operator) ? TEXT_OPS[operator as keyof typeof TEXT_OPS] : undefined;
  if (op === undefined) return refuse(r, 'unknown-model-operator', `string operator ${JSON.stringify(operator)} has no wepql counterpart`);
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (!text) return skip(r);
  const inner = cond(field.name, op, [text], path);
  return op === 'NotContains' || op === 'NotEqual' ? orNull(field, inner, path) : inner;
}

const NUMBER_OPS = {
  '=': 'Equal',
  '!=': 'NotEqual',
  '>': 'GreaterThan',
  '>=': 'GreaterThanOrEqual',
  '<': 'LessThan',
  '<=': 'LessThanOrEqual',
} as const;

function numberClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator === 'isEmpty' || operator === 'isNotEmpty')
    return cond(field.name, operator === 'isEmpty' ? 'IsNull' : 'IsNotNull', [], path);
  const number = (v: unknown): string | undefined =>
    v === null || v === undefined || v === '' ? undefined : modelValueText(typeof v === 'string' ? Number(v) : v);
  if (operator === 'isAnyOf') {
    const values = Array.isArray(value) ? value.map(number) : [];
    if (values.length === 0) return skip(r);
    if (values.some((v) => v === undefined)) return refuse(r, 'invalid-value', 'isAnyOf values are numbers');
    return cond(field.name, 'InArray', values as string[], path);
  }
  const op = Object.hasOwn(NUMBER_OPS, operator) ? NUMBER_OPS[operator as keyof typeof NUMBER_OPS] : undefined;
  if (op === undefined) return refuse(r, 'unknown-model-operator', `number operator ${JSON.stringify(operator)} has no wepql counterpart`);
  if (value === null || value === undefined || value === '') return skip(r);
  const text = number(value);
  if (text === undefined) return refuse(r, 'invalid-value', 'the value is not a number');
  const inner = cond(field.name, op, [text], path);
  return op === 'NotEqual' ? orNull(field, inner, path) : inner;
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
        ? value.trim()
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
  if (operator === 'isEmpty' || operator === 'isNotEmpty')
    return cond(field.name, operator === 'isEmpty' ? 'IsNull' : 'IsNotNull', [], path);
  const relation = Object.hasOwn(DATE_RELATIONS, operator) ? DATE_RELATIONS[operator] : undefined;
  if (relation === undefined)
    return refuse(r, 'unknown-model-operator', `date operator ${JSON.stringify(operator)} has no wepql counterpart`);
  if (value === null || value === undefined || value === '') return skip(r);
  const period = periodOf(value);
  return period === undefined ? refuse(r, 'invalid-value', 'the value is not a date') : periodClause(field.name, period, relation, path);
}

// MUI tests Boolean(cell) === value, so "is false" also keeps empty cells.
function booleanClause(r: Reader, operator: string, value: unknown): ModelClause | undefined {
  const { field, path } = r;
  if (operator !== 'is')
    return refuse(r, 'unknown-model-operator', `boolean operator ${JSON.stringify(operator)} has no wepql counterpart`);
  const b = value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
  if (b === undefined) return skip(r);
  const inner = cond(field.name, 'Equal', [String(b)], path);
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
        message: `column ${JSON.stringify(prop(item, 'field'))} is not a field of the schema`,
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

function textOf(node: TypedFilterNode): string {
  return node.kind === 'comparison' ? node.source.value.value : '';
}

// One condition as one MUI filter item, when the grid's operator means exactly the same; otherwise why not.
function itemOf(node: TypedFilterNode): GridFilterItem | string {
  if (node.kind === 'group' || node.kind === 'in-fields')
    return 'MUI X Data Grid joins items with one logic operator; nested groups and InFields have no item';
  const f = node.field;
  if (node.kind === 'null-check') {
    if (f.type === 'string') return "MUI's isEmpty on text also matches the empty string";
    if (f.type === 'boolean') return 'a boolean column has no isEmpty operator';
    return { field: f.name, operator: node.operator === 'IsNull' ? 'isEmpty' : 'isNotEmpty' };
  }
  if (node.kind === 'list') {
    if (node.operator !== 'InArray' || f.type === 'datetime' || f.type === 'boolean')
      return `${node.operator} has no MUI ${f.type} operator`;
    return { field: f.name, operator: 'isAnyOf', value: node.values };
  }
  const op = node.operator;
  const text = textOf(node);
  if (f.type === 'string') {
    const entry = Object.entries(TEXT_OPS).find(([, w]) => w === op);
    if (entry === undefined) return `${op} has no MUI string operator`;
    if ((op === 'NotContains' || op === 'NotEqual') && f.nullable) return `MUI's ${entry[0]} also keeps empty cells`;
    if (text !== text.trim() || text === '') return 'MUI trims filter values and ignores empty ones';
    return { field: f.name, operator: entry[0], value: text };
  }
  if (f.type === 'number' || f.type === 'integer') {
    const entry = Object.entries(NUMBER_OPS).find(([, w]) => w === op);
    if (entry === undefined) return `${op} has no MUI number operator`;
    if (op === 'NotEqual' && f.nullable) return "MUI's != also keeps empty cells";
    return { field: f.name, operator: entry[0], value: node.value };
  }
  if (f.type === 'boolean') {
    if (op !== 'Equal' || (node.value === false && f.nullable))
      return 'MUI\'s boolean filter is only "is", and "is false" keeps empty cells';
    return { field: f.name, operator: 'is', value: String(node.value) };
  }
  // A day boundary of a date column: x >= D is "on or after D", x < D is "before D".
  if ((op === 'GreaterThanOrEqual' || op === 'LessThan') && dayPeriod(text) !== undefined) {
    return { field: f.name, operator: op === 'LessThan' ? 'before' : 'onOrAfter', value: text.trim() };
  }
  return `${f.name}.${op}(${text}) has no MUI date operator (date columns hold whole days)`;
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
  const or = single?.kind === 'group' && single.operator === 'Or';
  const nodes = or ? single.children : clauses;
  const items: GridFilterItem[] = [];
  nodes.forEach((node, i) => {
    const item = itemOf(node);
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
