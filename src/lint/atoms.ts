/**
 * A small logic of single-field conditions, used by the semantic lint rules
 * to decide whether conditions contradict or imply one another.
 *
 * Each condition on one field becomes an `Atom`: whether a null field
 * satisfies it, and a test on non-null values. Satisfiability of a
 * conjunction of atoms on one field is decided exactly for the cases the
 * language can express on one field: finite value sets (equality, membership),
 * intervals with excluded points (ordered types; integers and datetimes are
 * discrete), boolean domains, and prefix/suffix/substring tests on strings.
 * Where the logic cannot decide, it answers "satisfiable", so the rules
 * never report a contradiction that is not one.
 */
import { matchFilterNodeWith, type MatchWithHandlers } from '../ast/fold.js';
import type { TextPosition } from '../ast/operators.js';
import { operatorFacts, passesTest, type PositiveRelation, type ValueTest } from '../ast/operator-facts.js';
import { comparableValue, type ScalarType } from '../schema/values.js';
import type { TypedComparison, TypedFilterNode, TypedList, TypedNullCheck, TypedScalar } from '../ast/typed-tree.js';

/** A normalized non-null value: folded strings, epoch-ms datetimes. */
export type AtomValue = string | number | boolean;

/**
 * What an atom tests on non-null values, in the lowered form of
 * `operatorFacts` (src/ast/operator-facts.ts): a positive test, maybe
 * negated, with its value (`compare`, `text`) or values (`member`). Reading
 * facts rather than operator names keeps lint right for any operator the
 * table gains, and makes negation a flag to flip rather than a table.
 */
export interface AtomTest {
  /** The positive test on a non-null value. */
  readonly test: ValueTest;
  /** Whether the atom holds where the positive test fails. */
  readonly negated: boolean;
  /** The value of a `compare` or `text` test. */
  readonly value?: AtomValue;
  /** The values of a `member` test (empty for the others). */
  readonly values: readonly AtomValue[];
}

/** One condition on one field, as the lint logic sees it. */
export interface Atom {
  /** The field's schema name. */
  readonly field: string;
  readonly type: ScalarType;
  /** Whether a null (missing, unconvertible) field satisfies the condition. */
  readonly nullOk: boolean;
  readonly test: AtomTest;
}

/** Single-field typed conditions. */
export type SingleFieldCondition = TypedComparison | TypedList | TypedNullCheck;

/**
 * Normalizes a typed value for comparison as every engine does
 * (`comparableValue`): strings folded with `toLowerCase` unless
 * case-sensitive, `Date`s as epoch milliseconds.
 *
 * @example
 * normalizeValue(new Date(0), 'datetime', false); // 0
 */
export function normalizeValue(value: TypedScalar, type: ScalarType, caseSensitive: boolean): AtomValue {
  // Lint runs on validated trees, whose values always have their field's type.
  return comparableValue(value, type, !caseSensitive) as AtomValue;
}

/**
 * The atom of a single-field condition: the operator's facts with the
 * condition's normalized value or values.
 *
 * @example
 * toAtom(typedEqualNode, false); // { field: 'Gender', nullOk: false, test: { test: { kind: 'compare', relation: '=' }, negated: false, value: 1, values: [] }, … }
 */
export function toAtom(node: SingleFieldCondition, caseSensitive: boolean): Atom {
  const facts = operatorFacts(node.operator);
  return {
    field: node.field.name,
    type: node.field.type,
    nullOk: facts.nullMatches,
    test: matchFilterNodeWith<TypedFilterNode, AtomContext, AtomTest>(node, ATOM_TESTS, { facts, caseSensitive }, notSingleField),
  };
}

/** What `ATOM_TESTS` needs beside the node. */
interface AtomContext {
  readonly facts: ReturnType<typeof operatorFacts>;
  readonly caseSensitive: boolean;
}

/** Each kind's test with its normalized operands; a table made once, the condition's facts passed in. */
const ATOM_TESTS: MatchWithHandlers<TypedFilterNode, AtomContext, AtomTest> = {
  comparison: (c, { facts, caseSensitive }) => ({
    test: facts.test,
    negated: facts.negated,
    value: normalizeValue(c.value, c.field.type, caseSensitive),
    values: [],
  }),
  list: (l, { facts, caseSensitive }) => ({
    test: facts.test,
    negated: facts.negated,
    values: l.values.map((v) => normalizeValue(v, l.field.type, caseSensitive)),
  }),
  'null-check': (_n, { facts }) => ({ test: facts.test, negated: facts.negated, values: [] }),
  group: (g) => notSingleField(g),
  'in-fields': (f) => notSingleField(f),
};

function notSingleField(node: TypedFilterNode): never {
  throw new TypeError(`toAtom: not a single-field condition: ${String((node as { kind?: unknown }).kind)}`);
}

