/**
 * Hand-built typed trees: the evaluator and the SQL compiler run one check
 * (`checkTypedFilter`), so both refuse the same trees with the same
 * diagnostic and neither fails open. Regression tests for findings made
 * under attack.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../../src/diagnostics/limits.js';
import { WepqlError } from '../../../src/diagnostics/error.js';
import { compileFilter } from '../../../src/evaluate/compile-filter.js';
import { inferSchema } from '../../../src/schema/infer.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { toSql } from '../../../src/sql/index.js';
import { analyzeFilterOrThrow } from '../../../src/validate/analyze.js';
import { checkTypedFilter } from '../../../src/validate/check-typed.js';
import type { TypedFilter } from '../../../src/ast/typed-tree.js';

const lastName = employeeSchema.lookup('LastName');
const gender = employeeSchema.lookup('Gender');
if (lastName.found !== 'field' || gender.found !== 'field') throw new Error('employee schema changed');
const LAST_NAME = lastName.field;
const GENDER = gender.field;

function tree(...clauses: unknown[]): TypedFilter {
  return { kind: 'typed-filter', clauses, source: { kind: 'filter', clauses: [], span: { start: 0, end: 0 } } } as unknown as TypedFilter;
}

/** The codes each engine throws for a tree: the closures, generated code and PostgreSQL SQL. */
function refusals(filter: TypedFilter, limits = {}): string[] {
  const codes: string[] = [];
  const attempts: (() => unknown)[] = [
    () => compileFilter(filter, { strategy: 'closures', limits }),
    () => compileFilter(filter, { strategy: 'codegen', limits }),
    () => toSql({ filter }, { dialect: 'postgres', schema: employeeSchema, limits }),
    () => toSql({ filter }, { dialect: 'sqlite', schema: employeeSchema, limits }),
  ];
  for (const attempt of attempts) {
    try {
      attempt();
      codes.push('accepted');
    } catch (error) {
      expect(error).toBeInstanceOf(WepqlError);
      codes.push((error as WepqlError).diagnostics[0]!.code);
    }
  }
  return codes;
}

const comparison = (operator: unknown, field: unknown = LAST_NAME, value: unknown = 'x') => ({
  kind: 'comparison',
  operator,
  field,
  value,
});

describe('checkTypedFilter, as evaluator and SQL run it', () => {
  it('accepts what the validator builds', () => {
    const typed = analyzeFilterOrThrow('LastName.StartsWith(Sm);Or(Gender.InArray(1,2);1.EqualInFields(Gender))', {
      schema: employeeSchema,
    });
    expect(checkTypedFilter(typed, { limits: DEFAULT_LIMITS, schema: employeeSchema })).toBe(typed);
    expect(refusals(typed)).toEqual(['accepted', 'accepted', 'accepted', 'accepted']);
  });

  it.each([
    ['an unknown kind', tree({ kind: 'raw-sql', sql: '1=1' })],
    ['a kind only on the prototype', tree(Object.create({ kind: 'comparison', operator: 'Equal', field: LAST_NAME, value: 'x' }))],
    ['kind constructor', tree({ kind: 'constructor' })],
    ['clauses not an array', { kind: 'typed-filter', clauses: 'x' } as unknown as TypedFilter],
    ['a clause that is null', tree(null)],
    ['a field without a type', tree(comparison('Equal', { name: 'LastName', path: ['LastName'] }))],
  ])('refuses %s with invalid-typed-tree everywhere (never an empty WHERE)', (_, filter) => {
    expect(refusals(filter)).toEqual(['invalid-typed-tree', 'invalid-typed-tree', 'invalid-typed-tree', 'invalid-typed-tree']);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'equal', 'IsNull', 'InArray', 42])(
    'refuses operator %j on a comparison: own, exact, single-value operators only',
    (operator) => {
      expect(refusals(tree(comparison(operator)))).toEqual([
        'invalid-typed-tree',
        'invalid-typed-tree',
        'invalid-typed-tree',
        'invalid-typed-tree',
      ]);
    },
  );

  it.each([null, 'x', { kind: 'filter', clauses: [] }, Object.create({ kind: 'typed-filter', clauses: [] })])(
    'checkTypedFilter refuses %j: not a typed filter',
    (value) => {
      expect(() => checkTypedFilter(value, { limits: DEFAULT_LIMITS })).toThrow(/invalid-typed-tree/);
    },
  );

  it('refuses LessThan on a string field in SQL as in memory', () => {
    expect(refusals(tree(comparison('LessThan', LAST_NAME, 'x')))).toEqual([
      'operator-not-applicable',
      'operator-not-applicable',
      'operator-not-applicable',
      'operator-not-applicable',
    ]);
  });

  it('refuses a value of the wrong type, a fake Date and year 0000', () => {
    expect(refusals(tree(comparison('Equal', GENDER, '1')))[0]).toBe('invalid-value');
    const createdOn = employeeSchema.lookup('CreatedOn');
    if (createdOn.found !== 'field') throw new Error('employee schema changed');
    for (const value of [Object.create(Date.prototype), new Date(NaN), new Date('0000-06-01T00:00:00Z'), new Date(Date.UTC(10000, 0, 1))]) {
      expect(refusals(tree(comparison('GreaterThan', createdOn.field, value)))).toEqual([
        'invalid-value',
        'invalid-value',
        'invalid-value',
        'invalid-value',
      ]);
    }
  });

  it('refuses text with U+0000 in memory as in SQL', () => {
    expect(refusals(tree(comparison('Equal', LAST_NAME, 'a\u0000b')))).toEqual([
      'invalid-character',
      'invalid-character',
      'invalid-character',
      'invalid-character',
    ]);
  });

  it('honours maxConditions for typed trees, fast, without building 100,000 tests', () => {
    const many = tree(...Array.from({ length: 100_000 }, () => comparison('Equal', GENDER, 1)));
    const started = performance.now();
    expect(refusals(many)).toEqual(['too-many-conditions', 'too-many-conditions', 'too-many-conditions', 'too-many-conditions']);
    expect(performance.now() - started).toBeLessThan(2_000);
    try {
      compileFilter(many);
    } catch (error) {
      expect((error as WepqlError).diagnostics[0]!.message).toBe('the filter has more than 256 conditions (limit maxConditions)');
    }
  });

  it('honours maxListValues and maxInFields for typed trees', () => {
    const values = Array.from({ length: 501 }, (_, i) => i);
    expect(refusals(tree({ kind: 'list', operator: 'InArray', field: GENDER, values }))).toEqual([
      'too-many-list-values',
      'too-many-list-values',
      'too-many-list-values',
      'too-many-list-values',
    ]);
    const fields = Array.from({ length: 3 }, () => GENDER);
    expect(refusals(tree({ kind: 'in-fields', operator: 'EqualInFields', fields, values: [1, 1, 1] }), { maxInFields: 2 })).toEqual([
      'too-many-in-fields',
      'too-many-in-fields',
      'too-many-in-fields',
      'too-many-in-fields',
    ]);
  });

  it('honours maxDepth, and empty groups are refused everywhere', () => {
    let node: unknown = comparison('Equal', GENDER, 1);
    for (let i = 0; i < 40; i++) node = { kind: 'group', operator: 'And', children: [node] };
    expect(refusals(tree(node))).toEqual(['nesting-too-deep', 'nesting-too-deep', 'nesting-too-deep', 'nesting-too-deep']);
    expect(refusals(tree({ kind: 'group', operator: 'Or', children: [] }))).toEqual([
      'empty-group',
      'empty-group',
      'empty-group',
      'empty-group',
    ]);
  });
});

