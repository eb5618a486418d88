/**
 * What changed between two versions of a schema, field by field: the facts
 * `wepql schema diff` prints and `wepql lint --previous-schema` checks saved
 * filters against. A field of the previous schema is matched in the next one
 * by its name (case-insensitively, as filters resolve names) or by a
 * `renamedFrom` entry of a next field.
 */
import type { ResolvedField, Schema } from './schema.js';
import type { ScalarType } from './values.js';

/**
 * How a type change treats the values and operators of existing filters.
 *
 * - `same-meaning`: every value keeps converting and comparing the same way
 *   (integer → number).
 * - `meaning-changes`: values still convert but compare differently (a
 *   number becomes text: `10` now sorts before `9`).
 * - `may-break`: some values or operators stop applying (text → integer:
 *   `StartsWith` and non-numeric values are refused).
 *
 * @example
 * const impact: RetypeImpact = retypeImpact('integer', 'string'); // 'meaning-changes'
 */
export type RetypeImpact = 'same-meaning' | 'meaning-changes' | 'may-break';

/**
 * One change between two schemas.
 *
 * @example
 * const change: SchemaChange = { kind: 'renamed', field: 'Surname', to: 'LastName', previous, next };
 */
export type SchemaChange =
  | { readonly kind: 'removed'; readonly field: string; readonly previous: ResolvedField }
  | { readonly kind: 'added'; readonly field: string; readonly next: ResolvedField }
  | {
      readonly kind: 'renamed';
      /** The previous name. */
      readonly field: string;
      readonly to: string;
      readonly previous: ResolvedField;
      readonly next: ResolvedField;
    }
  | {
      readonly kind: 'retyped';
      /** The next schema's name of the field. */
      readonly field: string;
      readonly from: ScalarType;
      readonly to: ScalarType;
      readonly impact: RetypeImpact;
      readonly previous: ResolvedField;
      readonly next: ResolvedField;
    }
  | {
      readonly kind: 'nullability';
      readonly field: string;
      readonly nullable: boolean;
      readonly previous: ResolvedField;
      readonly next: ResolvedField;
    }
  | {
      readonly kind: 'capability';
      readonly field: string;
      /** What the field can no longer (or now can) do. */
      readonly filterable: boolean;
      readonly sortable: boolean;
      readonly previous: ResolvedField;
      readonly next: ResolvedField;
    }
  | { readonly kind: 'deprecated'; readonly field: string; readonly next: ResolvedField };

/**
 * The result of `diffSchemas`.
 *
 * @example
 * const diff: SchemaDiff = diffSchemas(previous, next);
 * diff.matches.get('Surname')?.name; // 'LastName'
 */
export interface SchemaDiff {
  readonly previousVersion?: string | number;
  readonly nextVersion?: string | number;
  /** Every change, in the previous schema's field order, then added fields. */
  readonly changes: readonly SchemaChange[];
  /** Each previous field's name (lower-cased) → the next field it became; removed fields are absent. */
  readonly matches: ReadonlyMap<string, ResolvedField>;
}

/**
 * How a filter written for type `from` fares when its field becomes `to`.
 *
 * @example
 * retypeImpact('integer', 'number'); // 'same-meaning'
 * retypeImpact('number', 'integer'); // 'may-break' (1.5 no longer converts)
 * retypeImpact('datetime', 'string'); // 'meaning-changes'
 */
export function retypeImpact(from: ScalarType, to: ScalarType): RetypeImpact {
  if (from === to || (from === 'integer' && to === 'number')) return 'same-meaning';
  // Every value text converts to a string; what changes is how it compares.
  if (to === 'string') return 'meaning-changes';
  return 'may-break';
}

/**
 * The changes from `previous` to `next`.
 *
 * @example
 * const diff = diffSchemas(
 *   defineSchema({ fields: { Surname: { type: 'string' }, Age: { type: 'integer' } } }),
 *   defineSchema({ fields: { LastName: { type: 'string', renamedFrom: 'Surname' }, Age: { type: 'string' } } }),
 * );
 * diff.changes.map((c) => c.kind); // ['renamed', 'retyped']
 */
