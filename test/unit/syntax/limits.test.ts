import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, parseFilter, parseSort } from '../../../src/index.js';

const codesOf = (ds: readonly { code: string }[]) => ds.map((d) => d.code);

describe('limits (docs/reference.md §"Limits")', () => {
  it('refuses a text longer than maxLength before lexing', () => {
    const text = 'A.Equal(' + 'x'.repeat(9000) + ')';
    const { ast, diagnostics } = parseFilter(text);
    expect(ast.clauses).toEqual([]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'text-too-long', severity: 'error', start: 8192, end: text.length })]);
    expect(diagnostics[0]!.message).toContain('8192');
    expect(codesOf(parseSort('A=Asc;'.repeat(10), { limits: { maxLength: 20 } }).diagnostics)).toEqual(['text-too-long']);
    expect(parseFilter('A.Equal(1)', { limits: { maxLength: 10 } }).diagnostics).toEqual([]);
    expect(codesOf(parseFilter('A.Equal(1)', { limits: { maxLength: 9 } }).diagnostics)).toEqual(['text-too-long']);
  });

  const nest = (depth: number) => 'Or('.repeat(depth) + 'A.Equal(1)' + ')'.repeat(depth);

  it('accepts maxDepth nested groups and refuses one more', () => {
    expect(parseFilter(nest(DEFAULT_LIMITS.maxDepth)).diagnostics.every((d) => d.code === 'single-child-group')).toBe(true);
    const deeper = parseFilter(nest(DEFAULT_LIMITS.maxDepth + 1));
    expect(codesOf(deeper.diagnostics)).toEqual(['nesting-too-deep']);
    expect(deeper.ast.clauses).toEqual([]);
    expect(codesOf(parseFilter(nest(3), { limits: { maxDepth: 2 } }).diagnostics)).toEqual(['nesting-too-deep']);
  });

  it('reports 100,000 nested groups as nesting-too-deep without throwing', () => {
    const text = nest(100_000);
    expect(codesOf(parseFilter(text).diagnostics)).toEqual(['text-too-long']);
    const raised = parseFilter(text, { limits: { maxLength: 1_000_000 } });
    expect(codesOf(raised.diagnostics)).toEqual(['nesting-too-deep']);
    const unclosed = parseFilter('Or('.repeat(100_000), { limits: { maxLength: 1_000_000 } });
    expect(codesOf(unclosed.diagnostics)).toContain('nesting-too-deep');
  });

  it('never recurses past its ceiling even when maxDepth is raised', () => {
    const { diagnostics } = parseFilter(nest(100_000), { limits: { maxLength: 1_000_000, maxDepth: 1e9 } });
    expect(codesOf(diagnostics)).toContain('nesting-too-deep');
    expect(diagnostics.find((d) => d.code === 'nesting-too-deep')!.message).toMatch(/ceiling/);
  });

  // `{ ...DEFAULT_LIMITS, maxDepth: undefined }` or NaN must not lift the
  // ceiling: before, Math.min gave NaN, no group was ever too deep, and the
  // parse relied on catching a stack overflow.
  it.each([undefined, Number.NaN])('takes the default depth when maxDepth is %s', (maxDepth) => {
    const limits = { maxLength: 1_000_000, maxDepth } as unknown as { maxLength: number; maxDepth: number };
    const { diagnostics } = parseFilter(nest(100_000), { limits });
    expect(codesOf(diagnostics)).toEqual(['nesting-too-deep']);
    expect(diagnostics[0]!.start).toBe(3 * 32);
  });

  it('keeps the ceiling when maxDepth is Infinity', () => {
    const { diagnostics } = parseFilter(nest(100_000), { limits: { maxLength: 1_000_000, maxDepth: Number.POSITIVE_INFINITY } });
    expect(codesOf(diagnostics)).toEqual(['nesting-too-deep']);
    expect(diagnostics[0]!.message).toMatch(/ceiling of 200/);
    expect(diagnostics[0]!.start).toBe(3 * 200);
  });

  it('reports deep junk parentheses inside a value without recursion', () => {
    const text = 'A.Equal(' + '('.repeat(50_000) + ')'.repeat(50_000) + ')';
    expect(codesOf(parseFilter(text, { limits: { maxLength: 1_000_000 } }).diagnostics)).toEqual(['unexpected-token']);
  });

  it('counts conditions against maxConditions', () => {
    const text = (n: number) => Array.from({ length: n }, (_, i) => `F${i}.Equal(${i})`).join(';');
    expect(parseFilter(text(256)).diagnostics).toEqual([]);
    const over = parseFilter(text(257));
    expect(codesOf(over.diagnostics)).toEqual(['too-many-conditions']);
    expect(over.diagnostics[0]!.start).toBe(text(256).length + 1);
    expect(codesOf(parseFilter('Or(A.IsNull();B.IsNull();C.IsNull())', { limits: { maxConditions: 2 } }).diagnostics)).toEqual([
      'too-many-conditions',
    ]);
  });

  it('counts list values against maxListValues', () => {
    const list = (n: number) => `A.InArray(${Array.from({ length: n }, (_, i) => i).join(',')})`;
    expect(parseFilter(list(500)).diagnostics).toEqual([]);
    const over = parseFilter(list(501));
    expect(codesOf(over.diagnostics)).toEqual(['too-many-list-values']);
    expect(over.diagnostics[0]!.start).toBe(list(501).indexOf(',500') + 1);
  });

  it('counts InFields fields against maxInFields', () => {
    const inFields = (n: number) => `1.EqualInFields(${Array.from({ length: n }, (_, i) => `F${i}`).join(',')})`;
    expect(parseFilter(inFields(32)).diagnostics).toEqual([]);
    expect(codesOf(parseFilter(inFields(33)).diagnostics)).toEqual(['too-many-in-fields']);
  });

  it('counts sort keys against maxSortKeys', () => {
    const sort = (n: number) => Array.from({ length: n }, (_, i) => `F${i}=Asc`).join(';');
    expect(parseSort(sort(8)).diagnostics).toEqual([]);
    const over = parseSort(sort(9));
    expect(codesOf(over.diagnostics)).toEqual(['too-many-sort-keys']);
    expect(over.ast.items).toHaveLength(8);
  });

  it('stops at maxErrors with too-many-errors last', () => {
    const text = Array.from({ length: 300 }, () => 'A.Foo(1)').join(';');
    const { diagnostics } = parseFilter(text);
    expect(diagnostics).toHaveLength(DEFAULT_LIMITS.maxErrors + 1);
    expect(diagnostics.at(-1)!.code).toBe('too-many-errors');
    expect(codesOf(parseFilter(';;A.Foo(1);B.Foo(1)', { limits: { maxErrors: 2 } }).diagnostics)).toEqual([
      'empty-clause',
      'empty-clause',
      'too-many-errors',
    ]);
    expect(codesOf(parseSort('a;1b;2c', { limits: { maxErrors: 1 } }).diagnostics)).toEqual(['implicit-direction', 'too-many-errors']);
  });

  // docs/reference.md §"Filter grammar" and §"Sort grammar": empty clauses and implicit directions are warnings. Past the
  // cap they are dropped, but must not add an error that makes a valid text invalid.
  it.each([
    ['A.Equal(1)' + ';'.repeat(150), 'filter'],
    [';;;;;', 'filter'],
    ['a;b;c', 'sort'],
    ['a' + ';'.repeat(150), 'sort'],
  ] as const)('%j: warnings past maxErrors add no error', (text, kind) => {
    const { diagnostics } =
      kind === 'filter' ? parseFilter(text, { limits: { maxErrors: 2 } }) : parseSort(text, { limits: { maxErrors: 2 } });
    expect(diagnostics).toHaveLength(2);
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const defaults = kind === 'filter' ? parseFilter(text) : parseSort(text);
    expect(defaults.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});
