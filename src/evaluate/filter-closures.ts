/**
 * The closure back end: composes one small specialised closure per plan
 * node. Slower than generated code but needs no `new Function`, so it runs
 * under a Content-Security-Policy without `unsafe-eval`.
 */
import type { PositiveRelation } from '../ast/operator-facts.js';
import { passesTest } from '../ast/operator-facts.js';
import type { TextPosition } from '../ast/operators.js';
import type { RecordPredicate } from './options.js';
import type { PlanNode, PlanTest, PlanValue } from './plan.js';
import { isFieldHolder } from '../schema/read-field.js';
import { typedFieldReader } from './typed-reader.js';

type Getter = (record: unknown) => PlanValue | null;

const EMPTY_SET: ReadonlySet<PlanValue> = new Set();

type Check = (x: PlanValue) => boolean;
type Make = (get: Getter, k: PlanValue, negated: boolean) => RecordPredicate;

// Closures specialised by the operator's facts (ast/operator-facts.ts), so a
// record costs one field read and one comparison, as hand-written code
// would: no inner call for a comparison or a text test.
const RELATIONS: Readonly<Record<PositiveRelation, Make>> = {
  '=': (get, k, negated) =>
    negated
      ? (r) => {
          const x = get(r);
          return x !== null && x !== k;
        }
      : (r) => {
          const x = get(r);
          return x !== null && x === k;
        },
  '<': (get, k, negated) =>
    positiveOrNot(
      get,
      negated,
      (x) => x < k,
      (r) => {
        const x = get(r);
        return x !== null && x < k;
      },
    ),
  '<=': (get, k, negated) =>
    positiveOrNot(
      get,
      negated,
      (x) => x <= k,
      (r) => {
        const x = get(r);
        return x !== null && x <= k;
      },
    ),
  '>': (get, k, negated) =>
    positiveOrNot(
      get,
      negated,
      (x) => x > k,
      (r) => {
        const x = get(r);
        return x !== null && x > k;
      },
    ),
  '>=': (get, k, negated) =>
    positiveOrNot(
      get,
      negated,
      (x) => x >= k,
      (r) => {
        const x = get(r);
        return x !== null && x >= k;
      },
    ),
};

const POSITIONS: Readonly<Record<TextPosition, Make>> = {
  contains: (get, k, negated) => {
    const s = k as string;
    return negated
      ? (r) => {
          const x = get(r);
          return x !== null && !(x as string).includes(s);
        }
      : (r) => {
          const x = get(r);
          return x !== null && (x as string).includes(s);
        };
  },
  starts: (get, k, negated) => {
    const s = k as string;
    return negated
      ? (r) => {
          const x = get(r);
          return x !== null && !(x as string).startsWith(s);
        }
      : (r) => {
          const x = get(r);
          return x !== null && (x as string).startsWith(s);
        };
  },
  ends: (get, k, negated) => {
    const s = k as string;
    return negated
      ? (r) => {
          const x = get(r);
          return x !== null && !(x as string).endsWith(s);
        }
      : (r) => {
          const x = get(r);
          return x !== null && (x as string).endsWith(s);
        };
  },
};

/** The specialised positive form, or the negation of a check (no operator negates an order relation today). */
function positiveOrNot(get: Getter, negated: boolean, check: Check, positive: RecordPredicate): RecordPredicate {
  if (!negated) return positive;
  return (r) => {
    const x = get(r);
    return x !== null && !check(x);
  };
}

/** A list or null test: true on null exactly when the facts say so. */
function withNull(get: Getter, negated: boolean, nullMatches: boolean, check: Check): RecordPredicate {
  if (nullMatches) {
    return negated
      ? (r) => {
          const x = get(r);
          return x === null || !check(x);
        }
      : (r) => {
          const x = get(r);
          return x === null || check(x);
        };
  }
  return negated
    ? (r) => {
        const x = get(r);
        return x !== null && !check(x);
      }
    : (r) => {
        const x = get(r);
        return x !== null && check(x);
      };
}

function compileTest(test: PlanTest): RecordPredicate {
  const get: Getter = typedFieldReader(test.path, test.type, test.fold);
  const { test: valueTest, negated, nullMatches } = test.facts;
  const k = test.value as PlanValue;
  if (valueTest.kind === 'present' && nullMatches === negated) return negated ? (r) => get(r) === null : (r) => get(r) !== null;
  if (valueTest.kind === 'compare' && !nullMatches) return RELATIONS[valueTest.relation](get, k, negated);
  if (valueTest.kind === 'text' && !nullMatches) return POSITIONS[valueTest.position](get, k, negated);
  return withNull(get, negated, nullMatches, checkOf(test));
}

function checkOf(test: PlanTest): Check {
  const facts = test.facts;
  const k = test.value as PlanValue;
  switch (facts.test.kind) {
    case 'compare': {
      const { relation } = facts.test;
      return (x) => passesTest({ kind: 'compare', relation }, x, k, []);
    }
    case 'text': {
      const { position } = facts.test;
      return (x) => passesTest({ kind: 'text', position }, x, k, []);
    }
    case 'member': {
      const set = test.values.length > 0 ? new Set<PlanValue>(test.values) : EMPTY_SET;
      return (x) => set.has(x);
    }
    case 'present':
      return () => true;
  }
}

function compileNode(node: PlanNode): RecordPredicate {
  if (node.kind === 'test') return compileTest(node);
  const parts = node.children.map(compileNode);
  if (node.kind === 'all') {
    if (parts.length === 0) return () => true;
    if (parts.length === 1) return parts[0]!;
    if (parts.length === 2) {
      const [a, b] = parts as [RecordPredicate, RecordPredicate];
      return (r) => a(r) && b(r);
    }
    return (r) => {
      for (let i = 0; i < parts.length; i++) if (!parts[i]!(r)) return false;
      return true;
    };
  }
  if (parts.length === 0) return () => false;
  if (parts.length === 1) return parts[0]!;
  if (parts.length === 2) {
    const [a, b] = parts as [RecordPredicate, RecordPredicate];
    return (r) => a(r) || b(r);
  }
  return (r) => {
    for (let i = 0; i < parts.length; i++) if (parts[i]!(r)) return true;
    return false;
  };
}

const EMPTY_RECORD: object = Object.freeze(Object.create(null) as object);

/**
 * Builds a predicate from a plan out of closures.
 *
 * @example
 * const matches = closurePredicate(planFilter(typed, { caseSensitive: false, limits: DEFAULT_LIMITS }));
 * matches({ LastName: 'Smith' });
 */
export function closurePredicate(plan: PlanNode): RecordPredicate {
  const test = compileNode(plan);
  // A record that is not an object has no fields: every field reads as null.
  return (record) => test(isFieldHolder(record) ? record : EMPTY_RECORD);
}
