/**
 * Schemas: which fields exist, their types, and whether they may be
 * filtered, sorted or be null. A schema is defined once (`defineSchema`, a
 * JSON file, or `inferSchema`) and resolves field names as written in a
 * filter to the schema's own spelling.
 */
import type { ScalarType } from './values.js';
import type { DeprecationDefinition, ResolvedField } from '../ast/fields.js';
import { IDENTIFIER_RULE, isIdentifier } from '../ast/lexical.js';

export type { DeprecationDefinition, ResolvedField } from '../ast/fields.js';

/**
 * A field holding a scalar value.
 *
 * @example
 * const gender: ScalarFieldDefinition = { type: 'integer', nullable: true, sortable: false };
 */
export interface ScalarFieldDefinition {
  readonly type: ScalarType;
  /** Whether the field may be null or missing (default false). */
  readonly nullable?: boolean;
  /** Whether filters may test the field (default true). */
  readonly filterable?: boolean;
  /** Whether sorts may use the field (default true). */
  readonly sortable?: boolean;
  /** Free text for documentation and completions. */
  readonly description?: string;
  /**
   * Earlier names of this field, so saved filters written before a rename can
   * be found and fixed (`wepql lint --previous-schema`). A bare name is a
   * sibling in the same object; a dotted name is a full path (a field that
   * moved into or out of an object).
   */
  readonly renamedFrom?: string | readonly string[];
  /** The field is on its way out: filters using it get a `deprecated-field` warning. */
  readonly deprecated?: boolean | DeprecationDefinition;
}

/**
 * A nested object whose fields are reached by dotted paths (`Address.Zip`).
 *
 * @example
 * const address: ObjectFieldDefinition = { type: 'object', nullable: true, fields: { Zip: { type: 'string' } } };
 */
export interface ObjectFieldDefinition {
  readonly type: 'object';
  readonly fields: Readonly<Record<string, FieldDefinition>>;
  readonly nullable?: boolean;
  readonly description?: string;
  /** Earlier names of the object; its fields' earlier paths follow (see `ScalarFieldDefinition.renamedFrom`). */
  readonly renamedFrom?: string | readonly string[];
}

/**
 * A field of a schema.
 *
 * @example
 * const field: FieldDefinition = { type: 'datetime', description: 'When the record was created.' };
 */
export type FieldDefinition = ScalarFieldDefinition | ObjectFieldDefinition;

/**
 * The shape of `defineSchema`'s argument and of a schema JSON file.
 *
 * @example
 * const definition: SchemaDefinition = { fields: { Id: { type: 'integer' }, LastName: { type: 'string' } } };
 */
export interface SchemaDefinition {
  readonly fields: Readonly<Record<string, FieldDefinition>>;
  /** The schema's own version (free form, such as `3` or `"2026-11"`), shown by `wepql schema diff`. */
  readonly version?: string | number;
}

/**
 * The result of looking up a name as written.
 *
 * @example
 * const hit: FieldLookup = schema.lookup('lastname');
 * if (hit.found === 'field') hit.field.name; // 'LastName' (hit.exactCase is false)
 */
export type FieldLookup =
  | { readonly found: 'field'; readonly field: ResolvedField; readonly exactCase: boolean }
  | { readonly found: 'object'; readonly name: string; readonly exactCase: boolean }
  | { readonly found: 'none' };

/**
 * A checked, ready-to-use schema.
 *
 * @example
 * const schema: Schema = defineSchema({ fields: { LastName: { type: 'string' } } });
 * schema.fields.map((f) => f.name); // ['LastName']
 */
export interface Schema {
  readonly definition: SchemaDefinition;
  /** Every scalar field, depth-first in definition order. */
  readonly fields: readonly ResolvedField[];
  /**
   * Looks up a dotted name: exact spelling first, then case-insensitively
   * (docs/schema.md: field names resolve case-insensitively to the schema's spelling).
   */
  lookup(name: string): FieldLookup;
}

const SCALARS: ReadonlySet<string> = new Set(['string', 'number', 'integer', 'datetime', 'boolean']);

