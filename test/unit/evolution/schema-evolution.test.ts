/**
 * Schema evolution: `renamedFrom`, `deprecated` and `version` in schema
 * files, `diffSchemas`, and the findings `lintText` reports for a saved
 * text given the schema it was written for.
 */
import { describe, expect, it } from 'vitest';
import {
  defineSchema,
  loadSchemaJson,
  type DiagnosticCode,
  diffSchemas,
  isBreaking,
  lintText,
  renameAwareSchema,
  renameFields,
  retypeImpact,
} from '../../../src/index.js';

const previous = defineSchema({
  fields: {
    Surname: { type: 'string' },
    Gender: { type: 'integer', nullable: true },
    Number: { type: 'integer' },
    Code: { type: 'string' },
    Suffix: { type: 'string' },
    Address: { type: 'object', fields: { Zip: { type: 'string' } } },
  },
});
const next = defineSchema({
  version: 2,
  fields: {
    LastName: { type: 'string', renamedFrom: 'Surname' },
    Gender: { type: 'integer' },
    Number: { type: 'string' },
    Code: { type: 'integer' },
    Email: { type: 'string', deprecated: { replacement: 'LastName', reason: 'moving' } },
    Location: { type: 'object', renamedFrom: 'Address', fields: { PostCode: { type: 'string', renamedFrom: 'Zip' } } },
  },
});

describe('schema files', () => {
  it('read renamedFrom, deprecated and version', () => {
    const { value, errors } = loadSchemaJson(
      '{"version":"2026-11","fields":{"LastName":{"type":"string","renamedFrom":["Surname","Name"]},"Email":{"type":"string","deprecated":true}}}',
    );
    expect(errors).toEqual([]);
    expect(value!.definition.version).toBe('2026-11');
    expect(value!.fields.map((f) => [f.name, f.renamedFrom, f.deprecated])).toEqual([
      ['LastName', ['Surname', 'Name'], undefined],
      ['Email', undefined, {}],
    ]);
  });

  it.each([
    [
      '{"fields":{"A":{"type":"string","renamedFrom":"1x"}}}',
      '$.fields.A.renamedFrom: must be a field name (or dotted path), or an array of them, not the string "1x"',
    ],
    [
      '{"fields":{"A":{"type":"string","renamedFrom":[]}}}',
      '$.fields.A.renamedFrom: must be a field name (or dotted path), or an array of them, not an array',
    ],
    [
      '{"fields":{"A":{"type":"string","deprecated":"yes"}}}',
      '$.fields.A.deprecated: must be true, false or an object with "replacement" and/or "reason", not the string "yes"',
    ],
    [
      '{"fields":{"A":{"type":"string","deprecated":{"replacment":"B"}}}}',
      '$.fields.A.deprecated.replacment: unknown key; expected "replacement", "reason" (did you mean "replacement"?)',
    ],
    ['{"version":true,"fields":{}}', '$.version: must be a string or a number, not the value true'],
  ])('%s is refused', (text, message) => {
    expect(loadSchemaJson(text).errors).toEqual([message]);
  });

  it('refuses two fields claiming the same earlier name', () => {
    expect(() => defineSchema({ fields: { A: { type: 'string', renamedFrom: 'X' }, B: { type: 'string', renamedFrom: 'x' } } })).toThrow(
      /"x" is already the earlier name of "A"/,
    );
  });
});

describe('diffSchemas', () => {
  it('lists renames (including a renamed object), removals, retypes, nullability and deprecations', () => {
    const diff = diffSchemas(previous, next);
    expect(diff.nextVersion).toBe(2);
    expect(diff.changes.map((c) => [c.kind, c.field, 'to' in c ? c.to : undefined])).toEqual([
      ['renamed', 'Surname', 'LastName'],
      ['nullability', 'Gender', undefined],
      ['retyped', 'Number', 'string'],
      ['retyped', 'Code', 'integer'],
      ['removed', 'Suffix', undefined],
      ['renamed', 'Address.Zip', 'Location.PostCode'],
      ['added', 'Email', undefined],
      ['deprecated', 'Email', undefined],
    ]);
    expect(isBreaking(diff)).toBe(true);
    expect(isBreaking(diffSchemas(previous, previous))).toBe(false);
  });

  it.each([
    ['integer', 'number', 'same-meaning'],
    ['number', 'integer', 'may-break'],
    ['integer', 'string', 'meaning-changes'],
    ['string', 'datetime', 'may-break'],
  ] as const)('%s → %s is %s', (from, to, impact) => {
    expect(retypeImpact(from, to)).toBe(impact);
  });
});

describe('lintText with a previous schema', () => {
  const codes = (text: string, kind: 'filter' | 'sort' = 'filter') =>
    lintText(text, kind, { schema: next, previousSchema: previous }).map(
      (d) => [d.code, d.severity, text.slice(d.start, d.end)] as [DiagnosticCode, string, string],
    );

  it.each([
    ['Surname.StartsWith(Sm)', [['field-renamed', 'warning', 'Surname']]],
    ['address.zip.Equal(1000)', [['field-renamed', 'warning', 'address.zip']]],
    ['Suffix.Equal(Jr)', [['field-removed', 'error', 'Suffix']]],
    ['Number.Equal(10)', [['field-retyped', 'warning', 'Number']]],
    ['Code.Equal(10)', [['field-retyped', 'warning', 'Code']]],
    [
      'Code.Equal(A1)',
      [
        ['field-retyped-incompatible', 'error', 'Code'],
        ['invalid-value', 'error', 'A1'],
      ],
    ],
    ['Gender.IsNull()', [['field-nullability-changed', 'warning', 'Gender']]],
    ['Gender.Equal(1)', []],
    ['Email.Equal(x)', [['deprecated-field', 'warning', 'Email']]],
    [
      "'Sm'.StartsWithInFields(Surname,Email)",
      [
        ['field-renamed', 'warning', 'Surname'],
        ['deprecated-field', 'warning', 'Email'],
      ],
    ],
  ] as const)('%s', (text, expected) => {
    expect(codes(text)).toEqual(expected);
  });

  it('sorts too: Surname=Asc', () => {
    expect(codes('Surname=Asc', 'sort')).toEqual([['field-renamed', 'warning', 'Surname']]);
  });

  it('renameFields edits only the field names', () => {
    expect(renameFields('Or( surname.StartsWith(Sm) ;Address.Zip.IsNull())', 'filter', { schema: next, previousSchema: previous })).toBe(
      'Or( LastName.StartsWith(Sm) ;Location.PostCode.IsNull())',
    );
    expect(renameFields('Gender.Equal(1)', 'filter', { schema: next, previousSchema: previous })).toBe('Gender.Equal(1)');
  });

  it('without a previous schema, old names are unknown and deprecations are still reported', () => {
    expect(lintText('Surname.Equal(x);Email.Equal(y)', 'filter', { schema: next }).map((d) => d.code)).toEqual([
      'unknown-field',
      'deprecated-field',
    ]);
  });

  it('renameAwareSchema resolves an old name to the field it became', () => {
    const hit = renameAwareSchema(previous, next).lookup('SURNAME');
    expect(hit.found === 'field' && hit.field.name).toBe('LastName');
  });
});
