import { describe, expect, it } from 'vitest';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { highlightTokens, hoverAt } from '../../../src/index.js';

const show = (text: string, kind: 'filter' | 'sort' = 'filter'): string[] =>
  highlightTokens(text, { kind }).map((t) => `${t.kind}:${text.slice(t.start, t.end)}`);

describe('highlightTokens', () => {
  it.each([
    ['LastName.StartsWith(Sm)', ['field:LastName', 'operator:StartsWith', 'value:Sm']],
    ["LastName.Equal('O''Brien')", ['field:LastName', 'operator:Equal', "string:'O''Brien'"]],
    [
      'Or(Gender.InArray(1,2);Gender.IsNull())',
      ['keyword:Or', 'field:Gender', 'operator:InArray', 'value:1', 'value:2', 'field:Gender', 'operator:IsNull'],
    ],
    ["'D'.StartsWithInFields(FirstName,LastName)", ["string:'D'", 'operator:StartsWithInFields', 'field:FirstName', 'field:LastName']],
    ['Address.ZipCode.Equal(2024-01-01T00:00:00Z)', ['field:Address.ZipCode', 'operator:Equal', 'value:2024-01-01T00:00:00Z']],
    ['LastName.StartWith(Sm);Gender.Equal(1)', ['field:Gender', 'operator:Equal', 'value:1']],
    ['', []],
  ])('%s', (text, expected) => {
    const shown = show(text);
    // A clause the parser could not read is left to its diagnostic; the rest is highlighted.
    for (const e of expected) expect(shown).toContain(e);
    if (expected.length === 0) expect(shown).toEqual([]);
  });

  it.each([
    ['LastName=Asc;CreatedOn = Desc', ['field:LastName', 'direction:Asc', 'field:CreatedOn', 'direction:Desc']],
    ['LastName', ['field:LastName']],
  ])('sort %s', (text, expected) => {
    expect(show(text, 'sort')).toEqual(expected);
  });

  it('returns disjoint ranges in order for hostile input', () => {
    const text = 'Or('.repeat(300) + 'A.Equal(1' + ';'.repeat(50);
    const tokens = highlightTokens(text);
    for (let i = 1; i < tokens.length; i++) expect(tokens[i]!.start).toBeGreaterThanOrEqual(tokens[i - 1]!.end);
  });
});

describe('hoverAt', () => {
  const text = 'LastName.StartsWith(Sm);Or(Gender.Equal(1);CreatedOn.Equal(2024-03-21))';
  it('on a field: its type and the clause explained', () => {
    const hover = hoverAt(text, text.indexOf('Gender') + 2, employeeSchema)!;
    expect(text.slice(hover.start, hover.end)).toBe('Gender');
    expect(hover.field?.type).toBe('integer');
    expect(hover.explanation).toBe('gender is 1');
    expect(hover.markdown).toMatch(/^\*\*Gender\*\* · integer/);
  });

  it('on an operator: the clause explained, with the instant warning for a date-only day', () => {
    const hover = hoverAt(text, text.indexOf('Equal(2024') + 1, employeeSchema)!;
    expect(text.slice(hover.start, hover.end)).toBe('CreatedOn.Equal(2024-03-21)');
    expect(hover.explanation).toMatch(/^created on is exactly 2024-03-21T00:00:00Z/);
  });

  it('on a group keyword: the group explained', () => {
    const hover = hoverAt(text, text.indexOf('Or(') + 1, employeeSchema)!;
    expect(hover.explanation).toMatch(/^gender is 1 or created on/);
  });

  it('on a clause with an error: the field, no sentence', () => {
    const hover = hoverAt('Gender.Equal(x)', 1, employeeSchema)!;
    expect(hover.field?.name).toBe('Gender');
    expect(hover.explanation).toBeUndefined();
  });

  it('hover-on-clause-with-error: a condition with a syntax error still describes its field', () => {
    // The parser leaves Gender.Equals(1) out of the tree (unknown operator); the hover was null.
    const hover = hoverAt('Gender.Equals(1)', 2, employeeSchema)!;
    expect(hover).toMatchObject({ start: 0, end: 6, field: { name: 'Gender', type: 'integer' } });
    expect(hover.markdown).toBe('**Gender** · integer, nullable\n\nGender code (enumeration; meanings not published).');
    expect(hover.explanation).toBeUndefined();
    const nested = 'LastName.StartsWith(Sm);Or(WorkEmail.Equalz(x);Nope.Foo(1))';
    expect(hoverAt(nested, nested.indexOf('WorkEmail') + 3, employeeSchema)?.field?.name).toBe('WorkEmail');
    expect(hoverAt(nested, nested.indexOf('Nope') + 1, employeeSchema)?.markdown).toBe('**Nope** · not in the schema');
    // On the broken operator, nothing: the operator is no field.
    expect(hoverAt('Gender.Equals(1)', 9, employeeSchema)).toBeUndefined();
  });

  it('in a sort', () => {
    const hover = hoverAt('LastName=Asc;CreatedOn=Desc', 15, employeeSchema, { kind: 'sort' })!;
    expect(hover.field?.type).toBe('datetime');
    expect(hover.explanation).toBe('by created on (newest first)');
  });

  it('outside every clause: nothing', () => {
    expect(hoverAt('', 0, employeeSchema)).toBeUndefined();
  });
});
