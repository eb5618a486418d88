import { describe, expect, it } from 'vitest';
import type { Diagnostic, FilterAst, FilterNode, TypedComparison, TypedFilterNode } from '../../../src/index.js';
import { NO_SPAN, WepqlError, analyzeFilter, analyzeFilterOrThrow, defineSchema, parseFilter, validateFilter } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const schema = defineSchema({
  fields: {
    LastName: { type: 'string' },
    FirstName: { type: 'string' },
    Salary: { type: 'number' },
    Gender: { type: 'integer', nullable: true },
    CreatedOn: { type: 'datetime' },
    ModifiedOn: { type: 'datetime', nullable: true },
    Active: { type: 'boolean' },
    Ssn: { type: 'string', filterable: false, sortable: false },
    Address: { type: 'object', nullable: true, fields: { Zip: { type: 'string' }, Since: { type: 'datetime' } } },
  },
});

const brief = (ds: readonly Diagnostic[]) => ds.map((d) => [d.code, d.start, d.end]);
const analyze = (text: string) => analyzeFilter(text, { schema });

describe('validateFilter: one diagnostic per fault, at the faulty node', () => {
  it.each<[string, string, number, number]>([
    ['Salry.Equal(1)', 'unknown-field', 0, 5],
    ['Zzzzzzzz.Equal(1)', 'unknown-field', 0, 8],
    ['Address.Zipp.Equal(1)', 'unknown-field', 0, 12],
    ['Address.Equal(x)', 'not-a-leaf-field', 0, 7],
    ['Address.IsNull()', 'not-a-leaf-field', 0, 7],
    ['Ssn.Equal(1)', 'not-filterable', 0, 3],
    ['Ssn.IsNull()', 'not-filterable', 0, 3],
    ['LastName.GreaterThan(x)', 'operator-not-applicable', 9, 20],
    ['Salary.Contains(1)', 'operator-not-applicable', 7, 15],
    ['CreatedOn.StartsWith(2024)', 'operator-not-applicable', 10, 20],
    ['Active.LessThan(true)', 'operator-not-applicable', 7, 15],
    ['Active.NotEndsWith(e)', 'operator-not-applicable', 7, 18],
    ['Salary.Equal(abc)', 'invalid-value', 13, 16],
    ["Salary.Equal('abc')", 'invalid-value', 13, 18],
    ['Salary.Equal(.5)', 'invalid-value', 13, 15],
    ['Salary.Equal(1e999)', 'invalid-value', 13, 18],
    ['Gender.Equal(1.5)', 'invalid-value', 13, 16],
    ['Gender.Equal(9007199254740992)', 'integer-out-of-range', 13, 29],
    ['Gender.Equal(-1e300)', 'integer-out-of-range', 13, 19],
    ['CreatedOn.Equal(2023-02-30)', 'invalid-value', 16, 26],
    ['CreatedOn.LessThan(yesterday)', 'invalid-value', 19, 28],
    ['Address.Since.GreaterThan(2024-13-01)', 'invalid-value', 26, 36],
    ['Active.Equal(yes)', 'invalid-value', 13, 16],
    ["Active.Equal('')", 'invalid-value', 13, 15],
    ['Gender.InArray(1, x ,3)', 'invalid-value', 18, 19],
    ['Active.NotInArrayOrNull(true,1)', 'invalid-value', 29, 30],
    ['5.LessThanInFields(Salary,LastName)', 'incompatible-in-fields', 26, 34],
    ["'a'.StartsWithInFields(LastName,Gender)", 'incompatible-in-fields', 32, 38],
    ['abc.GreaterThanInFields(CreatedOn,ModifiedOn)', 'invalid-value', 0, 3],
    ['1.EqualInFields(Salary,Nope)', 'unknown-field', 23, 27],
    ['1.EqualInFields(Salary,Ssn)', 'not-filterable', 23, 26],
    ['Or(LastName.Equal(a);And(Gender.Equal(x);Active.IsNull()))', 'invalid-value', 38, 39],
  ])('%s → %s', (text, code, start, end) => {
    const { value, diagnostics } = analyze(text);
    expect(brief(diagnostics)).toEqual([[code, start, end]]);
    expect(diagnostics[0]!.severity).toBe('error');
    expect(value).toBeUndefined();
  });

  it('warns, and still types, a field spelled in another case', () => {
    const { value, diagnostics } = analyze('lastname.Equal(x)');
    expect(diagnostics).toEqual([
      {
        code: 'field-case-mismatch',
        severity: 'warning',
        message: 'field "lastname" is spelled "LastName" in the schema',
        start: 0,
        end: 8,
        suggestion: 'LastName',
        fix: [{ start: 0, end: 8, newText: 'LastName' }],
      },
    ]);
    expect((value!.clauses[0] as TypedComparison).field.name).toBe('LastName');
  });

  it('warns on each InFields field spelled in another case', () => {
    const { value, diagnostics } = analyze('x.EqualInFields(lastname,FIRSTNAME)');
    expect(brief(diagnostics)).toEqual([
      ['field-case-mismatch', 16, 24],
      ['field-case-mismatch', 25, 34],
    ]);
    expect(value).toBeDefined();
  });

  it.each<[string, string]>([
    ['Salry.Equal(1)', 'unknown field "Salry"; did you mean "Salary"?'],
    ['Zzzzzzzz.Equal(1)', 'unknown field "Zzzzzzzz"; it is not in the schema'],
    ['Address.Equal(x)', '"Address" is an object, not a field with a value; name one of its fields, such as "Address.Zip"'],
    ['Ssn.Equal(1)', 'field "Ssn" cannot be used in a filter: the schema marks it not filterable'],
    ['LastName.GreaterThan(x)', 'GreaterThan does not apply to "LastName", a string field; it takes number, integer and datetime fields'],
    ['Salary.Contains(1)', 'Contains does not apply to "Salary", a number field; it takes string fields'],
    ['Salary.Equal(abc)', '"abc" is not a valid value for "Salary" (a number field): expected a number like 42, -3.5 or 1e3'],
    [
      'Gender.Equal(1.5)',
      '"1.5" is not a valid value for "Gender" (an integer field): it has a fraction; expected a whole number like 42 or -7',
    ],
    ['Gender.Equal(x)', '"x" is not a valid value for "Gender" (an integer field): expected a whole number like 42 or -7'],
    [
      'Gender.Equal(9007199254740992)',
      '"9007199254740992" is not a valid value for "Gender" (an integer field): it is outside ±9007199254740991 (2^53−1), the range of integers',
    ],
    [
      'CreatedOn.Equal(soon)',
      '"soon" is not a valid value for "CreatedOn" (a datetime field): expected a datetime like 2024-01-31 or 2024-01-31T13:45:00Z',
    ],
    [
      'CreatedOn.Equal(2023-02-30)',
      '"2023-02-30" is not a valid value for "CreatedOn" (a datetime field): it is not a real date or time; expected a datetime like 2024-01-31 or 2024-01-31T13:45:00Z',
    ],
    ['Active.Equal(yes)', '"yes" is not a valid value for "Active" (a boolean field): expected true or false'],
    [
      '5.LessThanInFields(Salary,LastName)',
      '"LastName" is a string field and does not take LessThanInFields, which takes number, integer and datetime fields',
    ],
  ])('%s says: %s', (text, message) => {
    expect(analyze(text).diagnostics[0]!.message).toBe(message);
  });

  it('suggests the nearest field name, without a fix (a guess is not safe to apply)', () => {
    const [d] = analyze('Salry.Equal(1)').diagnostics;
    expect(d!.suggestion).toBe('Salary');
    expect(d!.fix).toBeUndefined();
  });

  it('does not suggest a field the filter could not use', () => {
    const [d] = analyze('Ssm.Equal(1)').diagnostics;
    expect(d!.code).toBe('unknown-field');
    expect(d!.suggestion).toBeUndefined();
  });

  it('cuts a huge value short in the message', () => {
    const [d] = analyze(`Salary.Equal(${'x'.repeat(5000)})`).diagnostics;
    expect(d!.message.length).toBeLessThan(200);
  });

  it('reports every problem in one pass, in source order', () => {
    const { value, diagnostics } = analyze('Salry.Equal(1);Or(LastName.LessThan(x);gender.Equal(y));Active.Equal(1);Address.IsNull()');
    expect(brief(diagnostics)).toEqual([
      ['unknown-field', 0, 5],
      ['operator-not-applicable', 27, 35],
      ['field-case-mismatch', 39, 45],
      ['invalid-value', 52, 53],
      ['invalid-value', 69, 70],
      ['not-a-leaf-field', 72, 79],
    ]);
    expect(value).toBeUndefined();
  });

  it('reports an InFields value once per type it fails, and every unfit field', () => {
    expect(brief(analyze("'x'.EqualInFields(Salary,Gender,CreatedOn,LastName)").diagnostics)).toEqual([
      ['invalid-value', 0, 3],
      ['invalid-value', 0, 3],
      ['invalid-value', 0, 3],
    ]);
    expect(brief(analyze('1.ContainsInFields(Salary,LastName,Active)').diagnostics)).toEqual([
      ['incompatible-in-fields', 19, 25],
      ['incompatible-in-fields', 35, 41],
    ]);
  });

  it('skips the value check when the operator does not apply', () => {
    expect(brief(analyze('Salary.Contains(abc)').diagnostics)).toEqual([['operator-not-applicable', 7, 15]]);
  });

  it('merges parser and validator diagnostics without repeating the parser', () => {
    const { value, diagnostics } = analyze('Salry.Equal(1);;A.Equalz(1)');
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-field', 'empty-clause', 'unknown-operator']);
    expect(value).toBeUndefined();
  });
});

