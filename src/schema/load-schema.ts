/**
 * Reads a schema file (the JSON form of `SchemaDefinition`, described by
 * `schemas/wepql-schema.schema.json`) into a `Schema`, reporting every
 * problem with its JSON path instead of stopping at the first.
 */
import { nearestName } from '../diagnostics/suggest.js';
import type {
  DeprecationDefinition,
  FieldDefinition,
  ObjectFieldDefinition,
  ScalarFieldDefinition,
  Schema,
  SchemaDefinition,
} from './schema.js';
import { SchemaDefinitionError, defineSchema } from './schema.js';
import { IDENTIFIER_RULE, isFieldPath, isIdentifier } from '../ast/lexical.js';

/**
 * The result of `loadSchemaJson`: a schema, or undefined with at least one error.
 *
 * @example
 * const { value, errors }: LoadSchemaResult = loadSchemaJson(text);
 * if (value === undefined) console.error(errors.join('\n'));
 */
export interface LoadSchemaResult {
  readonly value: Schema | undefined;
  /** One line per problem, each starting with its JSON path (`$.fields.Gender.type: …`). */
  readonly errors: readonly string[];
}

const TYPES = ['string', 'number', 'integer', 'datetime', 'boolean', 'object'] as const;
const TOP_KEYS = ['$schema', 'title', 'description', 'version', 'fields'] as const;
const SCALAR_KEYS = ['type', 'nullable', 'filterable', 'sortable', 'description', 'renamedFrom', 'deprecated'] as const;
const OBJECT_KEYS = ['type', 'fields', 'nullable', 'description', 'renamedFrom'] as const;
const DEPRECATION_KEYS = ['replacement', 'reason'] as const;
const MAX_DEPTH = 32;
const MAX_ERRORS = 50;

/**
 * Parses and checks a schema file's text. Never throws: a problem becomes a
 * message naming where it is (`$.fields.Gender.type: unknown type "int"; …
 * did you mean "integer"?`). Checks JSON syntax, the top-level shape
 * (`fields`, optional `$schema`, `title`, `description`, `version`), each field's
 * `type` (string, number, integer, datetime, boolean, object), the flags
 * (booleans), identifier field names, names that differ only in case, and
 * unknown keys (with the nearest known key), `renamedFrom` and `deprecated`.
 * Objects nest at most 32 deep. The schema's `definition` holds only
 * `fields` and `version`.
 *
 * @example
 * const { value, errors } = loadSchemaJson('{"fields":{"LastName":{"type":"string"}}}');
 * value?.lookup('lastname'); // { found: 'field', field: { name: 'LastName', … }, exactCase: false }
 * loadSchemaJson('{"fields":{"Gender":{"type":"int"}}}').errors;
 * // ['$.fields.Gender.type: unknown type "int"; expected one of string, number, integer, datetime, boolean, object (did you mean "integer"?)']
 */
export function loadSchemaJson(text: string): LoadSchemaResult {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    return { value: undefined, errors: [`$: not valid JSON: ${e instanceof Error ? e.message : String(e)}`] };
  }
  const errors: string[] = [];
  const report = (path: string, message: string): void => {
    if (errors.length < MAX_ERRORS) errors.push(`${path}: ${message}`);
    else if (errors.length === MAX_ERRORS) errors.push(`$: stopped after ${MAX_ERRORS} problems`);
  };
  if (!isObject(json)) {
    report('$', `a schema file must be a JSON object with "fields", not ${describe(json)}`);
    return { value: undefined, errors };
  }
  checkKeys(json, '$', TOP_KEYS, report);
  for (const key of ['$schema', 'title', 'description'] as const) {
    if (Object.hasOwn(json, key) && typeof own(json, key) !== 'string')
      report(`$.${key}`, `must be a string, not ${describe(own(json, key))}`);
  }
  let version: string | number | undefined;
  if (Object.hasOwn(json, 'version')) {
    const v = own(json, 'version');
    if (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) version = v;
    else report('$.version', `must be a string or a number, not ${describe(v)}`);
  }
  let fields: Record<string, FieldDefinition> | undefined;
  if (!Object.hasOwn(json, 'fields')) report('$', 'missing "fields", the object mapping field names to definitions');
  else fields = checkFields(own(json, 'fields'), '$.fields', 0, report);
  if (errors.length > 0 || fields === undefined) return { value: undefined, errors };

  const definition: SchemaDefinition = { fields, ...(version === undefined ? {} : { version }) };
  try {
    return { value: defineSchema(definition), errors: [] };
  } catch (e) {
    // The checks above mirror defineSchema's; this only catches a rule added there later.
    const message = e instanceof SchemaDefinitionError ? `$.${e.message}` : `$: ${String(e)}`;
    return { value: undefined, errors: [message] };
  }
}

