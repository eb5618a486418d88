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
}


/**
 * Turns a JSON Schema object (an OpenAPI component, say) into a wepql schema
 * definition: `string` → string (`format: date-time` or `date` → datetime),
 * `integer`, `number`, `boolean`, nested `object`s with `properties`;
 * a property is nullable when it is not `required` or its type allows
 * `null` (`type: [T, 'null']`, `nullable: true`, or `anyOf`/`oneOf` with a null
 * branch). Arrays and properties without a usable type are skipped and
 * listed in `skipped`; local `$ref`s are resolved against `document`. Reads
 * own properties only and never throws on what it is given.
 *
 * @example
 * schemaFromJsonSchema({ type: 'object', required: ['Id'], properties: { Id: { type: 'integer' }, HiredOn: { type: 'string', format: 'date-time' } } }).definition;
 * // { fields: { Id: { type: 'integer' }, HiredOn: { type: 'datetime', nullable: true } } }
 */
export function schemaFromJsonSchema(jsonSchema: unknown, options: FromJsonSchemaOptions = {}): FromJsonSchemaResult {
  const skipped: string[] = [];
  const maxDepth = options.maxDepth ?? 8;
  const resolve = (node: unknown, path: string, seen: ReadonlySet<string>): { node: unknown; seen: ReadonlySet<string> } | undefined => {
    let current = node;
    let chain = seen;
    for (let hops = 0; isObject(current) && typeof own(current, '$ref') === 'string'; hops++) {
      const ref = own(current, '$ref') as string;
      if (chain.has(ref) || hops > 32) {
        skipped.push(`${path}: $ref ${ref} refers to itself`);
        return undefined;
      }
      const target = pointer(options.document, ref);
      if (target === undefined) {
        skipped.push(`${path}: $ref ${ref} cannot be resolved${options.document === undefined ? ' (no document given)' : ''}`);
        return undefined;
      }
      chain = new Set([...chain, ref]);
      current = target;
    }
    return { node: current, seen: chain };
  };

  const readObject = (node: unknown, path: string, depth: number, seen: ReadonlySet<string>): Record<string, FieldDefinition> => {
    const fields: Record<string, FieldDefinition> = {};
    const lowerNames = new Set<string>();
    // `__proto__` is a valid field name: define it as an own property rather than setting the prototype.
    const put = (name: string, def: FieldDefinition): void => {
      Object.defineProperty(fields, name, { value: def, enumerable: true, writable: true, configurable: true });
    };
    const resolved = resolve(node, path, seen);
    if (resolved === undefined || !isObject(resolved.node)) return fields;
    const props = collectProperties(resolved.node, (n, p) => resolve(n, p, resolved.seen)?.node, path);
    for (const [name, { schema: prop, required }] of props) {
      const at = `${path}.${name}`;
      if (!isIdentifier(name)) {
        skipped.push(`${at}: the name is not an identifier ${IDENTIFIER_RULE}`);
        continue;
      }
      // Field names resolve case-insensitively, so two that differ only in case cannot both be fields.
      if (lowerNames.has(name.toLowerCase())) {
        skipped.push(`${at}: differs only in case from an earlier property`);
        continue;
      }
      const inner = resolve(prop, at, resolved.seen);
      if (inner === undefined) continue;
      const shape = shapeOf(inner.node);
      if (shape === undefined) {
        skipped.push(`${at}: no scalar or object type wepql can filter (${describe(inner.node)})`);
        continue;
      }
      const nullable = !required || shape.nullable;
      const description = isObject(inner.node) && typeof own(inner.node, 'description') === 'string' ? { description: own(inner.node, 'description') as string } : {};
      if (shape.type === 'object') {
        if (depth >= maxDepth) {
          skipped.push(`${at}: nested deeper than ${maxDepth} objects`);
          continue;
        }
        const nested = readObject(shape.node, at, depth + 1, inner.seen);
        if (Object.keys(nested).length === 0) {
          skipped.push(`${at}: an object without usable properties`);
          continue;
        }
        put(name, { type: 'object', fields: nested, ...(nullable ? { nullable: true } : {}), ...description });
      } else {
        const field: ScalarFieldDefinition = { type: shape.type, ...(nullable ? { nullable: true } : {}), ...description };
        put(name, field);
      }
      lowerNames.add(name.toLowerCase());
    }
    return fields;
  };

  return { definition: { fields: readObject(jsonSchema, '$', 0, new Set()) }, skipped };
}

/** Properties of an object schema, `allOf` parts merged in order. */
function collectProperties(
  node: Record<string, unknown>,
  resolve: (node: unknown, path: string) => unknown,
  path: string,
): Map<string, { schema: unknown; required: boolean }> {
  const out = new Map<string, { schema: unknown; required: boolean }>();
  const visit = (n: unknown, depth: number): void => {
    if (!isObject(n) || depth > 16) return;
    const allOf = own(n, 'allOf');
    if (Array.isArray(allOf)) for (const part of allOf) visit(resolve(part, path), depth + 1);
    const required = own(n, 'required');
    const requiredSet = new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : []);
    const props = own(n, 'properties');
    if (isObject(props)) for (const name of Object.keys(props)) out.set(name, { schema: props[name], required: requiredSet.has(name) });
    for (const name of requiredSet) {
      const known = out.get(name);
      if (known !== undefined) out.set(name, { ...known, required: true });
    }
  };
  visit(node, 0);
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

/** A local JSON pointer (`#/components/schemas/Employee`) into the document. */
function pointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let at: unknown = document;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
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
