import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/index.js';
import { WepqlError, defineSchema, parseFilter, printFilter, printSort, quoteValue } from '../../../src/index.js';
import { DEPTH_CEILING } from '../../../src/diagnostics/limits.js';
import { needsQuoting } from '../../../src/print/format.js';
import { cmp, filter, group, inFields, isNull, list, nested, sort } from './trees.js';

describe('needsQuoting', () => {
  it.each<[string, 'argument' | 'in-fields-head', boolean]>([
    ['abc', 'argument', false],
    ['New York', 'argument', false],
    ['a\tb', 'argument', false],
    ['a\r\nb', 'argument', false],
    ['1e3', 'argument', false],
    ['5.5', 'argument', false],
    ['2024-01-01T00:00:00.000Z', 'argument', false],
    ['a=b', 'argument', false],
    ['back\\slash', 'argument', false],
    ['\u00a0nbsp\u00a0', 'argument', false],
    ['\u2028', 'argument', false],
    ['😀', 'argument', false],
    ['', 'argument', true],
    [' lead', 'argument', true],
    ['trail ', 'argument', true],
    ['\tlead', 'argument', true],
    ['trail\n', 'argument', true],
    ['\rx', 'argument', true],
    ['a,b', 'argument', true],
    ['a(b', 'argument', true],
    ['a)b', 'argument', true],
    ['a;b', 'argument', true],
    ["O'Brien", 'argument', true],
    ['abc', 'in-fields-head', false],
    ['2024-01-01', 'in-fields-head', false],
    ['\u00a0', 'in-fields-head', false],
    ['5.5', 'in-fields-head', true],
    ['2024-01-01T00:00:00.000Z', 'in-fields-head', true],
    ['a b', 'in-fields-head', true],
    ['a\tb', 'in-fields-head', true],
    ['a\nb', 'in-fields-head', true],
    ['', 'in-fields-head', true],
    ["'", 'in-fields-head', true],
    ['a;b', 'in-fields-head', true],
  ])('%j as %s → %s', (text, position, expected) => {
    expect(needsQuoting(text, position)).toBe(expected);
  });
});

describe('quoteValue', () => {
  it.each([
    ['', "''"],
    ['abc', "'abc'"],
    ["O'Brien", "'O''Brien'"],
    ["''", "''''''"],
    ['back\\slash', "'back\\slash'"],
  ])('%j → %s', (text, expected) => {
    expect(quoteValue(text)).toBe(expected);
  });
});

