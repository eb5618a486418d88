/**
 * jsonSchemaFor and schemaFromJsonSchema: a round trip keeps every field's
 * type, nullability and nesting (property), and reading an API's JSON Schema
 * handles what real documents contain: $refs, allOf, nullable in its three
 * spellings, arrays and names wepql cannot filter on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineSchema, jsonSchemaFor, schemaFromJsonSchema } from '../../../src/index.js';
import type { FieldDefinition, SchemaDefinition } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const nameArb = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
const scalarArb: fc.Arbitrary<FieldDefinition> = fc.record(
  {
    type: fc.constantFrom('string', 'number', 'integer', 'datetime', 'boolean'),
    nullable: fc.constant(true),
    description: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ['type'] },
) as fc.Arbitrary<FieldDefinition>;
const { fields: fieldsArb } = fc.letrec((tie) => ({
  field: fc.oneof(
    { depthSize: 'small', maxDepth: 6, withCrossShrink: true },
    scalarArb,
    fc.record(
      { type: fc.constant('object' as const), fields: tie('fields') as fc.Arbitrary<Record<string, FieldDefinition>> },
      { requiredKeys: ['type', 'fields'] },
    ),
  ),
  // Field names are case-insensitive: no two may differ only in case.
  fields: fc
    .uniqueArray(fc.tuple(nameArb, tie('field') as fc.Arbitrary<FieldDefinition>), {
      minLength: 1,
      maxLength: 4,
      selector: ([n]) => n.toLowerCase(),
    })
    .map((entries) => Object.fromEntries(entries)),
}));

/** What JSON Schema carries: types, nullability, descriptions and nesting, not filterable/sortable. */
function carried(fields: Readonly<Record<string, FieldDefinition>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(fields)) {
    const base = {
      ...(def.nullable ? { nullable: true } : {}),
      ...(def.description === undefined ? {} : { description: def.description }),
    };
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
  const keyword = fc.constantFrom(
    'type',
    'format',
    'properties',
    'required',
    'allOf',
    'anyOf',
    'oneOf',
    'nullable',
    '$ref',
    'items',
    '__proto__',
  );
  const leaf = fc.oneof(
    fc.constantFrom('string', 'integer', 'object', 'null', 'date-time', '#/a', '#/a/b', '#', '#/a/properties/x'),
    fc.jsonValue({ maxDepth: 1 }),
  );
  const node: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth: 6 },
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

/** A document of `levels` components, each with `width` properties that all $ref the next one (a DAG: width^levels paths). */
function dagDocument(levels: number, width: number): { document: Record<string, unknown>; root: unknown } {
  const schemas: Record<string, unknown> = {};
  for (let level = 0; level < levels; level++) {
    const properties: Record<string, unknown> = { Id: { type: 'integer' } };
    if (level < levels - 1) for (let i = 0; i < width; i++) properties[`P${i}`] = { $ref: `#/components/schemas/L${level + 1}` };
    schemas[`L${level}`] = { type: 'object', properties };
  }
  return { document: { openapi: '3.1.0', components: { schemas } }, root: schemas.L0 };
}

/** The same reading, done the slow way: every path expanded on its own (the result the memoised reader must equal). */
function expandByHand(node: any, document: any): Record<string, unknown> {
  const target = node.$ref === undefined ? node : document.components.schemas[node.$ref.split('/').pop()];
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries<any>(target.properties)) {
    if (prop.$ref !== undefined) out[name] = { type: 'object', nullable: true, fields: expandByHand(prop, document) };
    else out[name] = { type: prop.type, nullable: true };
  }
  return out;
}

