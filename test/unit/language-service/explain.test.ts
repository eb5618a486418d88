import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { FilterAst, FilterNode } from '../../../src/index.js';
import { NO_SPAN, defineSchema, parseFilter, explain } from '../../../src/index.js';
import { IN_FIELDS_OPERATORS, baseOperatorOfInFields } from '../../../src/ast/operators.js';
import { fieldWords } from '../../../src/language-service/words.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const payroll = defineSchema({
  fields: {
    LastName: { type: 'string' },
    Gender: { type: 'integer', nullable: true },
    Salary: { type: 'number' },
    CreatedOn: { type: 'datetime' },
    Active: { type: 'boolean' },
    Address: { type: 'object', fields: { ZipCode: { type: 'string' } } },
  },
});

describe('fieldWords', () => {
  it.each([
    ['LastName', 'last name'],
    ['CreatedOn', 'created on'],
    ['EePortal', 'ee portal'],
    ['W2Id', 'w2 id'],
    ['EligibleFor401k', 'eligible for 401k'],
    ['HCE', 'HCE'],
    ['HCEStatus', 'HCE status'],
    ['Ssn', 'ssn'],
    ['Address.ZipCode', 'address zip code'],
    ['last_name', 'last name'],
    ['firstName', 'first name'],
    ['x', 'x'],
  ])('%s', (name, words) => {
    expect(fieldWords(name)).toBe(words);
  });
});

describe('explain: filters without a schema', () => {
  it.each([
    [
      'LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))',
      'last name starts with "Sm" and (gender is 1 or salary is greater than 1000)',
    ],
    ['Or(A.Equal(1);B.Equal(2))', 'a is 1 or b is 2'],
    ['And(A.Equal(1);B.Equal(2))', 'a is 1 and b is 2'],
    ['Or(A.Equal(1);And(B.Equal(2);C.Equal(3)))', 'a is 1 or (b is 2 and c is 3)'],
    ['Or(And(A.Equal(1);B.Equal(2));And(C.Equal(3);D.Equal(4)))', '(a is 1 and b is 2) or (c is 3 and d is 4)'],
    ['Or(Or(A.Equal(1);B.Equal(2));C.Equal(3))', 'a is 1 or b is 2 or c is 3'],
    ['A.Equal(1);And(B.Equal(2);C.Equal(3))', 'a is 1 and b is 2 and c is 3'],
    ['Or(A.Equal(1));B.Equal(2)', 'a is 1 and b is 2'],
    ['A.Equal(1);Or(And(B.Equal(2);C.Equal(3)))', 'a is 1 and b is 2 and c is 3'],
    ['Or(A.Equal(1);Or(B.Equal(2)))', 'a is 1 or b is 2'],
    ['Or(A.Equal(1);And(B.Equal(2)))', 'a is 1 or b is 2'],
    ["'D'.StartsWithInFields(FirstName,LastName)", 'first name or last name starts with "D"'],
    ['5.LessThanInFields(A,B,C)', 'a, b or c is less than 5'],
    ['Gender.IsNull()', 'gender is not set'],
    ['Gender.IsNotNull()', 'gender is set'],
    ['Gender.InArray(1,2,3)', 'gender is one of 1, 2 or 3'],
    ['Gender.InArray(1)', 'gender is 1'],
    ['Gender.InArrayOrNull(1,2)', 'gender is one of 1 or 2, or is not set'],
    ['Gender.NotInArray(1,2)', 'gender is not one of 1 or 2 (and is set)'],
    ['Gender.NotInArrayOrNull(3)', 'gender is not 3 or is not set'],
    ['City.InArray(Paris,London)', 'city is one of "Paris" or "London"'],
    ["LastName.Equal('O''Brien')", 'last name is "O\'Brien"'],
    ['City.Equal(New York)', 'city is "New York"'],
    ['LastName.NotContains(x)', 'last name does not contain "x" (and is set)'],
    ['LastName.NotStartsWith(x)', 'last name does not start with "x" (and is set)'],
    ['LastName.EndsWith(son)', 'last name ends with "son"'],
    ['Code.Contains(42)', 'code contains "42"'],
    ['CreatedOn.LessThan(2024-01-01)', 'created on is before 2024-01-01'],
    ['CreatedOn.GreaterThanOrEqual(2024-01-01T10:00Z)', 'created on is on or after 2024-01-01T10:00Z'],
    ['Age.LessThanOrEqual(65)', 'age is less than or equal to 65'],
    ['Active.Equal(TRUE)', 'active is true'],
    ['A.NotEqual(x)', 'a is not "x" (and is set)'],
    ['', 'every record'],
    ['   ', 'every record'],
  ])('%s', (filter, expected) => {
    const result = explain(filter);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.value).toBe(expected);
  });
});

