import { describe, expect, it } from 'vitest';
import { parseFilter, type ComparisonNode, type InFieldsNode, type ListNode } from '../../../src/index.js';
import { simplifyFilter, type SimpleClause } from '../../conformance/simplify.js';

function clean(text: string): SimpleClause[] {
  const { ast, diagnostics } = parseFilter(text);
  expect(diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
  return simplifyFilter(ast);
}

function codes(text: string): [string, number, number][] {
  return parseFilter(text).diagnostics.map((d) => [d.code, d.start, d.end]);
}

describe('parseFilter: valid filters (docs/reference.md §"Lexical rules" and §"Filter grammar")', () => {
  it.each<[string, SimpleClause[]]>([
    ['', []],
    ['   \t\r\n ', []],
    ['A.Equal(1)', [{ op: 'Equal', field: 'A', value: '1' }]],
    // the API's own examples
    [
      'Number.GreaterThan(0);Or(Number.Equal(1);Number.Equal(3))',
      [
        { op: 'GreaterThan', field: 'Number', value: '0' },
        {
          op: 'Or',
          children: [
            { op: 'Equal', field: 'Number', value: '1' },
            { op: 'Equal', field: 'Number', value: '3' },
          ],
        },
      ],
    ],
    [
      "Or(Field.Contains('x');And(Num.GreaterThan(0);Num.LessThan(100)))",
      [
        {
          op: 'Or',
          children: [
            { op: 'Contains', field: 'Field', value: { quoted: 'x' } },
            {
              op: 'And',
              children: [
                { op: 'GreaterThan', field: 'Num', value: '0' },
                { op: 'LessThan', field: 'Num', value: '100' },
              ],
            },
          ],
        },
      ],
    ],
    [
      "'D'.StartsWithInFields(FirstName,LastName)",
      [{ op: 'StartsWithInFields', value: { quoted: 'D' }, fields: ['FirstName', 'LastName'] }],
    ],
    [
      'LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))',
      [
        { op: 'StartsWith', field: 'LastName', value: 'Sm' },
        {
          op: 'Or',
          children: [
            { op: 'Equal', field: 'Gender', value: '1' },
            { op: 'GreaterThan', field: 'Salary', value: '1000' },
          ],
        },
      ],
    ],
    // bare values: trimmed, inner whitespace and dots kept
    ['City.Equal(New York)', [{ op: 'Equal', field: 'City', value: 'New York' }]],
    ['City.Equal(  New   York  )', [{ op: 'Equal', field: 'City', value: 'New   York' }]],
    ['A.Equal(a.b.c)', [{ op: 'Equal', field: 'A', value: 'a.b.c' }]],
    ['A.Equal(x=y)', [{ op: 'Equal', field: 'A', value: 'x=y' }]],
    ['A.Equal(é ü 日本)', [{ op: 'Equal', field: 'A', value: 'é ü 日本' }]],
    ['A.Equal(\\n)', [{ op: 'Equal', field: 'A', value: '\\n' }]],
    ['A.Equal(Or)', [{ op: 'Equal', field: 'A', value: 'Or' }]],
    ['A.Equal(1e3)', [{ op: 'Equal', field: 'A', value: '1e3' }]],
    // quoted values
    ["A.Equal('It''s')", [{ op: 'Equal', field: 'A', value: { quoted: "It's" } }]],
    ["A.Equal('')", [{ op: 'Equal', field: 'A', value: { quoted: '' } }]],
    ["A.Equal('''')", [{ op: 'Equal', field: 'A', value: { quoted: "'" } }]],
    ["A.Equal(' a,b;(c) ')", [{ op: 'Equal', field: 'A', value: { quoted: ' a,b;(c) ' } }]],
    ["A.Equal('back\\slash')", [{ op: 'Equal', field: 'A', value: { quoted: 'back\\slash' } }]],
    ["A.Equal(  'x'  )", [{ op: 'Equal', field: 'A', value: { quoted: 'x' } }]],
    ["A.Equal('line\nbreak')", [{ op: 'Equal', field: 'A', value: { quoted: 'line\nbreak' } }]],
    // keywords in any case, stored canonical
    [
      'a.equal(1);B.GREATERTHANOREQUAL(2)',
      [
        { op: 'Equal', field: 'a', value: '1' },
        { op: 'GreaterThanOrEqual', field: 'B', value: '2' },
      ],
    ],
    [
      'or(A.Equal(1);A.Equal(2))',
      [
        {
          op: 'Or',
          children: [
            { op: 'Equal', field: 'A', value: '1' },
            { op: 'Equal', field: 'A', value: '2' },
          ],
        },
      ],
    ],
    [
      'AND(A.Equal(1);A.Equal(2))',
      [
        {
          op: 'And',
          children: [
            { op: 'Equal', field: 'A', value: '1' },
            { op: 'Equal', field: 'A', value: '2' },
          ],
        },
      ],
    ],
    // Or/And as field names
    ['Or.Equal(1)', [{ op: 'Equal', field: 'Or', value: '1' }]],
    ['And.IsNull()', [{ op: 'IsNull', field: 'And' }]],
    ['Orders.Equal(1)', [{ op: 'Equal', field: 'Orders', value: '1' }]],
    ['Address.Zip.StartsWith(90)', [{ op: 'StartsWith', field: 'Address.Zip', value: '90' }]],
    ['_x1.Equal(1)', [{ op: 'Equal', field: '_x1', value: '1' }]],
    // whitespace between tokens
    [
      ' A . Equal ( 1 ) ; Or ( B.IsNull ( ) ) ',
      [
        { op: 'Equal', field: 'A', value: '1' },
        { op: 'Or', children: [{ op: 'IsNull', field: 'B' }] },
      ],
    ],
    // every operator kind
    [
      'A.IsNull();B.IsNotNull()',
      [
        { op: 'IsNull', field: 'A' },
        { op: 'IsNotNull', field: 'B' },
      ],
    ],
    ["A.InArray(1, 2 ,'3')", [{ op: 'InArray', field: 'A', values: ['1', '2', { quoted: '3' }] }]],
    ['A.NotInArrayOrNull(x)', [{ op: 'NotInArrayOrNull', field: 'A', values: ['x'] }]],
    // InFields heads are values
    ['5.5.GreaterThanInFields(A,B)', [{ op: 'GreaterThanInFields', value: '5.5', fields: ['A', 'B'] }]],
    [
      '2024-01-01T00:00:00.000Z.LessThanInFields(CreatedOn,ModifiedOn)',
      [{ op: 'LessThanInFields', value: '2024-01-01T00:00:00.000Z', fields: ['CreatedOn', 'ModifiedOn'] }],
    ],
    ['5 . 5.EqualInFields(A)', [{ op: 'EqualInFields', value: '5.5', fields: ['A'] }]],
    [
      "'New York'.EqualInFields(City, Address.City)",
      [{ op: 'EqualInFields', value: { quoted: 'New York' }, fields: ['City', 'Address.City'] }],
    ],
    ["'a.b'.ContainsInFields(A)", [{ op: 'ContainsInFields', value: { quoted: 'a.b' }, fields: ['A'] }]],
    ['Or.EqualInFields(A)', [{ op: 'EqualInFields', value: 'Or', fields: ['A'] }]],
  ])('%j', (input, expected) => {
    expect(clean(input)).toEqual(expected);
  });
});

describe('parseFilter: node details', () => {
  it('keeps raw, quoted and spans on values', () => {
    const text = "A.Equal( 'It''s' );B.Equal( New York )";
    const [a, b] = parseFilter(text).ast.clauses as ComparisonNode[];
    expect(a!.value).toEqual({ kind: 'value', value: "It's", quoted: true, raw: "'It''s'", span: { start: 9, end: 16 } });
    expect(b!.value).toEqual({ kind: 'value', value: 'New York', quoted: false, raw: 'New York', span: { start: 28, end: 36 } });
    expect(a!.span).toEqual({ start: 0, end: 18 });
    expect(a!.operatorSpan).toEqual({ start: 2, end: 7 });
    expect(a!.field).toEqual({ kind: 'field', path: ['A'], name: 'A', span: { start: 0, end: 1 } });
    expect(text.slice(b!.span.start, b!.span.end)).toBe('B.Equal( New York )');
  });

  it('gives field paths their segments and span', () => {
    const [c] = parseFilter('Address.Zip.Equal(1)').ast.clauses as ComparisonNode[];
    expect(c!.field).toEqual({ kind: 'field', path: ['Address', 'Zip'], name: 'Address.Zip', span: { start: 0, end: 11 } });
  });

  it('spans groups from the keyword to the closing paren', () => {
    const { ast } = parseFilter('x.IsNull();  or(A.Equal(1);B.Equal(2))  ');
    const g = ast.clauses[1]!;
    expect(g.kind).toBe('group');
    expect(g.span).toEqual({ start: 13, end: 38 });
    expect(g.kind === 'group' && g.operatorSpan).toEqual({ start: 13, end: 15 });
    expect(ast.span).toEqual({ start: 0, end: 40 });
  });

  it('gives InFields head values and list values their spans', () => {
    const [n] = parseFilter('5.5.GreaterThanInFields(A, B.C)').ast.clauses as InFieldsNode[];
    expect(n!.value).toEqual({ kind: 'value', value: '5.5', quoted: false, raw: '5.5', span: { start: 0, end: 3 } });
    expect(n!.fields.map((f) => f.span)).toEqual([
      { start: 24, end: 25 },
      { start: 27, end: 30 },
    ]);
    const [l] = parseFilter("A.InArray(x, 'y')").ast.clauses as ListNode[];
    expect(l!.values.map((v) => v.span)).toEqual([
      { start: 10, end: 11 },
      { start: 13, end: 16 },
    ]);
  });
});

describe('parseFilter: diagnostics (code, start, end)', () => {
  it.each<[string, [string, number, number][]]>([
    // quotes
    ["A.Equal('x)", [['unterminated-string', 8, 9]]],
    ["A.Equal('It''s)", [['unterminated-string', 8, 9]]],
    ["A.Equal(O'Brien)", [['unexpected-quote', 9, 10]]],
    ["A.Equal(x 'y')", [['unexpected-quote', 10, 11]]],
    ["A.Equal('x'y)", [['unexpected-token', 11, 12]]],
    ["O'Brien.EqualInFields(A)", [['unexpected-quote', 1, 2]]],
    // the brief's three independent errors
    [
      "A.Equal(1;B.Foo(2);C.Equal('x)",
      [
        ['missing-close-paren', 7, 8],
        ['unknown-operator', 12, 15],
        ['unterminated-string', 27, 28],
      ],
    ],
    // parens
    ['A.Equal(1', [['missing-close-paren', 7, 8]]],
    ['Or(A.Equal(1)', [['missing-close-paren', 2, 3]]],
    ['A.Equal(1))', [['unexpected-close-paren', 10, 11]]],
    ['A.Equal(1));B.IsNull()', [['unexpected-close-paren', 10, 11]]],
    ['A.Equal(1);)B.IsNull()', [['unexpected-close-paren', 11, 12]]],
    [
      'A.Equal(1);)',
      [
        ['empty-clause', 10, 11],
        ['unexpected-close-paren', 11, 12],
      ],
    ],
    [
      'A.Equal(1)))',
      [
        ['unexpected-close-paren', 10, 11],
        ['unexpected-close-paren', 11, 12],
      ],
    ],
    [')A.Equal(1)', [['unexpected-close-paren', 0, 1]]],
    ['Or(A.Equal(1;B.Equal(2))', [['missing-close-paren', 10, 11]]],
    // operators and heads
    ['A.Equals(1)', [['unknown-operator', 2, 8]]],
    ['A.Zzzzzzzz(1)', [['unknown-operator', 2, 10]]],
    ['LastName', [['missing-operator', 0, 8]]],
    ['A.Equal', [['missing-operator', 0, 7]]],
    ['Foo(1)', [['missing-operator', 0, 4]]],
    ['A.(1)', [['missing-operator', 0, 3]]],
    ['Equal(1)', [['invalid-field-path', 0, 5]]],
    ['.Equal(1)', [['invalid-field-path', 0, 6]]],
    ['EqualInFields(A)', [['missing-value', 0, 13]]],
    ['.EqualInFields(A)', [['missing-value', 0, 1]]],
    ['1A.Equal(1)', [['invalid-field-path', 0, 2]]],
    ['A..Equal(1)', [['invalid-field-path', 1, 2]]],
    ["'A'.Equal(1)", [['invalid-field-path', 0, 3]]],
    ['Last Name.Equal(1)', [['invalid-field-path', 0, 9]]],
    ['A-B.Equal(1)', [['invalid-field-path', 0, 3]]],
    ['A.Equal x(1)', [['unexpected-token', 8, 9]]],
    ['New York.EqualInFields(A)', [['unexpected-token', 4, 8]]],
    ['5..EqualInFields(A)', [['unexpected-token', 1, 2]]],
    ['5.a b.EqualInFields(A)', [['unexpected-token', 4, 5]]],
    ['x.EqualInFields(1A)', [['invalid-field-path', 16, 18]]],
    ['x.EqualInFields(A.)', [['invalid-field-path', 17, 18]]],
    // arguments
    ['A.IsNull(1)', [['unexpected-argument', 9, 10]]],
    ['A.IsNull(,)', [['unexpected-argument', 9, 10]]],
    ['A.Equal(1,2)', [['too-many-values', 9, 11]]],
    ['A.Equal()', [['missing-value', 7, 9]]],
    ['A.Equal(   )', [['missing-value', 7, 12]]],
    ['A.InArray()', [['missing-value', 9, 11]]],
    ['A.InArray(1,,2)', [['missing-value', 12, 13]]],
    ['A.InArray(1,)', [['missing-value', 12, 13]]],
    ['A.InArray(,1)', [['missing-value', 10, 11]]],
    ['x.EqualInFields()', [['missing-value', 15, 17]]],
    ['x.EqualInFields(A,,B)', [['missing-value', 18, 19]]],
    ['A.Equal(f(x))', [['unexpected-token', 9, 10]]],
    // clauses and groups
    ['A.Equal(1);;B.Equal(2)', [['empty-clause', 11, 12]]],
    ['A.Equal(1);', [['empty-clause', 10, 11]]],
    [';A.Equal(1)', [['empty-clause', 0, 1]]],
    [
      'A.Equal(1);;',
      [
        ['empty-clause', 10, 11],
        ['empty-clause', 11, 12],
      ],
    ],
    [';', [['empty-clause', 0, 1]]],
    ['Or()', [['empty-group', 0, 4]]],
    [
      'And( ; )',
      [
        ['empty-group', 0, 8],
        ['empty-clause', 5, 6],
      ],
    ],
    ['Or(A.Equal(1))', [['single-child-group', 0, 14]]],
    [
      'Or(A.Equal(1);)',
      [
        ['single-child-group', 0, 15],
        ['empty-clause', 13, 14],
      ],
    ],
    ['A.Equal(1) B.Equal(2)', [['unexpected-token', 11, 12]]],
    ['Or(A.Equal(1),B.Equal(2))', [['unexpected-token', 13, 14]]],
    ['(A.Equal(1))', [['unexpected-token', 0, 1]]],
    [',', [['unexpected-token', 0, 1]]],
    // characters databases reject
    ['A.Equal(a\u0000b)', [['invalid-character', 8, 11]]],
    ["A.Equal('\uD800')", [['invalid-character', 8, 11]]],
    ['A.InArray(ok,\uDC00)', [['invalid-character', 13, 14]]],
    ["'\u0000'.EqualInFields(A)", [['invalid-character', 0, 3]]],
  ])('%j', (input, expected) => {
    expect(codes(input)).toEqual(expected);
  });
});

describe('parseFilter: messages, suggestions and fixes', () => {
  it('suggests the nearest operator, without a fix (a guess is not safe for lint --fix)', () => {
    const [d] = parseFilter('A.Equals(1)').diagnostics;
    expect(d).toMatchObject({ code: 'unknown-operator', severity: 'error', suggestion: 'Equal' });
    expect(d!.fix).toBeUndefined();
    expect(d!.message).toContain('"Equal"');
  });

  it('gives no suggestion for a name that is nothing like an operator', () => {
    const [d] = parseFilter('A.Zzzzzzzz(1)').diagnostics;
    expect(d!.suggestion).toBeUndefined();
    expect(d!.fix).toBeUndefined();
  });

  it('shows the quoted form of a value with a stray quote, and a fix that writes it', () => {
    const text = "A.Equal(O'Brien)";
    const [d] = parseFilter(text).diagnostics;
    expect(d!.message).toContain("'O''Brien'");
    expect(d!.suggestion).toBe("'O''Brien'");
    expect(d!.fix).toEqual([{ start: 8, end: 15, newText: "'O''Brien'" }]);
    const fixed = text.slice(0, 8) + d!.fix![0]!.newText + text.slice(15);
    expect(parseFilter(fixed).diagnostics).toEqual([]);
  });

  it.each([
    ['A.Equal(1);;B.Equal(2)', 'A.Equal(1);B.Equal(2)'],
    ['A.Equal(1);;', 'A.Equal(1)'],
    [';;A.Equal(1);;;B.IsNull();', 'A.Equal(1);B.IsNull()'],
    ['Or(A.Equal(1))', 'A.Equal(1)'],
    ["A.InArray(O'Brien,It's)", "A.InArray('O''Brien','It''s')"],
    ["O'Brien.EqualInFields(A)", "'O''Brien'.EqualInFields(A)"],
    ['New York.EqualInFields(City)', "'New York'.EqualInFields(City)"],
    ['New York . NY.EqualInFields(City)', "'New York.NY'.EqualInFields(City)"],
  ])('the fixes of %j give %j', (input, output) => {
    const edits = parseFilter(input)
      .diagnostics.flatMap((d) => d.fix ?? [])
      .sort((a, b) => b.start - a.start);
    let text = input;
    for (const e of edits) text = text.slice(0, e.start) + e.newText + text.slice(e.end);
    expect(text).toBe(output);
    expect(parseFilter(text).diagnostics).toEqual([]);
  });

  it('uses the severities of the code registry', () => {
    const severities = (t: string) => parseFilter(t).diagnostics.map((d) => d.severity);
    expect(severities('A.Equal(1);')).toEqual(['warning']);
    expect(severities('Or(A.Equal(1))')).toEqual(['info']);
    expect(severities('Or()')).toEqual(['error']);
  });

  it('reports missing-close-paren only once when a quote swallowed the rest', () => {
    expect(parseFilter("A.InArray(1,'x)").diagnostics.map((d) => d.code)).toEqual(['unterminated-string']);
  });

  it('orders diagnostics by position', () => {
    const starts = parseFilter('A.Foo(1);;B.Bar(2);C.Equal(1,2);D.IsNull(3)').diagnostics.map((d) => d.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts).toHaveLength(5);
  });
});

describe('parseFilter: partial trees', () => {
  it('keeps the clauses that parsed and drops the erroneous ones', () => {
    const { ast, diagnostics } = parseFilter("A.Equal(1);B.Foo(2);C.IsNull();D.Equal(O'x)");
    expect(simplifyFilter(ast)).toEqual([
      { op: 'Equal', field: 'A', value: '1' },
      { op: 'IsNull', field: 'C' },
    ]);
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-operator', 'unexpected-quote']);
  });

  it('keeps a group whose own syntax is fine, with the children that parsed', () => {
    const { ast } = parseFilter('Or(A.Equal(1);B.Foo(2);C.Equal(3))');
    expect(simplifyFilter(ast)).toEqual([
      {
        op: 'Or',
        children: [
          { op: 'Equal', field: 'A', value: '1' },
          { op: 'Equal', field: 'C', value: '3' },
        ],
      },
    ]);
  });

  it('drops a group whose children all failed without calling it empty', () => {
    const { ast, diagnostics } = parseFilter('Or(B.Foo(2))');
    expect(ast.clauses).toEqual([]);
    expect(diagnostics.map((d) => d.code)).toEqual(['unknown-operator']);
  });
});

describe('parseFilter: hostile input', () => {
  it.each([null, undefined, 42, {}, ['A.Equal(1)'], Symbol('x')])('returns a diagnostic for the non-string %s', (input) => {
    const { ast, diagnostics } = parseFilter(input as unknown as string);
    expect(ast).toEqual({ kind: 'filter', clauses: [], span: { start: 0, end: 0 } });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', start: 0, end: 0 });
  });

  it.each(['__proto__.Equal(1)', 'constructor.Equal(toString)', 'hasOwnProperty.IsNull()'])('treats %j as ordinary names', (input) => {
    expect(parseFilter(input).diagnostics).toEqual([]);
  });

  it.each(['A.__proto__(1)', 'A.constructor(1)', 'A.toString(1)'])('reports prototype names used as operators: %j', (input) => {
    expect(parseFilter(input).diagnostics.map((d) => d.code)).toEqual(['unknown-operator']);
  });
});

describe('parseFilter: guesses are suggestions, not fixes', () => {
  it.each([
    ['A.IsNull(x)', 'unexpected-argument', 'A.IsNull()'.slice(2)],
    ['A.Equal(1', 'missing-close-paren', ')'],
    ['A.Equal(1;B.Equal(2)', 'missing-close-paren', ')'],
    // A quoted part may have been meant as quoting, not as literal quotes.
    ["A.Equal(x 'y')", 'unexpected-quote', "'x ''y'''"],
    ["'a'.'b'.EqualInFields(A)", 'unexpected-quote', "'''a''.''b'''"],
    ["x 'y'.EqualInFields(A)", 'unexpected-quote', "'x ''y'''"],
    ["'a' b.EqualInFields(A)", 'unexpected-quote', "'''a'' b'"],
    ["New York.'x'.EqualInFields(City)", 'unexpected-token', "'New York.''x'''"],
  ])('%s reports %s with suggestion %j and no fix', (input, code, suggestion) => {
    const d = parseFilter(input).diagnostics.find((x) => x.code === code);
    expect(d).toMatchObject({ code, suggestion });
    expect(d!.fix).toBeUndefined();
  });

  // A stray ')' is an extra ')' or the end of a group whose 'Or(' was left
  // out; deleting it would turn `A;B)` into an AND the author may not mean.
  it.each(['A.Equal(1))', 'A.Equal(1);B.Equal(2))', ')A.Equal(1)', 'A.Equal(1);)B.IsNull()'])('%j: a stray ) has no fix', (input) => {
    const d = parseFilter(input).diagnostics.find((x) => x.code === 'unexpected-close-paren');
    expect(d).toBeDefined();
    expect(d!.fix).toBeUndefined();
    expect(d!.message).toMatch(/remove it, or add the 'Or\(' or 'And\('/);
  });
});
