/**
 * With selectors (`--filter-path`, `filterPath`), a JSON file is read with
 * the JSON reader; it used to be read as YAML. The entries must be the ones
 * the YAML reader finds in the same text — texts, lines, columns, ranges,
 * names, `wepql-disable` lists, order, and the errors for a value that is
 * not a string — on random JSON documents written in random layouts, keys
 * written twice and deep nesting included. Invalid and too-deep JSON is
 * still read (and refused) by the YAML reader, worded as before.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSelector } from '../../src/workspace/selector.js';
import { loadYaml, readSavedFilters, type SavedSelectors } from '../../src/workspace/saved-filters.js';

beforeAll(async () => {
  await loadYaml();
});

const KEYS = ['filter', 'sort', 'name', 'views', 'items', 'wepql-disable', 'x', '__proto__'];
const SELECTORS = ['$.views[*].filter', '$..filter', '$.items[0].sort', '$.*.filter', '$..sort', '$.views[1]', "$['x'].filter"];

const text = fc.oneof(
  fc.constantFrom(
    'Gender.Equal(1)',
    'LastName=Asc',
    'duplicate-condition',
    'contradiction, nope',
    '',
    'a "quoted" \\ text',
    'Łukasz\u2028',
  ),
  fc.string({ maxLength: 8 }),
);
const scalar = fc.oneof(text, text, fc.integer(), fc.boolean(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }));

/** A JSON text written by hand: any layout, and a key may be written twice. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((v) => JSON.stringify(v)),
    fc.array(tie('value'), { maxLength: 4 }).chain((items) => fc.constantFrom(', ', ',\n  ', ',').map((sep) => `[${items.join(sep)}]`)),
    fc
      .array(fc.tuple(fc.constantFrom(...KEYS), tie('value')), { maxLength: 5 })
      .chain((members) =>
        fc.constantFrom(', ', ',\n', ',\n    ').map((sep) => `{${members.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(sep)}}`),
      ),
  ),
})).value;

function read(path: string, content: string, selectors: SavedSelectors): { entries: unknown } | { error: string } {
  try {
    return { entries: readSavedFilters(path, content, selectors).entries };
  } catch (e) {
    return { error: (e as Error).message.replace(/^[^:]+:/, 'FILE:') };
  }
}

describe('JSON files with selectors: read as JSON, found as the YAML reader finds them', () => {
  it('gives the YAML reading of the same text, entry for entry, on random documents and selectors', () => {
    fc.assert(
      fc.property(jsonText, fc.subarray(SELECTORS, { minLength: 1 }), fc.subarray(SELECTORS), (content, filterPaths, sortPaths) => {
        const selectors: SavedSelectors = {
          filter: filterPaths.map((p) => parseSelector(p)),
          ...(sortPaths.length === 0 ? {} : { sort: sortPaths.map((p) => parseSelector(p)) }),
        };
        const asYaml = read('views.yaml', content, selectors);
        const asJson = read('views.json', content, selectors);
        expect(asJson).toEqual(asYaml);
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps the cases the random documents found hard', () => {
    const selectors: SavedSelectors = { filter: [parseSelector('$..filter')] };
    const cases = [
      // A key written twice: both are found, the first sibling name counts.
      '{"name": "a", "name": "b", "filter": "A.Equal(1)", "filter": "B.Equal(2)"}',
      // Disable lists: a string, an array, with an unknown code and a code in a longer string.
      '[{"filter": "A.Equal(1)", "wepql-disable": ["duplicate-condition", "nope"]},\n {"filter": "B", "wepql-disable": "contradiction, duplicate-condition"}]',
      // A value that is not a string is an error naming its line; null is no entry.
      '{"views": [{"filter": null}, {"filter": 12}]}',
      // Escapes and characters past the BMP keep their columns and ranges.
      '{"views": [{"name": "\\u00e9", "filter": "LastName.Equal(\\"x\\\\y\\")"}, {"filter": "A.Equal(\\ud83d\\ude00)"}]}',
    ];
    for (const content of cases) expect(read('v.json', content, selectors), content).toEqual(read('v.yaml', content, selectors));
  });

  it('leaves invalid and too-deep JSON to the YAML reader, worded as before', () => {
    const selectors: SavedSelectors = { filter: [parseSelector('$..filter')] };
    // Read alike where YAML's implicit keys have limits: a key and its colon on two lines, a key past 1,024 characters.
    for (const content of ['{"filter"\n: "A.Equal(1)"}', `{"${'k'.repeat(1100)}": {"filter": "A"}}`])
      expect(read('v.json', content, selectors)).toEqual(read('v.yaml', content, selectors));
    // A trailing comma: not JSON, so read as YAML, which takes it, as it always did.
    expect(read('v.json', '{"filter": "A.Equal(1)",}', selectors)).toEqual(read('v.yaml', '{"filter": "A.Equal(1)",}', selectors));
    expect(read('v.json', '{"filter": "A.Equal(1)"', selectors)).toEqual({
      error: expect.stringMatching(/^FILE: line 1, column \d+: not valid JSON \(/) as string,
    });
    const deep = `${'['.repeat(100)}{"filter": "A.Equal(1)"}${']'.repeat(100)}`;
    expect(read('v.json', deep, selectors)).toEqual(read('v.yaml', deep, selectors));
  });
});
