/**
 * Browser side of the AG Grid differential test: a real client-side row
 * model grid (ag-grid-community, every community module) filtering rows with
 * a given filter model. Bundled with esbuild into an IIFE and run in Chromium.
 */
import { AllCommunityModule, ModuleRegistry, createGrid } from 'ag-grid-community';
import type { ColDef, FilterModel } from 'ag-grid-community';

ModuleRegistry.registerModules([AllCommunityModule]);

// The comparator docs/sdk.md recommends for datetime columns: the cell's UTC day against the filter's day.
function utcDayComparator(filterLocalMidnight: Date, cell: Date): number {
  const pad = (n: number): string => String(n).padStart(2, '0');
  const day = `${filterLocalMidnight.getFullYear()}-${pad(filterLocalMidnight.getMonth() + 1)}-${pad(filterLocalMidnight.getDate())}`;
  const cellDay = cell.toISOString().slice(0, 10);
  return cellDay < day ? -1 : cellDay > day ? 1 : 0;
}

const columnDefs: ColDef[] = [
  { field: 'Name', filter: 'agTextColumnFilter', cellDataType: 'text' },
  { field: 'Age', filter: 'agNumberColumnFilter', cellDataType: 'number' },
  { field: 'Score', filter: 'agNumberColumnFilter', cellDataType: 'number' },
  {
    colId: 'BornOn',
    filter: 'agDateColumnFilter',
    cellDataType: 'date',
    valueGetter: (p) => (typeof p.data?.BornOn === 'string' ? new Date(p.data.BornOn) : undefined),
    filterParams: { comparator: utcDayComparator },
  },
];

/** For each case, the indices of the rows the grid keeps. */
function run(cases: { rows: Record<string, unknown>[]; model: FilterModel }[]): number[][] {
  const host = document.createElement('div');
  // Not displayed: the client-side row model filters the rows either way (what the test reads), while a shown grid
  // laid out its rows again after every change of rows or filter — ~40% of the page's CPU in the 400 cases.
  host.style.cssText = 'width:800px;height:600px;display:none';
  document.body.append(host);
  const api = createGrid(host, { columnDefs, rowData: [] });
  const kept = cases.map(({ rows, model }) => {
    api.setGridOption(
      'rowData',
      rows.map((r, i) => ({ ...r, __i: i })),
    );
    api.setFilterModel(model);
    api.onFilterChanged();
    const out: number[] = [];
    api.forEachNodeAfterFilter((node) => out.push((node.data as { __i: number }).__i));
    return out.sort((a, b) => a - b);
  });
  api.destroy();
  host.remove();
  return kept;
}

(globalThis as unknown as { agGridFilter: typeof run }).agGridFilter = run;
