/**
 * Pretty text never passes the length limit the parser enforces: line
 * breaks and indentation only add characters, so a layout longer than
 * `limits.maxLength` gives way to the canonical one-line form
 * (docs/language.md, "Pretty form"). Before, a 7,987-character filter
 * pretty-printed to 8,627 characters and did not parse back (`text-too-long`).
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, formatFilter, parseFilter, printFilter } from '../../../src/index.js';
import { filterAstArb, stripSpans } from '../../support/arbitraries.js';

const UNBOUNDED = { limits: { maxLength: Infinity } } as const;

/** `Or(` n conditions `)`, `LastName.Equal(v)` each, values of the given lengths. */
function orOfEquals(valueLengths: readonly number[]): string {
  return `Or(${valueLengths.map((n, i) => `LastName.Equal(${String.fromCharCode(97 + (i % 26)).repeat(n)})`).join(';')})`;
}

describe('pretty text within the length limit', () => {
  it('a 7,987-character filter that pretty-printed to 8,627 characters now prints canonically and parses back', () => {
    // 213 conditions: the pretty layout adds 3 characters a condition and one more (3 × 213 + 1 = 640).
    const text = orOfEquals([...Array<number>(103).fill(21), ...Array<number>(110).fill(20)]);
    expect(text.length).toBe(7987);
    expect(parseFilter(text).diagnostics).toEqual([]);
    const { ast } = parseFilter(text);
    expect(printFilter(ast, { pretty: true, ...UNBOUNDED })).toHaveLength(8627);

    const printed = printFilter(ast, { pretty: true });
    expect(printed).toBe(text);
    expect(parseFilter(printed).diagnostics).toEqual([]);
    expect(formatFilter(text, { pretty: true })).toBe(text);
  });

  it('an indent of 8 (8,394 characters from a shorter filter) falls back the same way', () => {
    const text = orOfEquals([...Array<number>(90).fill(58), ...Array<number>(10).fill(57)]);
    expect(text.length).toBe(7493);
    const { ast } = parseFilter(text);
    expect(printFilter(ast, { pretty: true, indent: 8, ...UNBOUNDED })).toHaveLength(8394);
    const printed = printFilter(ast, { pretty: true, indent: 8 });
    expect(printed).toBe(text);
    expect(parseFilter(printed).diagnostics).toEqual([]);
  });

  it('keeps the pretty layout whenever it fits, up to the last character', () => {
    const text = orOfEquals([...Array<number>(103).fill(21), ...Array<number>(110).fill(20)]);
    const { ast } = parseFilter(text);
    const limits = { maxLength: 8627 };
    const pretty = printFilter(ast, { pretty: true, limits });
    expect(pretty.split('\n')).toHaveLength(215);
    expect(parseFilter(pretty, { limits }).diagnostics).toEqual([]);
    expect(printFilter(ast, { pretty: true, limits: { maxLength: 8626 } })).toBe(text);
  });

  it('for random filters near the limit, parseFilter(printFilter(x, pretty)) has no diagnostics and gives x back', () => {
    const padded = fc
      .record({
        ast: filterAstArb({ maxDepth: 3, maxClauses: 4 }),
        // A limit anywhere from small to the default, the canonical text just under it.
        maxLength: fc.integer({ min: 200, max: DEFAULT_LIMITS.maxLength }),
        slack: fc.integer({ min: 0, max: 120 }),
        pieces: fc.integer({ min: 1, max: 200 }),
        wrap: fc.constantFrom('', 'Or', 'And'),
        width: fc.integer({ min: 1, max: 120 }),
        indent: fc.integer({ min: 0, max: 16 }),
      })
      .map(({ ast, maxLength, slack, pieces, wrap, width, indent }) => {
        // Pad the canonical text with short conditions (each a line of the pretty layout) up to maxLength − slack.
        const core = printFilter(ast, UNBOUNDED);
        const open = wrap === '' ? '' : `${wrap}(`;
        const close = wrap === '' ? '' : ')';
        let text = `${open}${core === '' ? 'Pad.Equal(x)' : core}`;
        const target = maxLength - slack - close.length;
        const step = Math.max(1, Math.floor((target - text.length) / pieces) - 12);
        while (text.length + 12 + 1 <= target) text += `;Pad.Equal(${'x'.repeat(Math.max(1, Math.min(step, target - text.length - 12)))})`;
        return { text: text + close, limits: { maxLength }, width, indent };
      })
      .filter(({ text, limits }) => text.length <= limits.maxLength);
    fc.assert(
      fc.property(padded, ({ text, limits, width, indent }) => {
        const parsed = parseFilter(text, { limits });
        if (parsed.diagnostics.length > 0) return; // the generated core alone was past the limit
        const printed = printFilter(parsed.ast, { pretty: true, width, indent, limits });
        const back = parseFilter(printed, { limits });
        if (back.diagnostics.length > 0) {
          throw new Error(`${printed.length} characters (limit ${limits.maxLength}): ${back.diagnostics.map((d) => d.code).join(', ')}`);
        }
        // isDeepStrictEqual, not expect: vitest's diff of two big trees is slow enough to stall shrinking.
        if (!isDeepStrictEqual(stripSpans(back.ast), stripSpans(parsed.ast)))
          throw new Error(`${JSON.stringify(printed)} parsed to another tree`);
      }),
      // Each case is a text of up to 8,192 characters parsed twice: fewer runs than the small-tree round trips.
      { numRuns: 60 },
    );
  });
});
