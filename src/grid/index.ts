/**
 * `wepql/grid`: data grids' filter and sort models as wepql filter and sort
 * texts, and back where the grid can hold the filter — AG Grid, MUI X Data
 * Grid and TanStack Table. Only the grids' types are used: the grid
 * packages are optional peers needed for type checking, never at run time.
 */
export type { GridOptions, GridSortResult, ToGridResult } from './common.js';
export { fromTanStackColumnFilters, fromTanStackSorting, toTanStackColumnFilters, toTanStackSorting } from './tanstack.js';
export type { TanStackFilterFn, TanStackOptions } from './tanstack.js';
export type { ModelFilterResult } from '../print/model-text.js';
export type { ModelDiagnostic, ModelDiagnosticCode, ModelPath } from '../diagnostics/model-diagnostic.js';
export { fromAgGridFilterModel, fromAgGridSortModel, toAgGridFilterModel, toAgGridSortModel } from './ag-grid.js';
export type { AgGridColumnFilter, AgGridSimpleFilter } from './ag-grid.js';
export type { DayRelation } from './common.js';
export { fromMuiFilterModel, fromMuiSortModel, toMuiFilterModel, toMuiSortModel } from './mui.js';