/** The test that holds on exactly the non-null values where `test` fails. */
function negateTest(test: AtomTest): AtomTest {
  return { ...test, negated: !test.negated };
}

/**
 * Whether a non-null normalized value passes a test.
 *
 * @example
 * passes({ test: { kind: 'text', position: 'starts' }, negated: false, value: 'sm', values: [] }, 'smith'); // true
 */
export function passes(test: AtomTest, v: AtomValue): boolean {
  // The same rule every interpreter follows (ast/operator-facts.ts).
  return passesTest(test.test, v, test.value, test.values) !== test.negated;
}

/** Whether the test fails on every non-null value (`IsNull`). */
function passesNone(t: AtomTest): boolean {
  return t.test.kind === 'present' && t.negated;
}

/** Whether some non-null value of the type passes every test. */
function nonNullSatisfiable(type: ScalarType, tests: readonly AtomTest[]): boolean {
  // Counted loops, not some/every with arrow functions nor for-of: the lint of a large run calls this for every
  // condition before V8 has optimized it, where each arrow, and each step of an iterator, is an allocation
  // (bench/results/startup.md).
  for (let i = 0; i < tests.length; i++) if (passesNone(tests[i]!)) return false;
  const pinned = pinningTest(tests);
  if (pinned !== undefined) {
    if (pinned.test.kind !== 'member') return passesAll(tests, pinned.value!);
    const values = pinned.values;
    for (let i = 0; i < values.length; i++) if (passesAll(tests, values[i]!)) return true;
    return false;
  }
  if (type === 'boolean') return passesAll(tests, false) || passesAll(tests, true);
  if (type === 'string') return stringsSatisfiable(tests);
  return orderedSatisfiable(type, tests);
}

/** Whether the value passes every test. */
function passesAll(tests: readonly AtomTest[], v: AtomValue): boolean {
  for (let i = 0; i < tests.length; i++) if (!passes(tests[i]!, v)) return false;
  return true;
}

/**
 * The first test that pins the values of a conjunction to a finite set (a
 * positive equality: its value; a positive membership: its values), or
 * undefined. Boolean domains are finite too: `nonNullSatisfiable` tries both.
 */
function pinningTest(tests: readonly AtomTest[]): AtomTest | undefined {
  for (let i = 0; i < tests.length; i++) {
    const t = tests[i]!;
    if (t.negated) continue;
    if (t.test.kind === 'compare' && t.test.relation === '=') return t;
    if (t.test.kind === 'member') return t;
  }
  return undefined;
}

/**
 * One end of an interval: a compare test of an order relation, negated or
 * not, bounds the values from below (`>`, `>=`, or a negated `<`, `<=`) or
 * from above; the bound is open for a strict relation (or, negated, for a
 * non-strict one: not `<=` is `>`).
 */
function boundOf(relation: Exclude<PositiveRelation, '='>, negated: boolean): { readonly lower: boolean; readonly open: boolean } {
  const below = relation === '<' || relation === '<=';
  const strict = relation === '<' || relation === '>';
  return { lower: below === negated, open: strict !== negated };
}

/** The values an order test leaves: between `lo` and `hi`, minus the excluded points. */
interface Interval {
  lo: number;
  loOpen: boolean;
  hi: number;
  hiOpen: boolean;
  readonly excluded: Set<number>;
}

/**
 * Narrows the interval by one test. Returns false for a test the interval
 * cannot express (a text test: the validator keeps those off ordered types).
 */
function narrow(interval: Interval, t: AtomTest): boolean {
  const test = t.test;
  if (test.kind === 'present') return true;
  if (test.kind === 'member') {
    // A positive member test is a finite set (finiteCandidates); here it is negated.
    for (const v of t.values) interval.excluded.add(v as number);
    return true;
  }
  if (test.kind !== 'compare') return false;
  const v = t.value as number;
  if (test.relation === '=') {
    // A positive equality is a finite set (finiteCandidates); here it is negated.
    interval.excluded.add(v);
    return true;
  }
  const { lower, open } = boundOf(test.relation, t.negated);
  if (lower && (v > interval.lo || (v === interval.lo && open))) {
    interval.lo = v;
    interval.loOpen = open;
  } else if (!lower && (v < interval.hi || (v === interval.hi && open))) {
    interval.hi = v;
    interval.hiOpen = open;
  }
  return true;
}

/**
 * Ordered types without a finite set: intersect the bounds, then check that
 * the excluded points (negated equality and membership) do not use up what
 * is left. Integers and datetimes (whole milliseconds) are discrete.
 */