type Report = (path: string, message: string) => void;

function checkFields(value: unknown, path: string, depth: number, report: Report): Record<string, FieldDefinition> | undefined {
  if (!isObject(value)) {
    report(path, `must be an object mapping field names to definitions, not ${describe(value)}`);
    return undefined;
  }
  if (depth > MAX_DEPTH) {
    report(path, `objects nest deeper than ${MAX_DEPTH} levels`);
    return undefined;
  }
  const out: Record<string, FieldDefinition> = {};
  const folded = new Map<string, string>();
  let ok = true;
  for (const name of Object.keys(value)) {
    const at = `${path}${memberPath(name)}`;
    if (!isIdentifier(name)) {
      report(at, `field name ${JSON.stringify(name)} is not an identifier; names must match ${IDENTIFIER_RULE}`);
      ok = false;
      continue;
    }
    const other = folded.get(name.toLowerCase());
    if (other !== undefined) {
      report(at, `field name "${name}" differs only in case from "${other}"; field names resolve case-insensitively`);
      ok = false;
      continue;
    }
    folded.set(name.toLowerCase(), name);
    const def = checkField(own(value, name), at, depth, report);
    if (def === undefined) ok = false;
    // defineProperty: a field named `__proto__` must stay an own field.
    else Object.defineProperty(out, name, { value: def, enumerable: true, writable: true, configurable: true });
  }
  return ok ? out : undefined;
}

/**
 * Checks one field definition. Problems are reported in a fixed order — the
 * type, then `description`, `nullable` and `renamedFrom`, then the members
 * of its kind — so a file's messages read the same on every run.
 */
function checkField(value: unknown, path: string, depth: number, report: Report): FieldDefinition | undefined {
  if (!isObject(value)) {
    report(path, `must be an object with a "type", not ${describe(value)}`);
    return undefined;
  }
  const type = checkType(value, path, report);
  if (type === undefined) return undefined;
  const members = new MemberReader(value, path, report);
  const common: CommonMembers = {
    description: members.text('description'),
    nullable: members.flag('nullable'),
    renamedFrom: members.renamedFrom(),
  };
  return type === 'object' ? checkObjectField(members, common, depth) : checkScalarField(members, type, common);
}

type ScalarTypeName = Exclude<(typeof TYPES)[number], 'object'>;

/** The members both kinds of field may have; undefined when absent or wrong. */
interface CommonMembers {
  readonly description: string | undefined;
  readonly nullable: boolean | undefined;
  readonly renamedFrom: string | readonly string[] | undefined;
}

/** The field's `type`, one of `TYPES`; undefined (reported) when missing or unknown. */
function checkType(value: object, path: string, report: Report): (typeof TYPES)[number] | undefined {
  if (!Object.hasOwn(value, 'type')) {
    report(path, `missing "type"; expected one of ${TYPES.join(', ')}`);
    return undefined;
  }
  const type = own(value, 'type');
  if (typeof type === 'string' && (TYPES as readonly string[]).includes(type)) return type as (typeof TYPES)[number];
  const near = typeof type === 'string' ? nearestName(type, TYPES) : undefined;
  report(
    `${path}.type`,
    `unknown type ${short(type)}; expected one of ${TYPES.join(', ')}` + (near === undefined ? '' : ` (did you mean "${near}"?)`),
  );
  return undefined;
}

/** An object field: its keys, then its nested `fields` one level deeper. */
function checkObjectField(members: MemberReader, common: CommonMembers, depth: number): ObjectFieldDefinition | undefined {
  const { value, path, report } = members;
  members.keys(OBJECT_KEYS);
  if (!Object.hasOwn(value, 'fields')) {
    report(path, 'an object field needs "fields", the object mapping its field names to definitions');
    return undefined;
  }
  const fields = checkFields(own(value, 'fields'), `${path}.fields`, depth + 1, report);
  if (!members.ok || fields === undefined) return undefined;
  const { nullable, description, renamedFrom } = common;
  return withoutUnset<ObjectFieldDefinition>({ type: 'object', nullable, description, renamedFrom, fields });
}

/** A scalar field: its keys, the `filterable` and `sortable` flags and `deprecated`. */
function checkScalarField(members: MemberReader, type: ScalarTypeName, common: CommonMembers): ScalarFieldDefinition | undefined {
  members.keys(SCALAR_KEYS);
  const filterable = members.flag('filterable');
  const sortable = members.flag('sortable');
  const deprecated = members.deprecated();
  if (!members.ok) return undefined;
  const { nullable, description, renamedFrom } = common;
  return withoutUnset<ScalarFieldDefinition>({ type, nullable, filterable, sortable, description, renamedFrom, deprecated });
}

