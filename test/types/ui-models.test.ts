/**
 * The UI converters against the real packages' types, checked by `tsc
 * --noEmit` over test/ (npm test runs it): what wepql produces must be
 * assignable to react-querybuilder's and TanStack Table's own types, and
 * their models must be accepted as input. wepql/grid writes AG Grid's and
 * TanStack Table's shapes out itself (so it type-checks without those
 * packages: test/e2e/grid-packed-types.test.ts); the checks below hold those
 * shapes to the packages' own, both ways.
 */
import { describe, expect, it } from 'vitest';
import type { RuleGroupType, RuleGroupTypeIC, FullField, FullOperator } from '@react-querybuilder/core';
import type { ColumnFiltersState, SortingState } from '@tanstack/table-core';
import type { FilterModel, SortModelItem } from 'ag-grid-community';
import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import { fromRuleGroup, queryBuilderConfig, toRuleGroup } from '../../src/react-querybuilder/index.js';
import type { DateFilterModel, ICombinedSimpleModel, NumberFilterModel, SetFilterModel, TextFilterModel } from 'ag-grid-community';
import {
  fromAgGridFilterModel,
  fromAgGridSortModel,
  fromTanStackColumnFilters,
  fromTanStackSorting,
  toAgGridFilterModel,
  toAgGridSortModel,
  toTanStackColumnFilters,
  toTanStackSorting,
} from '../../src/grid/index.js';
import type {
  AgGridColumnFilter,
  AgGridCombinedFilter,
  AgGridDateFilter,
  AgGridFilterModel,
  AgGridNumberFilter,
  AgGridSetFilter,
  AgGridSortModelItem,
  AgGridTextFilter,
  TanStackColumnFilter,
  TanStackColumnSort,
} from '../../src/grid/index.js';
import { fromMuiFilterModel, fromMuiSortModel, toMuiFilterModel, toMuiSortModel } from '../../src/grid/mui.js';
import { employeeSchema as schema } from '../../src/schema/employee-schema.js';

// A type that compiles only when A and B are assignable to each other.
type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('UI models typecheck against the real packages', () => {
  it("the shapes wepql/grid writes out are the packages' own, both ways", () => {
    const same: true[] = [
      true satisfies Mutual<TanStackColumnFilter[], ColumnFiltersState>,
      true satisfies Mutual<TanStackColumnSort[], SortingState>,
      true satisfies Mutual<AgGridFilterModel, FilterModel>,
    ];
    // AG Grid's conditions are narrower (its option keys) than wepql's (any string): its models go in, and
    // what wepql writes is a model of the grid (FilterModel takes any column filter).
    const into: true[] = [
      true satisfies Mutual<AgGridTextFilter | TextFilterModel, AgGridTextFilter>,
      true satisfies Mutual<AgGridNumberFilter | NumberFilterModel, AgGridNumberFilter>,
      true satisfies Mutual<AgGridDateFilter | DateFilterModel, AgGridDateFilter>,
      true satisfies Mutual<AgGridSetFilter | SetFilterModel, AgGridSetFilter>,
      true satisfies Mutual<AgGridCombinedFilter | ICombinedSimpleModel<TextFilterModel>, AgGridCombinedFilter>,
      true satisfies Mutual<AgGridSortModelItem | SortModelItem, AgGridSortModelItem>,
    ];
    const back: SortModelItem[] = [] as AgGridSortModelItem[];
    const column: FilterModel[string] = {} as AgGridColumnFilter;
    expect([...same, ...into].every(Boolean)).toBe(true);
    expect([back, column]).toEqual([[], {}]);
  });

  it('react-querybuilder', () => {
    const standard: RuleGroupType | undefined = toRuleGroup('Gender.IsNull()', { schema }).ruleGroup;
    const ic: RuleGroupTypeIC | undefined = toRuleGroup('Gender.IsNull()', { schema, independentCombinators: true }).ruleGroup;
    const fields: FullField[] = queryBuilderConfig(schema).fields.map((f) => ({ ...f, value: f.name }) as FullField);
    const operators: FullOperator[] = queryBuilderConfig(schema).operators;
    expect(fromRuleGroup(standard!, { schema }).filter).toBe(fromRuleGroup(ic!, { schema }).filter);
    expect(fields.length).toBeGreaterThan(0);
    expect(operators.length).toBe(18);
  });

  it('TanStack Table', () => {
    const columnFilters: ColumnFiltersState | undefined = toTanStackColumnFilters('LastName.Contains(a)', { schema }).model?.columnFilters;
    const sorting: SortingState | undefined = toTanStackSorting('LastName=Asc', { schema }).model;
    expect(fromTanStackColumnFilters(columnFilters!, { schema }).filter).toBe('LastName.Contains(a)');
    expect(fromTanStackSorting(sorting!, { schema }).sort).toBe('LastName=Asc');
  });

  it('AG Grid', () => {
    const model: FilterModel | undefined = toAgGridFilterModel('LastName.Contains(a);Or(ClientId.Equal(1);ClientId.Equal(2))', {
      schema,
    }).model;
    const sort: SortModelItem[] | undefined = toAgGridSortModel('LastName=Asc', { schema }).model;
    expect(fromAgGridFilterModel(model!, { schema }).filter).toBe('LastName.Contains(a);Or(ClientId.Equal(1);ClientId.Equal(2))');
    expect(fromAgGridSortModel(sort!, { schema }).sort).toBe('LastName=Asc');
  });

  it('MUI X Data Grid', () => {
    const model: GridFilterModel | undefined = toMuiFilterModel('LastName.Contains(a);ClientId.Equal(1)', { schema }).model;
    const sort: GridSortModel | undefined = toMuiSortModel('LastName=Desc', { schema }).model;
    expect(fromMuiFilterModel(model!, { schema }).filter).toBe('LastName.Contains(a);ClientId.Equal(1)');
    expect(fromMuiSortModel(sort!, { schema }).sort).toBe('LastName=Desc');
  });
});
