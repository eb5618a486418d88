/**
 * wepql/grid for MUI X Data Grid against the grid's own filter functions:
 * each item is applied by MUI's `getApplyFilterFn` (from the installed
 * @mui/x-data-grid, loaded from its CommonJS files, since rendering the grid
 * needs a DOM), joined by `logicOperator` as the grid joins them (every item
 * for `and`, some item for `or`; items without a value are left out). wepql
 * must keep the same rows. MUI compares `date` columns by the local day, so
 * the test runs in UTC.
 */
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { GridFilterItem, GridFilterModel, GridLogicOperator } from '@mui/x-data-grid';
import { compileFilter, defineSchema } from '../../src/index.js';
import { fromMuiFilterModel, fromMuiSortModel, toMuiFilterModel, toMuiSortModel } from '../../src/grid/mui.js';

process.env.TZ = 'UTC';
const require = createRequire(import.meta.url);
const muiDir = require.resolve('@mui/x-data-grid/package.json').replace(/package\.json$/, '');
type Operator = { value: string; getApplyFilterFn(item: GridFilterItem, column: unknown): ((value: unknown) => boolean) | null };
const load = (file: string, fn: string, ...args: unknown[]): Operator[] =>
  (require(`${muiDir}colDef/${file}`) as Record<string, (...a: unknown[]) => Operator[]>)[fn]!(...args);

const OPERATORS: Record<string, Operator[]> = {};
beforeAll(() => {
  OPERATORS.string = load('gridStringOperators.js', 'getGridStringOperators');
  OPERATORS.number = load('gridNumericOperators.js', 'getGridNumericOperators');
  OPERATORS.date = load('gridDateOperators.js', 'getGridDateOperators', false);
  OPERATORS.boolean = load('gridBooleanOperators.js', 'getGridBooleanOperators');
});

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Active: { type: 'boolean', nullable: true },
    BornOn: { type: 'datetime', nullable: true },
  },
});
const KIND: Record<string, string> = { Name: 'string', Age: 'number', Active: 'boolean', BornOn: 'date' };

const NAMES = ['Smith', 'smith', 'SMYTHE', 'Jones', "o'brien", 'ab', 'b', ''];
const INSTANTS = ['2024-01-01T00:00:00.000Z', '2024-01-01T23:59:59.999Z', '2024-01-02T00:00:00.000Z', '2023-12-31T12:00:00.000Z'];
const rowArb = fc.record(
  {
    Name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    Age: fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
    Active: fc.option(fc.boolean(), { nil: undefined }),
    BornOn: fc.option(fc.constantFrom(...INSTANTS), { nil: undefined }),
  },
  { requiredKeys: [], noNullPrototype: true },
);

const itemArb: fc.Arbitrary<GridFilterItem> = fc.oneof(
  fc.record({
    field: fc.constant('Name'),
    operator: fc.constantFrom('contains', 'doesNotContain', 'equals', 'doesNotEqual', 'startsWith', 'endsWith'),
    value: fc.constantFrom('sm', ' S ', 'ith', "o'", 'b', 'smith'),
  }),
  fc.record({ field: fc.constant('Name'), operator: fc.constantFrom('isEmpty', 'isNotEmpty') }),
  fc.record({
    field: fc.constant('Name'),
    operator: fc.constant('isAnyOf'),
    value: fc.array(fc.constantFrom('smith', 'JONES', 'b'), { minLength: 1, maxLength: 2 }),
  }),
  fc.record({
    field: fc.constant('Age'),
    operator: fc.constantFrom('=', '!=', '>', '>=', '<', '<='),
    value: fc.integer({ min: -3, max: 3 }),
  }),
  fc.record({ field: fc.constant('Age'), operator: fc.constantFrom('isEmpty', 'isNotEmpty') }),
  fc.record({
    field: fc.constant('Age'),
    operator: fc.constant('isAnyOf'),
    value: fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ field: fc.constant('Active'), operator: fc.constant('is'), value: fc.constantFrom('true', 'false', true, false) }),
  fc.record({
    field: fc.constant('BornOn'),
    operator: fc.constantFrom('is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore'),
    value: fc.constantFrom('2023-12-31', '2024-01-01', '2024-01-02'),
  }),
  fc.record({ field: fc.constant('BornOn'), operator: fc.constantFrom('isEmpty', 'isNotEmpty') }),
);

