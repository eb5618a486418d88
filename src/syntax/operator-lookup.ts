/**
 * Operator lookup for the parser: the operator a head's last segment names,
 * read from the text without slicing it. Names resolve by comparing
 * character codes against the operator names bucketed by length and first
 * letter: no string hashing, no lower-casing (a Map lookup keyed by the
 * freshly sliced name was a tenth of parse time). An ASCII case-insensitive
 * match is also a `toLowerCase` match, so the answer is `canonicalOperator`'s
 * (src/ast/operators.ts); anything else is answered by `canonicalOperator`
 * itself. What the operator means is read from `OPERATORS`, never here.
 */
import { canonicalOperator, FILTER_OPERATORS, OPERATORS, type FilterOperator, type OperatorKind } from '../ast/operators.js';

/**
 * An operator as the lookup answers it: its name and its argument shape, read once from `OPERATORS`.
 *
 * @example
 * const named: NamedOperator = { op: 'InArray', arity: 'list', lower: 'inarray' };
 */
export interface NamedOperator {
  readonly op: FilterOperator;
  readonly arity: OperatorKind;
  /** The name in lower case, compared code by code with the text. */
  readonly lower: string;
}

function named(op: FilterOperator): NamedOperator {
  return { op, arity: OPERATORS[op].arity, lower: op.toLowerCase() };
}

function bucketKey(length: number, firstCode: number): number {
  return length * 32 + (firstCode & 31);
}

// Dense, with every slot its own property: a hole or a read past the end
// would find whatever a polluted Object.prototype holds at that index.
const OPERATOR_BUCKETS: (NamedOperator[] | undefined)[] = Array.from(
  { length: bucketKey(Math.max(...FILTER_OPERATORS.map((op) => op.length)), 31) + 1 },
  () => undefined,
);
for (const op of FILTER_OPERATORS) {
  (OPERATOR_BUCKETS[bucketKey(op.length, op.charCodeAt(0))] ??= []).push(named(op));
}

/**
 * The operator (with its shape) that `text[start, end)` names, in any case; undefined when it names none.
 *
 * @example
 * operatorAt('A.isnull()', 2, 8)?.op; // 'IsNull'
 */
export function operatorAt(text: string, start: number, end: number): NamedOperator | undefined {
  const length = end - start;
  const key = bucketKey(length, text.charCodeAt(start));
  const bucket = key < OPERATOR_BUCKETS.length ? OPERATOR_BUCKETS[key] : undefined;
  if (bucket !== undefined) {
    next: for (const entry of bucket) {
      const lower = entry.lower;
      for (let i = 0; i < length; i++) if ((text.charCodeAt(start + i) | 0x20) !== lower.charCodeAt(i)) continue next;
      return entry;
    }
  }
  const op = canonicalOperator(text.slice(start, end));
  return op === undefined ? undefined : named(op);
}