function orderedSatisfiable(type: ScalarType, tests: readonly AtomTest[]): boolean {
  const interval: Interval = { lo: -Infinity, loOpen: true, hi: Infinity, hiOpen: true, excluded: new Set<number>() };
  for (let i = 0; i < tests.length; i++) if (!narrow(interval, tests[i]!)) return true;
  return type === 'integer' || type === 'datetime' ? discreteNonEmpty(interval) : continuousNonEmpty(interval);
}

/** Whether whole numbers are left in the interval once the excluded points are taken out. */
function discreteNonEmpty({ lo, loOpen, hi, hiOpen, excluded }: Interval): boolean {
  const first = lo === -Infinity ? -Infinity : loOpen ? Math.floor(lo) + 1 : Math.ceil(lo);
  const last = hi === Infinity ? Infinity : hiOpen ? Math.ceil(hi) - 1 : Math.floor(hi);
  if (first > last) return false;
  if (first === -Infinity || last === Infinity) return true;
  let inside = 0;
  for (const x of excluded) if (Number.isInteger(x) && x >= first && x <= last) inside++;
  return last - first + 1 > inside;
}

/** Whether real numbers are left in the interval once the excluded points are taken out. */
function continuousNonEmpty({ lo, loOpen, hi, hiOpen, excluded }: Interval): boolean {
  if (lo < hi) return true;
  if (lo > hi) return false;
  return !loOpen && !hiOpen && !excluded.has(lo);
}

/** The values of the text tests by position, required and forbidden (`not…`), in the tests' order; a list made only when it has one. */
interface TextValues {
  starts?: string[];
  ends?: string[];
  contains?: string[];
  notStarts?: string[];
  notEnds?: string[];
  notContains?: string[];
}

const NOTHING: readonly string[] = [];

const TEXT_LISTS: Readonly<Record<TextPosition, readonly [keyof TextValues, keyof TextValues]>> = {
  starts: ['starts', 'notStarts'],
  ends: ['ends', 'notEnds'],
  contains: ['contains', 'notContains'],
};

function textValues(tests: readonly AtomTest[]): TextValues {
  const out: TextValues = {};
  for (let i = 0; i < tests.length; i++) {
    const t = tests[i]!;
    if (t.test.kind !== 'text') continue;
    const name = TEXT_LISTS[t.test.position][t.negated ? 1 : 0];
    (out[name] ??= []).push(String(t.value));
  }
  return out;
}

/** Whether every two of the parts can be the start (or, `prefix` false, the end) of one string. */
function pairwiseCompatible(parts: readonly string[], prefix: boolean): boolean {
  const compatible = (a: string, b: string): boolean => (prefix ? a.startsWith(b) || b.startsWith(a) : a.endsWith(b) || b.endsWith(a));
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) if (!compatible(parts[i]!, parts[j]!)) return false;
  return true;
}

/** Strings without a finite set: prefix, suffix and substring reasoning. */
function stringsSatisfiable(tests: readonly AtomTest[]): boolean {
  const values = textValues(tests);
  const { starts = NOTHING, ends = NOTHING, contains = NOTHING, notContains = NOTHING, notStarts = NOTHING, notEnds = NOTHING } = values;
  // Every string contains, starts and ends with the empty string.
  if (notContains.includes('') || notStarts.includes('') || notEnds.includes('')) return false;
  if (!pairwiseCompatible(starts, true) || !pairwiseCompatible(ends, false)) return false;
  // A required part that contains a forbidden substring.
  if (notContains.length > 0)
    for (const required of [starts, ends, contains])
      for (const req of required) for (const n of notContains) if (req.includes(n)) return false;
  for (const s of starts) for (const n of notStarts) if (s.startsWith(n)) return false;
  for (const e of ends) for (const n of notEnds) if (e.endsWith(n)) return false;
  return true;
}

/**
 * Whether some record can satisfy every atom (all on the same field).
 *
 * @example
 * satisfiable([gt5, lt3]); // false
 */
export function satisfiable(atoms: readonly Atom[]): boolean {
  if (atoms.length === 0) return true;
  let allNullOk = true;
  for (let i = 0; i < atoms.length; i++) allNullOk &&= atoms[i]!.nullOk;
  if (allNullOk) return true;
  const tests: AtomTest[] = new Array<AtomTest>(atoms.length);
  for (let i = 0; i < atoms.length; i++) tests[i] = atoms[i]!.test;
  return nonNullSatisfiable(atoms[0]!.type, tests);
}

/**
 * Whether every record satisfying `a` also satisfies `b` (same field).
 *
 * @example
 * implies(equal1, inArray123); // true
 */
export function implies(a: Atom, b: Atom): boolean {
  if (a.field !== b.field) return false;
  if (a.nullOk && !b.nullOk) return false;
  return !nonNullSatisfiable(a.type, [a.test, negateTest(b.test)]);
}
