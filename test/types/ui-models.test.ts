/**
 * The UI converters against the real packages' types, checked by `tsc
 * --noEmit` over test/ (npm test runs it): what wepql produces must be
 * assignable to react-querybuilder's and TanStack Table's own types, and
 * their models must be accepted as input.
 */
import { describe, expect, it } from 'vitest';
import type { RuleGroupType, RuleGroupTypeIC, FullField, FullOperator } from '@react-querybuilder/core';
import type { ColumnFiltersState, SortingState } from '@tanstack/table-core';
import { fromRuleGroup, queryBuilderConfig, toRuleGroup } from '../../src/querybuilder/index.js';
import { fromTanStackColumnFilters, fromTanStackSorting, toTanStackColumnFilters, toTanStackSorting } from '../../src/grid/index.js';
import { employeeSchema as schema } from '../../src/sample/employee-schema.js';

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
});
