/**
 * A deliberately simple interpreter of docs/reference.md §"Filter semantics" and §"Sort semantics", written apart from
 * src/evaluate (it shares only `recordValueAs` from src/schema/values.ts), so
 * that properties can compare the fast evaluator, and the SQL compiler's
 * results, with an obviously correct one.
 *
 * - `referenceMatches(filter, record, options)`: does the record match?
 * - `referenceCompare(sort, a, b, options)`: the order of two records.
 * - `referenceSort(records, sort, options)`: a stable sort (insertion sort).
 */
import type { ResolvedField, TypedFilter, TypedFilterNode, TypedScalar, TypedSort } from '../../src/index.js';
import { recordValueAs } from '../../src/schema/values.js';

/** Options of the reference evaluator. */
export interface ReferenceOptions {
  /** Compare strings exactly (default false: `toLowerCase()` on both sides). */
  readonly caseSensitive?: boolean;
}

type Plain = string | number | boolean;

/** Walks own properties of plain (non-array) objects; anything else is absent. */
function lookUp(record: unknown, path: readonly string[]): unknown {
  let here: unknown = record;
  for (const segment of path) {
    if (here === null || typeof here !== 'object' || Array.isArray(here)) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(here, segment);
    if (descriptor === undefined) return undefined;
    here = descriptor.get !== undefined ? descriptor.get.call(here) : descriptor.value;
  }
  return here;
}

/** The record's value as the field's type, or null. Strings folded unless case-sensitive. */
function fieldValue(record: unknown, field: ResolvedField, options: ReferenceOptions): Plain | null {
  const value = recordValueAs(lookUp(record, field.path), field.type);
  if (typeof value === 'string' && options.caseSensitive !== true) return value.toLowerCase();
  return value;
}

/** A filter value as the same plain form. */
function constant(value: TypedScalar, options: ReferenceOptions): Plain {
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'string' && options.caseSensitive !== true) return value.toLowerCase();
  return value;
}

function test(operator: string, x: Plain | null, k: Plain | undefined, list: readonly Plain[]): boolean {
  const inList = x !== null && list.some((v) => v === x);
  switch (operator) {
    case 'IsNull':
      return x === null;
    case 'IsNotNull':
      return x !== null;
    case 'InArrayOrNull':
      return x === null || inList;
    case 'NotInArrayOrNull':
      return x === null || !inList;
  }
  if (x === null) return false;
  switch (operator) {
    case 'Equal':
      return x === k;
    case 'NotEqual':
      return x !== k;
    case 'LessThan':
      return (x as number) < (k as number);
    case 'LessThanOrEqual':
      return (x as number) <= (k as number);
    case 'GreaterThan':
      return (x as number) > (k as number);
    case 'GreaterThanOrEqual':
      return (x as number) >= (k as number);
    case 'Contains':
      return (x as string).indexOf(k as string) !== -1;
    case 'NotContains':
      return (x as string).indexOf(k as string) === -1;
    case 'StartsWith':
      return (x as string).slice(0, (k as string).length) === k;
    case 'NotStartsWith':
      return (x as string).slice(0, (k as string).length) !== k;
    case 'EndsWith':
      return (k as string).length === 0 || (x as string).slice(-(k as string).length) === k;
    case 'NotEndsWith':
      return !((k as string).length === 0 || (x as string).slice(-(k as string).length) === k);
    case 'InArray':
      return inList;
    case 'NotInArray':
      return !inList;
  }
  throw new Error(`reference evaluator: unknown operator ${operator}`);
}

function matchesNode(node: TypedFilterNode, record: unknown, options: ReferenceOptions): boolean {
  switch (node.kind) {
    case 'group': {
      const results = node.children.map((child) => matchesNode(child, record, options));
      return node.operator === 'And' ? results.every(Boolean) : results.some(Boolean);
    }
    case 'comparison':
      return test(node.operator, fieldValue(record, node.field, options), constant(node.value, options), []);
    case 'null-check':
      return test(node.operator, fieldValue(record, node.field, options), undefined, []);
    case 'list':
      return test(
        node.operator,
        fieldValue(record, node.field, options),
        undefined,
        node.values.map((v) => constant(v, options)),
      );
    case 'in-fields': {
      const base = node.operator.replace(/InFields$/, '');
      return node.fields.some((field, i) => test(base, fieldValue(record, field, options), constant(node.values[i]!, options), []));
    }
  }
}

/**
 * Whether a record matches a typed filter (docs/reference.md §"Filter semantics").
 *
 * @example
 * referenceMatches(filter, { Name: 'Smith' }); // true for Name.StartsWith('sm')
 */
export function referenceMatches(filter: TypedFilter, record: unknown, options: ReferenceOptions = {}): boolean {
  return filter.clauses.every((clause) => matchesNode(clause, record, options));
}

/** Code points of a string, as numbers. */
function codePoints(text: string): number[] {
  return Array.from(text, (c) => c.codePointAt(0)!);
}

function compareValues(a: Plain | null, b: Plain | null): number {
  if (a === null && b === null) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  if (typeof a === 'string' && typeof b === 'string') {
    const x = codePoints(a);
    const y = codePoints(b);
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
    return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
  }
  const x = Number(a);
  const y = Number(b);
  return x === y ? 0 : x < y ? -1 : 1;
}

/**
 * Compares two records by a typed sort (docs/reference.md §"Sort semantics"): -1, 0 or 1.
 *
 * @example
 * referenceCompare(sort, { Name: 'a' }, { Name: 'B' }); // -1 under Name=Asc
 */
export function referenceCompare(sort: TypedSort, a: unknown, b: unknown, options: ReferenceOptions = {}): number {
  for (const key of sort.keys) {
    const c = compareValues(fieldValue(a, key.field, options), fieldValue(b, key.field, options));
    if (c !== 0) return key.direction === 'Desc' ? -c : c;
  }
  return 0;
}

/**
 * A stable sort by insertion: each record goes after every record that is
 * not greater than it.
 *
 * @example
 * referenceSort(records, sort).map((r) => r.Name);
 */
export function referenceSort<T>(records: readonly T[], sort: TypedSort, options: ReferenceOptions = {}): T[] {
  const out: T[] = [];
  for (const record of records) {
    let at = out.length;
    while (at > 0 && referenceCompare(sort, out[at - 1], record, options) > 0) at--;
    out.splice(at, 0, record);
  }
  return out;
}