describe('explain: filters with a schema', () => {
  it.each([
    ['lastname.startswith(Sm)', 'last name starts with "Sm"'],
    ['LastName.Equal(123)', 'last name is "123"'],
    ['Salary.GreaterThan(1000)', 'salary is greater than 1000'],
    ['CreatedOn.GreaterThanOrEqual(2024-01-01)', 'created on is on or after 2024-01-01'],
    [
      'CreatedOn.Equal(2024-01-01)',
      'created on is exactly 2024-01-01T00:00:00Z (that instant only, not the whole day; for the whole day: CreatedOn.GreaterThanOrEqual(2024-01-01);CreatedOn.LessThan(2024-01-02))',
    ],
    [
      'CreatedOn.NotEqual(2024-01-01)',
      'created on is not exactly 2024-01-01T00:00:00Z (that instant only, not the whole day; to leave out the whole day: Or(CreatedOn.LessThan(2024-01-01);CreatedOn.GreaterThanOrEqual(2024-01-02)))',
    ],
    [
      'CreatedOn.InArray(2024-01-01,2024-01-31)',
      'created on is one of exactly 2024-01-01T00:00:00Z or exactly 2024-01-31T00:00:00Z (those instants only, not the whole days; for the whole days: Or(And(CreatedOn.GreaterThanOrEqual(2024-01-01);CreatedOn.LessThan(2024-01-02));And(CreatedOn.GreaterThanOrEqual(2024-01-31);CreatedOn.LessThan(2024-02-01))))',
    ],
    ['CreatedOn.Equal(2024-01-01T09:30Z)', 'created on is 2024-01-01T09:30Z'],
    ['Active.Equal(False)', 'active is false'],
    ['Address.ZipCode.StartsWith(9)', 'address zip code starts with "9"'],
    ['5.LessThanInFields(Gender,Salary)', 'gender or salary is less than 5'],
    ['Or(Gender.Equal(1);Gender.IsNull())', 'gender is 1 or gender is not set'],
  ])('%s', (filter, expected) => {
    expect(explain(filter, { schema: payroll }).value).toBe(expected);
  });

  // docs/reference.md §"Filter semantics": the negative operators are false on a null field; the sentence
  // says so exactly when the schema lets the field be null.
  const nullable = defineSchema({
    fields: {
      Gender: { type: 'integer', nullable: true },
      LastName: { type: 'string' },
      Nick: { type: 'string', nullable: true },
      Home: { type: 'object', nullable: true, fields: { Zip: { type: 'string' } } },
      Work: { type: 'object', fields: { Zip: { type: 'string' } } },
    },
  });
  it.each([
    ['Gender.NotEqual(1)', 'gender is not 1 (and is set)'],
    ['LastName.NotEqual(x)', 'last name is not "x"'],
    ['Nick.NotContains(x)', 'nick does not contain "x" (and is set)'],
    ['Nick.NotStartsWith(x)', 'nick does not start with "x" (and is set)'],
    ['Nick.NotEndsWith(x)', 'nick does not end with "x" (and is set)'],
    ['LastName.NotEndsWith(x)', 'last name does not end with "x"'],
    ['Gender.NotInArray(1,2)', 'gender is not one of 1 or 2 (and is set)'],
    ['Gender.NotInArray(1)', 'gender is not 1 (and is set)'],
    ['Gender.NotInArrayOrNull(1,2)', 'gender is not one of 1 or 2, or is not set'],
    ['Gender.InArrayOrNull(1)', 'gender is 1 or is not set'],
    ['Gender.IsNull()', 'gender is not set'],
    ['Gender.IsNotNull()', 'gender is set'],
    ['Gender.Equal(1)', 'gender is 1'],
    ['Gender.LessThan(3)', 'gender is less than 3'],
    ['Home.Zip.NotEqual(9)', 'home zip is not "9" (and is set)'],
    ['Work.Zip.NotEqual(9)', 'work zip is not "9"'],
    ['Or(Gender.NotEqual(1);LastName.Equal(x))', 'gender is not 1 (and is set) or last name is "x"'],
  ])('null semantics: %s', (filter, expected) => {
    expect(explain(filter, { schema: nullable }).value).toBe(expected);
  });

  it.each([
    ['HCE.Equal(true)', 'HCE is true'],
    ["'D'.StartsWithInFields(FirstName,LastName)", 'first name or last name starts with "D"'],
    ['BirthOn.LessThan(1980-01-01)', 'birth on is before 1980-01-01'],
  ])('employee schema: %s', (filter, expected) => {
    expect(explain(filter, { schema: employeeSchema }).value).toBe(expected);
  });
});

