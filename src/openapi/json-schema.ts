/**
 * wepql schemas and JSON Schema (2020-12, as OpenAPI 3.1 uses it), both
 * ways: the record type of a list endpoint for an API document, and a wepql
 * schema definition from the JSON Schema or OpenAPI component an API already
 * publishes.
 */
import { IDENTIFIER_RULE, isIdentifier } from '../ast/lexical.js';
import type { FieldDefinition, ScalarFieldDefinition, Schema, SchemaDefinition } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';

/**
 * A JSON Schema object (only the keywords wepql reads and writes are typed).
 *
 * @example
 * const s: JsonSchema = { type: 'object', properties: { Id: { type: 'integer' } }, required: ['Id'] };
 */
export interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly format?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly description?: string;
  readonly $ref?: string;
  readonly [keyword: string]: unknown;
}

/**
 * The JSON Schema of one record of a list: an object with every field of the
 * schema; optional (nullable) fields are not required and may be `null`,
 * datetimes are `date-time` strings. Nested objects become nested schemas.
 *
 * @example
 * jsonSchemaFor(defineSchema({ fields: { Id: { type: 'integer' }, BirthOn: { type: 'datetime', nullable: true } } }));
 * // { type: 'object', properties: { Id: { type: 'integer' }, BirthOn: { type: ['string', 'null'], format: 'date-time' } }, required: ['Id'] }
 */
export function jsonSchemaFor(schema: Schema): JsonSchema {
  return objectSchema(schema.definition.fields);
}

