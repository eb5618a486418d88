/**
 * The playground's visual builder in a real browser, opened from file:// as
 * a reader of the built docs would: a react-querybuilder editor and the
 * CodeMirror filter box edit one filter. Adding a group and a rule in the
 * builder writes the text; typing text rebuilds the builder; a bad value in
 * the builder shows the box's own diagnostic. Built with the docs script's
 * own function (once per run, shared with the playground's test); driven
 * with Debian's Chromium (the run's one browser, a page lent to this file:
 * test/support/browser-shared.ts) through playwright-core, and skipped
 * with a warning where /usr/bin/chromium is not installed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { CHROMIUM, hasChromium, sharedPage, sharedPlayground } from '../support/browser-shared.js';

if (!hasChromium)
  console.warn(`\n⚠ visual builder e2e test SKIPPED: ${CHROMIUM} is not installed (apt-get install chromium, or run .ci/run)\n`);

describe.skipIf(!hasChromium)('visual builder in Chromium (file://)', () => {
  let dir: string;
  let release = (): void => undefined;
  let releasePage = (): Promise<void> => Promise.resolve();
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    ({ dir, release } = await sharedPlayground());
    ({ page, release: releasePage } = await sharedPage({ width: 1200, height: 1000 }));
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(pathToFileURL(join(dir, 'index.html')).href);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
  });

  afterAll(async () => {
    await releasePage();
    release();
  });

  const filterText = (): Promise<string> => page.$eval('#filter .cm-content', (e) => (e as HTMLElement).innerText.replace(/\u00a0/g, ' '));
  const waitForText = async (expected: string): Promise<string> => {
    await page
      .waitForFunction(
        (want) => (document.querySelector('#filter .cm-content') as HTMLElement).innerText.replace(/\u00a0/g, ' ') === want,
        expected,
        { timeout: 5_000 },
      )
      .catch(() => undefined);
    return filterText();
  };
  /** What the builder shows: each group's combinator and each rule's field, operator and value, by path. */
  const builderState = (): Promise<string[]> =>
    page.$$eval('#builder [data-path]', (nodes) =>
      nodes.map((n) => {
        const path = n.getAttribute('data-path');
        if (n.classList.contains('ruleGroup'))
          return `${path} group ${(n.querySelector(':scope > .ruleGroup-header .ruleGroup-combinators') as HTMLSelectElement).value}`;
        const field = (n.querySelector(':scope > .rule-fields') as HTMLSelectElement).value;
        const operator = (n.querySelector(':scope > .rule-operators') as HTMLSelectElement).value;
        const value = n.querySelector(':scope > .rule-value') as HTMLInputElement | null;
        return `${path} ${field} ${operator}${value === null ? '' : ` ${value.type === 'checkbox' ? String(value.checked) : value.value}`}`;
      }),
    );

  it('shows the filter of the box, and writes a group and a rule added in the builder into the box', async () => {
    await page.evaluate(() =>
      (window as unknown as { playground: { load(f: string, s: string): void } }).playground.load(
        'LastName.StartsWith(Sm)',
        'LastName=Asc',
      ),
    );
    await page.click('#tab-builder');
    expect(await page.isVisible('#builder-panel')).toBe(true);
    await page.waitForFunction(() => document.querySelectorAll('#builder .rule').length === 1);
    expect(await builderState()).toEqual(['[] group and', '[0] LastName beginsWith Sm']);

    // Add a group to the root, then a rule to that group.
    await page.click('#builder [data-path="[]"] > .ruleGroup-header .ruleGroup-addGroup');
    await page.waitForSelector('#builder [data-path="[1]"].ruleGroup');
    await page.click('#builder [data-path="[1]"] > .ruleGroup-header .ruleGroup-addRule');
    await page.waitForSelector('#builder [data-path="[1,0]"].rule');
    // The new rule: field Gender, operator InArrayOrNull, values 1,2.
    await page.selectOption('#builder [data-path="[1,0]"] > .rule-fields', 'Gender');
    await page.selectOption('#builder [data-path="[1,0]"] > .rule-operators', 'inOrNull');
    await page.fill('#builder [data-path="[1,0]"] > .rule-value', '1,2');
    expect(await waitForText('LastName.StartsWith(Sm);And(Gender.InArrayOrNull(1,2))')).toBe(
      'LastName.StartsWith(Sm);And(Gender.InArrayOrNull(1,2))',
    );
    // The rest of the page follows the box: canonical form and matching employees.
    expect(await page.textContent('#canonical-filter')).toBe('LastName.StartsWith(Sm);And(Gender.InArrayOrNull(1,2))');
    expect(await page.textContent('#count')).toMatch(/employees match/);

    // An Or group in the builder.
    await page.selectOption('#builder [data-path="[1]"] > .ruleGroup-header .ruleGroup-combinators', 'or');
    await page.click('#builder [data-path="[1]"] > .ruleGroup-header .ruleGroup-addRule');
    await page.waitForSelector('#builder [data-path="[1,1]"].rule');
    await page.selectOption('#builder [data-path="[1,1]"] > .rule-fields', 'EePortal');
    await page.check('#builder [data-path="[1,1]"] > .rule-value');
    expect(await waitForText('LastName.StartsWith(Sm);Or(Gender.InArrayOrNull(1,2);EePortal.Equal(true))')).toBe(
      'LastName.StartsWith(Sm);Or(Gender.InArrayOrNull(1,2);EePortal.Equal(true))',
    );
  });

  it('playground-add-rule-keeps-results: "+ Rule" adds a rule that keeps every employee, not Id.Equal(\'\')', async () => {
    await page.evaluate(() =>
      (window as unknown as { playground: { load(f: string, s: string): void } }).playground.load(
        'LastName.StartsWith(Sm)',
        'LastName=Asc',
      ),
    );
    await page.click('#tab-builder');
    await page.waitForFunction(() => document.querySelectorAll('#builder .rule').length === 1);
    const before = await page.textContent('#count');
    await page.click('#builder [data-path="[]"] > .ruleGroup-header .ruleGroup-addRule');
    await page.waitForSelector('#builder [data-path="[1]"].rule');
    expect(await waitForText('LastName.StartsWith(Sm);Id.IsNotNull()')).toBe('LastName.StartsWith(Sm);Id.IsNotNull()');
    await page.waitForFunction(() => document.querySelector('#canonical-filter')?.textContent === 'LastName.StartsWith(Sm);Id.IsNotNull()');
    expect(await page.textContent('#count')).toBe(before);
    expect(before).toMatch(/^[1-9]\d* of \d+ employees match/);
  });

  it('rebuilds the builder from text typed in the box', async () => {
    await page.click('#filter .cm-content');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type("Or(FirstName.Contains(an);'D'.StartsWithInFields(FirstName,LastName));ClientId.NotInArray(1,2)");
    await page.waitForFunction(() => document.querySelectorAll('#builder .rule').length === 4);
    expect(await builderState()).toEqual([
      '[] group and',
      '[0] group or',
      '[0,0] FirstName contains an',
      '[0,1] group or',
      '[0,1,0] FirstName beginsWith D',
      '[0,1,1] LastName beginsWith D',
      '[1] ClientId notIn 1,2',
    ]);
  });

  it('a value the field cannot hold shows the same diagnostic in the box and marks the rule', async () => {
    await page.fill('#builder [data-path="[1]"] > .rule-value', '1, x');
    expect(await waitForText('Or(FirstName.Contains(an);D.StartsWithInFields(FirstName,LastName));ClientId.NotInArray(1,x)')).toBe(
      'Or(FirstName.Contains(an);D.StartsWithInFields(FirstName,LastName));ClientId.NotInArray(1,x)',
    );
    await page.waitForSelector('#builder [data-path="[1]"].queryBuilder-invalid', { timeout: 5_000 });
    expect(await page.textContent('#diagnostics')).toMatch(/error invalid-value/);
    // Text with an error leaves the builder as it was.
    expect((await builderState()).at(-1)).toBe('[1] ClientId notIn 1, x');
    expect(pageErrors).toEqual([]);
  });
});