describe('explain: text values show what they really contain', () => {
  it.each([
    ['A.Equal(\u202eevil)', 'a is "\\u202eevil"'],
    ['A.Contains(a\u200bb)', 'a contains "a\\u200bb"'],
    ['A.Equal(a\u2028b)', 'a is "a\\u2028b"'],
    ['A.Equal(a\u0085b)', 'a is "a\\u0085b"'],
    ["A.Equal('a\nb')", 'a is "a\\nb"'],
    ['A.Equal(Zoë)', 'a is "Zoë"'],
  ])('%j', (filter, expected) => {
    expect(explain(filter).value).toBe(expected);
  });
});

describe('explain: invalid input gets diagnostics, no explanation', () => {
  it.each<[string, 'filter' | 'sort', boolean, string]>([
    ['LastName.StartWith(Sm)', 'filter', false, 'unknown-operator'],
    ['LastName.Equal(1', 'filter', false, 'missing-close-paren'],
    ['Or()', 'filter', false, 'empty-group'],
    ['Foo.Equal(1)', 'filter', true, 'unknown-field'],
    ['Gender.Contains(x)', 'filter', true, 'operator-not-applicable'],
    ['Salary.Equal(abc)', 'filter', true, 'invalid-value'],
    ['LastName=Up', 'sort', false, 'invalid-direction'],
    ['Nope=Asc', 'sort', true, 'unknown-field'],
  ])('%s', (text, kind, withSchema, code) => {
    const result = explain(text, { kind, ...(withSchema ? { schema: payroll } : {}) });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toContain(code);
  });
});

describe('explain: sorts', () => {
  it.each<[string, boolean, string]>([
    ['LastName=Asc;CreatedOn=Desc', true, 'by last name (A→Z), then by created on (newest first)'],
    ['LastName=Desc;CreatedOn=Asc', true, 'by last name (Z→A), then by created on (oldest first)'],
    ['LastName=Asc;CreatedOn=Desc', false, 'by last name (ascending), then by created on (descending)'],
    ['Gender=Desc;Salary=Asc', true, 'by gender (highest first), then by salary (lowest first)'],
    ['Active=Asc', true, 'by active (false first)'],
    ['Active=Desc', true, 'by active (true first)'],
    ['lastname=asc', true, 'by last name (A→Z)'],
    ['Address.ZipCode=Asc', true, 'by address zip code (A→Z)'],
    ['', true, 'in stored order'],
  ])('%s', (sort, withSchema, expected) => {
    expect(explain(sort, { kind: 'sort', ...(withSchema ? { schema: payroll } : {}) }).value).toBe(expected);
  });

  it('reads an implicit direction as ascending and keeps the warning', () => {
    const result = explain('LastName', { kind: 'sort', schema: payroll });
    expect(result.value).toBe('by last name (A→Z)');
    expect(result.diagnostics.map((d) => d.code)).toEqual(['implicit-direction']);
  });

  it('leaves out a repeated field, which has no effect', () => {
    expect(explain('LastName=Asc;Gender=Desc;lastname=Desc', { kind: 'sort', schema: payroll }).value).toBe(
      'by last name (A→Z), then by gender (highest first)',
    );
  });
});

