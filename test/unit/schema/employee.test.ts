import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { employeeSchema, employeeSchemaDefinition } from '../../../src/schema/employee-schema.js';
import { loadSchemaJson } from '../../../src/index.js';

const root = new URL('../../../', import.meta.url);
const employeeJson = JSON.parse(readFileSync(new URL('schemas/employee.json', root), 'utf8')) as Record<string, unknown>;
const metaSchema = JSON.parse(readFileSync(new URL('schemas/wepql-schema.schema.json', root), 'utf8')) as Record<string, unknown>;

// Every field of the API's employee record except `Files` (an array).
const API_FIELDS: ReadonlyArray<readonly [string, string, boolean]> = [
  ...['Id', 'W2Id', 'ClientId', 'EmployeeNumber'].map((n) => [n, 'integer', false] as const),
  ...['FirstName', 'LastName', 'MiddleName', 'OtherNames', 'NickName', 'Suffix', 'Ssn'].map((n) => [n, 'string', false] as const),
  ['Gender', 'integer', true],
  ['BirthOn', 'datetime', false],
  ...['PersonalEmail', 'WorkEmail', 'PersonalPhone', 'CellPhone', 'WorkPhone', 'WorkCellPhone'].map((n) => [n, 'string', false] as const),
  ['ResidentialAddressId', 'integer', true],
  ...['PeoHireDate', 'OrigHireDate', 'LastPaidOn', 'LastEarnedWagesOn', 'BenefitWaitPeriodStart'].map(
    (n) => [n, 'datetime', true] as const,
  ),
  ...[
    'EePortal',
    'EligibleForRehire',
    'EligibleFor401k',
    'SetupFeeCharged',
    'TerminationFeeCharged',
    'ForcePrintPaystub',
    'Handicaped',
    'Blind',
    'Deceased',
    'HCE',
  ].map((n) => [n, 'boolean', false] as const),
  ...['IdentificationType', 'VeteranStatus', 'Citizenship', 'Checklist', 'Source', 'RowStatus'].map((n) => [n, 'integer', false] as const),
  ...['DrivingLicense', 'DrivingLicenseClass', 'DrivingLicenseState', 'ClockNumber', 'VisaType'].map((n) => [n, 'string', false] as const),
  ['CreatedOn', 'datetime', false],
  ['ModifiedOn', 'datetime', false],
];

describe('employeeSchema', () => {
  it("has every field of the API's employee record, in the API's order, with its type and optionality", () => {
    expect(employeeSchema.fields.map((f) => [f.name, f.type, f.nullable])).toEqual(API_FIELDS);
    expect(employeeSchema.fields.every((f) => f.filterable && f.sortable)).toBe(true);
  });

  it.each(API_FIELDS.map(([name, type]) => [name, type]))('resolves %s (%s) in any case', (name, type) => {
    expect(employeeSchema.lookup(name.toUpperCase())).toMatchObject({ found: 'field', field: { name, type } });
  });

  it('leaves Files out', () => {
    expect(employeeSchema.lookup('Files')).toEqual({ found: 'none' });
  });

  it('equals schemas/employee.json', () => {
    const { $schema, ...definition } = employeeJson;
    expect($schema).toBe('./wepql-schema.schema.json');
    expect(definition).toEqual(employeeSchemaDefinition);
    const loaded = loadSchemaJson(JSON.stringify(employeeJson));
    expect(loaded.errors).toEqual([]);
    expect(loaded.value!.definition).toEqual(employeeSchema.definition);
    expect(loaded.value!.fields).toEqual(employeeSchema.fields);
  });
});

// A small interpreter for the JSON Schema keywords wepql-schema.schema.json
// uses; an unknown keyword fails the test so the file cannot outgrow it.
type JsonSchema = boolean | Record<string, unknown>;
const ANNOTATIONS = new Set(['$schema', '$id', '$defs', 'title', 'description', 'default']);