/**
 * Reads the members of one object of a schema file (a field definition, a
 * `deprecated` object), reporting each wrong one under its path and
 * remembering that one was wrong.
 */
class MemberReader {
  /** False once a member was reported. */
  ok = true;

  constructor(
    readonly value: object,
    readonly path: string,
    readonly report: Report,
  ) {}

  /** Reports keys outside `known`. */
  keys(known: readonly string[]): void {
    if (!checkKeys(this.value, this.path, known, this.report)) this.ok = false;
  }

  /** A boolean member. */
  flag(key: string): boolean | undefined {
    if (!Object.hasOwn(this.value, key)) return undefined;
    const v = own(this.value, key);
    if (typeof v === 'boolean') return v;
    return this.fail(key, `must be true or false, not ${describe(v)}`);
  }

  /** A string member. */
  text(key: string): string | undefined {
    if (!Object.hasOwn(this.value, key)) return undefined;
    const v = own(this.value, key);
    if (typeof v === 'string') return v;
    return this.fail(key, `must be a string, not ${describe(v)}`);
  }

  /** `renamedFrom`: a field path or a non-empty array of them. */
  renamedFrom(): string | readonly string[] | undefined {
    if (!Object.hasOwn(this.value, 'renamedFrom')) return undefined;
    const r = own(this.value, 'renamedFrom');
    const names = typeof r === 'string' ? [r] : Array.isArray(r) ? (r as unknown[]) : undefined;
    if (names !== undefined && names.length > 0 && names.every((n) => typeof n === 'string' && isFieldPath(n))) {
      return typeof r === 'string' ? r : (names as string[]);
    }
    return this.fail('renamedFrom', `must be a field name (or dotted path), or an array of them, not ${describe(r)}`);
  }

  /** `deprecated`: a boolean, or an object with a `replacement` path and/or a `reason`. */
  deprecated(): boolean | DeprecationDefinition | undefined {
    if (!Object.hasOwn(this.value, 'deprecated')) return undefined;
    const d = own(this.value, 'deprecated');
    if (typeof d === 'boolean') return d;
    if (!isObject(d)) {
      return this.fail('deprecated', `must be true, false or an object with "replacement" and/or "reason", not ${describe(d)}`);
    }
    const inner = new MemberReader(d, `${this.path}.deprecated`, this.report);
    inner.keys(DEPRECATION_KEYS);
    const replacement = inner.fieldPath('replacement');
    const reason = inner.text('reason');
    if (!inner.ok) this.ok = false;
    return withoutUnset<DeprecationDefinition>({ replacement, reason });
  }

  /** A member naming one field by its path. */
  private fieldPath(key: string): string | undefined {
    if (!Object.hasOwn(this.value, key)) return undefined;
    const v = own(this.value, key);
    if (typeof v === 'string' && isFieldPath(v)) return v;
    return this.fail(key, `must be a field name (or dotted path), not ${describe(v)}`);
  }

  private fail(key: string, message: string): undefined {
    this.report(`${this.path}.${key}`, message);
    this.ok = false;
    return undefined;
  }
}

/**
 * `members` without the ones left undefined, keeping the order given: the
 * definition keeps a schema file's members in one order whatever the file's.
 */
function withoutUnset<T extends object>(members: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined)) as T;
}

/** Reports keys outside `known`, suggesting the nearest; true when there were none. */
function checkKeys(value: object, path: string, known: readonly string[], report: Report): boolean {
  let ok = true;
  for (const key of Object.keys(value)) {
    if (known.includes(key)) continue;
    if (known === OBJECT_KEYS && (key === 'filterable' || key === 'sortable')) {
      report(`${path}.${key}`, `"${key}" applies to scalar fields only; set it on the object's fields`);
      ok = false;
      continue;
    }
    const near = nearestName(key, known);
    report(
      `${path}${memberPath(key)}`,
      `unknown key; expected ${known.map((k) => `"${k}"`).join(', ')}` + (near === undefined ? '' : ` (did you mean "${near}"?)`),
    );
    ok = false;
  }
  return ok;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON.parse makes only data properties; reading the descriptor keeps `__proto__` an ordinary key. */
function own(object: object, key: string): unknown {
  return Object.getOwnPropertyDescriptor(object, key)?.value;
}

function memberPath(key: string): string {
  return isIdentifier(key) || key === '$schema' ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'string' ? 'the string' : typeof value === 'number' ? 'the number' : 'the value'} ${short(value)}`;
}
