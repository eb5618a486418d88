/**
 * MUI X Data Grid and wepql (docs/sdk.md, "From user interfaces"): the
 * grid's filter and sort models (`filterMode="server"`) become the API's
 * filter and sort texts, and back. In your own package, import from
 * 'wepql/grid/mui' instead of the relative path.
 */
import type { GridFilterModel, GridLogicOperator, GridSortModel } from '@mui/x-data-grid';
import { fromMuiFilterModel, fromMuiSortModel, toMuiFilterModel } from '../../src/grid/mui.js';
import { employeeSchema } from '../../src/index.js';

const filterModel: GridFilterModel = {
  items: [
    { field: 'LastName', operator: 'startsWith', value: 'sm' },
    { field: 'Gender', operator: 'isAnyOf', value: [1, 2] },
    { field: 'CreatedOn', operator: 'is', value: '2024-03-21' },
  ],
  logicOperator: 'or' as GridLogicOperator,
};
const sortModel: GridSortModel = [{ field: 'CreatedOn', sort: 'desc' }];

console.log(fromMuiFilterModel(filterModel, { schema: employeeSchema }).filter);
console.log(fromMuiSortModel(sortModel, { schema: employeeSchema }).sort);
console.log(JSON.stringify(toMuiFilterModel('LastName.Contains(sm);ClientId.GreaterThan(1)', { schema: employeeSchema }).model));
const refused = toMuiFilterModel('Or(LastName.Equal(a);And(ClientId.Equal(1);Gender.IsNull()))', { schema: employeeSchema });
console.log(refused.model, refused.diagnostics.map((d) => `${d.code} at ${JSON.stringify(d.path)}`).join('; '));
