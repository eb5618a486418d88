/**
 * grid-typechecks-with-one-grid: `wepql/grid` did not type-check unless MUI
 * was installed, even for AG Grid or TanStack Table alone
 * (`dist/grid/mui.d.ts: Cannot find module '@mui/x-data-grid'`). The packed
 * package is installed into an app (test/support/packed-install.ts), copied
 * once (as hard links: the 2,500 files' bytes are not copied, nor freed
 * again at the end), and checked with each grid's package in turn, and no other, beside
 * it in that copy's node_modules: a program using
 * the grid's own types with wepql's converters is checked by the TypeScript
 * compiler with `skipLibCheck: false` — so every declaration file wepql
 * ships is checked.
 * AG Grid and TanStack come from `wepql/grid`, which needs no grid package
 * (an app with none is checked too); MUI from `wepql/grid/mui`.
 *
 * The grid's package is linked from this checkout's node_modules rather than
 * installed from the registry (the test runs offline): wepql's files are
 * real copies in the app, so what they import resolves from the app's
 * node_modules alone, where no other grid is — the test first proves that
 * the other grids cannot be resolved there.
 * Needs a fresh dist/ (assertFreshDist checks it), as `npm test` leaves it.
 *
 * The four programs are checked in this process by the compiler's API rather
 * than by four `tsc` processes: each of those loaded TypeScript, parsed and
 * bound the ES2022 and DOM libraries (50,000 lines) and checked them, which
 * was most of the file's time. Here TypeScript loads once, the library files
 * and every file of a node_modules folder (wepql's declarations and its
 * dependencies', the same files in every program) are parsed and bound once
 * for all four programs (as the language service's document registry shares
 * them), and the semantic check covers the files
 * inside the app — the app's program and wepql's declaration files. The
 * default library's and the linked grid's files lie outside the app; their
 * errors were printed by `tsc` as `../…` lines, which this test has always
 * ignored, so checking them only cost time.
 */
import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFreshDist } from '../support/dist.js';
import { sharedPackedApp } from '../support/shared-servers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GRIDS = ['ag-grid-community', '@tanstack/table-core', '@mui/x-data-grid'] as const;
let dir = '';
let base = '';

beforeAll(async () => {
  assertFreshDist();
  dir = mkdtempSync(join(tmpdir(), 'wepql-grid-types-'));
  base = await sharedPackedApp();
}, 600_000);

afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
}, 600_000);

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: false,
    types: [],
    lib: ['ES2022', 'DOM'],
  },
  files: ['index.ts'],
};

/** TypeScript's own library files (lib.es2022.d.ts, lib.dom.d.ts, …), parsed and bound once for every program here. */
const LIB_DIR = dirname(ts.getDefaultLibFilePath({}));
/** Those, and the files of node_modules folders (the same in every program; the app's own index.ts is not). */
const sharedFiles = new Map<string, ts.SourceFile>();

/**
 * The program `tsconfig.json` of `app` describes, on a compiler host that
 * hands every program the same library source files.
 */
function createProgram(app: string): ts.Program {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(app, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const host = ts.createCompilerHost(config.options);
  // As `tsc` parses (its host's default since TypeScript 5.3): in .ts and .d.ts files only the JSDoc that
  // can change a type error (`@see`, `@link`), not every TSDoc comment of the libraries and packages.
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
  const fromDisk = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (!fileName.startsWith(`${LIB_DIR}/`) && !fileName.includes('/node_modules/'))
      return fromDisk(fileName, languageVersion, onError, shouldCreate);
    let file = sharedFiles.get(fileName);
    if (file === undefined) {
      file = fromDisk(fileName, languageVersion, onError, shouldCreate);
      if (file !== undefined) sharedFiles.set(fileName, file);
    }
    return file;
  };
  return ts.createProgram({
    rootNames: config.fileNames,
    options: config.options,
    host,
    configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(config),
  });
}

/**
 * What `tsc -p tsconfig.json` prints for the program of `app` (its plain,
 * not pretty, form: `file(line,col): error TS…: message`, file names relative
 * to the app), with the semantic check limited to the files inside the app.
 */
function tscOutput(app: string): string {
  const program = createProgram(app);
  const inApp = (file: ts.SourceFile): boolean => !relative(app, file.fileName).startsWith('..');
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(),
    ...program.getOptionsDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program
      .getSourceFiles()
      .filter(inApp)
      .flatMap((file) => program.getSemanticDiagnostics(file)),
  ];
  return ts.formatDiagnostics(ts.sortAndDeduplicateDiagnostics(diagnostics), {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => app,
    getNewLine: () => '\n',
  });
}

let copied = false;

/**
 * `from` copied to `to` as hard links to its files (symbolic links copied
 * as they are): real files in the copy, as a copy's, so the compiler resolves
 * from the copy's node_modules. Nothing here writes to a linked file (the
 * app's tsconfig.json and index.ts are new files).
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else {
      try {
        linkSync(source, target);
      } catch {
        copyFileSync(source, target); // another file system
      }
    }
  }
}

/**
 * The copy of the installed app with `grid` (if any) linked into its
 * node_modules and no other grid (the one a test before linked is unlinked),
 * and the compiler's errors over `program` in the app's files and wepql's.
 * The grid's own declaration files are its business: MUI's
 * import `@emotion/react`, which is not installed here, and do not check
 * with `skipLibCheck: false` in any app without it.
 */