describe('printFilter on built trees', () => {
  it.each([
    ['empty filter', filter(), ''],
    ['one comparison', filter(cmp('LastName', 'StartsWith', 'Sm')), 'LastName.StartsWith(Sm)'],
    ['value needing quotes', filter(cmp('Name', 'Equal', "O'Brien")), "Name.Equal('O''Brien')"],
    ['empty value', filter(cmp('Name', 'Equal', '')), "Name.Equal('')"],
    ['padded value', filter(cmp('Name', 'Equal', ' x ')), "Name.Equal(' x ')"],
    ['inner whitespace stays bare', filter(cmp('City', 'Equal', 'New\tYork\nCity')), 'City.Equal(New\tYork\nCity)'],
    ['raw number text kept', filter(cmp('Salary', 'GreaterThan', '1e3')), 'Salary.GreaterThan(1e3)'],
    ['null check', filter(isNull('Gender', 'IsNotNull')), 'Gender.IsNotNull()'],
    ['list', filter(list('Gender', 'InArrayOrNull', ['1', 'a,b', ''])), "Gender.InArrayOrNull(1,'a,b','')"],
    ['dotted field', filter(cmp('Address.Zip', 'Equal', '12345')), 'Address.Zip.Equal(12345)'],
    [
      'in-fields bare head',
      filter(inFields('D', 'StartsWithInFields', ['FirstName', 'LastName'])),
      'D.StartsWithInFields(FirstName,LastName)',
    ],
    ['in-fields dotted head', filter(inFields('5.5', 'GreaterThanInFields', ['A', 'B.C'])), "'5.5'.GreaterThanInFields(A,B.C)"],
    [
      'groups kept as built',
      filter(group('Or', [group('Or', [cmp('A', 'Equal', '1')]), cmp('B', 'Equal', '2')])),
      'Or(Or(A.Equal(1));B.Equal(2))',
    ],
    [
      'top-level clauses',
      filter(cmp('A', 'Equal', '1'), group('And', [isNull('B'), cmp('C', 'NotContains', 'x')])),
      'A.Equal(1);And(B.IsNull();C.NotContains(x))',
    ],
    ['field named like a keyword', filter(cmp('Or', 'Equal', '1')), 'Or.Equal(1)'],
  ])('%s', (_title, ast, expected) => {
    expect(printFilter(ast)).toBe(expected);
  });

  it('prints the nesting limit itself and refuses one level more', () => {
    expect(printFilter(nested(32))).toMatch(/^Or\(And\(/);
    expect(() => printFilter(nested(33))).toThrowError(WepqlError);
    try {
      printFilter(nested(5), { limits: { maxDepth: 4 } });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WepqlError);
      expect((error as WepqlError).diagnostics.map((d) => d.code)).toEqual(['nesting-too-deep']);
    }
  });

  it('prints a tree deeper than the call stack when the caller raises the limit', () => {
    const text = printFilter(nested(20_000), { limits: { maxDepth: 20_000 } });
    expect(text.length).toBe(10_000 * ('And()'.length + 'Or()'.length) + 'A.Equal(1)'.length);
    // Pretty output grows with depth × indentation, so a smaller tree suffices.
    // The length limit is raised too: a layout past it prints canonically (pretty-length.test.ts).
    const pretty = printFilter(nested(2_000), { limits: { maxDepth: 2_000, maxLength: Infinity }, pretty: true });
    expect(pretty.split('\n').length).toBe(2 * 2_000 + 1);
  });

  it(`prints text nested to the parser's deepest nesting (${DEPTH_CEILING}) back as it was, on one line and laid out`, () => {
    const limits = { maxDepth: DEPTH_CEILING };
    const text = `${'Or(And('.repeat(DEPTH_CEILING / 2)}A.Equal(1);B.IsNull()${'))'.repeat(DEPTH_CEILING / 2)}`;
    const { ast, diagnostics } = parseFilter(text, { limits });
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(printFilter(ast, { limits })).toBe(text);
    const pretty = printFilter(ast, { limits: { ...limits, maxLength: Infinity }, pretty: true, width: 40, indent: 1 });
    expect(pretty.split('\n')).toHaveLength(2 * DEPTH_CEILING + 2);
    expect(printFilter(parseFilter(pretty, { limits: { ...limits, maxLength: Infinity } }).ast, { limits })).toBe(text);
  });

  it('prints a tree built a hundred thousand groups deep, and refuses it at the first group past the limit in text order', () => {
    const deep = nested(100_000);
    expect(printFilter(deep, { limits: { maxDepth: 100_000 } })).toHaveLength(50_000 * 'And()Or()'.length + 'A.Equal(1)'.length);
    const lines = printFilter(deep, { limits: { maxDepth: 100_000, maxLength: Infinity }, pretty: true, width: 1, indent: 0 }).split('\n');
    expect(lines).toHaveLength(2 * 100_000 + 1);
    // Two clauses past the limit: the error names the first one's group at depth 33, as the walk meets it.
    const spanned = (depth: number, at: number): FilterNode => {
      let node: FilterNode = cmp('A', 'Equal', '1');
      for (let level = depth; level >= 1; level--)
        node = { ...(group('And', [node]) as object), span: { start: at + level, end: at + level } } as FilterNode;
      return node;
    };
    try {
      printFilter(filter(spanned(100_000, 0), spanned(40, 1_000_000)));
      expect.unreachable();
    } catch (error) {
      expect((error as WepqlError).diagnostics.map((d) => [d.code, d.start])).toEqual([['nesting-too-deep', 33]]);
    }
  });

  it('refuses trees no text can express', () => {
    expect(() => printFilter(filter(group('Or', [])))).toThrowError(/empty-group/);
    expect(() => printFilter(filter(list('A', 'InArray', [])))).toThrowError(/missing-value/);
    expect(() => printFilter(filter(inFields('1', 'EqualInFields', [])))).toThrowError(/missing-value/);
  });

  // Such a value printed fine but parsed back as an error, breaking parse(print(T)) = T.
  it.each([
    ['a NUL in a value', filter(cmp('A', 'Equal', 'a\u0000b'))],
    ['an unpaired surrogate in a list value', filter(list('A', 'InArray', ['ok', '\ud800']))],
    ['a NUL in an InFields head', filter(inFields('\u0000', 'EqualInFields', ['A']))],
  ])('refuses %s with invalid-character', (_what, ast) => {
    expect(() => printFilter(ast)).toThrowError(/invalid-character/);
    expect(() => printFilter(ast, { pretty: true, width: 1 })).toThrowError(/invalid-character/);
  });

  it.each([
    ['a field name that would inject a clause', filter(cmp('A.Equal(1);B', 'Equal', '1')), 'invalid-field-path'],
    ['an empty field name', filter(cmp('', 'Equal', '1')), 'invalid-field-path'],
    ['a field path with an empty segment', filter(cmp('A..B', 'Equal', '1')), 'invalid-field-path'],
    ['a field segment starting with a digit', filter(cmp('A.1B', 'Equal', '1')), 'invalid-field-path'],
    ['an operator of the wrong shape', filter({ ...cmp('A', 'Equal', '1'), operator: 'IsNull' } as never), 'unknown-operator'],
    ['a lower-case operator', filter({ ...cmp('A', 'Equal', '1'), operator: 'equal' } as never), 'unknown-operator'],
    ['a node of no known kind', filter({ ...isNull('A'), kind: '__proto__' } as never), 'unexpected-token'],
    ['an unknown group keyword', filter({ ...group('And', [isNull('A')]), operator: 'Xor' } as never), 'unknown-operator'],
  ])('refuses %s', (_title, ast, code) => {
    try {
      printFilter(ast);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(WepqlError);
      expect((error as WepqlError).diagnostics.map((d) => d.code)).toEqual([code]);
    }
  });

  it('refuses sorts with a bad field or direction', () => {
    expect(() => printSort(sort(['A;B', 'Asc']))).toThrowError(/invalid-field-path/);
    expect(() => printSort(sort(['A', 'asc' as never]))).toThrowError(/invalid-direction/);
  });

  it('refuses nonsensical layout options', () => {
    expect(() => printFilter(filter(), { width: 0 })).toThrowError(WepqlError);
    expect(() => printFilter(filter(), { indent: -1 })).toThrowError(WepqlError);
    expect(() => printFilter(filter(), { indent: 1.5 })).toThrowError(WepqlError);
  });
});

describe('quoteAllStrings', () => {
  const ast = filter(
    cmp('LastName', 'Equal', 'Smith'),
    cmp('Gender', 'Equal', '1'),
    list('City', 'InArray', ['London', 'Paris']),
    inFields('D', 'StartsWithInFields', ['FirstName', 'LastName']),
    inFields('5', 'LessThanInFields', ['Gender']),
    cmp('Unknown', 'Equal', 'x'),
  );
  it('without a schema quotes every value', () => {
    expect(printFilter(ast, { quoteAllStrings: true })).toBe(
      "LastName.Equal('Smith');Gender.Equal('1');City.InArray('London','Paris');'D'.StartsWithInFields(FirstName,LastName);'5'.LessThanInFields(Gender);Unknown.Equal('x')",
    );
  });
  it('with a schema quotes only values of string fields', () => {
    const schema = defineSchema({
      fields: {
        LastName: { type: 'string' },
        FirstName: { type: 'string' },
        City: { type: 'string' },
        Gender: { type: 'integer', nullable: true },
      },
    });
    expect(printFilter(ast, { quoteAllStrings: true, schema })).toBe(
      "LastName.Equal('Smith');Gender.Equal(1);City.InArray('London','Paris');'D'.StartsWithInFields(FirstName,LastName);5.LessThanInFields(Gender);Unknown.Equal(x)",
    );
  });
});

describe('schema spelling', () => {
  const schema = defineSchema({
    fields: {
      LastName: { type: 'string' },
      CreatedOn: { type: 'datetime' },
      Address: { type: 'object', fields: { Zip: { type: 'string' } } },
    },
  });
  it('respells known fields and keeps unknown ones as written', () => {
    const ast = filter(
      cmp('lastname', 'Equal', 'x'),
      cmp('ADDRESS.zip', 'StartsWith', '9'),
      isNull('address'),
      inFields('2024-01-01', 'LessThanInFields', ['createdon', 'Nope']),
      cmp('nope', 'Equal', '1'),
    );
    expect(printFilter(ast, { schema })).toBe(
      'LastName.Equal(x);Address.Zip.StartsWith(9);Address.IsNull();2024-01-01.LessThanInFields(CreatedOn,Nope);nope.Equal(1)',
    );
  });
  it('respells sort fields', () => {
    expect(printSort(sort(['lastname', 'Asc'], ['createdon', 'Desc'], ['other', 'Asc']), { schema })).toBe(
      'LastName=Asc;CreatedOn=Desc;other=Asc',
    );
  });
});

describe('printSort on built trees', () => {
  it.each([
    ['empty', sort(), ''],
    ['implicit direction is written out', sort(['LastName', 'Asc', false]), 'LastName=Asc'],
    ['several keys', sort(['LastName', 'Asc'], ['Address.Zip', 'Desc']), 'LastName=Asc;Address.Zip=Desc'],
    ['duplicates kept', sort(['A', 'Asc'], ['A', 'Desc']), 'A=Asc;A=Desc'],
  ])('%s', (_title, ast, expected) => {
    expect(printSort(ast)).toBe(expected);
  });
});