describe('validateFilter: the typed tree', () => {
  const strip = (n: TypedFilterNode): unknown => {
    switch (n.kind) {
      case 'group':
        return [n.operator, n.children.map(strip)];
      case 'comparison':
        return [n.field.name, n.operator, n.value];
      case 'null-check':
        return [n.field.name, n.operator];
      case 'list':
        return [n.field.name, n.operator, n.values];
      case 'in-fields':
        return [n.operator, n.fields.map((f) => f.name), n.values];
    }
  };

  it('converts each value to its field type, in the schema spelling', () => {
    const { value, diagnostics } = analyze(
      "LastName.StartsWith(' Sm');Or(gender.Equal(1e3);Salary.GreaterThan(-2.5));CreatedOn.LessThan(2024-01-01T02:00+02:00);" +
        "Active.Equal(TRUE);Gender.InArrayOrNull(1,'2');ModifiedOn.IsNull();'2024-01-31'.GreaterThanInFields(CreatedOn,Address.Since);" +
        '7.EqualInFields(Salary,Gender)',
    );
    expect(brief(diagnostics)).toEqual([['field-case-mismatch', 30, 36]]);
    expect(value!.kind).toBe('typed-filter');
    expect(value!.clauses.map(strip)).toEqual([
      ['LastName', 'StartsWith', ' Sm'],
      [
        'Or',
        [
          ['Gender', 'Equal', 1000],
          ['Salary', 'GreaterThan', -2.5],
        ],
      ],
      ['CreatedOn', 'LessThan', new Date('2024-01-01T00:00:00.000Z')],
      ['Active', 'Equal', true],
      ['Gender', 'InArrayOrNull', [1, 2]],
      ['ModifiedOn', 'IsNull'],
      ['GreaterThanInFields', ['CreatedOn', 'Address.Since'], [new Date('2024-01-31T00:00:00Z'), new Date('2024-01-31T00:00:00Z')]],
      ['EqualInFields', ['Salary', 'Gender'], [7, 7]],
    ]);
  });

  it('keeps the source nodes', () => {
    const { ast, value } = analyze('Or(Gender.Equal(1))');
    expect(value!.source).toBe(ast);
    expect(value!.clauses[0]!.source).toBe(ast.clauses[0]);
  });

  it('types an empty filter as no clauses', () => {
    expect(analyze('').value).toEqual({ kind: 'typed-filter', clauses: [], source: parseFilter('').ast });
  });

  it('reads a value the same whether quoted or not', () => {
    const a = analyze("Salary.Equal('12.5')").value!.clauses[0] as TypedComparison;
    const b = analyze('Salary.Equal(12.5)').value!.clauses[0] as TypedComparison;
    expect(a.value).toBe(12.5);
    expect(b.value).toBe(12.5);
  });

  it('works with the employee schema', () => {
    const typed = analyzeFilterOrThrow('LastName.StartsWith(Sm);Or(Gender.Equal(1);BirthOn.GreaterThan(1990-01-01))', {
      schema: employeeSchema,
    });
    expect(typed.clauses.map(strip)).toEqual([
      ['LastName', 'StartsWith', 'Sm'],
      [
        'Or',
        [
          ['Gender', 'Equal', 1],
          ['BirthOn', 'GreaterThan', new Date('1990-01-01T00:00:00Z')],
        ],
      ],
    ]);
  });
});