function typecheck(grid: (typeof GRIDS)[number] | undefined, program: string): { app: string; errors: string[] } {
  const app = join(dir, 'app');
  if (!copied) linkTree(base, app);
  copied = true;
  // Only links are removed: the installed app has no grid of its own (resolvableGrids proves it for 'none').
  for (const other of GRIDS) {
    const link = join(app, 'node_modules', other);
    if (lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() === true) rmSync(link);
  }
  if (grid !== undefined) {
    mkdirSync(dirname(join(app, 'node_modules', grid)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', grid), join(app, 'node_modules', grid), 'dir');
  }
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  writeFileSync(join(app, 'index.ts'), program);
  // The compiler names files relative to the app; the linked grid's files lie outside it (../…).
  const lines = tscOutput(app).split('\n');
  const errors = lines.filter((line) => /^[^\s.][^(]*\(\d+,\d+\): error /.test(line));
  // Every other line is an error's continuation (indented) or an error in the grid's own files.
  expect(lines.filter((line) => line !== '' && !/^\s/.test(line) && !line.startsWith('../') && !errors.includes(line))).toEqual([]);
  return { app, errors };
}

// The grids' packages Node and TypeScript would find from the app: node_modules folders up to the root.
function resolvableGrids(app: string): string[] {
  const folders: string[] = [];
  for (let d = app; ; d = dirname(d)) {
    folders.push(join(d, 'node_modules'));
    if (dirname(d) === d) break;
  }
  return GRIDS.filter((g) => folders.some((f) => existsSync(join(f, g, 'package.json'))));
}

describe('grid-typechecks-with-one-grid: each grid type-checks with only its own package installed', () => {
  it('no grid at all: wepql/grid', () => {
    const { app, errors } = typecheck(
      undefined,
      `import { toTanStackSorting, fromAgGridFilterModel } from 'wepql/grid';
import { employeeSchema } from 'wepql';
export const sorting = toTanStackSorting('LastName=Asc', { schema: employeeSchema }).model;
export const filter: string | undefined = fromAgGridFilterModel({}, { schema: employeeSchema }).filter;
`,
    );
    expect(resolvableGrids(app)).toEqual([]);
    expect(errors).toEqual([]);
  }, 900_000);

  it('AG Grid alone: wepql/grid with ag-grid-community', () => {
    const { app, errors } = typecheck(
      'ag-grid-community',
      `import type { FilterModel, SortModelItem, TextFilterModel } from 'ag-grid-community';
import { fromAgGridFilterModel, toAgGridFilterModel, toAgGridSortModel } from 'wepql/grid';
import { employeeSchema } from 'wepql';
const schema = employeeSchema;
const condition: TextFilterModel = { filterType: 'text', type: 'startsWith', filter: 'sm' };
const fromGrid: FilterModel = { LastName: condition };
export const filter: string | undefined = fromAgGridFilterModel(fromGrid, { schema }).filter;
export const model: FilterModel | undefined = toAgGridFilterModel('LastName.Contains(a)', { schema }).model;
export const sort: SortModelItem[] | undefined = toAgGridSortModel('LastName=Desc', { schema }).model;
`,
    );
    expect(resolvableGrids(app)).toEqual(['ag-grid-community']);
    expect(errors).toEqual([]);
  }, 900_000);

  it('TanStack Table alone: wepql/grid with @tanstack/table-core', () => {
    const { app, errors } = typecheck(
      '@tanstack/table-core',
      `import type { ColumnFiltersState, SortingState } from '@tanstack/table-core';
import { fromTanStackColumnFilters, toTanStackColumnFilters, toTanStackSorting } from 'wepql/grid';
import { employeeSchema } from 'wepql';
const schema = employeeSchema;
const state: ColumnFiltersState = [{ id: 'EmployeeNumber', value: [100, 200] }];
export const filter: string | undefined = fromTanStackColumnFilters(state, { schema }).filter;
export const columnFilters: ColumnFiltersState | undefined = toTanStackColumnFilters('LastName.Contains(a)', { schema }).model?.columnFilters;
export const sorting: SortingState | undefined = toTanStackSorting('LastName=Desc', { schema }).model;
`,
    );
    expect(resolvableGrids(app)).toEqual(['@tanstack/table-core']);
    expect(errors).toEqual([]);
  }, 900_000);

  it('MUI X Data Grid alone: wepql/grid/mui (and wepql/grid) with @mui/x-data-grid', () => {
    const { app, errors } = typecheck(
      '@mui/x-data-grid',
      `import { GridLogicOperator } from '@mui/x-data-grid';
import type { GridFilterModel, GridSortModel } from '@mui/x-data-grid';
import type { GridOptions } from 'wepql/grid';
import { fromMuiFilterModel, toMuiFilterModel, toMuiSortModel } from 'wepql/grid/mui';
import { employeeSchema } from 'wepql';
const options: GridOptions = { schema: employeeSchema };
const fromGrid: GridFilterModel = { items: [{ field: 'LastName', operator: 'startsWith', value: 'sm' }], logicOperator: GridLogicOperator.Or };
export const filter: string | undefined = fromMuiFilterModel(fromGrid, options).filter;
export const model: GridFilterModel | undefined = toMuiFilterModel('LastName.Contains(a)', options).model;
export const sort: GridSortModel | undefined = toMuiSortModel('LastName=Desc', options).model;
`,
    );
    expect(resolvableGrids(app)).toEqual(['@mui/x-data-grid']);
    expect(errors).toEqual([]);
  }, 900_000);
});
