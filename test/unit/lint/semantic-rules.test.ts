import { describe, expect, it } from 'vitest';
import { defineSchema, lintText, fixText } from '../../../src/index.js';

const schema = defineSchema({
  fields: {
    Name: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number', nullable: true },
    Born: { type: 'datetime', nullable: true },
    Active: { type: 'boolean', nullable: true },
  },
});

const codes = (text: string): string[] => lintText(text, 'filter', { schema }).map((d) => d.code);

describe('contradiction', () => {
  it.each([
    ['Age.IsNull();Age.Equal(1)'],
    ['Age.GreaterThan(5);Age.LessThan(3)'],
    ['Age.GreaterThan(3);Age.LessThan(4)'],
    ['Age.Equal(1);Age.Equal(2)'],
    ['Age.Equal(1);Age.NotEqual(1)'],
    ['Age.InArray(1,2);Age.GreaterThan(5)'],
    ['Age.GreaterThanOrEqual(3);Age.LessThanOrEqual(3);Age.NotEqual(3)'],
    ['Score.GreaterThan(1);Score.LessThan(1)'],
    ['Name.Equal(smith);Name.StartsWith(x)'],
    ['Name.StartsWith(ab);Name.StartsWith(ac)'],
    ['Name.Contains(ab);Name.NotContains(b)'],
    ['Name.NotContains()'.replace('()', "('')")],
    ['Active.NotEqual(true);Active.NotEqual(false)'],
    ['Age.IsNull();Age.IsNotNull()'],
    ['Born.GreaterThan(2024-01-01);Born.LessThan(2023-01-01)'],
    ['And(Age.GreaterThan(5));Age.LessThan(3)'],
    ['Name.Equal(Smith);Name.Equal(SMITH2)'],
  ])('%s is a contradiction', (text) => {
    const found = codes(text);
    expect(found).toContain('contradiction');
    expect(found).toContain('unsatisfiable-filter');
  });

  it.each([
    ['Age.IsNull();Age.InArrayOrNull(1)'],
    ['Age.GreaterThan(3);Age.LessThan(5)'],
    ['Score.GreaterThan(3);Score.LessThan(3.5)'],
    ['Name.Equal(Smith);Name.Equal(SMITH)'],
    ['Name.StartsWith(ab);Name.StartsWith(abc)'],
    ['Age.NotEqual(1);Age.NotEqual(2)'],
    ['Or(Age.Equal(1);Age.Equal(2))'],
    ['Age.NotInArrayOrNull(1);Age.IsNull()'],
    ['Born.GreaterThan(2024-01-01T00:00:00Z);Born.LessThan(2024-01-01T00:00:00.002Z)'],
  ])('%s is satisfiable', (text) => {
    const found = codes(text);
    expect(found).not.toContain('contradiction');
    expect(found).not.toContain('unsatisfiable-filter');
  });

  it('reports the later condition with the earlier one named', () => {
    const [d] = lintText('Age.GreaterThan(5);Age.LessThan(3)', 'filter', { schema }).filter((x) => x.code === 'contradiction');
    expect(d).toMatchObject({ start: 19, end: 34 });
    expect(d!.message).toContain('Age.GreaterThan(5)');
  });

  it('a contradiction inside one Or branch does not make the filter unsatisfiable', () => {
    const found = codes('Or(And(Age.Equal(1);Age.Equal(2));Name.Equal(x))');
    expect(found).toContain('contradiction');
    expect(found).not.toContain('unsatisfiable-filter');
  });

  it('an Or whose every branch is contradictory is unsatisfiable', () => {
    expect(codes('Or(And(Age.Equal(1);Age.Equal(2));And(Name.IsNull();Name.Equal(x)))')).toContain('unsatisfiable-filter');
  });

  it('honours case sensitivity', () => {
    const sensitive = lintText('Name.Equal(Smith);Name.Equal(SMITH)', 'filter', { schema, caseSensitive: true }).map((d) => d.code);
    expect(sensitive).toContain('contradiction');
  });
});

describe('duplicates and redundancy', () => {
  it.each([
    ['Age.Equal(1);Age.Equal(1)', 'duplicate-condition'],
    ['Name.Equal(a);Name.Equal(A)', 'duplicate-condition'],
    ['Or(Age.Equal(1);Age.Equal(1.0))', 'duplicate-condition'],
    ['Age.InArray(1,2,1)', 'duplicate-list-value'],
    ["Name.InArray(a,'A')", 'duplicate-list-value'],
    ['Or(Age.Equal(1);Age.InArray(1,2))', 'redundant-or-branch'],
    ['Or(Age.GreaterThan(5);Age.GreaterThan(3))', 'redundant-or-branch'],
    ['Or(Name.StartsWith(abc);Name.StartsWith(ab))', 'redundant-or-branch'],
    ['Or(Age.Equal(1);And(Age.Equal(1);Name.Equal(x)))', 'redundant-or-branch'],
  ])('%s → %s', (text, code) => {
    expect(codes(text)).toContain(code);
  });

  it('does not call independent branches redundant', () => {
    expect(codes('Or(Age.Equal(1);Name.Equal(x))')).toEqual([]);
    expect(codes('Or(Age.GreaterThan(5);Age.LessThan(3))')).toEqual([]);
  });
});

