/**
 * Reads a schema file (the JSON form of `SchemaDefinition`, described by
 * `schemas/wepql-schema.schema.json`) into a `Schema`, reporting every
 * problem with its JSON path instead of stopping at the first.
 */
import { nearestName } from '../diagnostics/suggest.js';
import type { DeprecationDefinition, FieldDefinition, Schema, SchemaDefinition } from './schema.js';
import { SchemaDefinitionError, defineSchema } from './schema.js';
import { IDENTIFIER_RULE, isIdentifier } from '../ast/lexical.js';

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
const PATH = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
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

function checkField(value: unknown, path: string, depth: number, report: Report): FieldDefinition | undefined {
  if (!isObject(value)) {
    report(path, `must be an object with a "type", not ${describe(value)}`);
    return undefined;
  }
  if (!Object.hasOwn(value, 'type')) {
    report(path, `missing "type"; expected one of ${TYPES.join(', ')}`);
    return undefined;
  }
  const type = own(value, 'type');
  if (typeof type !== 'string' || !(TYPES as readonly string[]).includes(type)) {
    const near = typeof type === 'string' ? nearestName(type, TYPES) : undefined;
    report(
      `${path}.type`,
      `unknown type ${short(type)}; expected one of ${TYPES.join(', ')}` + (near === undefined ? '' : ` (did you mean "${near}"?)`),
    );
    return undefined;
  }
  let ok = true;
  const flag = (key: string): boolean | undefined => {
    if (!Object.hasOwn(value, key)) return undefined;
    const v = own(value, key);
    if (typeof v === 'boolean') return v;
    report(`${path}.${key}`, `must be true or false, not ${describe(v)}`);
    ok = false;
    return undefined;
  };
  let description: string | undefined;
  if (Object.hasOwn(value, 'description')) {
    const d = own(value, 'description');
    if (typeof d === 'string') description = d;
    else {
      report(`${path}.description`, `must be a string, not ${describe(d)}`);
      ok = false;
    }
  }
  const nullable = flag('nullable');
  let renamedFrom: string | readonly string[] | undefined;
  if (Object.hasOwn(value, 'renamedFrom')) {
    const r = own(value, 'renamedFrom');
    const names = typeof r === 'string' ? [r] : Array.isArray(r) ? (r as unknown[]) : undefined;
    if (names === undefined || names.length === 0 || !names.every((n) => typeof n === 'string' && PATH.test(n))) {
      report(`${path}.renamedFrom`, `must be a field name (or dotted path), or an array of them, not ${describe(r)}`);
      ok = false;
    } else renamedFrom = typeof r === 'string' ? r : (names as string[]);
  }
  if (type === 'object') {
    if (!checkKeys(value, path, OBJECT_KEYS, report)) ok = false;
    if (!Object.hasOwn(value, 'fields')) {
      report(path, 'an object field needs "fields", the object mapping its field names to definitions');
      return undefined;
    }
    const fields = checkFields(own(value, 'fields'), `${path}.fields`, depth + 1, report);
    if (!ok || fields === undefined) return undefined;
    return {
      type: 'object',
      ...(nullable === undefined ? {} : { nullable }),
      ...(description === undefined ? {} : { description }),
      ...(renamedFrom === undefined ? {} : { renamedFrom }),
      fields,
    };
  }
  if (!checkKeys(value, path, SCALAR_KEYS, report)) ok = false;
  const filterable = flag('filterable');
  const sortable = flag('sortable');
  let deprecated: boolean | DeprecationDefinition | undefined;
  if (Object.hasOwn(value, 'deprecated')) {
    const d = own(value, 'deprecated');
    if (typeof d === 'boolean') deprecated = d;
    else if (isObject(d)) {
      if (!checkKeys(d, `${path}.deprecated`, DEPRECATION_KEYS, report)) ok = false;
      const replacement = own(d, 'replacement');
      const reason = own(d, 'reason');
      if (replacement !== undefined && (typeof replacement !== 'string' || !PATH.test(replacement))) {
        report(`${path}.deprecated.replacement`, `must be a field name (or dotted path), not ${describe(replacement)}`);
        ok = false;
      }
      if (reason !== undefined && typeof reason !== 'string') {
        report(`${path}.deprecated.reason`, `must be a string, not ${describe(reason)}`);
        ok = false;
      }
      deprecated = {
        ...(typeof replacement === 'string' ? { replacement } : {}),
        ...(typeof reason === 'string' ? { reason } : {}),
      };
    } else {
      report(`${path}.deprecated`, `must be true, false or an object with "replacement" and/or "reason", not ${describe(d)}`);
      ok = false;
    }
  }
  if (!ok) return undefined;
  return {
    type: type as Exclude<(typeof TYPES)[number], 'object'>,
    ...(nullable === undefined ? {} : { nullable }),
    ...(filterable === undefined ? {} : { filterable }),
    ...(sortable === undefined ? {} : { sortable }),
    ...(description === undefined ? {} : { description }),
    ...(renamedFrom === undefined ? {} : { renamedFrom }),
    ...(deprecated === undefined ? {} : { deprecated }),
  };
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
