import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ScalarType } from '../../../src/index.js';
import { analyzeFilter, defineSchema, hasErrors, complete } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const schema = defineSchema({
  fields: {
    FirstName: { type: 'string' },
    LastName: { type: 'string' },
    Gender: { type: 'integer', nullable: true },
    Salary: { type: 'number' },
    CreatedOn: { type: 'datetime' },
    EePortal: { type: 'boolean' },
    Ssn: { type: 'string', filterable: false, sortable: false },
    Address: {
      type: 'object',
      fields: { Zip: { type: 'string' }, City: { type: 'string' }, Line: { type: 'integer' } },
    },
  },
});

const STRING_OPS = [
  'Equal',
  'NotEqual',
  'Contains',
  'StartsWith',
  'EndsWith',
  'NotContains',
  'NotStartsWith',
  'NotEndsWith',
  'IsNull',
  'IsNotNull',
  'InArray',
  'InArrayOrNull',
  'NotInArray',
  'NotInArrayOrNull',
];
const BOOLEAN_OPS = ['Equal', 'NotEqual', 'IsNull', 'IsNotNull', 'InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull'];
const TOP_FIELDS = ['FirstName', 'LastName', 'Gender', 'Salary', 'CreatedOn', 'EePortal', 'Address'];
const IN_FIELDS_OPS = [
  'EqualInFields',
  'LessThanInFields',
  'LessThanOrEqualInFields',
  'GreaterThanInFields',
  'GreaterThanOrEqualInFields',
  'ContainsInFields',
  'StartsWithInFields',
  'EndsWithInFields',
];