function validateJson(value: unknown, schema: JsonSchema, at = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${at}: not allowed`];
  const errors: string[] = [];
  for (const [keyword, arg] of Object.entries(schema)) {
    if (ANNOTATIONS.has(keyword) || keyword === 'then' || keyword === 'else') continue;
    switch (keyword) {
      case '$ref': {
        const path = (arg as string).replace(/^#\//, '').split('/');
        let target: unknown = metaSchema;
        for (const seg of path) target = (target as Record<string, unknown>)[seg];
        errors.push(...validateJson(value, target as JsonSchema, at));
        break;
      }
      case 'type': {
        const ok = arg === 'object' ? typeof value === 'object' && value !== null && !Array.isArray(value) : typeof value === arg;
        if (!ok) errors.push(`${at}: expected ${String(arg)}`);
        break;
      }
      case 'enum':
        if (!(arg as unknown[]).includes(value)) errors.push(`${at}: not in enum`);
        break;
      case 'const':
        if (value !== arg) errors.push(`${at}: not ${JSON.stringify(arg)}`);
        break;
      case 'required':
        if (isObj(value)) for (const k of arg as string[]) if (!Object.hasOwn(value, k)) errors.push(`${at}: missing ${k}`);
        break;
      case 'properties':
        if (isObj(value)) {
          for (const [k, sub] of Object.entries(arg as Record<string, JsonSchema>)) {
            if (Object.hasOwn(value, k)) errors.push(...validateJson(value[k], sub, `${at}.${k}`));
          }
        }
        break;
      case 'additionalProperties':
        if (isObj(value)) {
          const declared = (schema['properties'] ?? {}) as Record<string, unknown>;
          for (const k of Object.keys(value)) {
            if (!Object.hasOwn(declared, k)) errors.push(...validateJson(value[k], arg as JsonSchema, `${at}.${k}`));
          }
        }
        break;
      case 'propertyNames':
        if (isObj(value)) {
          const pattern = new RegExp((arg as { pattern: string }).pattern, 'u');
          for (const k of Object.keys(value)) if (!pattern.test(k)) errors.push(`${at}: bad name ${k}`);
        }
        break;
      case 'if': {
        const branch = validateJson(value, arg as JsonSchema, at).length === 0 ? schema['then'] : schema['else'];
        if (branch !== undefined) errors.push(...validateJson(value, branch as JsonSchema, at));
        break;
      }
      default:
        throw new Error(`the test's JSON Schema interpreter does not know "${keyword}"`);
    }
  }
  return errors;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

describe('schemas/wepql-schema.schema.json', () => {
  it('is a draft 2020-12 JSON Schema', () => {
    expect(metaSchema['$schema']).toBe('https://json-schema.org/draft/2020-12/schema');
  });

  it('accepts schemas/employee.json', () => {
    expect(validateJson(employeeJson, metaSchema)).toEqual([]);
  });

  it.each([
    ['a nested object schema', { fields: { A: { type: 'object', nullable: true, fields: { B: { type: 'datetime', sortable: false } } } } }],
    ['an empty schema', { fields: {} }],
  ])('accepts %s, as loadSchemaJson does', (_title, doc) => {
    expect(validateJson(doc, metaSchema)).toEqual([]);
    expect(loadSchemaJson(JSON.stringify(doc)).errors).toEqual([]);
  });

  it.each([
    ['no fields', {}],
    ['an unknown type', { fields: { A: { type: 'int' } } }],
    ['a non-identifier name', { fields: { 'a b': { type: 'string' } } }],
    ['a misspelt flag', { fields: { A: { type: 'string', nulable: true } } }],
    ['a non-boolean flag', { fields: { A: { type: 'string', nullable: 'yes' } } }],
    ['an object without fields', { fields: { A: { type: 'object' } } }],
    ['filterable on an object', { fields: { A: { type: 'object', filterable: false, fields: {} } } }],
    ['an unknown top-level key', { fields: {}, extra: 1 }],
  ])('refuses %s, as loadSchemaJson does', (_title, doc) => {
    expect(validateJson(doc, metaSchema)).not.toEqual([]);
    expect(loadSchemaJson(JSON.stringify(doc)).errors).not.toEqual([]);
  });
});

describe('nullable objects', () => {
  it('a field inside a nullable object is nullable', async () => {
    const { defineSchema } = await import('../../../src/index.js');
    const schema = defineSchema({
      fields: {
        Home: {
          type: 'object',
          nullable: true,
          fields: { Zip: { type: 'string' }, Geo: { type: 'object', fields: { Lat: { type: 'number' } } } },
        },
        Work: { type: 'object', fields: { Zip: { type: 'string' } } },
      },
    });
    const byName = new Map(schema.fields.map((f) => [f.name, f.nullable]));
    expect(Object.fromEntries(byName)).toEqual({ 'Home.Zip': true, 'Home.Geo.Lat': true, 'Work.Zip': false });
  });
});
