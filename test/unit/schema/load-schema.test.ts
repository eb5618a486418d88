import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { loadSchemaJson } from '../../../src/index.js';

describe('loadSchemaJson', () => {
  it('loads a schema file, ignoring $schema, title and description', () => {
    const text = JSON.stringify({
      $schema: './wepql-schema.schema.json',
      title: 'People',
      description: 'A test',
      fields: {
        LastName: { type: 'string', description: 'Family name' },
        Gender: { type: 'integer', nullable: true },
        Ssn: { type: 'string', filterable: false, sortable: false },
        Address: { type: 'object', nullable: true, fields: { Zip: { type: 'string' } } },
      },
    });
    const { value, errors } = loadSchemaJson(text);
    expect(errors).toEqual([]);
    expect(value!.definition).toEqual({ fields: JSON.parse(text).fields });
    expect(value!.fields.map((f) => [f.name, f.type, f.nullable, f.filterable, f.sortable])).toEqual([
      ['LastName', 'string', false, true, true],
      ['Gender', 'integer', true, true, true],
      ['Ssn', 'string', false, false, false],
      ['Address.Zip', 'string', true, true, true], // inside a nullable object
    ]);
    expect(value!.lookup('address.zip')).toMatchObject({ found: 'field', exactCase: false });
  });

  it.each([
    ['', ['$: not valid JSON: ']],
    ['{"fields": {', ['$: not valid JSON: ']],
    ['[]', ['$: a schema file must be a JSON object with "fields", not an array']],
    ['null', ['$: a schema file must be a JSON object with "fields", not null']],
    ['"x"', ['$: a schema file must be a JSON object with "fields", not the string "x"']],
    ['{}', ['$: missing "fields", the object mapping field names to definitions']],
    ['{"fields": []}', ['$.fields: must be an object mapping field names to definitions, not an array']],
    [
      '{"fields": {}, "feilds": {}}',
      ['$.feilds: unknown key; expected "$schema", "title", "description", "version", "fields" (did you mean "fields"?)'],
    ],
    ['{"fields": {}, "title": 3}', ['$.title: must be a string, not the number 3']],
    ['{"fields": {"A": "string"}}', ['$.fields.A: must be an object with a "type", not the string "string"']],
    ['{"fields": {"A": {}}}', ['$.fields.A: missing "type"; expected one of string, number, integer, datetime, boolean, object']],
    [
      '{"fields": {"Gender": {"type": "int"}}}',
      [
        '$.fields.Gender.type: unknown type "int"; expected one of string, number, integer, datetime, boolean, object (did you mean "integer"?)',
      ],
    ],
    [
      '{"fields": {"Tags": {"type": "array"}}}',
      ['$.fields.Tags.type: unknown type "array"; expected one of string, number, integer, datetime, boolean, object'],
    ],
    [
      '{"fields": {"A": {"type": 5}}}',
      ['$.fields.A.type: unknown type 5; expected one of string, number, integer, datetime, boolean, object'],
    ],
    [
      '{"fields": {"first name": {"type": "string"}}}',
      ['$.fields["first name"]: field name "first name" is not an identifier; names must match [A-Za-z_][A-Za-z0-9_]*'],
    ],
    [
      '{"fields": {"1st": {"type": "string"}, "a.b": {"type": "string"}}}',
      [
        '$.fields["1st"]: field name "1st" is not an identifier; names must match [A-Za-z_][A-Za-z0-9_]*',
        '$.fields["a.b"]: field name "a.b" is not an identifier; names must match [A-Za-z_][A-Za-z0-9_]*',
      ],
    ],
    [
      '{"fields": {"Name": {"type": "string"}, "NAME": {"type": "string"}}}',
      ['$.fields.NAME: field name "NAME" differs only in case from "Name"; field names resolve case-insensitively'],
    ],
    ['{"fields": {"A": {"type": "string", "nullable": "yes"}}}', ['$.fields.A.nullable: must be true or false, not the string "yes"']],
    ['{"fields": {"A": {"type": "string", "sortable": 0}}}', ['$.fields.A.sortable: must be true or false, not the number 0']],
    ['{"fields": {"A": {"type": "string", "description": 1}}}', ['$.fields.A.description: must be a string, not the number 1']],
    [
      '{"fields": {"A": {"type": "string", "nulable": true}}}',
      [
        '$.fields.A.nulable: unknown key; expected "type", "nullable", "filterable", "sortable", "description", "renamedFrom", "deprecated" (did you mean "nullable"?)',
      ],
    ],
    [
      '{"fields": {"A": {"type": "object", "filterable": false, "fields": {"B": {"type": "string"}}}}}',
      ['$.fields.A.filterable: "filterable" applies to scalar fields only; set it on the object\'s fields'],
    ],
    [
      '{"fields": {"A": {"type": "object"}}}',
      ['$.fields.A: an object field needs "fields", the object mapping its field names to definitions'],
    ],
    [
      '{"fields": {"A": {"type": "object", "fields": {"B": {"type": "strin"}}}}}',
      [
        '$.fields.A.fields.B.type: unknown type "strin"; expected one of string, number, integer, datetime, boolean, object (did you mean "string"?)',
      ],
    ],
  ])('%s', (text, expected) => {
    const { value, errors } = loadSchemaJson(text);
    expect(value).toBeUndefined();
    expect(errors).toHaveLength(expected.length);
    expected.forEach((e, i) => (e.endsWith(': ') ? expect(errors[i]!.startsWith(e)).toBe(true) : expect(errors[i]).toBe(e)));
  });

  it('reports every problem, not just the first', () => {
    const { errors } = loadSchemaJson('{"fields": {"A": {"type": "x"}, "B": {"type": "y"}, "c d": {"type": "string"}}}');
    expect(errors.map((e) => e.split(':')[0])).toEqual(['$.fields.A.type', '$.fields.B.type', '$.fields["c d"]']);
  });

  it('caps the number of messages', () => {
    const fields = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`F${i}`, { type: 'nope' }]));
    const { errors } = loadSchemaJson(JSON.stringify({ fields }));
    expect(errors).toHaveLength(51);
    expect(errors[50]).toBe('$: stopped after 50 problems');
  });

  it('treats "__proto__" and "constructor" as ordinary field names', () => {
    const { value, errors } = loadSchemaJson('{"fields": {"__proto__": {"type": "integer"}, "constructor": {"type": "string"}}}');
    expect(errors).toEqual([]);
    expect(value!.fields.map((f) => f.name)).toEqual(['__proto__', 'constructor']);
    expect(Object.getPrototypeOf(value!.definition.fields)).toBe(Object.prototype);
  });

  it('refuses a "__proto__" key where a definition key is expected', () => {
    const { errors } = loadSchemaJson('{"fields": {"A": {"type": "string", "__proto__": {"nullable": true}}}}');
    expect(errors).toEqual([
      '$.fields.A.__proto__: unknown key; expected "type", "nullable", "filterable", "sortable", "description", "renamedFrom", "deprecated"',
    ]);
  });

  it('bounds nesting at 32 object levels', () => {
    const nest = (n: number): unknown => (n === 0 ? { Leaf: { type: 'string' } } : { N: { type: 'object', fields: nest(n - 1) } });
    expect(loadSchemaJson(JSON.stringify({ fields: nest(32) })).errors).toEqual([]);
    const deep = loadSchemaJson(JSON.stringify({ fields: nest(33) }));
    expect(deep.value).toBeUndefined();
    expect(deep.errors).toHaveLength(1);
    expect(deep.errors[0]).toMatch(/^\$\.fields(\.N\.fields){33}: objects nest deeper than 32 levels$/);
  });

  it('handles very deep JSON without overflowing', () => {
    const text = '{"fields":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_001);
    const { value, errors } = loadSchemaJson(text);
    expect(value).toBeUndefined();
    expect(errors.length).toBeGreaterThan(0);
  });

  it('never throws on any text (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const { value, errors } = loadSchemaJson(text);
        expect(value === undefined).toBe(errors.length > 0);
      }),
    );
  });
});
