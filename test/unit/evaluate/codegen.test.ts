import { afterEach, describe, expect, it, vi } from 'vitest';
import { analyzeFilterOrThrow, compileFilter, DEFAULT_LIMITS, WepqlError } from '../../../src/index.js';
import { toSql } from '../../../src/sql/index.js';
import { generateFilterSource } from '../../../src/evaluate/filter-codegen.js';
import { planFilter } from '../../../src/evaluate/plan.js';
import type { TypedFilter, TypedFilterNode } from '../../../src/index.js';
import { schema } from './fixtures.js';

const sourceOf = (filter: string): string =>
  generateFilterSource(planFilter(analyzeFilterOrThrow(filter, { schema }), { caseSensitive: false, limits: DEFAULT_LIMITS })).source;

describe('generated code', () => {
  it.each([
    `S.Equal('"); globalThis.pwned = 1; ("')`,
    "S.Contains('`${globalThis.pwned = 1}`')",
    "S.InArray('\\u0027','*/ pwned() /*','\\n')",
    '\'"+pwned()+"\'.ContainsInFields(S,T)',
  ])('never contains a value: %s', (filter) => {
    const source = sourceOf(filter);
    expect(source).not.toContain('pwned');
    const matches = compileFilter(filter, { schema, strategy: 'codegen' });
    matches({ S: 'x' });
    expect((globalThis as Record<string, unknown>)['pwned']).toBeUndefined();
  });

  it('names fields only as quoted identifiers and keeps the shape independent of values', () => {
    expect(sourceOf('S.Equal(a);N.GreaterThan(1)')).toBe(sourceOf('S.Equal(zzz);N.GreaterThan(99)'));
    expect(sourceOf('constructor.Equal(a)')).toContain('"constructor"');
    expect(sourceOf('Obj.City.Equal(a)')).toMatch(/read\(r, k\d+\)/);
  });

  it('reads a path that is not an identifier through the helper, never the source', () => {
    const field = { name: 'a"b', path: ['a"b'], type: 'string', nullable: true, filterable: true, sortable: true } as const;
    const node: TypedFilterNode = {
      kind: 'null-check',
      operator: 'IsNull',
      field,
      source: {
        kind: 'null-check',
        field: { kind: 'field', path: field.path, name: field.name, span: { start: 0, end: 0 } },
        operator: 'IsNull',
        operatorSpan: { start: 0, end: 0 },
        span: { start: 0, end: 0 },
      },
    };
    const typed: TypedFilter = {
      kind: 'typed-filter',
      clauses: [node],
      source: { kind: 'filter', clauses: [node.source], span: { start: 0, end: 0 } },
    };
    const { source } = generateFilterSource(planFilter(typed, { caseSensitive: false, limits: DEFAULT_LIMITS }));
    expect(source).not.toContain('a"b');
    expect(source).not.toContain('a\\"b');
    const matches = compileFilter(typed, { strategy: 'codegen' });
    expect(matches({ 'a"b': 'x' })).toBe(false);
    expect(matches({})).toBe(true);
  });
});