/** `|` marks the cursor. */
function at(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

describe('complete: filters', () => {
  it.each<[string, string[]]>([
    ['|', [...TOP_FIELDS, 'And', 'Or']],
    ['La|', ['LastName']],
    ['la|', ['LastName']],
    ['LastName.Sta|', ['StartsWith']],
    ['LastName.sta|', ['StartsWith']],
    ['LastName.|', STRING_OPS],
    ['LastName.Not|', ['NotEqual', 'NotContains', 'NotStartsWith', 'NotEndsWith', 'NotInArray', 'NotInArrayOrNull']],
    ['Salary.Gr|', ['GreaterThan', 'GreaterThanOrEqual']],
    ['Salary.Con|', []],
    ['EePortal.|', BOOLEAN_OPS],
    ['EePortal.Equal(|', ['true', 'false']],
    ['EePortal.Equal(t|', ['true']],
    ['EePortal.Equal( F|', ['false']],
    ['EePortal.InArray(true,|', ['true', 'false']],
    ['Gender.Equal(|', []],
    ['LastName.IsNull(|', []],
    ['Or(|', [...TOP_FIELDS, 'And', 'Or']],
    ['Or(Gender.Equal(1);|', [...TOP_FIELDS, 'And', 'Or']],
    ['Or(Gender.Equal(1); Sa|', ['Salary']],
    ['And(Or(A.Equal(1);B.Equal(2));Cre|', ['CreatedOn']],
    ['Gender.Equal(1);O|', ['Or']],
    ['a|', ['Address', 'And']],
    ['Address.|', ['Zip', 'City', 'Line']],
    ['address.Zi|', ['Zip']],
    ['Address.Zip.Sta|', ['StartsWith']],
    ['Address.Line.Gre|', ['GreaterThan', 'GreaterThanOrEqual']],
    ["'D'.|", IN_FIELDS_OPS],
    ["'D'.Sta|", ['StartsWithInFields']],
    ['5.5.Gr|', ['GreaterThanInFields', 'GreaterThanOrEqualInFields']],
    ['2024-01-01T00:00:00.000Z.Less|', ['LessThanInFields', 'LessThanOrEqualInFields']],
    ["'D'.StartsWithInFields(|", ['FirstName', 'LastName', 'Address']],
    ["'D'.StartsWithInFields(Fi|", ['FirstName']],
    ["'D'.StartsWithInFields(FirstName,|", ['LastName', 'Address']],
    ["'D'.StartsWithInFields(FirstName, Address.|", ['Zip', 'City']],
    ['5.GreaterThanInFields(|', ['Gender', 'Salary', 'Address']],
    ['5.GreaterThanInFields(Address.|', ['Line']],
    ['2024-01-01.EqualInFields(|', ['FirstName', 'LastName', 'CreatedOn', 'Address']],
    ['true.EqualInFields(|', ['FirstName', 'LastName', 'EePortal', 'Address']],
    ["'it''s'.EqualInFields(First|", ['FirstName']],
    ['Ss|', []],
    ['Ssn.|', []],
    ['LastName.Equal(Sm|', []],
    ["LastName.Equal('Sm|", []],
    ['LastName.Equal(Sm)|', []],
    ["LastName.Equal('a;b');Gen|", ['Gender']],
    ['LastName.Equal(Sm;Gen|', ['Gender']],
    ['Unknown.|', IN_FIELDS_OPS],
    ['Or(LastName.Equal(x))|', []],
    ['Or(LastName.Equal(x));|', [...TOP_FIELDS, 'And', 'Or']],
  ])('%s', (marked, labels) => {
    const { text, offset } = at(marked);
    expect(complete(text, offset, schema).items.map((i) => i.label)).toEqual(labels);
  });

  it.each<[string, { start: number; end: number }]>([
    ['LastName.Sta|', { start: 9, end: 12 }],
    ['LastName.Sta|rts', { start: 9, end: 15 }],
    ['Or(Gender.Equal(1); Sa|', { start: 20, end: 22 }],
    ['|', { start: 0, end: 0 }],
    ["'D'.StartsWithInFields(FirstName, Address.Zi|", { start: 42, end: 44 }],
    ['EePortal.Equal( tr|', { start: 16, end: 18 }],
  ])('replace range of %s', (marked, range) => {
    const { text, offset } = at(marked);
    expect(complete(text, offset, schema).replace).toEqual(range);
  });

  it('gives fields their type and objects a dot', () => {
    const items = complete('', 0, schema).items;
    expect(items.find((i) => i.label === 'Gender')).toEqual({
      label: 'Gender',
      kind: 'field',
      detail: 'integer, nullable',
      insertText: 'Gender',
    });
    expect(items.find((i) => i.label === 'Address')).toMatchObject({ detail: 'object', insertText: 'Address.' });
    expect(items.find((i) => i.label === 'Or')).toMatchObject({ kind: 'keyword', insertText: 'Or(' });
  });

  it('inserts operators with their parentheses, unless a ( already follows', () => {
    const starts = complete('LastName.Sta', 12, schema).items[0]!;
    expect(starts).toMatchObject({ kind: 'operator', insertText: 'StartsWith(', detail: 'StartsWith(value)' });
    expect(complete('LastName.IsN', 12, schema).items[0]).toMatchObject({ insertText: 'IsNull()' });
    expect(complete('LastName.Sta(Sm)', 12, schema).items[0]).toMatchObject({ insertText: 'StartsWith' });
  });

  it('clamps offsets outside the text', () => {
    expect(complete('La', 99, schema).items.map((i) => i.label)).toEqual(['LastName']);
    expect(complete('La', -5, schema).replace).toEqual({ start: 0, end: 2 });
  });
});

describe('complete: sorts', () => {
  it.each<[string, string[]]>([
    ['|', ['FirstName', 'LastName', 'Gender', 'Salary', 'CreatedOn', 'EePortal', 'Address']],
    ['Cr|', ['CreatedOn']],
    ['LastName=|', ['Asc', 'Desc']],
    ['LastName=d|', ['Desc']],
    ['LastName= A|', ['Asc']],
    ['LastName=Asc;|', ['FirstName', 'LastName', 'Gender', 'Salary', 'CreatedOn', 'EePortal', 'Address']],
    ['LastName=Asc;Address.|', ['Zip', 'City', 'Line']],
    ['LastName=Asc,Ge|', ['Gender']],
    ['Ss|', []],
  ])('%s', (marked, labels) => {
    const { text, offset } = at(marked);
    expect(complete(text, offset, schema, { kind: 'sort' }).items.map((i) => i.label)).toEqual(labels);
  });

  it('marks directions', () => {
    expect(complete('A=', 2, schema, { kind: 'sort' }).items[1]).toEqual({
      label: 'Desc',
      kind: 'direction',
      detail: 'descending',
      insertText: 'Desc',
    });
  });
});

describe('complete: reads broken text as the parser does', () => {
  const labels = (text: string): string[] => complete(text, text.length, schema).items.map((i) => i.label);

  // The parser reports a `,` outside an argument list and skips to the next `;`: no clause starts there.
  it.each([',La', 'A,B.', 'LastName.Equal(x),Ge', 'Gender.IsNull(), La'])('offers nothing after the , in %j', (text) => {
    expect(labels(text)).toEqual([]);
  });

  // The parser reports a `)` that closes nothing and reads on: a clause may start right after it.
  it.each<[string, string[]]>([
    [')La', ['LastName']],
    ['A.IsNull())Ge', ['Gender']],
    [').', IN_FIELDS_OPS],
    ["x').", IN_FIELDS_OPS],
  ])('offers a clause after the stray ) in %j', (text, expected) => {
    expect(labels(text)).toEqual(expected);
  });

  it('replaces only the word after the stray ), not the text before it', () => {
    expect(complete('Gender.IsNull())LastN', 21, schema).replace).toEqual({ start: 16, end: 21 });
  });
});

describe('complete: never throws', () => {
  it('on any text and offset', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(..."Ab.;(),=' _1Or".split('')), maxLength: 60 }),
        fc.integer({ min: -2, max: 70 }),
        fc.boolean(),
        (text, offset, sort) => {
          const r = complete(text, offset, schema, { kind: sort ? 'sort' : 'filter' });
          expect(r.replace.start).toBeLessThanOrEqual(r.replace.end);
          expect(r.replace.end).toBeLessThanOrEqual(text.length);
        },
      ),
    );
  });

  it('on deep nesting and long input in bounded time', () => {
    const text = 'Or('.repeat(50_000) + 'La';
    expect(complete(text, text.length, schema).items.map((i) => i.label)).toEqual(['LastName']);
  });

  it('does not read the prototype chain', () => {
    expect(complete('__proto__.', 10, schema).items.map((i) => i.label)).toEqual(IN_FIELDS_OPS);
    expect(complete('constructor.Eq', 14, schema).items.map((i) => i.label)).toEqual(['EqualInFields']);
  });
});