describe('fixText', () => {
  it.each([
    ['Age.Equal(1);Age.Equal(1)', 'Age.Equal(1)'],
    ['Age.InArray(1,2,1)', 'Age.InArray(1,2)'],
    ['age.equal( 1 )', 'Age.Equal(1)'],
    ['Age.Equal(1);;', 'Age.Equal(1)'],
    ['Or(Age.Equal(1))', 'Age.Equal(1)'],
  ])('%s → %s', (text, fixed) => {
    expect(fixText(text, 'filter', { schema })).toBe(fixed);
  });

  it.each([['Age.GreaterThan(5);Age.LessThan(3)'], ['Nope.Equal(1)'], ['Age.Equal(x)']])('leaves %s alone', (text) => {
    expect(fixText(text, 'filter', { schema })).toBeUndefined();
  });

  it('fixes sorts', () => {
    expect(fixText('Name;age=desc', 'sort', { schema })).toBe('Name=Asc;Age=Desc');
  });
});

describe('date-only-equality', () => {
  it.each([
    ['Born.Equal(2024-03-21)', 'Born.GreaterThanOrEqual(2024-03-21);Born.LessThan(2024-03-22)'],
    ['Born.NotEqual(2024-02-29)', 'Or(Born.LessThan(2024-02-29);Born.GreaterThanOrEqual(2024-03-01))'],
    [
      'Born.InArray(2023-12-31,2024-01-05)',
      'Or(And(Born.GreaterThanOrEqual(2023-12-31);Born.LessThan(2024-01-01));And(Born.GreaterThanOrEqual(2024-01-05);Born.LessThan(2024-01-06)))',
    ],
    ['born.equal(9999-12-31)', 'Born.GreaterThanOrEqual(9999-12-31);Born.LessThanOrEqual(9999-12-31T23:59:59.999Z)'],
  ])('%s warns, suggesting %s', (text, suggestion) => {
    const found = lintText(text, 'filter', { schema }).filter((d) => d.code === 'date-only-equality');
    expect(found).toHaveLength(1);
    expect(found[0]!.severity).toBe('warning');
    expect(found[0]!.suggestion).toBe(suggestion);
    expect(found[0]!.fix).toBeUndefined();
    // The suggestion is a valid filter that lints clean.
    expect(lintText(suggestion, 'filter', { schema })).toEqual([]);
  });

  it.each([
    ['Born.Equal(2024-03-21T00:00:00Z)'],
    ['Born.GreaterThanOrEqual(2024-03-21)'],
    ['Born.NotInArray(2024-03-21)'],
    ['Name.Equal(2024-03-21)'],
    ['Born.IsNull()'],
  ])('%s does not warn', (text) => {
    expect(codes(text)).not.toContain('date-only-equality');
  });

  it('leaves the text alone under --fix (a suggestion, not a fix)', () => {
    expect(fixText('Born.Equal(2024-03-21)', 'filter', { schema })).toBeUndefined();
  });
});

describe('date-only-equality inside an Or', () => {
  it.each([
    ['Or(Age.Equal(1);Born.Equal(2024-03-21))', 'And(Born.GreaterThanOrEqual(2024-03-21);Born.LessThan(2024-03-22))'],
    ['Or(Age.Equal(1);Born.NotEqual(2024-03-21))', 'Or(Born.LessThan(2024-03-21);Born.GreaterThanOrEqual(2024-03-22))'],
  ])('%s suggests the single clause %s, which replaces it in place', (text, suggestion) => {
    const d = lintText(text, 'filter', { schema }).find((x) => x.code === 'date-only-equality')!;
    expect(d.suggestion).toBe(suggestion);
    const replaced = text.slice(0, d.start) + d.suggestion + text.slice(d.end);
    expect(lintText(replaced, 'filter', { schema }).filter((x) => x.severity === 'error')).toEqual([]);
  });
});

describe('nesting as deep as the limit allows', () => {
  // The rules once stopped silently below 64 levels; the parser's ceiling is 200.
  const nested = (depth: number, inner: string): string => {
    let text = inner;
    for (let k = 0; k < depth; k++) text = `${k % 2 === 0 ? 'And' : 'Or'}(${text};Score.Equal(${k}))`;
    return text;
  };
  const limits = { maxDepth: 200 };

  it.each([
    [1, 'Age.GreaterThan(5);Age.LessThan(3)', 'contradiction'],
    [199, 'Age.GreaterThan(5);Age.LessThan(3)', 'contradiction'],
    [199, 'Age.InArray(1,1)', 'duplicate-list-value'],
    [199, 'Age.Equal(1);Age.Equal(1)', 'duplicate-condition'],
    [198, 'Or(Age.Equal(1);Age.Equal(1))', 'duplicate-condition'],
    [198, 'Or(Age.GreaterThan(1);Age.GreaterThan(5))', 'redundant-or-branch'],
  ])('at depth %i, %s (innermost) is still linted: %s', (depth, inner, code) => {
    const text = nested(depth, `And(${inner})`);
    const found = lintText(text, 'filter', { schema, limits }).map((d) => d.code);
    expect(found).not.toContain('nesting-too-deep');
    expect(found).toContain(code);
  });

  it('the depth 200 is the limit: one more is nesting-too-deep, and linting it does not throw', () => {
    const found = lintText(nested(200, 'And(Age.Equal(1))'), 'filter', { schema, limits }).map((d) => d.code);
    expect(found).toContain('nesting-too-deep');
  });
});