export function diffSchemas(previous: Schema, next: Schema): SchemaDiff {
  const byEarlier = new Map<string, ResolvedField>();
  for (const f of next.fields) for (const old of f.renamedFrom ?? []) byEarlier.set(old.toLowerCase(), f);
  const changes: SchemaChange[] = [];
  const matches = new Map<string, ResolvedField>();
  const matchedNext = new Set<ResolvedField>();
  for (const p of previous.fields) {
    const key = p.name.toLowerCase();
    const hit = next.lookup(p.name);
    // A current field of the same name wins over an earlier name: the field was kept.
    const n = hit.found === 'field' ? hit.field : byEarlier.get(key);
    if (n === undefined) {
      changes.push({ kind: 'removed', field: p.name, previous: p });
      continue;
    }
    matches.set(key, n);
    matchedNext.add(n);
    if (n.name !== p.name) changes.push({ kind: 'renamed', field: p.name, to: n.name, previous: p, next: n });
    if (n.type !== p.type) {
      changes.push({
        kind: 'retyped',
        field: n.name,
        from: p.type,
        to: n.type,
        impact: retypeImpact(p.type, n.type),
        previous: p,
        next: n,
      });
    }
    if (n.nullable !== p.nullable) changes.push({ kind: 'nullability', field: n.name, nullable: n.nullable, previous: p, next: n });
    if (n.filterable !== p.filterable || n.sortable !== p.sortable) {
      changes.push({ kind: 'capability', field: n.name, filterable: n.filterable, sortable: n.sortable, previous: p, next: n });
    }
    if (n.deprecated !== undefined && p.deprecated === undefined) changes.push({ kind: 'deprecated', field: n.name, next: n });
  }
  for (const n of next.fields) {
    if (matchedNext.has(n)) continue;
    changes.push({ kind: 'added', field: n.name, next: n });
    if (n.deprecated !== undefined) changes.push({ kind: 'deprecated', field: n.name, next: n });
  }
  const version = (s: Schema) => s.definition.version;
  return {
    ...(version(previous) === undefined ? {} : { previousVersion: version(previous)! }),
    ...(version(next) === undefined ? {} : { nextVersion: version(next)! }),
    changes,
    matches,
  };
}

/**
 * Whether a diff holds a change that can break a saved filter (a removed
 * field, a type change that may refuse values, a field no longer
 * filterable or sortable) rather than only warn about it.
 *
 * @example
 * isBreaking(diffSchemas(previous, next)); // true when a field was removed
 */
export function isBreaking(diff: SchemaDiff): boolean {
  return diff.changes.some(
    (c) =>
      c.kind === 'removed' ||
      (c.kind === 'retyped' && c.impact === 'may-break') ||
      (c.kind === 'capability' && ((c.previous.filterable && !c.filterable) || (c.previous.sortable && !c.sortable))),
  );
}

/**
 * One line of plain text per change, as `wepql schema diff` prints them.
 *
 * @example
 * describeChange({ kind: 'removed', field: 'Suffix', previous }); // 'removed    Suffix (string)'
 */
export function describeChange(c: SchemaChange): string {
  switch (c.kind) {
    case 'removed':
      return `removed    ${c.field} (${c.previous.type})`;
    case 'added':
      return `added      ${c.field} (${c.next.type}${c.next.nullable ? ', nullable' : ''})`;
    case 'renamed':
      return `renamed    ${c.field} → ${c.to}`;
    case 'retyped': {
      const why =
        c.impact === 'same-meaning'
          ? 'values keep their meaning'
          : c.impact === 'meaning-changes'
            ? 'values now compare as text'
            : 'some values or operators no longer apply';
      return `retyped    ${c.field}: ${c.from} → ${c.to} (${why})`;
    }
    case 'nullability':
      return `nullable   ${c.field}: ${c.nullable ? 'may now be null' : 'is no longer nullable'}`;
    case 'capability': {
      const can = (b: boolean, what: string) => `${b ? '' : 'not '}${what}`;
      return `capability ${c.field}: now ${can(c.filterable, 'filterable')}, ${can(c.sortable, 'sortable')}`;
    }
    case 'deprecated':
      return `deprecated ${c.field}${c.next.deprecated?.replacement === undefined ? '' : ` (use ${c.next.deprecated.replacement})`}`;
  }
}