describe('schemaFromJsonSchema on documents that multiply (issue 19 #9)', () => {
  it('expands a $ref DAG that fits the budget exactly as path-by-path expansion does', () => {
    const { document, root } = dagDocument(4, 3);
    const { definition, skipped, truncated } = schemaFromJsonSchema(root, { document });
    expect(skipped).toEqual([]);
    expect(truncated).toBe(false);
    expect(definition.fields).toEqual(expandByHand(root, document));
    // Plain, unshared objects: changing one path leaves the others alone.
    (definition.fields.P0 as { fields: Record<string, unknown> }).fields.Id = 'changed';
    expect((definition.fields.P1 as { fields: Record<string, unknown> }).fields.Id).toEqual({ type: 'integer', nullable: true });
  });

  it('stops a 2 KB DAG document that describes 8^8 fields at maxFields, with a note, in bounded time', () => {
    const { document, root } = dagDocument(9, 8);
    expect(JSON.stringify(document).length).toBeLessThan(3200);
    const { definition, skipped, truncated } = schemaFromJsonSchema(root, { document });
    expect(truncated).toBe(true);
    expect(skipped.at(-1)).toMatch(/reading stopped: the schema expands to more than 10000 fields \(maxFields\)/);
    const count = (fields: Record<string, any>): number =>
      Object.values(fields).reduce((n, f) => n + 1 + (f.type === 'object' ? count(f.fields) : 0), 0);
    expect(count(definition.fields)).toBeLessThanOrEqual(10_000);
    expect(() => defineSchema(definition)).not.toThrow();
  }, 20_000);

  it('reads a self-referring allOf chain once per part', () => {
    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) {
      schemas[`S${i}`] = {
        allOf: [
          { $ref: `#/components/schemas/S${i + 1}` },
          { $ref: `#/components/schemas/S${i + 1}` },
          { $ref: `#/components/schemas/S${i}` },
        ],
        properties: { [`F${i}`]: { type: 'string' } },
      };
    }
    schemas.S12 = { type: 'object', required: ['F0'], properties: { Last: { type: 'integer' } } };
    const document = { components: { schemas } };
    const { definition, truncated } = schemaFromJsonSchema(schemas.S0, { document });
    expect(truncated).toBe(false);
    expect(Object.keys(definition.fields)).toHaveLength(13);
    // `required` in any allOf part applies to the merged object, whichever part declares the property.
    expect(definition.fields.F0).toEqual({ type: 'string' });
    expect(definition.fields.Last).toEqual({ type: 'integer', nullable: true });
  }, 20_000);

  it('bounds the work on a cycle through many paths too, whatever maxFields allows', () => {
    // Each level's properties lead to the next, and the last back to the first: nothing is reusable across paths.
    const schemas: Record<string, unknown> = {};
    for (let level = 0; level < 8; level++) {
      const properties: Record<string, unknown> = {};
      for (let i = 0; i < 10; i++) properties[`P${i}`] = { $ref: `#/components/schemas/C${(level + 1) % 8}` };
      schemas[`C${level}`] = { type: 'object', properties };
    }
    const document = { components: { schemas } };
    const { truncated, skipped } = schemaFromJsonSchema(schemas.C0, { document, maxFields: Number.MAX_SAFE_INTEGER });
    expect(truncated).toBe(true);
    expect(skipped.at(-1)).toMatch(/reading stopped: the schema expands to more than 200000 properties to examine/);
  }, 20_000);

  it.each([['#/components/schemas/%'], ['#/components/schemas/%E0%A4'], ['#/components/%zz/X']])(
    'answers a $ref with a malformed percent escape (%s) with a note, not a URIError',
    (ref) => {
      const document = { components: { schemas: { X: { type: 'object', properties: { A: { $ref: ref }, B: { type: 'string' } } } } } };
      const { definition, skipped } = schemaFromJsonSchema(document.components.schemas.X, { document });
      expect(definition.fields).toEqual({ B: { type: 'string', nullable: true } });
      expect(skipped).toEqual([expect.stringMatching(/^\$\.A: \$ref .* cannot be resolved: ".*" has a malformed % escape$/)]);
    },
  );
});
