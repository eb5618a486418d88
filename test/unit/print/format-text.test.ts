import { describe, expect, it } from 'vitest';
import { WepqlError, defineSchema, formatFilter, formatSort, parseFilter } from '../../../src/index.js';

describe('formatFilter: text → canonical text', () => {
  it.each([
    ['', ''],
    ['  \t\r\n ', ''],
    ['LastName.StartsWith(Sm)', 'LastName.StartsWith(Sm)'],
    ['lastname.startswith(Sm)', 'lastname.StartsWith(Sm)'],
    ['A.EQUAL(1)', 'A.Equal(1)'],
    ['a.notinarrayornull(1,2)', 'a.NotInArrayOrNull(1,2)'],
    ['a.isnotnull()', 'a.IsNotNull()'],
    [' A.Equal( 1 ) ;\n B.IsNull( ) ', 'A.Equal(1);B.IsNull()'],
    ['A.Equal(  New York  )', 'A.Equal(New York)'],
    ['A.Equal(New\tYork)', 'A.Equal(New\tYork)'],
    ["A.Equal('abc')", 'A.Equal(abc)'],
    ["A.Equal(' abc')", "A.Equal(' abc')"],
    ["A.Equal('abc\n')", "A.Equal('abc\n')"],
    ["A.Equal('')", "A.Equal('')"],
    ["A.Equal('O''Brien')", "A.Equal('O''Brien')"],
    ["A.Equal('a,b')", "A.Equal('a,b')"],
    ["A.Equal('(x)')", "A.Equal('(x)')"],
    ["A.Equal('x;y')", "A.Equal('x;y')"],
    ["A.Equal('back\\slash')", 'A.Equal(back\\slash)'],
    ["A.Equal('5.5')", 'A.Equal(5.5)'],
    ['Salary.GreaterThan(1e3)', 'Salary.GreaterThan(1e3)'],
    ['Salary.GreaterThan(+01.50)', 'Salary.GreaterThan(+01.50)'],
    ["A.InArray( 1 , '2' ,three, 'a b' )", 'A.InArray(1,2,three,a b)'],
    ["A.InArray('',' ')", "A.InArray('',' ')"],
    ['Address.Zip.Equal(12345)', 'Address.Zip.Equal(12345)'],
    ['5.5.GreaterThanInFields(A,B)', "'5.5'.GreaterThanInFields(A,B)"],
    [
      '2024-01-01T00:00:00.000Z.LessThanInFields(CreatedOn,ModifiedOn)',
      "'2024-01-01T00:00:00.000Z'.LessThanInFields(CreatedOn,ModifiedOn)",
    ],
    ["'D'.startswithinfields( FirstName , LastName )", 'D.StartsWithInFields(FirstName,LastName)'],
    ["'a b'.EqualInFields(A)", "'a b'.EqualInFields(A)"],
    ['2024-01-01.LessThanInFields(CreatedOn)', '2024-01-01.LessThanInFields(CreatedOn)'],
    ['or(a.equal(1);AND(b.isnull()))', 'Or(a.Equal(1);And(b.IsNull()))'],
    ['Or(A.Equal(1))', 'Or(A.Equal(1))'],
    ['And(And(A.Equal(1)))', 'And(And(A.Equal(1)))'],
    ['Or.Equal(1)', 'Or.Equal(1)'],
    ['And.Or.IsNull()', 'And.Or.IsNull()'],
    ['Orders.Equal(1)', 'Orders.Equal(1)'],
    ['A.Equal(1);;B.Equal(2);', 'A.Equal(1);B.Equal(2)'],
    ['Or(A.Equal(1);;B.Equal(2);)', 'Or(A.Equal(1);B.Equal(2))'],
    ['A.Equal(=)', 'A.Equal(=)'],
    ['A.Equal(\u00a0x\u00a0)', 'A.Equal(\u00a0x\u00a0)'],
    ['A.Contains(😀 𝄞)', 'A.Contains(😀 𝄞)'],
  ])('%j → %j', (input, expected) => {
    const output = formatFilter(input);
    expect(output).toBe(expected);
    expect(formatFilter(output)).toBe(output);
  });

  it('keeps the value of a bare argument with inner CR, LF and tab', () => {
    const { ast } = parseFilter(formatFilter('A.Equal( x\r\ny\tz )'));
    expect(ast.clauses[0]).toMatchObject({ kind: 'comparison', value: { value: 'x\r\ny\tz', quoted: false } });
  });

  it.each([
    ['A.Equals(1)', 'unknown-operator'],
    ['A.Equal(1', 'missing-close-paren'],
    ["A.Equal('x)", 'unterminated-string'],
    ['Or()', 'empty-group'],
  ])('%j throws WepqlError with %s', (input, code) => {
    try {
      formatFilter(input);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WepqlError);
      expect((error as WepqlError).diagnostics.some((d) => d.code === code)).toBe(true);
    }
  });

  it('accepts a tree as well as a text', () => {
    expect(formatFilter(parseFilter('a.equal( 1 )').ast)).toBe('a.Equal(1)');
  });

  it('prints field names in the schema spelling', () => {
    const schema = defineSchema({
      fields: {
        LastName: { type: 'string' },
        CreatedOn: { type: 'datetime' },
        Address: { type: 'object', fields: { Zip: { type: 'string' } } },
      },
    });
    expect(formatFilter('lastname.equal(x);address.ZIP.isnull();2024-01-01.LessThanInFields(CREATEDON)', { schema })).toBe(
      'LastName.Equal(x);Address.Zip.IsNull();2024-01-01.LessThanInFields(CreatedOn)',
    );
    expect(formatFilter("lastname.equal(x);CreatedOn.LessThan('2024-01-01')", { schema, quoteAllStrings: true })).toBe(
      "LastName.Equal('x');CreatedOn.LessThan(2024-01-01)",
    );
  });
});