describe('a fake Date in a record counts as null (docs/reference.md §"Filter semantics")', () => {
  const fake = Object.create(Date.prototype) as Date;
  it.each(['closures', 'codegen'] as const)('in the %s strategy', (strategy) => {
    const schema = { schema: employeeSchema, strategy };
    expect(compileFilter('CreatedOn.IsNull()', schema)({ CreatedOn: fake })).toBe(true);
    expect(compileFilter('CreatedOn.GreaterThan(2000-01-01)', schema)({ CreatedOn: fake })).toBe(false);
    expect(compileFilter('CreatedOn.IsNull()', schema)({ CreatedOn: new Date('0000-06-01T00:00:00Z') })).toBe(true);
    expect(compileFilter('CreatedOn.IsNull()', schema)({ CreatedOn: '0000-06-01T00:00:00Z' })).toBe(true);
  });

  it('in inferSchema', () => {
    const schema = inferSchema([{ When: fake }, { When: new Date(0) }]);
    const when = schema.lookup('When');
    expect(when.found === 'field' && when.field.type).toBe('datetime');
    expect(when.found === 'field' && when.field.nullable).toBe(true);
  });
});

describe('year 0000 is out of range everywhere', () => {
  it.each(['0000-01-01', '0000-12-31T23:59:59Z', '0001-01-01T00:30+01:00', '9999-12-31T23:30-01:00'])(
    'CreatedOn.Equal(%s) is refused by the validator and the linter',
    async (value) => {
      const { analyzeFilter } = await import('../../../src/validate/analyze.js');
      const { lintText } = await import('../../../src/lint/lint-text.js');
      const analyzed = analyzeFilter(`CreatedOn.Equal(${value})`, { schema: employeeSchema });
      expect(analyzed.value).toBeUndefined();
      expect(analyzed.diagnostics.map((d) => [d.code, d.message])).toEqual([
        ['invalid-value', expect.stringMatching(/out of range; datetimes lie in the years 0001 to 9999/)],
      ]);
      expect(lintText(`CreatedOn.Equal(${value})`, 'filter', { schema: employeeSchema }).map((d) => d.code)).toEqual(['invalid-value']);
    },
  );

  it('a record holding year 0000 stores null, as the evaluator reads it', async () => {
    const { toStoredValue } = await import('../../../src/sql/storage.js');
    expect(toStoredValue('0000-06-01T00:00:00Z', 'datetime', 'postgres')).toBeNull();
    expect(toStoredValue(new Date('0000-06-01T00:00:00Z'), 'datetime', 'sqlite')).toBeNull();
    expect(toStoredValue('0001-01-01', 'datetime', 'postgres')).toBe('0001-01-01T00:00:00.000Z');
  });
});