describe('strategy', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('auto falls back to closures when new Function is forbidden (CSP without unsafe-eval)', async () => {
    vi.resetModules();
    const original = globalThis.Function;
    vi.stubGlobal('Function', function Forbidden(): never {
      throw new EvalError('Refused to evaluate a string as JavaScript (CSP)');
    });
    let fresh: typeof import('../../../src/index.js');
    try {
      fresh = await import('../../../src/index.js');
    } finally {
      vi.stubGlobal('Function', original);
    }
    vi.stubGlobal('Function', function Forbidden(): never {
      throw new EvalError('Refused to evaluate a string as JavaScript (CSP)');
    });
    const matches = fresh.compileFilter('S.StartsWith(sm)', { schema: fresh.defineSchema({ fields: { S: { type: 'string' } } }) });
    // Past the point where auto would switch to generated code, too.
    for (let i = 0; i < 300; i++) expect([matches({ S: 'Smith' }), matches({ S: 'Jones' })]).toEqual([true, false]);
    expect(() =>
      fresh.compileFilter('S.StartsWith(sm)', { schema: fresh.defineSchema({ fields: { S: { type: 'string' } } }), strategy: 'codegen' }),
    ).toThrow(fresh.WepqlError);
  });

  it('auto answers the same before and after it switches from closures to generated code', () => {
    const filter = 'Or(S.StartsWith(sm);N.GreaterThan(5));B.NotEqual(true);D.LessThan(2024-01-01)';
    const auto = compileFilter(filter, { schema });
    const closures = compileFilter(filter, { schema, strategy: 'closures' });
    const records = [
      { S: 'Smith', B: false, D: '2023-01-01' },
      { N: 6, B: false, D: '2025-01-01' },
      { S: 'x', N: 1 },
      { S: 'sm', B: true },
      {},
    ];
    for (let i = 0; i < 1000; i++) {
      const record = records[i % records.length];
      expect(auto(record)).toBe(closures(record));
    }
  });

  it.each(['auto', 'codegen', 'closures'] as const)('%s gives the same answers', (strategy) => {
    const matches = compileFilter('Or(S.StartsWith(sm);N.GreaterThan(5));B.NotEqual(true)', { schema, strategy });
    expect(
      [
        { S: 'Smith', B: false },
        { N: 6, B: false },
        { S: 'x', N: 1 },
        { S: 'sm', B: true },
      ].map(matches),
    ).toEqual([true, true, false, false]);
  });
});

describe('limits', () => {
  const deep = (depth: number): TypedFilter => {
    const leaf = analyzeFilterOrThrow('S.IsNull()', { schema }).clauses[0]!;
    let node: TypedFilterNode = leaf;
    for (let i = 0; i < depth; i++) {
      node = {
        kind: 'group',
        operator: i % 2 ? 'And' : 'Or',
        children: [node],
        source: {
          kind: 'group',
          operator: i % 2 ? 'And' : 'Or',
          operatorSpan: { start: 0, end: 0 },
          children: [node.source],
          span: { start: 0, end: 0 },
        },
      };
    }
    return { kind: 'typed-filter', clauses: [node], source: { kind: 'filter', clauses: [node.source], span: { start: 0, end: 0 } } };
  };

  it.each(['codegen', 'closures'] as const)('a typed tree nested past maxDepth throws nesting-too-deep (%s)', (strategy) => {
    expect(compileFilter(deep(32), { strategy })({})).toBe(true);
    try {
      compileFilter(deep(33), { strategy });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(WepqlError);
      expect((e as WepqlError).diagnostics[0]!.code).toBe('nesting-too-deep');
    }
    expect(compileFilter(deep(40), { strategy, limits: { maxDepth: 40 } })({})).toBe(true);
  });

  it('a typed tree 100,000 groups deep fails fast instead of overflowing the stack', () => {
    expect(() => compileFilter(deep(100_000))).toThrow(WepqlError);
  });

  it('an inconsistent typed tree is refused, not evaluated', () => {
    const typed = analyzeFilterOrThrow('N.GreaterThan(1)', { schema });
    const bad = { ...typed, clauses: [{ ...typed.clauses[0]!, value: 'one' }] } as TypedFilter;
    expect(() => compileFilter(bad)).toThrow(/invalid-value/);
    const wrongOp = { ...typed, clauses: [{ ...typed.clauses[0]!, operator: 'Contains' }] } as TypedFilter;
    expect(() => compileFilter(wrongOp)).toThrow(/operator-not-applicable/);
  });

  it('an integer field with a value that is not a safe integer is refused, as toSql refuses it', () => {
    const typed = analyzeFilterOrThrow('I.Equal(1)', { schema });
    for (const value of [1.5, 2 ** 53]) {
      const bad = { ...typed, clauses: [{ ...typed.clauses[0]!, value }] } as TypedFilter;
      expect(() => compileFilter(bad), String(value)).toThrow(/invalid-value/);
      expect(() => toSql({ filter: bad }, { dialect: 'sqlite', schema }), String(value)).toThrow(/not a integer|invalid-value/);
    }
  });
});
