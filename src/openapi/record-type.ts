/**
 * The TypeScript record type of a schema, for `where<T>()` and `orderBy<T>()`:
 * what `wepql schema --types` prints, so an SDK gets its types from the same
 * schema file (or API document) the server validates with.
 */
import type { FieldDefinition, Schema } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';

/**
 * Options of `recordTypeFor`.
 *
 * @example
 * recordTypeFor(employeeSchema, { name: 'Employee', sdkModule: 'wepql/sdk' } satisfies RecordTypeOptions);
 */
export interface RecordTypeOptions {
  /** The interface's name; default `Record`. Must be an identifier. */
  readonly name?: string;
  /** Where `FIELD_TYPES` is imported from; default `wepql/sdk`. */
  readonly sdkModule?: string;
}

const TS_TYPE: Readonly<Record<ScalarType, string>> = {
  string: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  // Records carry datetimes as ISO 8601 text; FIELD_TYPES tells the builder they are datetimes.
  datetime: 'string',
};

/**
 * TypeScript source declaring the record type of a schema: one property per
 * field (nullable fields optional, as list envelopes omit them), nested
 * objects inline, and a `[FIELD_TYPES]` entry for every integer and datetime
 * field so the builder offers the right operators and values.
 *
 * @example
 * recordTypeFor(defineSchema({ fields: { Id: { type: 'integer' }, BirthOn: { type: 'datetime' } } }), { name: 'Person' });
 * // import type { FIELD_TYPES } from 'wepql/sdk';
 * //
 * // export interface Person {
 * //   readonly [FIELD_TYPES]?: { readonly Id: 'integer'; readonly BirthOn: 'datetime' };
 * //   Id: number;
 * //   BirthOn: string;
 * // }
 */
export function recordTypeFor(schema: Schema, options: RecordTypeOptions = {}): string {
  const name = options.name ?? 'Record';
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
    throw new TypeError(`recordTypeFor: ${JSON.stringify(name)} is not a TypeScript identifier`);
  const kinds = schema.fields
    .filter((f) => f.type === 'integer' || f.type === 'datetime')
    .map((f) => `readonly ${key(f.name)}: '${f.type}'`);
  const lines = [
    `import type { FIELD_TYPES } from '${(options.sdkModule ?? 'wepql/sdk').replace(/[\\']/g, '\\$&')}';`,
    '',
    `export interface ${name} {`,
  ];
  if (kinds.length > 0) lines.push(`  readonly [FIELD_TYPES]?: { ${kinds.join('; ')} };`);
  lines.push(...members(schema.definition.fields, '  '), '}', '');
  return lines.join('\n');
}

function members(fields: Readonly<Record<string, FieldDefinition>>, indent: string): string[] {
  const out: string[] = [];
  for (const name of Object.keys(fields)) {
    const def = fields[name]!;
    if (def.description !== undefined) out.push(`${indent}/** ${def.description.replace(/\*\//g, '*\\/')} */`);
    const optional = def.nullable === true ? '?' : '';
    if (def.type === 'object') {
      out.push(`${indent}${name}${optional}: {`, ...members(def.fields, `${indent}  `), `${indent}};`);
    } else {
      out.push(`${indent}${name}${optional}: ${TS_TYPE[def.type]};`);
    }
  }
  return out;
}

function key(path: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(path) ? path : `'${path}'`;
}
