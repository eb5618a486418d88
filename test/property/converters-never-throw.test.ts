/**
 * converters-throw-on-bigint: the grid and query-builder converters are
 * documented never to throw on a model; a BigInt anywhere in one (an
 * operator name, a column id, a value) threw from `JSON.stringify` in a
 * message. Each converter, over models of its own shape whose every slot may
 * hold arbitrary JSON-ish values and bigints, returns a result: an error
 * diagnostic whenever there is no filter.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineSchema } from '../../src/index.js';
import { fromAgGridFilterModel, fromAgGridSortModel, fromTanStackColumnFilters, fromTanStackSorting } from '../../src/grid/index.js';
import { fromMuiFilterModel, fromMuiSortModel } from '../../src/grid/mui.js';
import { fromRuleGroup } from '../../src/react-querybuilder/index.js';

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number' },
    Active: { type: 'boolean', nullable: true },
    BirthOn: { type: 'datetime', nullable: true },
  },
});

/** Anything JSON-ish, bigints included, mixed with the words each model uses so conversions get past their first check. */
const words = fc.constantFrom(
  ...['Name', 'Age', 'Score', 'Active', 'BirthOn', 'Nope', 'text', 'number', 'date', 'set', 'boolean', 'equals', 'notEqual'],
  ...['contains', 'inRange', 'lessThan', 'greaterThan', 'blank', 'AND', 'OR', 'and', 'or', 'xor', 'asc', 'desc', '=', '!=', '>'],
  ...['isAnyOf', 'is', 'between', 'in', 'null', 'notNull', 'includesString', 'equalsString', 'inNumberRange', 'arrIncludes'],
);
const value: fc.Arbitrary<unknown> = fc.oneof(
  fc.bigInt(),
  words,
  fc.anything({ maxDepth: 2, withBigInt: true, withDate: true, withNullPrototype: true, withObjectString: true }),
  fc.array(fc.oneof(fc.bigInt(), fc.integer(), words), { maxLength: 3 }),
);

const agCondition = fc.record(
  { filterType: value, type: value, filter: value, filterTo: value, dateFrom: value, dateTo: value, values: value },
  { requiredKeys: [] },
);
const agModel = fc.dictionary(
  fc.oneof(words, fc.string()),
  fc.oneof(value, agCondition, fc.record({ filterType: value, operator: value, conditions: fc.array(fc.oneof(agCondition, value)) })),
  { maxKeys: 3 },
);
const sortItems = (column: string, direction: string) =>
  fc.array(fc.oneof(value, fc.record({ [column]: value, [direction]: value }, { requiredKeys: [] })), { maxLength: 3 });
const muiModel = fc.record(
  {
    items: fc.oneof(value, fc.array(fc.oneof(value, fc.record({ id: value, field: value, operator: value, value }, { requiredKeys: [] })))),
    logicOperator: value,
  },
  { requiredKeys: [] },
);
const tanStackState = fc.array(fc.oneof(value, fc.record({ id: value, value }, { requiredKeys: [] })), { maxLength: 4 });
const tanStackFns = fc.option(fc.dictionary(fc.oneof(words, fc.string()), value, { maxKeys: 3 }), { nil: undefined });
const { rule } = fc.letrec<{ rule: unknown; group: unknown }>((tie) => ({
  rule: fc.oneof(
    { maxDepth: 6 },
    value,
    fc.record({ field: value, operator: value, value, valueSource: value, not: value }, { requiredKeys: [] }),
    tie('group'),
  ),
  group: fc.record(
    { combinator: value, not: value, rules: fc.oneof(value, fc.array(tie('rule'), { maxLength: 3 })) },
    { requiredKeys: [] },
  ),
}));

/** A result a converter may return: an error diagnostic whenever there is no filter, every diagnostic with a path. */
function expectResult(r: {
  filter?: string | undefined;
  sort?: string | undefined;
  diagnostics: readonly { severity: string; path: unknown }[];
}) {
  const text = 'filter' in r ? r.filter : r.sort;
  if (text === undefined) expect(r.diagnostics.some((d) => d.severity === 'error')).toBe(true);
  for (const d of r.diagnostics) expect(Array.isArray(d.path)).toBe(true);
}

const runs = { numRuns: 400 };

describe('converters-throw-on-bigint', () => {
  it.each([
    ['AG Grid filter model', () => fromAgGridFilterModel({ Age: { filterType: 'number', type: 1n } } as never, { schema })],
    ['AG Grid sort model', () => fromAgGridSortModel([{ colId: 1n, sort: 'asc' }] as never, { schema })],
    ['MUI filter model', () => fromMuiFilterModel({ items: [{ field: 1n, operator: '=', value: 1 }] } as never, { schema })],
    ['MUI sort model', () => fromMuiSortModel([{ field: 1n, sort: 'asc' }] as never, { schema })],
    ['TanStack column filters', () => fromTanStackColumnFilters([{ id: 1n, value: 1 }] as never, { schema })],
    ['TanStack sorting', () => fromTanStackSorting([{ id: 1n, desc: true }] as never, { schema })],
    ['react-querybuilder rule group', () => fromRuleGroup({ combinator: 1n, rules: [] } as never, { schema })],
    [
      'react-querybuilder rule',
      () => fromRuleGroup({ combinator: 'and', rules: [{ field: 'Age', operator: 1n, value: 1 }] } as never, { schema }),
    ],
  ])('%s: a bigint where a name belongs is a diagnostic, not a throw', (_title, convert) => {
    const r = convert();
    expect(r.diagnostics.some((d) => d.severity === 'error' && /1n/.test(d.message))).toBe(true);
  });

  it('a bigint value is read as its digits', () => {
    expect(fromMuiFilterModel({ items: [{ field: 'Age', operator: '=', value: 12n }] } as never, { schema }).filter).toBe('Age.Equal(12)');
    expect(fromRuleGroup({ combinator: 'and', rules: [{ field: 'Age', operator: '=', value: 12n }] } as never, { schema }).filter).toBe(
      'Age.Equal(12)',
    );
  });

  it('fromAgGridFilterModel never throws', () => {
    fc.assert(
      fc.property(agModel, (m) => expectResult(fromAgGridFilterModel(m as never, { schema }))),
      runs,
    );
  });
  it('fromAgGridSortModel never throws', () => {
    fc.assert(
      fc.property(sortItems('colId', 'sort'), (m) => expectResult(fromAgGridSortModel(m as never, { schema }))),
      runs,
    );
  });
  it('fromMuiFilterModel never throws', () => {
    fc.assert(
      fc.property(fc.oneof(value, muiModel), (m) => expectResult(fromMuiFilterModel(m as never, { schema }))),
      runs,
    );
  });
  it('fromMuiSortModel never throws', () => {
    fc.assert(
      fc.property(sortItems('field', 'sort'), (m) => expectResult(fromMuiSortModel(m as never, { schema }))),
      runs,
    );
  });
  it('fromTanStackColumnFilters never throws', () => {
    fc.assert(
      fc.property(tanStackState, tanStackFns, (s, filterFns) =>
        expectResult(fromTanStackColumnFilters(s as never, { schema, ...(filterFns ? { filterFns: filterFns as never } : {}) })),
      ),
      runs,
    );
  });
  it('fromTanStackSorting never throws', () => {
    fc.assert(
      fc.property(sortItems('id', 'desc'), (s) => expectResult(fromTanStackSorting(s as never, { schema }))),
      runs,
    );
  });
  it('fromRuleGroup never throws', () => {
    fc.assert(
      fc.property(rule, (g) => expectResult(fromRuleGroup(g as never, { schema }))),
      runs,
    );
  });
});