/** A field's earlier names as full paths: a bare name is a sibling under the same parent. */
function earlierPaths(renamedFrom: string | readonly string[] | undefined, prefix: readonly string[], where: string): string[] {
  if (renamedFrom === undefined) return [];
  const names: readonly unknown[] =
    typeof renamedFrom === 'string' ? [renamedFrom] : Array.isArray(renamedFrom) ? renamedFrom : [renamedFrom];
  return names.map((n) => {
    if (typeof n !== 'string' || !n.split('.').every((s) => isIdentifier(s))) {
      throw new SchemaDefinitionError(`${where}.renamedFrom`, 'earlier names must be field names or dotted paths of field names');
    }
    return n.includes('.') ? n : [...prefix, n].join('.');
  });
}

/**
 * Thrown by `defineSchema` for a definition that cannot be a schema.
 *
 * @example
 * try {
 *   defineSchema({ fields: { Age: { type: 'int' as 'integer' } } });
 * } catch (e) {
 *   if (e instanceof SchemaDefinitionError) e.path; // 'fields.Age.type'
 * }
 */
export class SchemaDefinitionError extends Error {
  /** Where in the definition the problem is, such as `fields.Address.fields.Zip.type`. */
  readonly path: string;
  constructor(path: string, message: string) {
    super(`${path}: ${message}`);
    this.name = 'SchemaDefinitionError';
    this.path = path;
  }
}

/** What `lookup` answers for a name that is no field or object (one object: a lint asks thousands of times). */
const NO_FIELD: FieldLookup = Object.freeze({ found: 'none' });

/**
 * Checks a schema definition and builds its lookup tables. Throws
 * `SchemaDefinitionError` naming the offending path for a definition that is
 * not valid (unknown type, field name that is not an identifier, names that
 * differ only in case).
 *
 * @example
 * const schema = defineSchema({ fields: {
 *   LastName: { type: 'string' },
 *   Gender: { type: 'integer', nullable: true },
 *   Address: { type: 'object', fields: { Zip: { type: 'string' } } },
 * } });
 * schema.lookup('lastname'); // { found: 'field', field: { name: 'LastName', … }, exactCase: false }
 */
export function defineSchema<const D extends SchemaDefinition>(definition: D): Schema {
  const tables = new SchemaTables();
  tables.addFields((definition as SchemaDefinition | null)?.fields, {
    prefix: [],
    where: 'fields',
    depth: 0,
    nullable: false,
    earlier: [],
  });
  const { exact, folded } = tables;
  return Object.freeze({
    definition,
    fields: Object.freeze(tables.fields),
    lookup(name: string): FieldLookup {
      return exact.get(name) ?? folded.get(name.toLowerCase()) ?? NO_FIELD;
    },
  });
}

/** The `fields` map being read: where it is and what its fields inherit from the objects around it. */
interface FieldsMap {
  readonly prefix: readonly string[];
  /** Its path in the definition, for messages (`fields.Address.fields`). */
  readonly where: string;
  readonly depth: number;
  /** A field inside a nullable object is null whenever the object is missing. */
  readonly nullable: boolean;
  /** The earlier paths of the enclosing object, when it was renamed. */
  readonly earlier: readonly string[];
}

/** The lookup tables `defineSchema` fills while it checks a definition, depth-first. */
class SchemaTables {
  readonly fields: ResolvedField[] = [];
  readonly exact = new Map<string, FieldLookup>();
  /** Lower-case name to the answer for the name written in another case (`exactCase` false), made once. */
  readonly folded = new Map<string, FieldLookup>();
  /** Earlier name (lower case) to the field that now has it. */
  readonly #earlierOwner = new Map<string, string>();

  /** Checks and adds every field of one `fields` map. */
  addFields(defs: unknown, map: FieldsMap): void {
    if (map.depth > 32) throw new SchemaDefinitionError(map.where, 'objects nest deeper than 32 levels');
    if (typeof defs !== 'object' || defs === null || Array.isArray(defs)) {
      throw new SchemaDefinitionError(map.where, 'must be an object mapping field names to definitions');
    }
    for (const key of Object.keys(defs)) this.#addField(key, (defs as Record<string, unknown>)[key], map);
  }

