/**
 * Schema inference from sample records (docs/reference.md §"Types and values": "without
 * a schema, one is
 * inferred from sample records"), for data that comes without a schema.
 */
import type { FieldDefinition, Schema, SchemaDefinition } from './schema.js';
import { defineSchema } from './schema.js';
import { instantOf, parseDatetimeText } from './values.js';
import { isIdentifier } from '../ast/lexical.js';

/**
 * Options of `inferSchema`.
 *
 * @example
 * const options: InferSchemaOptions = { sampleSize: 500 };
 */
export interface InferSchemaOptions {
  /** How many records, from the start, to sample (default and maximum 10,000). */
  readonly sampleSize?: number;
}

/**
 * The most records `inferSchema` looks at, whatever `sampleSize` says.
 *
 * @example
 * inferSchema(records, { sampleSize: MAX_INFER_SAMPLE });
 */
export const MAX_INFER_SAMPLE = 10_000;
/** Objects nested deeper than this are left out (`defineSchema`'s own bound). */
const MAX_INFER_DEPTH = 32;

/** What the samples of one key held, across every record where its parent object was present. */
interface KeyStats {
  /** Samples that were absent, null, undefined or a non-finite number. */
  nulls: number;
  strings: number;
  /** Whether some string did not parse as a datetime. */
  nonDatetimeString: boolean;
  dates: number;
  numbers: number;
  /** Numbers that were not safe integers. */
  fractions: number;
  booleans: number;
  objects: number;
  /** Arrays, bigints, functions, symbols, non-plain objects: make the field unusable. */
  others: number;
  /** Stats of an object's keys, in first-seen order. */
  children: Map<string, KeyStats> | undefined;
  /** Lower-cased child names, to skip a key differing only in case from an earlier one. */
  folded: Map<string, string> | undefined;
}

function newStats(): KeyStats {
  return {
    nulls: 0,
    strings: 0,
    nonDatetimeString: false,
    dates: 0,
    numbers: 0,
    fractions: 0,
    booleans: 0,
    objects: 0,
    others: 0,
    children: undefined,
    folded: undefined,
  };
}

/**
 * Infers a schema from sample records, looking at the first `sampleSize`
 * records (at most 10,000) and objects nested at most 32 deep.
 *
 * - JSON types decide field types: strings are `string`, numbers `number`
 *   (`integer` when every sample is a safe integer), booleans `boolean`.
 * - A field whose every non-null sample is a datetime string (as
 *   `parseDatetimeText` reads it) or a `Date` is `datetime`.
 * - A nested plain object becomes an `object` field with its own fields.
 * - A field missing, `undefined` or `null` in some sampled record is
 *   `nullable` (for a nested field, also when its parent object is absent).
 * - Left out: fields holding arrays, objects that contain themselves
 *   (cycles), fields whose samples mix types (other
 *   than integers with fractions, or datetime strings with `Date`s),
 *   fields that are null in every sample, objects with no usable field,
 *   and any other JavaScript value (bigint, function, class instance).
 * - Only own enumerable data properties are read (`__proto__` and
 *   `constructor` are ordinary names, never reached through the prototype
 *   chain; getters are not called). Keys that are not identifiers
 *   (`[A-Za-z_][A-Za-z0-9_]*`) are skipped, and so is a key differing only in
 *   case from one seen earlier in the same object. Records that are not
 *   plain objects are skipped.
 *
 * @example
 * const schema = inferSchema([
 *   { Id: 1, Name: 'Ann', HiredOn: '2024-01-31', Address: { Zip: '10001' } },
 *   { Id: 2, Name: 'Bob', HiredOn: null },
 * ]);
 * schema.definition.fields;
 * // { Id: { type: 'integer' }, Name: { type: 'string' }, HiredOn: { type: 'datetime', nullable: true },
 * //   Address: { type: 'object', nullable: true, fields: { Zip: { type: 'string', nullable: true } } } }
 */
export function inferSchema(records: readonly unknown[], options: InferSchemaOptions = {}): Schema {
  const requested = options.sampleSize ?? MAX_INFER_SAMPLE;
  const size = Math.max(
    0,
    Math.min(MAX_INFER_SAMPLE, Math.floor(Number.isFinite(requested) ? requested : MAX_INFER_SAMPLE), records.length),
  );
  const root = newStats();
  let sampled = 0;
  for (let i = 0; i < size; i++) {
    const record = records[i];
    if (!isPlainObject(record)) continue;
    sampled++;
    observeObject(root, record, 0, new Set([record]));
  }
  const fields = sampled === 0 ? {} : buildFields(root);
  const definition: SchemaDefinition = { fields };
  return defineSchema(definition);
}

