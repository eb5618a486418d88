/**
 * AG Grid and wepql (docs/sdk.md, "From user interfaces"): the grid's filter
 * and sort models become the API's filter and sort texts (server-side row
 * model, or a saved view), and a saved filter goes back into the grid. In
 * your own package, import from 'wepql/grid' instead of the relative path.
 */
import type { FilterModel, SortModelItem } from 'ag-grid-community';
import { fromAgGridFilterModel, fromAgGridSortModel, toAgGridFilterModel } from '../../src/grid/index.js';
import { employeeSchema } from '../../src/index.js';

const filterModel: FilterModel = {
  LastName: {
    filterType: 'text',
    operator: 'OR',
    conditions: [
      { filterType: 'text', type: 'startsWith', filter: 'sm' },
      { filterType: 'text', type: 'startsWith', filter: 'jo' },
    ],
  },
  ClientId: { filterType: 'number', type: 'inRange', filter: 0, filterTo: 3 },
  CreatedOn: { filterType: 'date', type: 'equals', dateFrom: '2024-03-21 00:00:00', dateTo: null },
};
const sortModel: SortModelItem[] = [
  { colId: 'LastName', sort: 'asc' },
  { colId: 'CreatedOn', sort: 'desc' },
];

console.log(fromAgGridFilterModel(filterModel, { schema: employeeSchema }).filter);
console.log(fromAgGridSortModel(sortModel, { schema: employeeSchema }).sort);

// Back into the grid: gridApi.setFilterModel(model).
console.log(
  JSON.stringify(toAgGridFilterModel('LastName.StartsWith(sm);CreatedOn.GreaterThanOrEqual(2024-01-01)', { schema: employeeSchema }).model),
);
const refused = toAgGridFilterModel("'D'.StartsWithInFields(FirstName,LastName)", { schema: employeeSchema });
console.log(refused.model, refused.diagnostics.map((d) => d.message).join('; '));
