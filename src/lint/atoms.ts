/**
 * A small logic of single-field conditions, used by the semantic lint rules
 * to decide whether conditions contradict or imply one another.
 *
 * Each condition on one field becomes an `Atom`: whether a null field
 * satisfies it, and a test on non-null values. Satisfiability of a
 * conjunction of atoms on one field is decided exactly for the cases the
 * language can express on one field: finite value sets (Equal, InArray),
 * intervals with excluded points (ordered types; integers and datetimes are
 * discrete), boolean domains, and prefix/suffix/substring tests on strings.
 * Where the logic cannot decide, it answers "satisfiable", so the rules
 * never report a contradiction that is not one.
 */
import type { SingleValueOperator } from '../ast/operators.js';
import { OPERATORS } from '../ast/operators.js';
import { operatorFacts, passesTest } from '../ast/operator-facts.js';
import { comparableValue, type ScalarType } from '../schema/values.js';
import type { TypedComparison, TypedList, TypedNullCheck, TypedScalar } from '../ast/typed-tree.js';

/** A normalized non-null value: folded strings, epoch-ms datetimes. */
export type AtomValue = string | number | boolean;

/** What an atom tests on non-null values. */
export type AtomTest =
  | { readonly op: SingleValueOperator; readonly value: AtomValue }
  | { readonly op: 'InArray' | 'NotInArray'; readonly values: readonly AtomValue[] }
  | { readonly op: 'Any' | 'None' };

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
 * The atom of a single-field condition.
 *
 * @example
 * toAtom(typedEqualNode, false); // { field: 'Gender', nullOk: false, test: { op: 'Equal', value: 1 }, … }
 */
export function toAtom(node: SingleFieldCondition, caseSensitive: boolean): Atom {
  const base = { field: node.field.name, type: node.field.type };
  switch (node.kind) {
    case 'null-check':
      return OPERATORS[node.operator].nullMatches
        ? { ...base, nullOk: true, test: { op: 'None' } }
        : { ...base, nullOk: false, test: { op: 'Any' } };
    case 'comparison':
      return { ...base, nullOk: false, test: { op: node.operator, value: normalizeValue(node.value, node.field.type, caseSensitive) } };
    case 'list': {
      const values = node.values.map((v) => normalizeValue(v, node.field.type, caseSensitive));
      const info = OPERATORS[node.operator];
      return { ...base, nullOk: info.nullMatches, test: { op: info.negative ? 'NotInArray' : 'InArray', values } };
    }
  }
}

/** The test that holds on exactly the non-null values where `test` fails. */
function negateTest(test: AtomTest): AtomTest {
  switch (test.op) {
    case 'Any':
      return { op: 'None' };
    case 'None':
      return { op: 'Any' };
    case 'InArray':
      return { op: 'NotInArray', values: test.values };
    case 'NotInArray':
      return { op: 'InArray', values: test.values };
    default:
      return { op: OPERATORS[test.op].negation, value: test.value };
  }
}

/**
 * Whether a non-null normalized value passes a test.
 *
 * @example
 * passes({ op: 'StartsWith', value: 'sm' }, 'smith'); // true
 */
export function passes(test: AtomTest, v: AtomValue): boolean {
  switch (test.op) {
    case 'Any':
      return true;
    case 'None':
      return false;
    case 'InArray':
      return test.values.some((x) => x === v);
    case 'NotInArray':
      return !test.values.some((x) => x === v);
    default:
      break;
  }
  // The same rule every interpreter follows (ast/operator-facts.ts).
  const facts = operatorFacts(test.op);
  return passesTest(facts.test, v, test.value, []) !== facts.negated;
}

/** Whether some non-null value of the type passes every test. */
function nonNullSatisfiable(type: ScalarType, tests: readonly AtomTest[]): boolean {
  if (tests.some((t) => t.op === 'None')) return false;
  const finite = finiteCandidates(type, tests);
  if (finite !== undefined) return finite.some((v) => tests.every((t) => passes(t, v)));
  if (type === 'string') return stringsSatisfiable(tests);
  return orderedSatisfiable(type, tests);
}