describe('analyzeFilterOrThrow', () => {
  it('throws a WepqlError carrying every diagnostic', () => {
    let error: unknown;
    try {
      analyzeFilterOrThrow('Salry.Equal(1);Gender.Equal(x)', { schema });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WepqlError);
    expect((error as WepqlError).diagnostics.map((d) => d.code)).toEqual(['unknown-field', 'invalid-value']);
    expect((error as WepqlError).message).toContain('unknown-field at 0-5');
  });

  it('accepts a tree as well as text', () => {
    const { ast } = parseFilter('Gender.Equal(2)');
    expect((analyzeFilterOrThrow(ast, { schema }).clauses[0] as TypedComparison).value).toBe(2);
  });
});

// Trees built by code (the builder, tests) skip the parser: the validator
// must still refuse what the parser would never build.
describe('validateFilter on trees built by code', () => {
  const field = (name: string) => ({ kind: 'field' as const, path: name.split('.'), name, span: NO_SPAN });
  const value = (v: string) => ({ kind: 'value' as const, value: v, quoted: false, raw: v, span: NO_SPAN });
  const cmp = (name: string, v: string): FilterNode => ({
    kind: 'comparison',
    field: field(name),
    operator: 'Equal',
    operatorSpan: NO_SPAN,
    value: value(v),
    span: NO_SPAN,
  });
  const filter = (...clauses: FilterNode[]): FilterAst => ({ kind: 'filter', clauses, span: NO_SPAN });
  const nest = (depth: number): FilterNode => {
    let node = cmp('Gender', '1');
    for (let i = 0; i < depth; i++)
      node = { kind: 'group', operator: i % 2 ? 'And' : 'Or', operatorSpan: NO_SPAN, children: [node], span: NO_SPAN };
    return node;
  };
  const codes = (ast: FilterAst, limits = {}) => validateFilter(ast, schema, { limits }).diagnostics.map((d) => d.code);

  it('offers no fix edit for a node without a source range', () => {
    const [d] = validateFilter(filter(cmp('Salry', '1')), schema).diagnostics;
    expect(d!.suggestion).toBe('Salary');
    expect(d!.fix).toBeUndefined();
  });

  it('accepts 32 nested groups and refuses 33 without overflowing', () => {
    expect(codes(filter(nest(32)))).toEqual([]);
    expect(codes(filter(nest(33)))).toEqual(['nesting-too-deep']);
    expect(codes(filter(nest(3)), { maxDepth: 2 })).toEqual(['nesting-too-deep']);
    expect(validateFilter(filter(nest(100_000)), schema).value).toBeUndefined();
  });

  it('enforces maxConditions, maxListValues and maxInFields', () => {
    expect(codes(filter(cmp('Gender', '1'), cmp('Gender', '2'), cmp('Gender', '3')), { maxConditions: 2 })).toEqual([
      'too-many-conditions',
    ]);
    const list: FilterNode = {
      kind: 'list',
      field: field('Gender'),
      operator: 'InArray',
      operatorSpan: NO_SPAN,
      values: ['1', '2', '3'].map(value),
      span: NO_SPAN,
    };
    expect(codes(filter(list), { maxListValues: 2 })).toEqual(['too-many-list-values']);
    const inFields: FilterNode = {
      kind: 'in-fields',
      value: value('1'),
      operator: 'EqualInFields',
      operatorSpan: NO_SPAN,
      fields: [field('Salary'), field('Gender'), field('Salary')],
      span: NO_SPAN,
    };
    expect(codes(filter(inFields), { maxInFields: 2 })).toEqual(['too-many-in-fields']);
  });

  it('refuses empty groups, empty lists and invalid characters', () => {
    expect(codes(filter({ kind: 'group', operator: 'Or', operatorSpan: NO_SPAN, children: [], span: NO_SPAN }))).toEqual(['empty-group']);
    expect(
      codes(filter({ kind: 'list', field: field('Gender'), operator: 'InArray', operatorSpan: NO_SPAN, values: [], span: NO_SPAN })),
    ).toEqual(['missing-value']);
    expect(codes(filter(cmp('LastName', 'a\u0000b')))).toEqual(['invalid-character']);
    expect(codes(filter(cmp('LastName', '\ud800')))).toEqual(['invalid-character']);
  });

  it.each(['raw-sql', '__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'fails a clause of kind %j without throwing, and still reports the others',
    (kind) => {
      const outside = { kind, sql: '1=1', span: NO_SPAN } as unknown as FilterNode;
      const group: FilterNode = { kind: 'group', operator: 'Or', operatorSpan: NO_SPAN, children: [outside], span: NO_SPAN };
      for (const ast of [filter(outside), filter(cmp('Salry', '1'), group)]) {
        const result = validateFilter(ast, schema);
        expect(result.value).toBeUndefined();
        expect(result.diagnostics.map((d) => d.code)).toEqual(ast.clauses.length === 1 ? [] : ['unknown-field']);
      }
    },
  );

  it('stops at maxErrors with one too-many-errors', () => {
    const many = filter(...Array.from({ length: 50 }, () => cmp('Nope', '1')));
    const ds = codes(many, { maxErrors: 10 });
    expect(ds).toHaveLength(11);
    expect(ds[10]).toBe('too-many-errors');
  });
});