function isPlainObject(value: unknown): value is object {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Reads an own enumerable data property without running getters. */
function ownValue(object: object, key: string): unknown {
  const descriptor = Object.getOwnPropertyDescriptor(object, key);
  return descriptor !== undefined && 'value' in descriptor ? descriptor.value : undefined;
}

function observeObject(stats: KeyStats, object: object, depth: number, ancestors: Set<object>): void {
  stats.objects++;
  const children = (stats.children ??= new Map());
  const folded = (stats.folded ??= new Map());
  const present = new Set<string>();
  for (const key of Object.keys(object)) {
    if (!isIdentifier(key)) continue;
    const spelling = folded.get(key.toLowerCase());
    if (spelling !== undefined && spelling !== key) continue;
    if (spelling === undefined) {
      folded.set(key.toLowerCase(), key);
      const child = newStats();
      // A key first seen in a later record was absent, hence null, in the earlier ones.
      child.nulls = stats.objects - 1;
      children.set(key, child);
    }
    present.add(key);
    observeValue(children.get(key)!, ownValue(object, key), depth + 1, ancestors);
  }
  for (const [key, child] of children) if (!present.has(key)) child.nulls++;
}

function observeValue(stats: KeyStats, value: unknown, depth: number, ancestors: Set<object>): void {
  if (value === null || value === undefined) stats.nulls++;
  else if (typeof value === 'string') {
    stats.strings++;
    // Once one string is not a datetime the field is a string: stop parsing.
    if (!stats.nonDatetimeString && parseDatetimeText(value) === undefined) stats.nonDatetimeString = true;
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) stats.nulls++;
    else {
      stats.numbers++;
      if (!Number.isSafeInteger(value)) stats.fractions++;
    }
  } else if (typeof value === 'boolean') stats.booleans++;
  else if (value instanceof Date) {
    // A fake or out-of-range Date counts as null, as the evaluator reads it.
    if (instantOf(value) === undefined) stats.nulls++;
    else stats.dates++;
  } else if (isPlainObject(value) && depth <= MAX_INFER_DEPTH && !ancestors.has(value)) {
    ancestors.add(value);
    observeObject(stats, value, depth, ancestors);
    ancestors.delete(value);
  } else stats.others++;
}

function buildFields(stats: KeyStats): Record<string, FieldDefinition> {
  const fields: Record<string, FieldDefinition> = {};
  for (const [key, child] of stats.children ?? []) {
    const def = buildField(child);
    // defineProperty: a key named `__proto__` must become an own field, not a prototype.
    if (def !== undefined) Object.defineProperty(fields, key, { value: def, enumerable: true, writable: true, configurable: true });
  }
  return fields;
}

function buildField(stats: KeyStats): FieldDefinition | undefined {
  if (stats.others > 0) return undefined;
  const kinds = [stats.strings + stats.dates > 0, stats.numbers > 0, stats.booleans > 0, stats.objects > 0];
  if (kinds.filter(Boolean).length !== 1) return undefined;
  const nullable = stats.nulls > 0;
  const extra = nullable ? { nullable: true } : {};
  if (stats.objects > 0) {
    const fields = buildFields(stats);
    if (Object.keys(fields).length === 0) return undefined;
    // A nested field is null wherever its parent object is absent.
    const withParentNulls = nullable ? markNullable(fields) : fields;
    return { type: 'object', ...extra, fields: withParentNulls };
  }
  if (stats.strings + stats.dates > 0) {
    if (!stats.nonDatetimeString) return { type: 'datetime', ...extra };
    if (stats.dates > 0) return undefined;
    return { type: 'string', ...extra };
  }
  if (stats.numbers > 0) return { type: stats.fractions > 0 ? 'number' : 'integer', ...extra };
  return { type: 'boolean', ...extra };
}

function markNullable(fields: Record<string, FieldDefinition>): Record<string, FieldDefinition> {
  const out: Record<string, FieldDefinition> = {};
  for (const key of Object.keys(fields)) {
    const def = fields[key]!;
    const value: FieldDefinition =
      def.type === 'object' ? { ...def, nullable: true, fields: markNullable(def.fields) } : { ...def, nullable: true };
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
