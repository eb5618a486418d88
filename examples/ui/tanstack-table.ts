/**
 * TanStack Table and wepql (docs/sdk.md, "From user interfaces"): the
 * table's column filters and sorting become the API's filter and sort
 * texts, for server-side filtering with `manualFiltering`. In your own
 * package, import from 'wepql/grid' instead of the relative path.
 */
import type { ColumnFiltersState, SortingState } from '@tanstack/table-core';
import { fromTanStackColumnFilters, fromTanStackSorting, toTanStackColumnFilters } from '../../src/grid/index.js';
import { employeeSchema } from '../../src/index.js';

// Each column's filterFn lives in its column definition; pass the ones that are not 'auto'.
const filterFns = { LastName: 'startsWith', ClientId: 'arrHas' } as const;
const columnFilters: ColumnFiltersState = [
  { id: 'LastName', value: 'sm' },
  { id: 'ClientId', value: [1, 2] },
  { id: 'EmployeeNumber', value: [100, 200] }, // 'auto': inNumberRange
];
const sorting: SortingState = [
  { id: 'LastName', desc: false },
  { id: 'CreatedOn', desc: true },
];

console.log(fromTanStackColumnFilters(columnFilters, { schema: employeeSchema, filterFns }).filter);
console.log(fromTanStackSorting(sorting, { schema: employeeSchema }).sort);

// Back: a saved filter restored into the table, where the table can hold it.
console.log(JSON.stringify(toTanStackColumnFilters('LastName.StartsWith(sm);Gender.InArray(1,2)', { schema: employeeSchema }).model));
const refused = toTanStackColumnFilters('Or(LastName.Equal(a);Gender.IsNull())', { schema: employeeSchema });
console.log(refused.model, refused.diagnostics.map((d) => d.message).join('; '));