describe('complete: offers only what validation accepts', () => {
  const SAMPLE: Readonly<Record<ScalarType, string>> = {
    string: 'a',
    number: '1',
    integer: '1',
    datetime: '2024-01-01',
    boolean: 'true',
  };

  it.each(employeeSchema.fields.filter((f) => f.filterable).map((f) => [f.name, f.type] as const))(
    'every operator offered after %s. validates',
    (name, type) => {
      const items = complete(`${name}.`, name.length + 1, employeeSchema).items;
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        const text = item.insertText.endsWith('()') ? `${name}.${item.insertText}` : `${name}.${item.insertText}${SAMPLE[type]})`;
        const result = analyzeFilter(text, { schema: employeeSchema });
        expect(hasErrors(result.diagnostics), `${text}: ${result.diagnostics.map((d) => d.code).join(', ')}`).toBe(false);
      }
    },
  );

  it.each([
    ["'D'", 'StartsWithInFields'],
    ['5', 'GreaterThanInFields'],
    ['2024-01-01', 'LessThanInFields'],
    ['true', 'EqualInFields'],
  ])('every field offered in %s.%s( validates', (head, op) => {
    const prefix = `${head}.${op}(`;
    const fields = complete(prefix, prefix.length, employeeSchema).items;
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) {
      const text = `${prefix}${field.insertText})`;
      const result = analyzeFilter(text, { schema: employeeSchema });
      expect(hasErrors(result.diagnostics), `${text}: ${result.diagnostics.map((d) => d.code).join(', ')}`).toBe(false);
    }
  });
});
