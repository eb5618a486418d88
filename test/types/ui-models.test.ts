/**
 * The UI converters against the real packages' types, checked by `tsc
 * --noEmit` over test/ (npm test runs it): what wepql produces must be
 * assignable to react-querybuilder's and TanStack Table's own types, and
 * their models must be accepted as input.
 */
import { describe, expect, it } from 'vitest';
import type { RuleGroupType, RuleGroupTypeIC, FullField, FullOperator } from '@react-querybuilder/core';
import type { ColumnFiltersState, SortingState } from '@tanstack/table-core';
import type { FilterModel, SortModelItem } from 'ag-grid-community';
import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import { fromRuleGroup, queryBuilderConfig, toRuleGroup } from '../../src/react-querybuilder/index.js';
import {
  fromAgGridFilterModel,
  fromAgGridSortModel,
  fromMuiFilterModel,
  fromMuiSortModel,
  fromTanStackColumnFilters,
  fromTanStackSorting,
  toAgGridFilterModel,
  toAgGridSortModel,
  toMuiFilterModel,
  toMuiSortModel,
  toTanStackColumnFilters,
  toTanStackSorting,
} from '../../src/grid/index.js';
import { employeeSchema as schema } from '../../src/schema/employee-schema.js';

describe('UI models typecheck against the real packages', () => {
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
