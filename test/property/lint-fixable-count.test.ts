/**
 * The "N problems potentially fixable with `--fix`" count of `wepql lint`
 * (`potentiallyFixable`, read off the findings) against what `--fix`
 * removes (`fixedText`, then the fixed text linted again, the findings
 * compared code by code as `fixableBy` does):
 * - whenever `--fix` rewrites a text to its fixed form, the two are equal;
 * - otherwise the count is never below what `--fix` removes, and it is
 *   above only where its documentation says: every finding carried a safe
 *   fix, yet the fixed text would still have findings.
 * Texts are drawn over few fields of the test schema, some of them under
 * the old names of a rename, with the pieces that carry safe fixes (empty
 * clauses, single-child groups, duplicates, redundant values) mixed in,
 * under rule settings that turn codes off or change their severity.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixableBy, fixedText, potentiallyFixable, type LintOf } from '../../src/cli/lint/fixes.js';
import { lintText } from '../../src/index.js';
import type { LintTextOptions } from '../../src/lint/lint-text.js';
import { reportedFindings, type RuleSettings } from '../../src/workspace/lint-rules.js';
import type { SavedEntry } from '../../src/workspace/saved-filters.js';
import { renamedTestSchema, testSchema } from '../support/typed-arbitraries.js';

/** Age was renamed Years and Name FullName: the test schema is the previous one. */
const RENAMES: Readonly<Record<string, string>> = { Age: 'Years', Name: 'FullName' };
const next = renamedTestSchema(RENAMES);

const POOLS = {
  Age: { values: ['-1', '0', '1', '2'], ops: ['Equal', 'NotEqual', 'LessThan', 'GreaterThanOrEqual', 'InArray', 'NotInArray'] },
  Years: { values: ['0', '1', '2'], ops: ['Equal', 'NotEqual', 'GreaterThan', 'InArray'] },
  Score: { values: ['0', '0.5', '1'], ops: ['Equal', 'LessThan', 'GreaterThan', 'InArray'] },
  Name: { values: ["''", 'a', 'ab', 'b c', "'a;b'"], ops: ['Equal', 'NotEqual', 'StartsWith', 'Contains', 'InArray'] },
  Active: { values: ['true', 'false'], ops: ['Equal', 'NotEqual'] },
} as const;
type PoolField = keyof typeof POOLS;

const conditionArb = fc.constantFrom(...(Object.keys(POOLS) as PoolField[])).chain((field) =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .record({
          op: fc.constantFrom(...POOLS[field].ops),
          vs: fc.array(fc.constantFrom(...POOLS[field].values), { minLength: 1, maxLength: 3 }),
        })
        .map(({ op, vs }) => `${field}.${op}(${op.endsWith('InArray') ? vs.join(',') : vs[0]})`),
    },
    { weight: 1, arbitrary: fc.constantFrom('IsNull', 'IsNotNull').map((op) => `${field}.${op}()`) },
    // A field of another case, or one the schema never had: no safe fix.
    { weight: 1, arbitrary: fc.constantFrom(`${field.toLowerCase()}.Equal(1)`, 'Nope.Equal(1)') },
  ),
);
const clauseArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: conditionArb },
  // Groups of one child, nested groups, empty clauses: the safe fixes of the parser.
  {
    weight: 2,
    arbitrary: fc
      .record({ g: fc.constantFrom('And', 'Or'), children: fc.array(conditionArb, { minLength: 1, maxLength: 3 }) })
      .map(({ g, children }) => `${g}(${children.join(';')})`),
  },
  { weight: 1, arbitrary: conditionArb.map((c) => `And(Or(${c}))`) },
  { weight: 1, arbitrary: fc.constant('') },
);
const filterArb = fc.array(clauseArb, { minLength: 1, maxLength: 4 }).map((clauses) => clauses.join(';'));

const rulesArb: fc.Arbitrary<RuleSettings> = fc.constantFrom<RuleSettings>(
  undefined,
  { 'duplicate-condition': 'off' },
  { 'field-renamed': 'error', 'empty-clause': 'info' },
  { contradiction: 'off', 'unsatisfiable-filter': 'off' },
);
const disableArb = fc.constantFrom<readonly string[] | undefined>(undefined, ['field-renamed'], ['redundant-group']);