describe('formatSort: text → canonical text', () => {
  it.each([
    ['', ''],
    ['LastName', 'LastName=Asc'],
    ['LastName=asc', 'LastName=Asc'],
    [' lastname = DESC ; CreatedOn ', 'lastname=Desc;CreatedOn=Asc'],
    ['Address.Zip=Desc;A', 'Address.Zip=Desc;A=Asc'],
    ['A=Asc;A=Desc', 'A=Asc;A=Desc'],
  ])('%j → %j', (input, expected) => {
    const output = formatSort(input);
    expect(output).toBe(expected);
    expect(formatSort(output)).toBe(output);
  });

  it.each([
    ['A=Up', 'invalid-direction'],
    ['A=Asc,B=Desc', 'sort-comma-separator'],
  ])('%j throws WepqlError with %s', (input, code) => {
    expect(() => formatSort(input)).toThrowError(WepqlError);
    try {
      formatSort(input);
    } catch (error) {
      expect((error as WepqlError).diagnostics.some((d) => d.code === code)).toBe(true);
    }
  });

  it('prints field names in the schema spelling', () => {
    const schema = defineSchema({ fields: { LastName: { type: 'string' }, CreatedOn: { type: 'datetime' } } });
    expect(formatSort('lastname;createdon=desc', { schema })).toBe('LastName=Asc;CreatedOn=Desc');
  });
});

describe('pretty printing', () => {
  const long =
    "LastName.StartsWith(Sm);Or(Gender.Equal(1);And(Salary.GreaterThan(1000);Salary.LessThan(5000));Or(A.IsNull();B.IsNull());City.InArray(London,Paris,'New York, NY'));CreatedOn.IsNotNull()";

  it('breaks a long nested filter at width 40', () => {
    expect(formatFilter(long, { pretty: true, width: 40 })).toBe(
      [
        'LastName.StartsWith(Sm);',
        'Or(',
        '  Gender.Equal(1);',
        '  And(',
        '    Salary.GreaterThan(1000);',
        '    Salary.LessThan(5000)',
        '  );',
        '  Or(A.IsNull();B.IsNull());',
        "  City.InArray(London,Paris,'New York, NY')",
        ');',
        'CreatedOn.IsNotNull()',
      ].join('\n'),
    );
  });

  it('uses the indent option', () => {
    expect(formatFilter('Or(A.Equal(1);And(B.Equal(2);C.Equal(3)))', { pretty: true, width: 20, indent: 4 })).toBe(
      ['Or(', '    A.Equal(1);', '    And(', '        B.Equal(2);', '        C.Equal(3)', '    )', ')'].join('\n'),
    );
  });

  it('keeps a filter that fits on one line', () => {
    expect(formatFilter('Or( A.Equal(1) ; B.Equal(2) )', { pretty: true })).toBe('Or(A.Equal(1);B.Equal(2))');
  });

  it('counts the trailing ; when deciding whether a group fits', () => {
    // `Or(A.Equal(1))` is 14 wide: it fits alone at width 14, but not when a `;` follows it.
    expect(formatFilter('Or(A.Equal(1));B.IsNull()', { pretty: true, width: 14 })).toBe(
      ['Or(', '  A.Equal(1)', ');', 'B.IsNull()'].join('\n'),
    );
    expect(formatFilter('B.IsNull();Or(A.Equal(1))', { pretty: true, width: 14 })).toBe(['B.IsNull();', 'Or(A.Equal(1))'].join('\n'));
  });

  it('parses back to the same tree', () => {
    const pretty = formatFilter(long, { pretty: true, width: 40 });
    expect(formatFilter(pretty)).toBe(formatFilter(long));
  });
});
