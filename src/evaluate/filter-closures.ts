/**
 * The closure back end: composes one small specialised closure per plan
 * node. Slower than generated code but needs no `new Function`, so it runs
 * under a Content-Security-Policy without `unsafe-eval`.
 */
import type { RecordPredicate } from './options.js';
import type { PlanNode, PlanTest, PlanValue } from './plan.js';
import { isFieldHolder } from './read-field.js';
import { typedFieldReader } from './typed-reader.js';

type Getter = (record: unknown) => PlanValue | null;

const EMPTY_SET: ReadonlySet<PlanValue> = new Set();

function compileTest(test: PlanTest): RecordPredicate {
  const get: Getter = typedFieldReader(test.path, test.type, test.fold);
  const k = test.value as PlanValue;
  const s = k as string;
  const set = test.values.length > 0 ? new Set<PlanValue>(test.values) : EMPTY_SET;
  switch (test.operator) {
    case 'Equal':
      return (r) => {
        const x = get(r);
        return x !== null && x === k;
      };
    case 'NotEqual':
      return (r) => {
        const x = get(r);
        return x !== null && x !== k;
      };
    case 'LessThan':
      return (r) => {
        const x = get(r);
        return x !== null && x < k;
      };
    case 'LessThanOrEqual':
      return (r) => {
        const x = get(r);
        return x !== null && x <= k;
      };
    case 'GreaterThan':
      return (r) => {
        const x = get(r);
        return x !== null && x > k;
      };
    case 'GreaterThanOrEqual':
      return (r) => {
        const x = get(r);
        return x !== null && x >= k;
      };
    case 'Contains':
      return (r) => {
        const x = get(r);
        return x !== null && (x as string).includes(s);
      };
    case 'StartsWith':
      return (r) => {
        const x = get(r);
        return x !== null && (x as string).startsWith(s);
      };
    case 'EndsWith':
      return (r) => {
        const x = get(r);
        return x !== null && (x as string).endsWith(s);
      };
    case 'NotContains':
      return (r) => {
        const x = get(r);
        return x !== null && !(x as string).includes(s);
      };
    case 'NotStartsWith':
      return (r) => {
        const x = get(r);
        return x !== null && !(x as string).startsWith(s);
      };
    case 'NotEndsWith':
      return (r) => {
        const x = get(r);
        return x !== null && !(x as string).endsWith(s);
      };
    case 'IsNull':
      return (r) => get(r) === null;
    case 'IsNotNull':
      return (r) => get(r) !== null;
    case 'InArray':
      return (r) => {
        const x = get(r);
        return x !== null && set.has(x);
      };
    case 'InArrayOrNull':
      return (r) => {
        const x = get(r);
        return x === null || set.has(x);
      };
    case 'NotInArray':
      return (r) => {
        const x = get(r);
        return x !== null && !set.has(x);
      };
    case 'NotInArrayOrNull':
      return (r) => {
        const x = get(r);
        return x === null || !set.has(x);
      };
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