/** The values a conjunction can take when some test pins them to a finite set. */
function finiteCandidates(type: ScalarType, tests: readonly AtomTest[]): readonly AtomValue[] | undefined {
  for (const t of tests) {
    if (t.op === 'Equal') return [t.value];
    if (t.op === 'InArray') return t.values;
  }
  return type === 'boolean' ? [false, true] : undefined;
}

/**
 * Ordered types without a finite set: intersect the bounds, then check that
 * the excluded points (NotEqual, NotInArray) do not use up what is left.
 * Integers and datetimes (whole milliseconds) are discrete.
 */
function orderedSatisfiable(type: ScalarType, tests: readonly AtomTest[]): boolean {
  let lo = -Infinity;
  let loOpen = true;
  let hi = Infinity;
  let hiOpen = true;
  const excluded = new Set<number>();
  for (const t of tests) {
    if (t.op === 'NotInArray') {
      for (const v of t.values) excluded.add(v as number);
      continue;
    }
    if (!('value' in t)) continue;
    const v = t.value as number;
    switch (t.op) {
      case 'NotEqual':
        excluded.add(v);
        break;
      case 'GreaterThan':
      case 'GreaterThanOrEqual': {
        const open = t.op === 'GreaterThan';
        if (v > lo || (v === lo && open)) {
          lo = v;
          loOpen = open;
        }
        break;
      }
      case 'LessThan':
      case 'LessThanOrEqual': {
        const open = t.op === 'LessThan';
        if (v < hi || (v === hi && open)) {
          hi = v;
          hiOpen = open;
        }
        break;
      }
      default:
        // Substring operators do not apply to ordered types; the validator rejects them.
        return true;
    }
  }
  const discrete = type === 'integer' || type === 'datetime';
  if (discrete) {
    const first = lo === -Infinity ? -Infinity : loOpen ? Math.floor(lo) + 1 : Math.ceil(lo);
    const last = hi === Infinity ? Infinity : hiOpen ? Math.ceil(hi) - 1 : Math.floor(hi);
    if (first > last) return false;
    if (first === -Infinity || last === Infinity) return true;
    let inside = 0;
    for (const x of excluded) if (Number.isInteger(x) && x >= first && x <= last) inside++;
    return last - first + 1 > inside;
  }
  if (lo < hi) return true;
  if (lo > hi) return false;
  return !loOpen && !hiOpen && !excluded.has(lo);
}

/** Strings without a finite set: prefix, suffix and substring reasoning. */
function stringsSatisfiable(tests: readonly AtomTest[]): boolean {
  const valued = tests.filter((t): t is { op: SingleValueOperator; value: AtomValue } => 'value' in t);
  const of = (op: SingleValueOperator): string[] => valued.filter((t) => t.op === op).map((t) => String(t.value));
  const starts = of('StartsWith');
  const ends = of('EndsWith');
  const contains = of('Contains');
  const notContains = of('NotContains');
  const notStarts = of('NotStartsWith');
  const notEnds = of('NotEndsWith');
  // Every string contains, starts and ends with the empty string.
  if ([...notContains, ...notStarts, ...notEnds].includes('')) return false;
  const compatible = (a: string, b: string, prefix: boolean): boolean =>
    prefix ? a.startsWith(b) || b.startsWith(a) : a.endsWith(b) || b.endsWith(a);
  for (let i = 0; i < starts.length; i++)
    for (let j = i + 1; j < starts.length; j++) if (!compatible(starts[i]!, starts[j]!, true)) return false;
  for (let i = 0; i < ends.length; i++) for (let j = i + 1; j < ends.length; j++) if (!compatible(ends[i]!, ends[j]!, false)) return false;
  // A required part that contains a forbidden substring.
  for (const req of [...starts, ...ends, ...contains]) if (notContains.some((n) => req.includes(n))) return false;
  for (const s of starts) if (notStarts.some((n) => s.startsWith(n))) return false;
  for (const e of ends) if (notEnds.some((n) => e.endsWith(n))) return false;
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
  if (atoms.every((a) => a.nullOk)) return true;
  return nonNullSatisfiable(
    atoms[0]!.type,
    atoms.map((a) => a.test),
  );
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
