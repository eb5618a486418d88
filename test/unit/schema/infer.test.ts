import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { inferSchema } from '../../../src/index.js';
import { recordValueAs } from '../../../src/schema/values.js';

const fieldsOf = (records: readonly unknown[], sampleSize?: number) =>
  inferSchema(records, sampleSize === undefined ? {} : { sampleSize }).definition.fields;

describe('inferSchema', () => {
  it.each([
    ['strings', [{ A: 'x' }, { A: 'y' }], { A: { type: 'string' } }],
    ['safe integers', [{ A: 1 }, { A: -7 }], { A: { type: 'integer' } }],
    ['a fraction makes the field a number', [{ A: 1 }, { A: 2.5 }], { A: { type: 'number' } }],
    ['an unsafe integer makes the field a number', [{ A: 1 }, { A: 2 ** 60 }], { A: { type: 'number' } }],
    ['booleans', [{ A: true }, { A: false }], { A: { type: 'boolean' } }],
    ['datetime strings', [{ A: '2024-01-31' }, { A: '2024-01-31T13:45:00Z' }], { A: { type: 'datetime' } }],
    ['Date objects', [{ A: new Date(0) }], { A: { type: 'datetime' } }],
    ['Date objects and datetime strings', [{ A: new Date(0) }, { A: '2024-01-01' }], { A: { type: 'datetime' } }],
    ['one non-datetime string makes a string', [{ A: '2024-01-31' }, { A: 'soon' }], { A: { type: 'string' } }],
    ['an impossible date makes a string', [{ A: '2023-02-30' }], { A: { type: 'string' } }],
    ['null in some record', [{ A: 1 }, { A: null }], { A: { type: 'integer', nullable: true } }],
    ['missing in an earlier record', [{}, { A: 'x' }], { A: { type: 'string', nullable: true } }],
    ['missing in a later record', [{ A: 'x' }, {}], { A: { type: 'string', nullable: true } }],
    ['undefined in some record', [{ A: 'x' }, { A: undefined }], { A: { type: 'string', nullable: true } }],
    ['nulls do not decide a datetime', [{ A: null }, { A: '2024-01-31' }], { A: { type: 'datetime', nullable: true } }],
    ['arrays are left out', [{ A: [1, 2], B: 1 }], { B: { type: 'integer' } }],
    [
      'mixed types are left out',
      [
        { A: 1, B: 1 },
        { A: 'x', B: 2 },
      ],
      { B: { type: 'integer' } },
    ],
    [
      'strings mixed with Dates are left out',
      [
        { A: new Date(0), B: 1 },
        { A: 'x', B: 1 },
      ],
      { B: { type: 'integer' } },
    ],
    ['always-null fields are left out', [{ A: null, B: 1 }], { B: { type: 'integer' } }],
    ['bigints and functions are left out', [{ A: 1n, B: () => 1, C: 'x' }], { C: { type: 'string' } }],
    ['class instances are left out', [{ A: new Map(), C: 'x' }], { C: { type: 'string' } }],
    ['empty objects are left out', [{ A: {}, B: 1 }], { B: { type: 'integer' } }],
    ['non-identifier keys are skipped', [{ 'first name': 'x', '1st': 1, 'a-b': 2, ok: true }], { ok: { type: 'boolean' } }],
    ['a key differing only in case keeps the first spelling', [{ Name: 'x' }, { name: 'y', Name: 'z' }], { Name: { type: 'string' } }],
    ['non-object records are skipped', [null, 1, 'x', [1], { A: 1 }], { A: { type: 'integer' } }],
  ])('%s', (_title, records, expected) => {
    expect(fieldsOf(records)).toEqual(expected);
  });

  it('infers nested objects, marking their fields nullable when the object is absent', () => {
    const schema = inferSchema([
      { Id: 1, Address: { Zip: '10001', Geo: { Lat: 40.7 } } },
      { Id: 2, Address: null },
    ]);
    expect(schema.definition.fields).toEqual({
      Id: { type: 'integer' },
      Address: {
        type: 'object',
        nullable: true,
        fields: {
          Zip: { type: 'string', nullable: true },
          Geo: { type: 'object', nullable: true, fields: { Lat: { type: 'number', nullable: true } } },
        },
      },
    });
    expect(schema.fields.map((f) => f.name)).toEqual(['Id', 'Address.Zip', 'Address.Geo.Lat']);
  });

  it('keeps nested fields non-nullable when the object is always present', () => {
    expect(fieldsOf([{ A: { B: 1 } }, { A: { B: 2 } }])).toEqual({ A: { type: 'object', fields: { B: { type: 'integer' } } } });
  });

  it('treats an own "__proto__" key (as JSON.parse makes) as an ordinary field', () => {
    const records = [JSON.parse('{"__proto__": 5, "constructor": "x", "toString": true}')];
    const schema = inferSchema(records);
    expect(Object.keys(schema.definition.fields)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(schema.definition.fields)).toBe(Object.prototype);
    expect(schema.lookup('__proto__')).toMatchObject({ found: 'field', field: { type: 'integer' } });
    expect(schema.lookup('constructor')).toMatchObject({ found: 'field', field: { type: 'string' } });
  });

  it('never reads names through the prototype chain', () => {
    const schema = inferSchema([{ A: 1 }]);
    expect(Object.keys(schema.definition.fields)).toEqual(['A']);
    expect(schema.lookup('constructor')).toEqual({ found: 'none' });
    expect(schema.lookup('__proto__')).toEqual({ found: 'none' });
    expect(schema.lookup('toString')).toEqual({ found: 'none' });
  });

  it('does not call getters or read inherited properties', () => {
    let called = false;
    const record = Object.defineProperty({ B: 1 }, 'A', { enumerable: true, get: () => ((called = true), 1) });
    const child = Object.create({ Inherited: 1 }) as Record<string, unknown>;
    child['Own'] = 1;
    // The accessor reads as absent, so A is null in every sample and left out.
    expect(fieldsOf([record])).toEqual({ B: { type: 'integer' } });
    expect(called).toBe(false);
    // Objects with another prototype are not plain records.
    expect(fieldsOf([child])).toEqual({});
  });

  it('samples only the first sampleSize records', () => {
    expect(fieldsOf([{ A: 1 }, { A: 'x' }], 1)).toEqual({ A: { type: 'integer' } });
    expect(fieldsOf([{ A: 1 }, { A: 'x' }])).toEqual({});
  });

  it('samples at most 10,000 records whatever sampleSize says', () => {
    const records: unknown[] = Array.from({ length: 10_001 }, () => ({ A: 1 }));
    records[10_000] = { A: 'late' };
    expect(fieldsOf(records, 1e9)).toEqual({ A: { type: 'integer' } });
    expect(fieldsOf(records, Number.NaN)).toEqual({ A: { type: 'integer' } });
  });

  it('gives an empty schema for no records or a zero sample', () => {
    expect(fieldsOf([])).toEqual({});
    expect(fieldsOf([{ A: 1 }], 0)).toEqual({});
    expect(fieldsOf([{ A: 1 }], -5)).toEqual({});
  });

  it('bounds depth: objects deeper than 32 levels are left out, cycles do not loop', () => {
    let deep: Record<string, unknown> = { Leaf: 1 };
    for (let i = 0; i < 100; i++) deep = { N: deep };
    const schema = inferSchema([deep]);
    const longest = Math.max(...schema.fields.map((f) => f.path.length));
    expect(schema.fields).toHaveLength(0);
    expect(longest).toBe(-Infinity);
    const shallow = inferSchema([{ N: { N: { Leaf: 1 } } }]);
    expect(shallow.fields.map((f) => f.name)).toEqual(['N.N.Leaf']);
    const cyclic: Record<string, unknown> = { A: 1 };
    cyclic['Self'] = cyclic;
    expect(inferSchema([cyclic]).fields.map((f) => f.name)).toEqual(['A']);
  });

  it('keeps a 32-deep object', () => {
    let deep: Record<string, unknown> = { Leaf: 1 };
    for (let i = 0; i < 32; i++) deep = { N: deep };
    expect(inferSchema([deep]).fields[0]!.path).toHaveLength(33);
  });

  it('never throws, and every sampled value reads back as its inferred type or null (property)', () => {
    const valueArb = fc.oneof(
      fc.string(),
      fc.constantFrom('2024-01-31', '2024-01-31T13:45:00Z', '2023-02-30'),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(undefined),
      fc.date(),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    const keyArb = fc.constantFrom('A', 'a', 'B', '__proto__', 'constructor', 'x y', '1');
    const recordArb = fc.dictionary(keyArb, fc.oneof(valueArb, fc.dictionary(keyArb, valueArb, { maxKeys: 3 })), { maxKeys: 5 });
    fc.assert(
      fc.property(fc.array(recordArb, { maxLength: 8 }), (records) => {
        const schema = inferSchema(records);
        for (const field of schema.fields) {
          for (const record of records) {
            let v: unknown = record;
            for (const seg of field.path) {
              v = typeof v === 'object' && v !== null && Object.hasOwn(v, seg) ? Object.getOwnPropertyDescriptor(v, seg)!.value : undefined;
            }
            const read = recordValueAs(v, field.type);
            if (read === null) expect(field.nullable).toBe(true);
          }
        }
      }),
    );
  });
});
