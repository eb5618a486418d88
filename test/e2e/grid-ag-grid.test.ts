/**
 * wepql/grid for AG Grid against AG Grid itself: random filter models
 * (text, number and date filters, combined conditions) are applied by a real
 * ag-grid-community client-side row model in Chromium and converted by
 * wepql; both must keep the same rows. The run's one browser, a page lent
 * to this file (test/support/browser-shared.ts). Skipped, with a
 * warning, where /usr/bin/chromium is not installed.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FilterModel } from 'ag-grid-community';
import { compileFilter, defineSchema } from '../../src/index.js';
import { fromAgGridFilterModel, fromAgGridSortModel, toAgGridFilterModel, toAgGridSortModel } from '../../src/grid/index.js';
import { CHROMIUM, hasChromium, sharedPage } from '../support/browser-shared.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
if (!hasChromium) console.warn(`\n⚠ AG Grid differential test SKIPPED: ${CHROMIUM} is not installed\n`);

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number' },
    BornOn: { type: 'datetime', nullable: true },
  },
});

const NAMES = ['Smith', 'smith', 'SMYTHE', 'Jones', "o'brien", 'ab', 'b', 'Zoë', ''];
const INSTANTS = [
  '2024-01-01T00:00:00.000Z',
  '2024-01-01T23:59:59.999Z',
  '2024-01-02T00:00:00.000Z',
  '2023-12-31T12:00:00.000Z',
  '2024-02-29T08:30:00.000Z',
];
const rowArb = fc.record(
  {
    Name: fc.option(fc.constantFrom(...NAMES), { nil: undefined }),
    Age: fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
    Score: fc.integer({ min: -3, max: 3 }),
    BornOn: fc.option(fc.constantFrom(...INSTANTS), { nil: undefined }),
  },
  { requiredKeys: ['Score'], noNullPrototype: true },
);

const textCond = fc.record(
  {
    filterType: fc.constant('text'),
    type: fc.constantFrom('equals', 'notEqual', 'contains', 'notContains', 'startsWith', 'endsWith'),
    filter: fc.constantFrom('sm', 'S', 'ith', "o'", 'ZO', 'b', 'smith'),
  },
  { noNullPrototype: true },
);
const numberCond = fc.oneof(
  fc.record(
    {
      filterType: fc.constant('number'),
      type: fc.constantFrom('equals', 'notEqual', 'lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual'),
      filter: fc.integer({ min: -3, max: 3 }),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      filterType: fc.constant('number'),
      type: fc.constant('inRange'),
      filter: fc.integer({ min: -3, max: 0 }),
      filterTo: fc.integer({ min: 0, max: 3 }),
    },
    { noNullPrototype: true },
  ),
  fc.record({ filterType: fc.constant('number'), type: fc.constantFrom('blank', 'notBlank') }, { noNullPrototype: true }),
);
const DAYS = ['2023-12-31', '2024-01-01', '2024-01-02', '2024-02-29'];
const dateCond = fc.oneof(
  fc.record(
    {
      filterType: fc.constant('date'),
      type: fc.constantFrom('equals', 'notEqual', 'lessThan', 'greaterThan'),
      dateFrom: fc.constantFrom(...DAYS).map((d) => `${d} 00:00:00`),
      dateTo: fc.constant(null),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    {
      filterType: fc.constant('date'),
      type: fc.constant('inRange'),
      dateFrom: fc.constantFrom('2023-12-31 00:00:00'),
      dateTo: fc.constantFrom('2024-01-02 00:00:00', '2024-03-01 00:00:00'),
    },
    { noNullPrototype: true },
  ),
  fc.record(
    { filterType: fc.constant('date'), type: fc.constantFrom('blank', 'notBlank'), dateFrom: fc.constant(null), dateTo: fc.constant(null) },
    { noNullPrototype: true },
  ),
);
const combined = <T>(cond: fc.Arbitrary<T>, filterType: string): fc.Arbitrary<unknown> =>
  fc.oneof(
    cond,
    fc.record(
      {
        filterType: fc.constant(filterType),
        operator: fc.constantFrom('AND', 'OR'),
        conditions: fc.array(cond, { minLength: 2, maxLength: 2 }),
      },
      { noNullPrototype: true },
    ),
  );

const modelArb: fc.Arbitrary<FilterModel> = fc.record(
  {
    Name: combined(textCond, 'text'),
    Age: combined(numberCond, 'number'),
    Score: combined(numberCond, 'number'),
    BornOn: combined(dateCond, 'date'),
  },
  { requiredKeys: [], noNullPrototype: true },
);

describe.skipIf(!hasChromium)('wepql/grid: AG Grid filter models against AG Grid in Chromium', () => {
  let releasePage = (): Promise<void> => Promise.resolve();
  let page: Page;

  beforeAll(async () => {
    const esbuild = await import('esbuild');
    const bundle = await esbuild.build({
      entryPoints: [join(ROOT, 'test', 'support', 'ag-grid-page.ts')],
      bundle: true,
      format: 'iife',
      write: false,
      logLevel: 'error',
      // Minified, the page's script is 1.1 MB where it was 2.3: Chromium parses and compiles it in ~1 CPU-second
      // where it took ~3.4 (addScriptTag, measured alone). The grid and its filters run the same code.
      minify: true,
    });
    // Playwright's default viewport, which this page always had.
    ({ page, release: releasePage } = await sharedPage({ width: 1280, height: 720 }));
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  afterAll(async () => {
    await releasePage();
  });

  it('wepql keeps the rows the grid keeps', async () => {
    const cases = fc.sample(fc.record({ model: modelArb, rows: fc.array(rowArb, { minLength: 1, maxLength: 10 }) }), {
      numRuns: 400,
      seed: 23,
    });
    const kept = await page.evaluate((c) => (globalThis as unknown as { agGridFilter(c: unknown): number[][] }).agGridFilter(c), cases);
    let checked = 0;
    // The grid really filters: in many cases it keeps some rows and drops others.
    expect(cases.filter((c, i) => kept[i]!.length > 0 && kept[i]!.length < c.rows.length).length).toBeGreaterThan(40);
    cases.forEach(({ model, rows }, i) => {
      const { filter, diagnostics } = fromAgGridFilterModel(model, { schema });
      expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      const predicate = compileFilter(filter!, { schema });
      const ours = rows.flatMap((r, j) => (predicate(r) ? [j] : []));
      expect({ model, filter, rows: ours }).toEqual({ model, filter, rows: kept[i] });
      checked++;
    });
    expect(checked).toBe(400);
  });

  it('a filter AG Grid can hold comes back as the same model', () => {
    const filter = 'Name.StartsWith(sm);Or(Age.Equal(1);Age.GreaterThan(2));BornOn.GreaterThanOrEqual(2024-01-01);Score.IsNull()';
    const { model, diagnostics } = toAgGridFilterModel(filter, { schema });
    expect(diagnostics).toEqual([]);
    expect(model).toEqual({
      Name: { filterType: 'text', type: 'startsWith', filter: 'sm' },
      Age: {
        filterType: 'number',
        operator: 'OR',
        conditions: [
          { filterType: 'number', type: 'equals', filter: 1 },
          { filterType: 'number', type: 'greaterThan', filter: 2 },
        ],
      },
      BornOn: { filterType: 'date', type: 'greaterThanOrEqual', dateFrom: '2024-01-01 00:00:00', dateTo: null },
      Score: { filterType: 'number', type: 'blank' },
    });
    expect(fromAgGridFilterModel(model!, { schema }).filter).toBe(
      'Name.StartsWith(sm);Or(Age.Equal(1);Age.GreaterThan(2));BornOn.GreaterThanOrEqual(2024-01-01);Score.IsNull()',
    );
    const refused = toAgGridFilterModel('Name.NotEqual(a);Or(Name.Equal(a);Age.Equal(1));BornOn.Equal(2024-01-01T10:00)', { schema });
    expect(refused.model).toBeUndefined();
    expect(refused.diagnostics.map((d) => [d.code, d.path])).toEqual([
      ['not-expressible', [0]],
      ['not-expressible', [1]],
      ['not-expressible', [2]],
    ]);
    expect(
      fromAgGridSortModel(
        [
          { colId: 'Name', sort: 'asc' },
          { colId: 'BornOn', sort: 'desc' },
        ],
        { schema },
      ).sort,
    ).toBe('Name=Asc;BornOn=Desc');
    expect(toAgGridSortModel('Name=Asc;BornOn=Desc', { schema }).model).toEqual([
      { colId: 'Name', sort: 'asc' },
      { colId: 'BornOn', sort: 'desc' },
    ]);
  });
});
