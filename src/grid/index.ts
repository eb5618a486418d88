/**
 * `wepql/grid`: data grids' filter and sort models as wepql filter and sort
 * texts, and back where the grid can hold the filter — AG Grid and TanStack
 * Table here, MUI X Data Grid in `wepql/grid/mui`. The grids' model shapes
 * are written out in this package, so this entry type-checks with no grid
 * package installed, or with any one of them (`skipLibCheck: false`); the
 * models are assignable to and from the grids' own types. MUI's entry uses
 * MUI's types (its `GridLogicOperator` is an enum) and so needs
 * `@mui/x-data-grid`, for types only.
 *
 * @packageDocumentation
 */
export type { GridOptions, GridSortResult, ToGridResult } from './common.js';
export { fromTanStackColumnFilters, fromTanStackSorting, toTanStackColumnFilters, toTanStackSorting } from './tanstack.js';
export type { TanStackColumnFilter, TanStackColumnSort, TanStackFilterFn, TanStackOptions } from './tanstack.js';
export type { ModelFilterResult } from '../print/model-text.js';
export type { ModelDiagnostic, ModelDiagnosticCode, ModelPath } from '../diagnostics/model-diagnostic.js';
export { fromAgGridFilterModel, fromAgGridSortModel, toAgGridFilterModel, toAgGridSortModel } from './ag-grid.js';
export type {
  AgGridColumnFilter,
  AgGridCombinedFilter,
  AgGridDateFilter,
  AgGridFilterModel,
  AgGridNumberFilter,
  AgGridSetFilter,
  AgGridSimpleFilter,
  AgGridSortModelItem,
  AgGridTextFilter,
} from './ag-grid.js';
export type { DayRelation } from './common.js';
