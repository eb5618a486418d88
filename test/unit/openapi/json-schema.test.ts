/**
 * jsonSchemaFor and schemaFromJsonSchema: a round trip keeps every field's
 * type, nullability and nesting (property), and reading an API's JSON Schema
 * handles what real documents contain: $refs, allOf, nullable in its three
 * spellings, arrays and names wepql cannot filter on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineSchema } from '../../../src/index.js';
import type { FieldDefinition, SchemaDefinition } from '../../../src/index.js';
import { jsonSchemaFor, schemaFromJsonSchema } from '../../../src/openapi/index.js';
import { employeeSchema } from '../../../src/sample/employee-schema.js';

const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
const scalarArb: fc.Arbitrary<FieldDefinition> = fc.record(
  { type: fc.constantFrom('string', 'number', 'integer', 'datetime', 'boolean'), nullable: fc.constant(true), description: fc.string({ maxLength: 10 }) },
  { requiredKeys: ['type'] },
) as fc.Arbitrary<FieldDefinition>;
const { fields: fieldsArb } = fc.letrec((tie) => ({
  field: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalarArb,
    fc.record({ type: fc.constant('object' as const), fields: tie('fields') as fc.Arbitrary<Record<string, FieldDefinition>> }, { requiredKeys: ['type', 'fields'] }),
  ),
  // Field names are case-insensitive: no two may differ only in case.
  fields: fc
    .uniqueArray(fc.tuple(nameArb, tie('field') as fc.Arbitrary<FieldDefinition>), { minLength: 1, maxLength: 4, selector: ([n]) => n.toLowerCase() })
    .map((entries) => Object.fromEntries(entries)),
}));

/** What JSON Schema carries: types, nullability, descriptions and nesting, not filterable/sortable. */
function carried(fields: Readonly<Record<string, FieldDefinition>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(fields)) {
    const base = { ...(def.nullable ? { nullable: true } : {}), ...(def.description === undefined ? {} : { description: def.description }) };
    out[name] = def.type === 'object' ? { type: 'object', fields: carried(def.fields), ...base } : { type: def.type, ...base };
  }
  return out;
}

describe('schemaFromJsonSchema(jsonSchemaFor(schema))', () => {
  it('gives the employee schema back, field for field', () => {
    const { definition, skipped } = schemaFromJsonSchema(jsonSchemaFor(employeeSchema));
    expect(skipped).toEqual([]);
    expect(definition.fields).toEqual(carried(employeeSchema.definition.fields));
  });

  it('keeps types, nullability and nesting of any schema', () => {
    fc.assert(
      fc.property(fieldsArb, (fields) => {
        const schema = defineSchema({ fields } as SchemaDefinition);
        const back = schemaFromJsonSchema(JSON.parse(JSON.stringify(jsonSchemaFor(schema))));
        expect(back.skipped).toEqual([]);
        expect(back.definition.fields).toEqual(carried(fields));
      }),
      { numRuns: 200 },
    );
  });
});

describe('schemaFromJsonSchema on API documents', () => {
  const document = {
    openapi: '3.1.0',
    components: {
      schemas: {
        Employee: {
          allOf: [
            { $ref: '#/components/schemas/Base' },
            {
              type: 'object',
              required: ['LastName', 'Address'],
              properties: {
                LastName: { type: 'string', description: 'Last name.' },
                HiredOn: { type: 'string', format: 'date' },
                Salary: { type: 'number', nullable: true },
                Gender: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
                Tags: { type: 'array', items: { type: 'string' } },
                Address: { $ref: '#/components/schemas/Address' },
                Manager: { $ref: '#/components/schemas/Employee' },
                'e-mail': { type: 'string' },
                Anything: {},
              },
            },
          ],
        },
        Base: { type: 'object', required: ['Id'], properties: { Id: { type: 'integer' }, Active: { type: ['boolean', 'null'] } } },
        Address: { type: 'object', properties: { City: { type: 'string' }, Missing: { $ref: '#/components/schemas/Nope' } } },
      },
    },
  };

  it('reads types, nullability, $refs and allOf, and lists what it skipped', () => {
    const { definition, skipped } = schemaFromJsonSchema(document.components.schemas.Employee, { document });
    expect(definition.fields).toEqual({
      Id: { type: 'integer' },
      Active: { type: 'boolean', nullable: true },
      LastName: { type: 'string', description: 'Last name.' },
      HiredOn: { type: 'datetime', nullable: true },
      Salary: { type: 'number', nullable: true },
      Gender: { type: 'integer', nullable: true },
      Address: { type: 'object', fields: { City: { type: 'string', nullable: true } } },
      Manager: {
        type: 'object',
        nullable: true,
        fields: expect.objectContaining({ Id: { type: 'integer' }, LastName: { type: 'string', description: 'Last name.' } }),
      },
    });
    expect(skipped).toEqual(
      expect.arrayContaining([
        '$.Tags: no scalar or object type wepql can filter (type "array")',
        '$.e-mail: the name is not an identifier [A-Za-z_][A-Za-z0-9_]*',
        '$.Anything: no scalar or object type wepql can filter (no type)',
        '$.Address.Missing: $ref #/components/schemas/Nope cannot be resolved',
        '$.Manager.Manager: $ref #/components/schemas/Employee refers to itself',
      ]),
    );
    expect(() => defineSchema(definition)).not.toThrow();
  });

  it.each([
    ['not an object', 42],
    ['null', null],
    ['an array', [{ type: 'string' }]],
    ['a __proto__ property', JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"},"A":{"type":"string"}}}')],
    ['a $ref without a document', { $ref: '#/components/schemas/X' }],
  ])('never throws on %s', (_title, input) => {
    const { definition } = schemaFromJsonSchema(input);
    expect(Object.getPrototypeOf(definition.fields)).toBe(Object.prototype);
    expect(Object.keys(definition.fields).every((k) => k === 'A' || k === '__proto__')).toBe(true);
  });
});

describe('schemaFromJsonSchema never throws', () => {
  // JSON-ish schemas built from the keywords it reads, with $refs into a document of the same kind.
  const keyword = fc.constantFrom('type', 'format', 'properties', 'required', 'allOf', 'anyOf', 'oneOf', 'nullable', '$ref', 'items', '__proto__');
  const leaf = fc.oneof(fc.constantFrom('string', 'integer', 'object', 'null', 'date-time', '#/a', '#/a/b', '#', '#/a/properties/x'), fc.jsonValue({ maxDepth: 1 }));
  const node: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.dictionary(fc.oneof(keyword, nameArb), tie('node'), { maxKeys: 5 }),
      fc.array(tie('node'), { maxLength: 3 }),
    ),
  })).node;

  it('on any JSON, and whatever it returns defines a schema', () => {
    fc.assert(
      fc.property(node, fc.dictionary(fc.constantFrom('a', 'b'), node, { maxKeys: 2 }), (input, document) => {
        const { definition } = schemaFromJsonSchema(input, { document });
        if (Object.keys(definition.fields).length > 0) defineSchema(definition);
      }),
      { numRuns: 500 },
    );
  });
});