function objectSchema(fields: Readonly<Record<string, FieldDefinition>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of Object.keys(fields)) {
    const def = fields[name]!;
    const nullable = def.nullable === true;
    if (!nullable) required.push(name);
    const described = def.description === undefined ? {} : { description: def.description };
    if (def.type === 'object') {
      const inner = objectSchema(def.fields);
      properties[name] = { ...inner, type: nullable ? ['object', 'null'] : 'object', ...described };
      continue;
    }
    const { type, format } = JSON_TYPE[def.type];
    properties[name] = { type: nullable ? [type, 'null'] : type, ...(format === undefined ? {} : { format }), ...described };
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

const JSON_TYPE: Readonly<Record<ScalarType, { type: string; format?: string }>> = {
  string: { type: 'string' },
  number: { type: 'number' },
  integer: { type: 'integer' },
  boolean: { type: 'boolean' },
  datetime: { type: 'string', format: 'date-time' },
};

/**
 * Options of `schemaFromJsonSchema`.
 *
 * @example
 * schemaFromJsonSchema(doc.components.schemas.Employee, { document: doc });
 */
export interface FromJsonSchemaOptions {
  /** The whole document, to resolve local `$ref`s such as `#/components/schemas/Address`. */
  readonly document?: unknown;
  /** How deep nested objects are followed (default 8); deeper ones are skipped with a note. */
  readonly maxDepth?: number;
  /**
   * How many fields, nested ones included, the definition may have (default
   * 10,000). A document whose `$ref`s are shared along many paths expands
   * each path into fields of its own, so a small document can describe a
   * huge record: reading stops at this many, with a note in `skipped`.
   */
  readonly maxFields?: number;
}

/**
 * A wepql schema definition read from JSON Schema, and what could not be carried over.
 *
 * @example
 * const { definition, skipped } = schemaFromJsonSchema(component); defineSchema(definition);
 */
export interface FromJsonSchemaResult {
  readonly definition: SchemaDefinition;
  /** One line per property left out (arrays, untyped values, bad names…), starting with its path. */
  readonly skipped: readonly string[];
  /** True when reading stopped at `maxFields` (or the bound on properties examined): `definition` holds only part of the record. */
  readonly truncated: boolean;
}

/** Properties examined at most, whatever `maxFields` says: a bound on time for any document. */
const MAX_STEPS = 200_000;

/** One read in progress: the notes, the budgets, and objects already expanded. */
interface Reader {
  readonly document: unknown;
  readonly maxDepth: number;
  readonly maxFields: number;
  readonly skipped: string[];
  /** Expanded objects by node and depth, when their expansion does not depend on the path that reached them. */
  readonly memo: Map<object, Map<number, Expanded>>;
  fields: number;
  steps: number;
  stopped: boolean;
}

/** An object's fields, how many fields they hold in all, and the `$ref`s outside it that cut a cycle inside it. */
interface Expanded {
  readonly fields: Record<string, FieldDefinition>;
  readonly size: number;
  readonly cycles: ReadonlySet<string>;
}

/** A node with its `$ref`s followed: the target, the refs on the way there, and the refs followed to reach it. */
type Resolved =
  | { readonly node: unknown; readonly chain: ReadonlySet<string>; readonly refs: readonly string[] }
  | { readonly cycle?: string };

/**
 * Turns a JSON Schema object (an OpenAPI component, say) into a wepql schema
 * definition: `string` → string (`format: date-time` or `date` → datetime),
 * `integer`, `number`, `boolean`, nested `object`s with `properties`;
 * a property is nullable when it is not `required` or its type allows
 * `null` (`type: [T, 'null']`, `nullable: true`, or `anyOf`/`oneOf` with a null
 * branch). Arrays and properties without a usable type are skipped and
 * listed in `skipped`; local `$ref`s are resolved against `document`. A
 * component reached along many paths is expanded once and reused, and the
 * whole definition is bounded by `maxFields` (time by a fixed number of
 * properties examined): beyond, reading stops with a note. Reads own
 * properties only and never throws on what it is given.
 *
 * @example
 * schemaFromJsonSchema({ type: 'object', required: ['Id'], properties: { Id: { type: 'integer' }, HiredOn: { type: 'string', format: 'date-time' } } }).definition;
 * // { fields: { Id: { type: 'integer' }, HiredOn: { type: 'datetime', nullable: true } } }
 */
export function schemaFromJsonSchema(jsonSchema: unknown, options: FromJsonSchemaOptions = {}): FromJsonSchemaResult {
  const reader: Reader = {
    document: options.document,
    maxDepth: options.maxDepth ?? 8,
    maxFields: options.maxFields ?? 10_000,
    skipped: [],
    memo: new Map(),
    fields: 0,
    steps: 0,
    stopped: false,
  };
  const { fields } = readObject(reader, jsonSchema, '$', 0, new Set());
  // Shared expansions are shared objects: copy so that callers get a plain tree they may change.
  return { definition: { fields: copyFields(fields) }, skipped: reader.skipped, truncated: reader.stopped };
}

function resolve(reader: Reader, node: unknown, path: string, seen: ReadonlySet<string>): Resolved {
  let current = node;
  let chain = seen;
  const refs: string[] = [];
  for (let hops = 0; isObject(current) && typeof own(current, '$ref') === 'string'; hops++) {
    const ref = own(current, '$ref') as string;
    if (chain.has(ref) || hops > 32) {
      reader.skipped.push(`${path}: $ref ${ref} refers to itself`);
      return { cycle: ref };
    }
    const target = pointer(reader.document, ref);
    if (!target.ok) {
      reader.skipped.push(`${path}: $ref ${ref} ${target.reason}${reader.document === undefined ? ' (no document given)' : ''}`);
      return {};
    }
    chain = new Set([...chain, ref]);
    refs.push(ref);
    current = target.value;
  }
  return { node: current, chain, refs };
}

/** Counts one step of work; false (with one note) once a budget is spent. */
function spend(reader: Reader, path: string, fields: number): boolean {
  if (reader.stopped) return false;
  reader.steps++;
  if (reader.steps <= MAX_STEPS && reader.fields + fields <= reader.maxFields) {
    reader.fields += fields;
    return true;
  }
  reader.stopped = true;
  const why =
    reader.steps > MAX_STEPS ? `more than ${MAX_STEPS} properties to examine` : `more than ${reader.maxFields} fields (maxFields)`;
  reader.skipped.push(
    `${path}: reading stopped: the schema expands to ${why}, as $refs shared along many paths multiply; the fields read so far are kept`,
  );
  return false;
}

function readObject(reader: Reader, node: unknown, path: string, depth: number, seen: ReadonlySet<string>): Expanded {
  const resolved = resolve(reader, node, path, seen);
  if (!('node' in resolved) || !isObject(resolved.node)) {
    return { fields: {}, size: 0, cycles: new Set('cycle' in resolved && resolved.cycle !== undefined ? [resolved.cycle] : []) };
  }
  const known = reader.memo.get(resolved.node)?.get(depth);
  if (known !== undefined) return spend(reader, path, known.size) ? known : { fields: {}, size: 0, cycles: new Set() };
  const expanded = readProperties(reader, resolved.node, path, depth, resolved.chain);
  // Cycles cut at this object's own refs happen wherever it is reached; any other cycle depends on the path here.
  const cycles = new Set([...expanded.cycles].filter((ref) => !resolved.refs.includes(ref)));
  const result = { ...expanded, cycles };
  if (cycles.size === 0 && !reader.stopped) {
    let byDepth = reader.memo.get(resolved.node);
    if (byDepth === undefined) reader.memo.set(resolved.node, (byDepth = new Map()));
    byDepth.set(depth, result);
  }
  return result;
}

function readProperties(reader: Reader, node: Record<string, unknown>, path: string, depth: number, chain: ReadonlySet<string>): Expanded {
  const fields: Record<string, FieldDefinition> = {};
  const cycles = new Set<string>();
  let size = 0;
  const lowerNames = new Set<string>();
  const props = collectProperties(
    node,
    (n, p) => resolve(reader, n, p, chain),
    path,
    () => spend(reader, path, 0),
  );
  for (const [name, { schema: prop, required }] of props) {
    const at = `${path}.${name}`;
    const field = readField(reader, name, prop, required, at, depth, chain, lowerNames);
    if (field === undefined) continue;
    for (const ref of field.cycles) cycles.add(ref);
    if (field.definition === undefined) continue;
    // `__proto__` is a valid field name: define it as an own property rather than setting the prototype.
    Object.defineProperty(fields, name, { value: field.definition, enumerable: true, writable: true, configurable: true });
    size += field.size;
    lowerNames.add(name.toLowerCase());
  }
  return { fields, size, cycles };
}

function readField(
  reader: Reader,
  name: string,
  prop: unknown,
  required: boolean,
  at: string,
  depth: number,
  chain: ReadonlySet<string>,
  lowerNames: ReadonlySet<string>,
): { readonly definition?: FieldDefinition; readonly size: number; readonly cycles: ReadonlySet<string> } | undefined {
  if (!spend(reader, at, 0)) return undefined;
  if (!isIdentifier(name)) return note(reader, `${at}: the name is not an identifier ${IDENTIFIER_RULE}`);
  // Field names resolve case-insensitively, so two that differ only in case cannot both be fields.
  if (lowerNames.has(name.toLowerCase())) return note(reader, `${at}: differs only in case from an earlier property`);
  const inner = resolve(reader, prop, at, chain);
  if (!('node' in inner)) return { size: 0, cycles: new Set(inner.cycle === undefined ? [] : [inner.cycle]) };
  const shape = shapeOf(inner.node);
  if (shape === undefined) return note(reader, `${at}: no scalar or object type wepql can filter (${describe(inner.node)})`);
  const nullable = !required || shape.nullable;
  const description =
    isObject(inner.node) && typeof own(inner.node, 'description') === 'string'
      ? { description: own(inner.node, 'description') as string }
      : {};
  const flags = { ...(nullable ? { nullable: true as const } : {}), ...description };
  if (shape.type !== 'object') {
    if (!spend(reader, at, 1)) return undefined;
    return { definition: { type: shape.type, ...flags } satisfies ScalarFieldDefinition, size: 1, cycles: new Set() };
  }
  if (depth >= reader.maxDepth) return note(reader, `${at}: nested deeper than ${reader.maxDepth} objects`);
  const nested = readObject(reader, shape.node, at, depth + 1, inner.chain);
  if (Object.keys(nested.fields).length === 0) {
    if (!reader.stopped) reader.skipped.push(`${at}: an object without usable properties`);
    return { size: 0, cycles: nested.cycles };
  }
  if (!spend(reader, at, 1)) return undefined;
  return { definition: { type: 'object', fields: nested.fields, ...flags }, size: nested.size + 1, cycles: nested.cycles };
}

function note(reader: Reader, line: string): { readonly size: 0; readonly cycles: ReadonlySet<string> } {
  reader.skipped.push(line);
  return { size: 0, cycles: new Set() };
}

function copyFields(fields: Readonly<Record<string, FieldDefinition>>): Record<string, FieldDefinition> {
  const out: Record<string, FieldDefinition> = {};
  for (const name of Object.keys(fields)) {
    const def = fields[name]!;
    const copy = def.type === 'object' ? { ...def, fields: copyFields(def.fields) } : { ...def };
    Object.defineProperty(out, name, { value: copy, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/**
 * Properties of an object schema, `allOf` parts merged in order (each part
 * once, however often it is named); a name is required when any part
 * requires it, as JSON Schema's `allOf` means.
 */
function collectProperties(
  node: Record<string, unknown>,
  resolve: (node: unknown, path: string) => Resolved,
  path: string,
  step: () => boolean,
): Map<string, { schema: unknown; required: boolean }> {
  const out = new Map<string, { schema: unknown; required: boolean }>();
  const required = new Set<string>();
  const visited = new Set<object>();
  const visit = (n: unknown, depth: number): void => {
    if (!isObject(n) || depth > 16 || visited.has(n) || !step()) return;
    visited.add(n);
    const allOf = own(n, 'allOf');
    if (Array.isArray(allOf)) {
      for (const part of allOf) {
        const target = resolve(part, path);
        if ('node' in target) visit(target.node, depth + 1);
      }
    }
    const names = own(n, 'required');
    if (Array.isArray(names)) for (const r of names) if (typeof r === 'string') required.add(r);
    const props = own(n, 'properties');
    if (isObject(props)) for (const name of Object.keys(props)) out.set(name, { schema: props[name], required: false });
  };
  visit(node, 0);
  for (const [name, entry] of out) if (required.has(name)) out.set(name, { ...entry, required: true });
  return out;
}

type Shape =
  | { readonly type: ScalarType; readonly nullable: boolean }
  | { readonly type: 'object'; readonly nullable: boolean; readonly node: unknown };

function shapeOf(node: unknown): Shape | undefined {
  if (!isObject(node)) return undefined;
  let nullable = own(node, 'nullable') === true;
  const branches = own(node, 'anyOf') ?? own(node, 'oneOf');
  if (Array.isArray(branches)) {
    const nonNull = branches.filter((b) => !(isObject(b) && own(b, 'type') === 'null'));
    if (nonNull.length === 1 && nonNull.length < branches.length) {
      const inner = shapeOf(nonNull[0]);
      return inner === undefined ? undefined : { ...inner, nullable: true };
    }
    return undefined;
  }
  const rawType = own(node, 'type');
  let types: string[];
  if (typeof rawType === 'string') types = [rawType];
  else if (Array.isArray(rawType)) types = rawType.filter((t): t is string => typeof t === 'string');
  else types = isObject(own(node, 'properties')) || Array.isArray(own(node, 'allOf')) ? ['object'] : [];
  if (types.includes('null')) nullable = true;
  const rest = types.filter((t) => t !== 'null');
  if (rest.length !== 1) return undefined;
  const type = rest[0]!;
  const format = own(node, 'format');
  switch (type) {
    case 'string':
      return { type: format === 'date-time' || format === 'date' ? 'datetime' : 'string', nullable };
    case 'integer':
    case 'number':
    case 'boolean':
      return { type, nullable };
    case 'object':
      return { type: 'object', nullable, node };
    default:
      return undefined;
  }
}

/** A local JSON pointer (`#/components/schemas/Employee`) into the document, or why it leads nowhere. */
function pointer(
  document: unknown,
  ref: string,
): { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string } {
  const missing = { ok: false, reason: 'cannot be resolved' } as const;
  if (!ref.startsWith('#')) return missing;
  let at: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      // A `$ref` is a URI fragment: a `%` not followed by two hex digits (or bytes that are not UTF-8) is not one.
      return {
        ok: false,
        reason: `cannot be resolved: ${JSON.stringify(raw.length > 40 ? `${raw.slice(0, 40)}…` : raw)} has a malformed % escape`,
      };
    }
    const key = decoded.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(at) || !Object.hasOwn(at, key)) return missing;
    at = at[key];
  }
  return { ok: true, value: at };
}

function describe(v: unknown): string {
  if (!isObject(v)) return JSON.stringify(v) ?? String(v);
  const t = own(v, 'type');
  return t === undefined ? 'no type' : `type ${JSON.stringify(t)}`;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function own(o: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(o, key) ? o[key] : undefined;
}