describe('explain: trees', () => {
  it('explains a parsed tree like its text', () => {
    const text = 'Or(Gender.Equal(1);LastName.StartsWith(Sm))';
    expect(explain(parseFilter(text).ast, { schema: payroll }).value).toBe(explain(text, { schema: payroll }).value);
  });

  it('explains a tree built by code', () => {
    const field = (name: string) => ({ kind: 'field' as const, path: [name], name, span: NO_SPAN });
    const ast: FilterAst = {
      kind: 'filter',
      span: NO_SPAN,
      clauses: [
        {
          kind: 'null-check',
          field: field('Gender'),
          operator: 'IsNotNull',
          operatorSpan: NO_SPAN,
          span: NO_SPAN,
        },
      ],
    };
    expect(explain(ast)).toEqual({ value: 'gender is set', diagnostics: [] });
  });

  it('refuses a built tree deeper than maxDepth instead of overflowing the stack', () => {
    let node: FilterNode = {
      kind: 'null-check',
      field: { kind: 'field', path: ['A'], name: 'A', span: NO_SPAN },
      operator: 'IsNull',
      operatorSpan: NO_SPAN,
      span: NO_SPAN,
    };
    for (let i = 0; i < 100_000; i++) {
      node = { kind: 'group', operator: i % 2 ? 'And' : 'Or', operatorSpan: NO_SPAN, children: [node], span: NO_SPAN };
    }
    const result = explain({ kind: 'filter', clauses: [node], span: NO_SPAN });
    expect(result.value).toBeUndefined();
    expect(result.diagnostics.map((d) => d.code)).toEqual(['nesting-too-deep']);
  });
});

describe('explain: never throws', () => {
  const text = fc.string({ unit: fc.constantFrom(..."AbOr.;(),=' _1-Tt:Z".split('')), maxLength: 80 });
  it('on any filter or sort text, with and without a schema', () => {
    fc.assert(
      fc.property(text, fc.boolean(), fc.boolean(), (input, sort, withSchema) => {
        const result = explain(input, { kind: sort ? 'sort' : 'filter', ...(withSchema ? { schema: payroll } : {}) });
        expect(result.value === undefined || typeof result.value === 'string').toBe(true);
      }),
    );
  });
});

describe('explain: one phrase per operator', () => {
  it.each(IN_FIELDS_OPERATORS.map((op) => [op, baseOperatorOfInFields(op)] as const))('%s reads like %s, field by field', (op, base) => {
    expect(explain(`5.${op}(Salary)`).value).toBe(explain(`Salary.${base}(5)`).value);
  });

  it('words an InFields operator on datetimes as its base operator', () => {
    expect(explain('2024-03-21.LessThanInFields(CreatedOn)', { schema: payroll }).value).toBe('created on is before 2024-03-21');
  });

  it('reads null checks and lists from the same table', () => {
    expect(explain('Gender.IsNull()').value).toBe('gender is not set');
    expect(explain('Gender.IsNotNull()').value).toBe('gender is set');
    expect(explain('Gender.InArrayOrNull(1,2)').value).toBe('gender is one of 1 or 2, or is not set');
    expect(explain('Gender.NotInArray(1)').value).toBe('gender is not 1 (and is set)');
  });
});