function muiKeeps(model: GridFilterModel, row: Record<string, unknown>): boolean {
  const active = model.items.flatMap((item) => {
    const op = OPERATORS[KIND[item.field]!]!.find((o) => o.value === item.operator)!;
    const fn = op.getApplyFilterFn(item, { field: item.field });
    return fn === null ? [] : [fn];
  });
  if (active.length === 0) return true;
  const cell = (field: string): unknown => (field === 'BornOn' && typeof row.BornOn === 'string' ? new Date(row.BornOn) : row[field]);
  const results = model.items.flatMap((item) => {
    const op = OPERATORS[KIND[item.field]!]!.find((o) => o.value === item.operator)!;
    const fn = op.getApplyFilterFn(item, { field: item.field });
    return fn === null ? [] : [fn(cell(item.field))];
  });
  return model.logicOperator === 'or' ? results.some(Boolean) : results.every(Boolean);
}

describe('wepql/grid: MUI X Data Grid filter models', () => {
  it("wepql keeps the rows MUI's filter functions keep", () => {
    fc.assert(
      fc.property(
        fc.record({
          items: fc.array(itemArb, { maxLength: 3 }),
          logicOperator: fc.constantFrom('and', 'or') as fc.Arbitrary<GridLogicOperator>,
        }),
        fc.array(rowArb, { minLength: 1, maxLength: 10 }),
        (model, rows) => {
          const { filter, diagnostics } = fromMuiFilterModel(model, { schema });
          expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const predicate = compileFilter(filter!, { schema });
          expect({ filter, rows: rows.filter(predicate) }).toEqual({ filter, rows: rows.filter((r) => muiKeeps(model, r)) });
        },
      ),
      { numRuns: 400 },
    );
  });

  it('back: a filter MUI can hold comes back; others are diagnostics at the item', () => {
    const { model } = toMuiFilterModel('Or(Name.StartsWith(sm);Age.InArray(1,2);BornOn.GreaterThanOrEqual(2024-01-01))', { schema });
    expect(model).toEqual({
      items: [
        { id: 0, field: 'Name', operator: 'startsWith', value: 'sm' },
        { id: 1, field: 'Age', operator: 'isAnyOf', value: [1, 2] },
        { id: 2, field: 'BornOn', operator: 'onOrAfter', value: '2024-01-01' },
      ],
      logicOperator: 'or',
    });
    expect(fromMuiFilterModel(model!, { schema }).filter).toBe(
      'Or(Name.StartsWith(sm);Age.InArray(1,2);BornOn.GreaterThanOrEqual(2024-01-01))',
    );
    const refused = toMuiFilterModel('Name.NotEqual(a);Name.IsNull();Active.Equal(false)', { schema });
    expect(refused.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['not-expressible', ['items', 0]],
      ['not-expressible', ['items', 1]],
      ['not-expressible', ['items', 2]],
    ]);
    expect(fromMuiFilterModel({ items: [], quickFilterValues: ['smith'] }, { schema }).diagnostics.map((d) => d.code)).toEqual([
      'not-expressible',
    ]);
    expect(
      fromMuiSortModel(
        [
          { field: 'Name', sort: 'asc' },
          { field: 'Age', sort: null },
        ],
        { schema },
      ).sort,
    ).toBe('Name=Asc');
    expect(toMuiSortModel('Name=Desc', { schema }).model).toEqual([{ field: 'Name', sort: 'desc' }]);
  });
});
