/**
 * What one direction of wepql/grid produces, the other takes back: for
 * random models of every grid (AG Grid, MUI X Data Grid, TanStack Table),
 * the filter `from` reads is turned by `to` into a model with no error, and
 * that model reads as the same filter. Found on TanStack, where a range
 * (`inNumberRange` [100, 200]) read as `And(x >= 100; x <= 200)` and that
 * filter was refused on the way back (tanstack-range-round-trip).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineSchema } from '../../src/index.js';
import { fromAgGridFilterModel, fromTanStackColumnFilters, toAgGridFilterModel, toTanStackColumnFilters } from '../../src/grid/index.js';
import { fromMuiFilterModel, toMuiFilterModel } from '../../src/grid/mui.js';
import type { AgGridColumnFilter, TanStackFilterFn } from '../../src/grid/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Title: { type: 'string' },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number' },
    Active: { type: 'boolean', nullable: true },
    BornOn: { type: 'datetime', nullable: true },
  },
});
const errors = (diagnostics: readonly { severity: string }[]) => diagnostics.filter((d) => d.severity === 'error');
// A model read with a warning (text of spaces as blank, a case-sensitive match) has no exact filter to come back from.
const exact = (diagnostics: readonly { severity: string }[]) => diagnostics.every((d) => d.severity === 'info');
const text = fc.constantFrom('sm', 'S', 'ith', "o'", 'b', 'smith');
const num = fc.integer({ min: -5, max: 5 });
const DAYS = ['2023-12-31', '2024-01-01', '2024-02-29'];

describe('tanstack-range-round-trip', () => {
  it('fromTanStackColumnFilters of EmployeeNumber [100, 200] comes back as that range', () => {
    const from = fromTanStackColumnFilters([{ id: 'EmployeeNumber', value: [100, 200] }], { schema: employeeSchema });
    expect(from.filter).toBe('And(EmployeeNumber.GreaterThanOrEqual(100);EmployeeNumber.LessThanOrEqual(200))');
    const back = toTanStackColumnFilters(from.filter!, { schema: employeeSchema });
    expect(back.diagnostics).toEqual([]);
    expect(back.model).toEqual({
      columnFilters: [{ id: 'EmployeeNumber', value: [100, 200] }],
      filterFns: { EmployeeNumber: 'inNumberRange' },
    });
  });

  it('TanStack: to(from(state)) reads as the same filter', () => {
    type Entry = { id: string; fn: TanStackFilterFn; value: unknown };
    const entryArb: fc.Arbitrary<Entry> = fc.oneof(
      fc.record({
        id: fc.constantFrom('Name', 'Title'),
        fn: fc.constantFrom<TanStackFilterFn>('includesString', 'equalsString', 'startsWith', 'endsWith', 'auto'),
        value: text,
      }),
      fc.record({
        id: fc.constantFrom('Age', 'Score'),
        fn: fc.constantFrom<TanStackFilterFn>('equals', 'greaterThan', 'greaterThanOrEqualTo', 'lessThan', 'lessThanOrEqualTo'),
        value: num,
      }),
      fc.record({
        id: fc.constantFrom('Age', 'Score'),
        fn: fc.constantFrom<TanStackFilterFn>('inNumberRange', 'auto'),
        value: fc.tuple(fc.option(num, { nil: undefined }), fc.option(num, { nil: undefined })),
      }),
      fc.record({
        id: fc.constant('BornOn'),
        fn: fc.constantFrom<TanStackFilterFn>('inDateRange', 'auto'),
        value: fc.tuple(fc.option(fc.constantFrom(...DAYS), { nil: undefined }), fc.option(fc.constantFrom(...DAYS), { nil: undefined })),
      }),
      fc.record({
        id: fc.constantFrom('Age', 'Score'),
        fn: fc.constant<TanStackFilterFn>('arrHas'),
        value: fc.array(num, { minLength: 1, maxLength: 3 }),
      }),
      fc.record({
        id: fc.constantFrom('Age', 'Active', 'BornOn'),
        fn: fc.constantFrom<TanStackFilterFn>('empty', 'notEmpty'),
        value: fc.constant(true),
      }),
      fc.record({ id: fc.constant('Active'), fn: fc.constant<TanStackFilterFn>('equals'), value: fc.boolean() }),
    );
    fc.assert(
      fc.property(fc.uniqueArray(entryArb, { maxLength: 4, selector: (e) => e.id }), (entries) => {
        const filterFns = Object.fromEntries(entries.map((e) => [e.id, e.fn]));
        const from = fromTanStackColumnFilters(
          entries.map((e) => ({ id: e.id, value: e.value })),
          { schema, filterFns },
        );
        fc.pre(exact(from.diagnostics));
        const back = toTanStackColumnFilters(from.filter!, { schema });
        expect({ filter: from.filter, errors: errors(back.diagnostics) }).toEqual({ filter: from.filter, errors: [] });
        const again = fromTanStackColumnFilters(back.model!.columnFilters, { schema, filterFns: back.model!.filterFns });
        expect(again.filter).toBe(from.filter);
      }),
      { numRuns: 500 },
    );
  });
});

describe('grid round trips', () => {
  it('MUI: to(from(model)) reads as the same filter', () => {
    const itemArb = fc.oneof(
      fc.record({
        field: fc.constantFrom('Name', 'Title'),
        operator: fc.constantFrom('contains', 'doesNotContain', 'equals', 'doesNotEqual', 'startsWith', 'endsWith'),
        value: text,
      }),
      fc.record({ field: fc.constantFrom('Name', 'Title', 'Age', 'BornOn'), operator: fc.constantFrom('isEmpty', 'isNotEmpty') }),
      fc.record({ field: fc.constant('Name'), operator: fc.constant('isAnyOf'), value: fc.array(text, { minLength: 1, maxLength: 2 }) }),
      fc.record({ field: fc.constantFrom('Age', 'Score'), operator: fc.constantFrom('=', '!=', '>', '>=', '<', '<='), value: num }),
      fc.record({ field: fc.constant('Age'), operator: fc.constant('isAnyOf'), value: fc.array(num, { minLength: 1, maxLength: 3 }) }),
      fc.record({ field: fc.constant('Active'), operator: fc.constant('is'), value: fc.constantFrom('true', 'false', true, false) }),
      fc.record({
        field: fc.constant('BornOn'),
        operator: fc.constantFrom('is', 'not', 'after', 'onOrAfter', 'before', 'onOrBefore'),
        value: fc.constantFrom(...DAYS),
      }),
    );
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 3 }), fc.constantFrom('and', 'or'), (items, logicOperator) => {
        const from = fromMuiFilterModel({ items, logicOperator } as never, { schema });
        fc.pre(exact(from.diagnostics));
        const back = toMuiFilterModel(from.filter!, { schema });
        expect({ filter: from.filter, errors: errors(back.diagnostics) }).toEqual({ filter: from.filter, errors: [] });
        expect(fromMuiFilterModel(back.model!, { schema }).filter).toBe(from.filter);
      }),
      { numRuns: 500 },
    );
  });

  it('AG Grid: to(from(model)) reads as the same filter', () => {
    const textCond = fc.record({
      filterType: fc.constant('text' as const),
      type: fc.constantFrom('equals', 'notEqual', 'contains', 'notContains', 'startsWith', 'endsWith'),
      filter: text,
    });
    const numberCond = fc.oneof(
      fc.record({
        filterType: fc.constant('number' as const),
        type: fc.constantFrom('equals', 'notEqual', 'lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual'),
        filter: num,
      }),
      fc.record({ filterType: fc.constant('number' as const), type: fc.constant('inRange'), filter: num, filterTo: num }),
      fc.record({ filterType: fc.constant('number' as const), type: fc.constantFrom('blank', 'notBlank') }),
    );
    const dateCond = fc.oneof(
      fc.record({
        filterType: fc.constant('date' as const),
        type: fc.constantFrom('equals', 'notEqual', 'lessThan', 'greaterThan', 'lessThanOrEqual', 'greaterThanOrEqual'),
        dateFrom: fc.constantFrom(...DAYS).map((d) => `${d} 00:00:00`),
        dateTo: fc.constant(null),
      }),
      fc.record({
        filterType: fc.constant('date' as const),
        type: fc.constant('inRange'),
        dateFrom: fc.constant('2023-12-31 00:00:00'),
        dateTo: fc.constantFrom('2024-01-02 00:00:00', '2024-03-01 00:00:00'),
      }),
      fc.record({
        filterType: fc.constant('date' as const),
        type: fc.constantFrom('blank', 'notBlank'),
        dateFrom: fc.constant(null),
        dateTo: fc.constant(null),
      }),
    );
    const setCond = fc.record({
      filterType: fc.constant('set' as const),
      values: fc.array(fc.option(fc.constantFrom('1', '2', '3'), { nil: null }), { minLength: 1, maxLength: 3 }),
    });
    const combined = (cond: fc.Arbitrary<unknown>, filterType: string): fc.Arbitrary<unknown> =>
      fc.oneof(
        cond,
        fc.record({
          filterType: fc.constant(filterType),
          operator: fc.constantFrom('AND', 'OR'),
          conditions: fc.array(cond, { minLength: 2, maxLength: 2 }),
        }),
      );
    const modelArb = fc.record(
      {
        Name: combined(textCond, 'text'),
        Title: combined(textCond, 'text'),
        Age: fc.oneof(combined(numberCond, 'number'), setCond),
        Score: combined(numberCond, 'number'),
        BornOn: combined(dateCond, 'date'),
      },
      { requiredKeys: [] },
    ) as fc.Arbitrary<Record<string, AgGridColumnFilter>>;
    fc.assert(
      fc.property(modelArb, (model) => {
        const from = fromAgGridFilterModel(model, { schema });
        fc.pre(exact(from.diagnostics));
        const back = toAgGridFilterModel(from.filter!, { schema });
        expect({ filter: from.filter, errors: errors(back.diagnostics) }).toEqual({ filter: from.filter, errors: [] });
        expect(fromAgGridFilterModel(back.model!, { schema }).filter).toBe(from.filter);
      }),
      { numRuns: 500 },
    );
  });
});