  #addField(key: string, value: unknown, map: FieldsMap): void {
    const at = `${map.where}.${key}`;
    if (!isIdentifier(key)) {
      throw new SchemaDefinitionError(at, `a field name must match ${IDENTIFIER_RULE}`);
    }
    const def = value as FieldDefinition | undefined;
    if (typeof def !== 'object' || def === null) {
      throw new SchemaDefinitionError(at, 'must be an object with a "type"');
    }
    const path = [...map.prefix, key];
    const name = path.join('.');
    const earlier = allEarlierPaths(def.renamedFrom, key, map, at);
    if (def.type === 'object') {
      this.#add(name, { found: 'object', name, exactCase: true }, at);
      const nullable = map.nullable || def.nullable === true;
      this.addFields((def as ObjectFieldDefinition).fields, {
        prefix: path,
        where: `${at}.fields`,
        depth: map.depth + 1,
        nullable,
        earlier,
      });
      return;
    }
    const field = resolveScalar(def, path, map.nullable, earlier, at);
    this.#claim(earlier, name, at);
    this.fields.push(field);
    this.#add(name, { found: 'field', field, exactCase: true }, at);
  }

  #add(name: string, entry: Exclude<FieldLookup, { readonly found: 'none' }>, where: string): void {
    const key = name.toLowerCase();
    if (this.folded.has(key)) {
      throw new SchemaDefinitionError(where, `field "${name}" differs only in case from another field`);
    }
    this.exact.set(name, entry);
    this.folded.set(key, { ...entry, exactCase: false });
  }

  /** Records `name` as the owner of its earlier paths; two fields may not claim one. */
  #claim(earlier: readonly string[], name: string, where: string): void {
    for (const old of earlier) {
      const owner = this.#earlierOwner.get(old.toLowerCase());
      if (owner !== undefined && owner !== name) {
        throw new SchemaDefinitionError(`${where}.renamedFrom`, `"${old}" is already the earlier name of "${owner}"`);
      }
      this.#earlierOwner.set(old.toLowerCase(), name);
    }
  }
}

/**
 * A field's earlier paths: its own earlier names under the current parent,
 * and its current and earlier names under each earlier path of the parent.
 */
function allEarlierPaths(renamedFrom: string | readonly string[] | undefined, key: string, map: FieldsMap, at: string): string[] {
  const own = earlierPaths(renamedFrom, map.prefix, at);
  const depth = map.prefix.length + 1;
  const bare = own.filter((p) => p.split('.').length === depth).map((p) => p.split('.').pop()!);
  return [...new Set([...own, ...map.earlier.flatMap((p) => [key, ...bare].map((k) => `${p}.${k}`))])];
}

/** A scalar field as filters see it, with its defaults filled in and the nullability of the objects around it. */
function resolveScalar(
  def: ScalarFieldDefinition,
  path: readonly string[],
  parentNullable: boolean,
  earlier: readonly string[],
  at: string,
): ResolvedField {
  if (!SCALARS.has(def.type as string)) {
    throw new SchemaDefinitionError(
      `${at}.type`,
      `unknown type ${JSON.stringify(def.type)}; expected one of string, number, integer, datetime, boolean, object`,
    );
  }
  const deprecated =
    def.deprecated === true ? {} : typeof def.deprecated === 'object' && def.deprecated !== null ? def.deprecated : undefined;
  return Object.freeze({
    name: path.join('.'),
    path: Object.freeze(path),
    type: def.type,
    nullable: parentNullable || def.nullable === true,
    filterable: def.filterable !== false,
    sortable: def.sortable !== false,
    ...(def.description === undefined ? {} : { description: def.description }),
    ...(earlier.length === 0 ? {} : { renamedFrom: Object.freeze(earlier) }),
    ...(deprecated === undefined ? {} : { deprecated: Object.freeze({ ...deprecated }) }),
  });
}
