import { describe, expect, it } from 'vitest';
import { parseSort } from '../../../src/index.js';
import { simplifySort, type SimpleSortItem } from '../../conformance/simplify.js';

function codes(text: string): [string, number, number][] {
  return parseSort(text).diagnostics.map((d) => [d.code, d.start, d.end]);
}

describe('parseSort: valid sorts (docs/reference.md §"Sort grammar")', () => {
  it.each<[string, SimpleSortItem[]]>([
    ['', []],
    ['  ', []],
    [
      'Gender=Asc;CreatedOn=Desc',
      [
        { field: 'Gender', direction: 'Asc', explicit: true },
        { field: 'CreatedOn', direction: 'Desc', explicit: true },
      ],
    ],
    [
      'LastName=asc;CreatedOn=DESC',
      [
        { field: 'LastName', direction: 'Asc', explicit: true },
        { field: 'CreatedOn', direction: 'Desc', explicit: true },
      ],
    ],
    [
      ' A = Desc ; B.C = aSc ',
      [
        { field: 'A', direction: 'Desc', explicit: true },
        { field: 'B.C', direction: 'Asc', explicit: true },
      ],
    ],
    ['Address.Zip=Desc', [{ field: 'Address.Zip', direction: 'Desc', explicit: true }]],
    // docs/reference.md §"Lexical rules": whitespace may stand between any two tokens, '.' included, as in a filter.
    ['Address . Zip=Desc', [{ field: 'Address.Zip', direction: 'Desc', explicit: true }]],
    ['A .B\t. C = Asc', [{ field: 'A.B.C', direction: 'Asc', explicit: true }]],
  ])('%j', (input, expected) => {
    const { ast, diagnostics } = parseSort(input);
    expect(diagnostics).toEqual([]);
    expect(simplifySort(ast)).toEqual(expected);
  });

  it('records spans of items and fields', () => {
    const { ast } = parseSort('A=Asc; B.C = Desc');
    expect(ast.items[1]).toEqual({
      kind: 'sort-item',
      field: { kind: 'field', path: ['B', 'C'], name: 'B.C', span: { start: 7, end: 10 } },
      direction: 'Desc',
      explicitDirection: true,
      span: { start: 7, end: 17 },
    });
    expect(ast.span).toEqual({ start: 0, end: 17 });
  });

  it('reads a bare field as Asc with a warning and a fix', () => {
    const { ast, diagnostics } = parseSort('LastName;Age=Desc');
    expect(simplifySort(ast)).toEqual([
      { field: 'LastName', direction: 'Asc', explicit: false },
      { field: 'Age', direction: 'Desc', explicit: true },
    ]);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'implicit-direction',
        severity: 'warning',
        start: 0,
        end: 8,
        fix: [{ start: 8, end: 8, newText: '=Asc' }],
      }),
    ]);
  });

  it('keeps a duplicate field in the tree but warns on the later one', () => {
    const { ast, diagnostics } = parseSort('Name=Asc;name=Desc');
    expect(ast.items).toHaveLength(2);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'duplicate-sort-field', severity: 'warning', start: 9, end: 13 })]);
  });
});

describe('parseSort: diagnostics (code, start, end)', () => {
  it.each<[string, [string, number, number][]]>([
    ['A', [['implicit-direction', 0, 1]]],
    ['A . B', [['implicit-direction', 0, 5]]],
    ['A B.C=Asc', [['invalid-field-path', 0, 5]]],
    ['A . . B=Asc', [['invalid-field-path', 0, 7]]],
    ['A . =Asc', [['invalid-field-path', 0, 3]]],
    ['A=Asc;a=Desc', [['duplicate-sort-field', 6, 7]]],
    [
      'A=Asc;B=Desc;a',
      [
        ['implicit-direction', 13, 14],
        ['duplicate-sort-field', 13, 14],
      ],
    ],
    ['A=Asc,B=Desc', [['sort-comma-separator', 5, 6]]],
    ['A=Up', [['invalid-direction', 2, 4]]],
    ['A=Ascending', [['invalid-direction', 2, 11]]],
    ['A=Des', [['invalid-direction', 2, 5]]],
    ['A=', [['invalid-direction', 1, 2]]],
    ['A=Asc Desc', [['unexpected-token', 6, 10]]],
    ['A=Asc=Desc', [['unexpected-token', 5, 10]]],
    ['=Asc', [['invalid-field-path', 0, 1]]],
    ['A B=Asc', [['invalid-field-path', 0, 3]]],
    ['1A=Asc', [['invalid-field-path', 0, 2]]],
    ['A..B=Asc', [['invalid-field-path', 0, 4]]],
    ["'A'=Asc", [['invalid-field-path', 0, 3]]],
    ['A(1)=Asc', [['invalid-field-path', 0, 4]]],
    ['A=Asc;;B=Desc', [['empty-clause', 6, 7]]],
    ['A=Asc;', [['empty-clause', 5, 6]]],
    [';A=Asc', [['empty-clause', 0, 1]]],
    [
      ',',
      [
        ['sort-comma-separator', 0, 1],
        ['empty-clause', 0, 1],
      ],
    ],
  ])('%j', (input, expected) => {
    expect(codes(input)).toEqual(expected);
  });

  it('suggests a direction, without a fix (a guess is not safe for lint --fix)', () => {
    const [d] = parseSort('A=Ascending').diagnostics;
    expect(d).toMatchObject({ code: 'invalid-direction', severity: 'error', suggestion: 'Asc' });
    expect(d!.fix).toBeUndefined();
    const [e] = parseSort('A=Descending').diagnostics;
    expect(e).toMatchObject({ suggestion: 'Desc' });
  });

  it("says to use ';' for a ',' separator and replaces it", () => {
    const [d] = parseSort('A=Asc,B=Desc').diagnostics;
    expect(d!.message).toContain("';'");
    expect(d).toMatchObject({ severity: 'error', fix: [{ start: 5, end: 6, newText: ';' }] });
    // Both items still parse, so tools see the intended sort.
    expect(parseSort('A=Asc,B=Desc').ast.items.map((i) => i.field.name)).toEqual(['A', 'B']);
  });

  it.each([null, 1, {}, undefined])('returns a diagnostic for the non-string %s', (input) => {
    const { ast, diagnostics } = parseSort(input as unknown as string);
    expect(ast.items).toEqual([]);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', start: 0, end: 0 });
  });
});
