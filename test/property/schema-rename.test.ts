/**
 * Applying the rename fixes keeps a saved filter's meaning: for filters and
 * sorts written against the old schema, the fixed text under the new schema
 * selects and orders records migrated by the same renames exactly as the
 * original text did on the original records under the old schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { query, lintText, renameFields } from '../../src/index.js';
import {
  recordsArb,
  renamedTestSchema,
  testSchema,
  typedFilterArb,
  typedFilterText,
  typedSortArb,
  typedSortText,
} from '../support/typed-arbitraries.js';

/** Top-level fields that may be renamed, and the new names they get. */
const CANDIDATES: Readonly<Record<string, string>> = {
  Name: 'FullName',
  Nick: 'Nickname',
  Age: 'Years',
  Score: 'Points',
  Active: 'Enabled',
  BornOn: 'BirthOn',
  Address: 'Location',
  constructor: 'Builder',
};

/** A record as the new schema stores it: renamed keys moved, own properties only. */
function migrate(record: Record<string, unknown>, renames: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    const to = Object.hasOwn(renames, key) ? renames[key]! : key;
    Object.defineProperty(out, to, { value: record[key], enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const renamesArb = fc
  .subarray(Object.keys(CANDIDATES), { minLength: 1 })
  .map((names) => Object.fromEntries(names.map((n) => [n, CANDIDATES[n]!])) as Record<string, string>);

describe('rename fixes keep results', () => {
  it('filter and sort: old text on old records = fixed text on migrated records', () => {
    fc.assert(
      fc.property(renamesArb, typedFilterArb(), typedSortArb(), recordsArb({ maxLength: 20 }), (renames, filter, sort, records) => {
        const next = renamedTestSchema(renames);
        const filterText = typedFilterText(filter);
        const sortText = typedSortText(sort);
        const options = { schema: next, previousSchema: testSchema };
        const fixedFilter = renameFields(filterText, 'filter', options);
        const fixedSort = renameFields(sortText, 'sort', options);
        // Nothing is left to rename, and the fixed texts are valid under the new schema alone.
        for (const [text, kind] of [
          [fixedFilter, 'filter'],
          [fixedSort, 'sort'],
        ] as const) {
          expect(lintText(text, kind, options).map((d) => d.code)).not.toContain('field-renamed');
          expect(lintText(text, kind, { schema: next }).filter((d) => d.severity === 'error')).toEqual([]);
        }
        const before = query(records, { schema: testSchema, filter: filterText, sort: sortText });
        const migrated = records.map((r) => migrate(r, renames));
        const after = query(migrated, { schema: next, filter: fixedFilter, sort: fixedSort });
        expect(after.map((r) => migrated.indexOf(r))).toEqual(before.map((r) => records.indexOf(r)));
      }),
      { numRuns: 300 },
    );
  });

  // Edge cases the generator reaches only rarely: a renamed object, InFields, a prototype name.
  it.each([
    ['Address.City.Equal(x)', { Address: 'Location' }, 'Location.City.Equal(x)'],
    ["'a'.ContainsInFields(Name,Nick)", { Name: 'FullName' }, "'a'.ContainsInFields(FullName,Nick)"],
    ['constructor.IsNull()', { constructor: 'Builder' }, 'Builder.IsNull()'],
  ])('%s with %j becomes %s', (text, renames, expected) => {
    expect(renameFields(text, 'filter', { schema: renamedTestSchema(renames), previousSchema: testSchema })).toBe(expected);
  });
});