interface Counted {
  readonly potential: ReturnType<typeof potentiallyFixable>;
  readonly removed: ReturnType<typeof fixableBy>;
  /** Whether --fix rewrote the text to a text without findings. */
  readonly fullyFixed: boolean;
  /** Whether every finding of the text carried a safe fix. */
  readonly allFixable: boolean;
}

function count(
  text: string,
  options: LintTextOptions,
  rules: RuleSettings,
  disable: readonly string[] | undefined,
  quiet: boolean,
): Counted {
  const entry = { kind: 'filter', text, line: 1, column: 1, ...(disable === undefined ? {} : { disable }) } as SavedEntry;
  const lint: LintOf = (t, kind) => lintText(t, kind, options);
  const raw = lint(text, 'filter');
  const reported = reportedFindings(raw, entry, rules);
  const fixed = fixedText(entry, options, lint);
  const after = lint(fixed, 'filter');
  return {
    potential: potentiallyFixable(raw, reported, options, quiet),
    removed: fixableBy(reported, reportedFindings(after, entry, rules), quiet),
    fullyFixed: fixed !== text && after.length === 0,
    allFixable: raw.every((d) => d.fix !== undefined && d.fix.length > 0),
  };
}

const total = (c: { error: number; warning: number; info: number }) => c.error + c.warning + c.info;

describe('the potentially fixable count', () => {
  it('equals what --fix removes when --fix fixes the text, and is above it only when every finding carried a safe fix', () => {
    let fully = 0;
    let renamedOnly = 0;
    let over = 0;
    fc.assert(
      fc.property(filterArb, fc.boolean(), rulesArb, disableArb, fc.boolean(), (text, withPrevious, rules, disable, quiet) => {
        const options: LintTextOptions = withPrevious ? { schema: next, previousSchema: testSchema } : { schema: testSchema };
        const c = count(text, options, rules, disable, quiet);
        if (c.fullyFixed) fully++;
        if (c.fullyFixed || !c.allFixable) {
          if (!c.allFixable && total(c.potential) > 0) renamedOnly++;
          expect(c.potential).toEqual(c.removed);
        } else {
          if (total(c.potential) > total(c.removed)) over++;
          for (const s of ['error', 'warning', 'info'] as const) expect(c.potential[s]).toBeGreaterThanOrEqual(c.removed[s]);
        }
      }),
      { numRuns: 1500 },
    );
    // The generators reach each case (about 550, 80 and 20 of the runs), not only texts without findings.
    expect(fully).toBeGreaterThan(100);
    expect(renamedOnly).toBeGreaterThan(20);
    expect(over).toBeGreaterThan(0);
  });

  it('counts the findings of a text --fix rewrites, and none of a text with a finding it cannot fix', () => {
    const options: LintTextOptions = { schema: next, previousSchema: testSchema };
    expect(count('Age.Equal(1);;And(Score.Equal(1))', options, undefined, undefined, false)).toMatchObject({
      // The redundant group is an info.
      potential: { error: 0, warning: 2, info: 1 },
      removed: { error: 0, warning: 2, info: 1 },
      fullyFixed: true,
    });
    // The rename lands; the unknown field, without a safe fix, keeps the rest as written.
    expect(count('Age.Equal(1);;Nope.Equal(1)', options, undefined, undefined, false)).toMatchObject({
      potential: { error: 0, warning: 1, info: 0 },
      removed: { error: 0, warning: 1, info: 0 },
    });
    // Over-counted: unwrapping the groups shows a contradiction, which has no safe fix, so --fix leaves the text.
    expect(
      count('And(Or(Active.NotEqual(false)));Or(Active.NotEqual(true))', { schema: testSchema }, undefined, undefined, false),
    ).toMatchObject({
      potential: { error: 0, warning: 0, info: 3 },
      removed: { error: 0, warning: 0, info: 0 },
      fullyFixed: false,
    });
    expect(count('Score.Equal(1);;Nope.Equal(1)', { schema: testSchema }, undefined, undefined, false).potential).toEqual({
      error: 0,
      warning: 0,
      info: 0,
    });
  });
});
