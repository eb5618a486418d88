/**
 * The semantic lint rules are sound with respect to evaluation:
 * - a filter reported `unsatisfiable-filter` matches no record;
 * - a conjunction reported as a `contradiction` (the whole filter being that
 *   level) matches nothing;
 * - applying any diagnostic's `fix` never changes which records match, and
 *   leaves text that still analyzes without errors.
 * Filters are drawn over few fields so that conditions on the same field
 * meet often, which is where the rules have something to say.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintText, query, type Diagnostic } from '../../src/index.js';
import { TEST_FIELDS, recordsArb, testSchema, typedFilterArb, typedFilterText } from '../support/typed-arbitraries.js';

const fields = TEST_FIELDS.filter((f) => ['Age', 'Name', 'Active', 'BornOn', 'Score'].includes(f.name));
const filterTextArb = typedFilterArb({ fields, maxDepth: 2, maxClauses: 4 }).map(typedFilterText);

function matching(records: readonly Record<string, unknown>[], filter: string, caseSensitive: boolean): number[] {
  const indexed = records.map((r, i) => ({ ...r, __index: i }));
  return query(indexed, { filter, schema: testSchema, caseSensitive }).map((r) => (r as { __index: number }).__index);
}

function applyFix(text: string, d: Diagnostic): string {
  const edits = [...(d.fix ?? [])].sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

// A dense generator: few fields, tiny value pools shared by filters and
// records, so that contradictions, implications and boundary points (an
// integer interval holding exactly one value) are hit often.
const POOLS = {
  Age: {
    values: ['-1', '0', '1', '2', '3'],
    ops: ['Equal', 'NotEqual', 'LessThan', 'LessThanOrEqual', 'GreaterThan', 'GreaterThanOrEqual'],
  },
  Score: {
    values: ['0', '0.5', '1', '1.5', '2'],
    ops: ['Equal', 'NotEqual', 'LessThan', 'LessThanOrEqual', 'GreaterThan', 'GreaterThanOrEqual'],
  },
  Name: {
    values: ["''", 'a', 'A', 'ab', 'b', 'ba', 'abc'],
    ops: ['Equal', 'NotEqual', 'Contains', 'StartsWith', 'EndsWith', 'NotContains', 'NotStartsWith', 'NotEndsWith'],
  },
  Active: { values: ['true', 'false'], ops: ['Equal', 'NotEqual'] },
} as const;
type PoolField = keyof typeof POOLS;
const poolFieldArb = fc.constantFrom(...(Object.keys(POOLS) as PoolField[]));
const denseConditionArb = poolFieldArb.chain((field) =>
  fc.oneof(
    fc
      .record({ op: fc.constantFrom(...POOLS[field].ops), v: fc.constantFrom(...POOLS[field].values) })
      .map(({ op, v }) => `${field}.${op}(${v})`),
    fc.constantFrom('IsNull', 'IsNotNull').map((op) => `${field}.${op}()`),
    fc
      .record({
        op: fc.constantFrom('InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull'),
        vs: fc.array(fc.constantFrom(...POOLS[field].values), { minLength: 1, maxLength: 3 }),
      })
      .map(({ op, vs }) => `${field}.${op}(${vs.join(',')})`),
  ),
);
const denseFilterArb = fc
  .array(
    fc.oneof(
      { weight: 3, arbitrary: denseConditionArb },
      {
        weight: 1,
        arbitrary: fc
          .record({ g: fc.constantFrom('And', 'Or'), children: fc.array(denseConditionArb, { minLength: 1, maxLength: 3 }) })
          .map(({ g, children }) => `${g}(${children.join(';')})`),
      },
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((clauses) => clauses.join(';'));
const denseRecordArb = fc.record(
  {
    Age: fc.constantFrom(-1, 0, 1, 2, 3, null),
    Score: fc.constantFrom(0, 0.5, 1, 1.5, 2, null),
    Name: fc.constantFrom('', 'a', 'A', 'ab', 'AB', 'b', 'ba', 'abc', 'xabc', null),
    Active: fc.constantFrom(true, false, null),
  },
  { requiredKeys: [] },
);
// Conjunctions on one field: the exact territory of the contradiction logic.
const sameFieldConjunctionArb = poolFieldArb.chain((field) =>
  fc
    .array(
      fc.oneof(
        fc
          .record({ op: fc.constantFrom(...POOLS[field].ops), v: fc.constantFrom(...POOLS[field].values) })
          .map(({ op, v }) => `${field}.${op}(${v})`),
        fc.constantFrom('IsNull', 'IsNotNull').map((op) => `${field}.${op}()`),
        fc
          .record({
            op: fc.constantFrom('InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull'),
            vs: fc.array(fc.constantFrom(...POOLS[field].values), { minLength: 1, maxLength: 3 }),
          })
          .map(({ op, vs }) => `${field}.${op}(${vs.join(',')})`),
      ),
      { minLength: 2, maxLength: 3 },
    )
    .map((cs) => cs.join(';')),
);
// Every value of each pool, and null, in one table: a satisfiable
// conjunction on one field must match one of these records.
const EXHAUSTIVE_RECORDS: Record<string, unknown>[] = [
  ...[-1, 0, 1, 2, 3].map((Age) => ({ Age })),
  ...[-0.5, 0, 0.25, 0.5, 0.75, 1, 1.25, 1.5, 1.75, 2, 2.5].map((Score) => ({ Score })),
  ...[
    '',
    'a',
    'A',
    'ab',
    'AB',
    'Ab',
    'b',
    'B',
    'ba',
    'abc',
    'xabc',
    'abcx',
    'ca',
    'bab',
    'aba',
    'x',
    'abab',
    'baab',
    'bb',
    'aa',
    'cab',
  ].map((Name) => ({ Name })),
  { Active: true },
  { Active: false },
  {},
];
const allDenseRecords = fc.array(denseRecordArb, { minLength: 10, maxLength: 40 });

describe('semantic lint rules agree with evaluation', () => {
  it.each([false, true])('unsatisfiable filters match nothing, fixes keep results (caseSensitive=%s)', (caseSensitive) => {
    let unsatisfiable = 0;
    let fixed = 0;
    fc.assert(
      fc.property(filterTextArb, recordsArb({ maxLength: 25 }), (text, records) => {
        const findings = lintText(text, 'filter', { schema: testSchema, caseSensitive });
        if (findings.some((d) => d.severity === 'error')) return; // generated filters are type-correct
        const before = matching(records, text, caseSensitive);
        if (findings.some((d) => d.code === 'unsatisfiable-filter')) {
          unsatisfiable++;
          if (before.length !== 0) throw new Error(`unsatisfiable ${text} matched records ${before.join(',')}`);
        }
        for (const d of findings) {
          if (d.fix === undefined) continue;
          fixed++;
          const after = applyFix(text, d);
          const remaining = lintText(after, 'filter', { schema: testSchema, caseSensitive });
          if (remaining.some((x) => x.severity === 'error')) throw new Error(`fix of ${d.code} broke ${text} into ${after}`);
          const result = matching(records, after, caseSensitive);
          if (result.join(',') !== before.join(',')) {
            throw new Error(`fix of ${d.code} changed results: ${text} → ${after}: ${before.join(',')} vs ${result.join(',')}`);
          }
        }
      }),
      { numRuns: 400 },
    );
    // The generator must actually reach the rules, or this test proves nothing.
    expect(unsatisfiable).toBeGreaterThan(0);
    expect(fixed).toBeGreaterThan(0);
  });

  it.each([false, true])('dense filters: verdicts and fixes hold (caseSensitive=%s)', (caseSensitive) => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(denseFilterArb, allDenseRecords, (text, records) => {
        const findings = lintText(text, 'filter', { schema: testSchema, caseSensitive });
        if (findings.some((d) => d.severity === 'error')) throw new Error(`generated filter has errors: ${text}`);
        const before = matching(records, text, caseSensitive);
        for (const d of findings) seen.set(d.code, (seen.get(d.code) ?? 0) + 1);
        if (findings.some((d) => d.code === 'unsatisfiable-filter') && before.length !== 0) {
          throw new Error(`unsatisfiable ${text} matched records ${before.join(',')}`);
        }
        for (const d of findings) {
          if (d.fix === undefined) continue;
          const after = applyFix(text, d);
          const result = matching(records, after, caseSensitive);
          if (result.join(',') !== before.join(',')) {
            throw new Error(`fix of ${d.code} changed results: ${text} → ${after}: ${before.join(',')} vs ${result.join(',')}`);
          }
        }
      }),
      { numRuns: 1500 },
    );
    for (const code of ['contradiction', 'unsatisfiable-filter', 'duplicate-condition', 'redundant-or-branch', 'duplicate-list-value']) {
      expect(seen.get(code) ?? 0, code).toBeGreaterThan(0);
    }
  });

  it('one-field conjunctions: a contradiction is reported exactly when no record of the pools matches', () => {
    fc.assert(
      fc.property(sameFieldConjunctionArb, (text) => {
        const findings = lintText(text, 'filter', { schema: testSchema, caseSensitive: true });
        const reported = findings.some((d) => d.code === 'unsatisfiable-filter');
        const matches = matching(EXHAUSTIVE_RECORDS, text, true);
        // Soundness: a reported contradiction never matches anything.
        if (reported && matches.length > 0) throw new Error(`${text} reported unsatisfiable but matched ${matches.join(',')}`);
        // Completeness on the pools: integer, boolean and null cases are decided exactly.
        const field = text.slice(0, text.indexOf('.'));
        if (!reported && matches.length === 0 && (field === 'Age' || field === 'Active')) {
          // Integers outside -1..3 are not in the table; only judge conjunctions bounded inside it.
          const bounded = text.split(';').some((c) => /\.(Equal|InArray|InArrayOrNull|IsNull)\(/.test(c)) || field === 'Active';
          if (bounded) throw new Error(`${text} matches nothing but no contradiction was reported`);
        }
      }),
      { numRuns: 3000 },
    );
  });

  // The rules skip the keys of a level whose clauses differ in kind or field, and group a level's conditions by field
  // only when a field repeats (semantic-rules.ts, mayRepeat and fieldRepeats): these two hold them to what a full
  // comparison finds, on levels shorter and longer than the 16 compared pair by pair.
  it('a repeated clause is reported at every level length, top level or in a group', () => {
    const levelArb = fc.array(denseConditionArb, { minLength: 1, maxLength: 20 });
    fc.assert(
      fc.property(levelArb, fc.nat(), fc.nat(), fc.constantFrom('', 'And', 'Or'), (clauses, pick, at, group) => {
        const repeated = clauses[pick % clauses.length]!;
        const place = Math.min(at % (clauses.length + 1), clauses.length);
        // The copy goes after the original, so it is the one reported.
        const after = Math.max(place, clauses.indexOf(repeated) + 1);
        const level = [...clauses.slice(0, after), repeated, ...clauses.slice(after)];
        const body = level.join(';');
        const text = group === '' ? body : `${group}(${body})`;
        const offset = group === '' ? 0 : group.length + 1;
        const start = offset + level.slice(0, after).join(';').length + (after > 0 ? 1 : 0);
        const findings = lintText(text, 'filter', { schema: testSchema });
        if (!findings.some((d) => d.code === 'duplicate-condition' && d.start === start && d.end === start + repeated.length)) {
          throw new Error(
            `${text}: the repeat of ${repeated} at ${start} is not reported (${findings.map((d) => `${d.code}@${d.start}`).join(', ')})`,
          );
        }
      }),
      { numRuns: 1500 },
    );
  });

  it('a one-field contradiction is reported whatever other fields share its level', () => {
    const othersArb = fc.array(
      fc.constantFrom('Name.StartsWith(a)', 'Active.Equal(true)', 'Score.GreaterThan(0)', 'Nick.IsNull()', 'Age.IsNotNull()'),
      { maxLength: 18 },
    );
    let tried = 0;
    fc.assert(
      fc.property(sameFieldConjunctionArb, othersArb, fc.array(fc.nat(), { maxLength: 3 }), (conjunction, others, places) => {
        const alone = lintText(conjunction, 'filter', { schema: testSchema }).some((d) => d.code === 'contradiction');
        if (!alone) return;
        tried++;
        const field = conjunction.slice(0, conjunction.indexOf('.'));
        const level: string[] = others.filter((o) => !o.startsWith(`${field}.`));
        conjunction.split(';').forEach((c, k) => level.splice(Math.min((places[k] ?? 0) % (level.length + 1), level.length), 0, c));
        const text = level.join(';');
        if (!lintText(text, 'filter', { schema: testSchema }).some((d) => d.code === 'contradiction')) {
          throw new Error(`${conjunction} contradicts itself alone but not in ${text}`);
        }
      }),
      { numRuns: 2000 },
    );
    expect(tried).toBeGreaterThan(100);
  });

  it.each([
    // Shrunk counterexamples and boundary cases, kept as regular cases.
    ['Age.GreaterThanOrEqual(1);Age.LessThanOrEqual(1)', [{ Age: 1 }], [0]],
    ['Age.GreaterThan(0);Age.LessThan(2);Age.NotEqual(1)', [{ Age: 1 }, { Age: 0 }], []],
    ['Score.GreaterThan(0.5);Score.LessThan(1)', [{ Score: 0.75 }], [0]],
  ] as const)('%s', (text, records, expected) => {
    expect(matching(records as unknown as Record<string, unknown>[], text, false)).toEqual(expected);
    const unsat = lintText(text, 'filter', { schema: testSchema }).some((d) => d.code === 'unsatisfiable-filter');
    expect(unsat).toBe(expected.length === 0);
  });
});
