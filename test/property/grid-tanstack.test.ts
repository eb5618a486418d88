/**
 * wepql/grid for TanStack Table: the rows wepql keeps for a converted
 * column-filter state are the rows TanStack's own getFilteredRowModel keeps,
 * on random states over the built-in filter functions; and the way back.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  columnFilteringFeature,
  constructTable,
  createFilteredRowModel,
  filterFn_greaterThan,
  filterFn_greaterThanOrEqualTo,
  filterFn_lessThan,
  filterFn_lessThanOrEqualTo,
  filterFns,
  tableFeatures,
} from '@tanstack/table-core';
import type { ColumnFiltersState } from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import { compileFilter, defineSchema } from '../../src/index.js';
import { fromTanStackColumnFilters, fromTanStackSorting, toTanStackColumnFilters, toTanStackSorting } from '../../src/grid/index.js';
import type { TanStackFilterFn } from '../../src/grid/index.js';

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number' },
    Active: { type: 'boolean', nullable: true },
  },
});

const NAMES = ['Smith', 'smith', 'SMYTHE', 'Jones', "o'brien", 'ab', 'b', 'Zoë'];
const rowArb = fc.record(
  {
    Name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    Age: fc.option(fc.integer({ min: -5, max: 5 }), { nil: undefined }),
    Score: fc.integer({ min: -5, max: 5 }),
    Active: fc.option(fc.boolean(), { nil: undefined }),
  },
  { requiredKeys: ['Score'], noNullPrototype: true },
);

type Entry = { id: string; fn: TanStackFilterFn; value: unknown };
const text = fc.constantFrom('sm', 'S', 'ith', "o'", 'zo', 'b');
const num = fc.integer({ min: -5, max: 5 });
const entryArb: fc.Arbitrary<Entry> = fc.oneof(
  fc.record({
    id: fc.constant('Name'),
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
    id: fc.constantFrom('Age', 'Score'),
    fn: fc.constant<TanStackFilterFn>('arrHas'),
    value: fc.array(num, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({ id: fc.constantFrom('Age', 'Active'), fn: fc.constantFrom<TanStackFilterFn>('empty', 'notEmpty'), value: fc.constant(true) }),
  fc.record({ id: fc.constant('Active'), fn: fc.constant<TanStackFilterFn>('equals'), value: fc.boolean() }),
);

function tanstackRows(rows: Record<string, unknown>[], entries: readonly Entry[]): Record<string, unknown>[] {
  const features = tableFeatures({
    coreReactivityFeature: storeReactivityBindings(),
    columnFilteringFeature,
    filteredRowModel: createFilteredRowModel(),
    // The comparison functions are built in but not in the legacy registry object.
    filterFns: {
      ...filterFns,
      greaterThan: filterFn_greaterThan,
      greaterThanOrEqualTo: filterFn_greaterThanOrEqualTo,
      lessThan: filterFn_lessThan,
      lessThanOrEqualTo: filterFn_lessThanOrEqualTo,
    },
  });
  const columns = ['Name', 'Age', 'Score', 'Active'].map((id) => {
    const e = entries.find((x) => x.id === id);
    return { accessorKey: id, filterFn: e?.fn ?? 'auto' };
  });
  const columnFilters: ColumnFiltersState = entries.map((e) => ({ id: e.id, value: e.value }));
  const table = constructTable({ features, data: rows, columns: columns as any, initialState: { columnFilters } });
  return table.getFilteredRowModel().rows.map((r) => r.original as Record<string, unknown>);
}

describe('wepql/grid: TanStack Table column filters', () => {
  it('wepql keeps the rows getFilteredRowModel keeps', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entryArb, { maxLength: 3, selector: (e) => e.id }),
        fc.array(rowArb, { maxLength: 12 }),
        (entries, rows) => {
          const filterFnsById = Object.fromEntries(entries.map((e) => [e.id, e.fn]));
          const { filter, diagnostics } = fromTanStackColumnFilters(
            entries.map((e) => ({ id: e.id, value: e.value })),
            { schema, filterFns: filterFnsById },
          );
          expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
          const predicate = compileFilter(filter!, { schema });
          expect({ filter, rows: rows.filter(predicate) }).toEqual({ filter, rows: tanstackRows(rows, entries) });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('back: a filter TanStack can hold comes back to the same text; others are diagnostics', () => {
    const filter = 'Name.StartsWith(sm);Age.InArray(1,2);Score.GreaterThan(3)';
    const { model } = toTanStackColumnFilters(filter, { schema });
    expect(model).toEqual({
      columnFilters: [
        { id: 'Name', value: 'sm' },
        { id: 'Age', value: [1, 2] },
        { id: 'Score', value: 3 },
      ],
      filterFns: { Name: 'startsWith', Age: 'arrHas', Score: 'greaterThan' },
    });
    expect(fromTanStackColumnFilters(model!.columnFilters, { schema, filterFns: model!.filterFns }).filter).toBe(filter);
    const refused = toTanStackColumnFilters('Or(Name.Equal(a);Age.Equal(1));Age.GreaterThan(-3);Name.NotContains(x)', { schema });
    expect(refused.model).toBeUndefined();
    expect(refused.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['not-expressible', [0]],
      ['not-expressible', [1]],
      ['not-expressible', [2]],
    ]);
  });

  it('shrunk counterexamples: an empty cell reads as 0, a 0 value still filters, between is refused', () => {
    const rows = [{ Score: 0 }, { Age: 1, Score: 0 }, { Age: -1, Score: 0 }];
    for (const [fn, value] of [
      ['greaterThan', 0],
      ['lessThanOrEqualTo', 0],
      ['lessThan', 2],
      ['greaterThanOrEqualTo', -1],
    ] as const) {
      const { filter } = fromTanStackColumnFilters([{ id: 'Age', value }], { schema, filterFns: { Age: fn } });
      expect({ fn, rows: rows.filter(compileFilter(filter!, { schema })) }).toEqual({
        fn,
        rows: tanstackRows(rows, [{ id: 'Age', fn, value }]),
      });
    }
    expect(
      fromTanStackColumnFilters([{ id: 'Age', value: [0, -1] }], {
        schema,
        filterFns: { Age: 'between' as TanStackFilterFn },
      }).diagnostics.map((d) => d.code),
    ).toEqual(['unknown-model-operator']);
  });

  it('sorting state both ways, with diagnostics at the entry', () => {
    expect(
      fromTanStackSorting(
        [
          { id: 'Name', desc: false },
          { id: 'Age', desc: true },
        ],
        { schema },
      ).sort,
    ).toBe('Name=Asc;Age=Desc');
    expect(toTanStackSorting('Name=Asc;Age=Desc', { schema }).model).toEqual([
      { id: 'Name', desc: false },
      { id: 'Age', desc: true },
    ]);
    expect(
      fromTanStackSorting(
        [
          { id: 'Name', desc: false },
          { id: 'Nope', desc: true },
        ],
        { schema },
      ).diagnostics.map((d) => [d.code, d.path]),
    ).toEqual([['unknown-field', [1]]]);
  });
});
