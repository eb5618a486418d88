import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_OPERATORS, WepqlError, analyzeFilter, parseFilter } from '../../../src/index.js';
import { hasInvalidCharacter } from '../../../src/ast/lexical.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { isBuiltFilter } from '../../../src/builder/filter-builder.js';
import { where, type Employee, type Filter } from '../../../src/sdk/index.js';

interface Person {
  Name: string;
  Nick?: string | null;
  Age: number;
  Salary: number;
  Active: boolean;
  Joined: Date;
  BirthOn: string;
  Address?: { Zip: string; City: string; Geo: { Lat: number } } | null;
  Tags: string[];
}
type PersonTypes = { BirthOn: 'datetime' };
const p = (): Filter<Person, PersonTypes> => where<Person, PersonTypes>();
const e = (): Filter<Employee> => where<Employee>();
const jan1 = new Date(Date.UTC(2024, 0, 1));

// [the builder code as written, the build, the canonical text]
const cases: [string, () => Filter<any, any>, string][] = [
  ["field('Name').equal('Smith')", () => p().field('Name').equal('Smith'), 'Name.Equal(Smith)'],
  ["field('Name').notEqual('Smith')", () => p().field('Name').notEqual('Smith'), 'Name.NotEqual(Smith)'],
  ["field('Age').lessThan(30)", () => p().field('Age').lessThan(30), 'Age.LessThan(30)'],
  ["field('Age').lessThanOrEqual(30)", () => p().field('Age').lessThanOrEqual(30), 'Age.LessThanOrEqual(30)'],
  ["field('Age').greaterThan(30)", () => p().field('Age').greaterThan(30), 'Age.GreaterThan(30)'],
  ["field('Age').greaterThanOrEqual(30)", () => p().field('Age').greaterThanOrEqual(30), 'Age.GreaterThanOrEqual(30)'],
  ["field('Name').contains('mit')", () => p().field('Name').contains('mit'), 'Name.Contains(mit)'],
  ["field('Name').startsWith('Sm')", () => p().field('Name').startsWith('Sm'), 'Name.StartsWith(Sm)'],
  ["field('Name').endsWith('th')", () => p().field('Name').endsWith('th'), 'Name.EndsWith(th)'],
  ["field('Name').notContains('x')", () => p().field('Name').notContains('x'), 'Name.NotContains(x)'],
  ["field('Name').notStartsWith('x')", () => p().field('Name').notStartsWith('x'), 'Name.NotStartsWith(x)'],
  ["field('Name').notEndsWith('x')", () => p().field('Name').notEndsWith('x'), 'Name.NotEndsWith(x)'],
  ["field('Nick').isNull()", () => p().field('Nick').isNull(), 'Nick.IsNull()'],
  ["field('Nick').isNotNull()", () => p().field('Nick').isNotNull(), 'Nick.IsNotNull()'],
  ["field('Age').inArray(1, 2, 3)", () => p().field('Age').inArray(1, 2, 3), 'Age.InArray(1,2,3)'],
  ["field('Age').inArray([4, 5])", () => p().field('Age').inArray([4, 5]), 'Age.InArray(4,5)'],
  ["field('Name').inArrayOrNull('a', 'b')", () => p().field('Name').inArrayOrNull('a', 'b'), 'Name.InArrayOrNull(a,b)'],
  ["field('Active').notInArray(true)", () => p().field('Active').notInArray(true), 'Active.NotInArray(true)'],
  [
    "field('Joined').notInArrayOrNull(jan1)",
    () => p().field('Joined').notInArrayOrNull(jan1),
    'Joined.NotInArrayOrNull(2024-01-01T00:00:00.000Z)',
  ],
  ["inFields(30).equal('Age', 'Salary')", () => p().inFields(30).equal('Age', 'Salary'), '30.EqualInFields(Age,Salary)'],
  ["inFields(5.5).lessThan('Age')", () => p().inFields(5.5).lessThan('Age'), "'5.5'.LessThanInFields(Age)"],
  ["inFields(5).lessThanOrEqual('Age')", () => p().inFields(5).lessThanOrEqual('Age'), '5.LessThanOrEqualInFields(Age)'],
  [
    "inFields(jan1).greaterThan('Joined', 'BirthOn')",
    () => p().inFields(jan1).greaterThan('Joined', 'BirthOn'),
    "'2024-01-01T00:00:00.000Z'.GreaterThanInFields(Joined,BirthOn)",
  ],
  [
    "inFields('2024-01-01').greaterThanOrEqual('BirthOn')",
    () => p().inFields('2024-01-01').greaterThanOrEqual('BirthOn'),
    '2024-01-01.GreaterThanOrEqualInFields(BirthOn)',
  ],
  ["inFields('D').contains('Name', 'Nick')", () => p().inFields('D').contains('Name', 'Nick'), 'D.ContainsInFields(Name,Nick)'],
  [
    "inFields('D').startsWith('Name', 'Address.City')",
    () => p().inFields('D').startsWith('Name', 'Address.City'),
    'D.StartsWithInFields(Name,Address.City)',
  ],
  ["inFields('son').endsWith('Name')", () => p().inFields('son').endsWith('Name'), 'son.EndsWithInFields(Name)'],
  ["inFields(true).equal('Active')", () => p().inFields(true).equal('Active'), 'true.EqualInFields(Active)'],
  ["field('Address.Zip').equal('01234')", () => p().field('Address.Zip').equal('01234'), 'Address.Zip.Equal(01234)'],
  ["field('Address.Geo.Lat').greaterThan(-1.5)", () => p().field('Address.Geo.Lat').greaterThan(-1.5), 'Address.Geo.Lat.GreaterThan(-1.5)'],
  ["field('BirthOn').lessThan('1990-01-01')", () => p().field('BirthOn').lessThan('1990-01-01'), 'BirthOn.LessThan(1990-01-01)'],
  ["field('Joined').equal(jan1)", () => p().field('Joined').equal(jan1), 'Joined.Equal(2024-01-01T00:00:00.000Z)'],
  ["field('Active').equal(false)", () => p().field('Active').equal(false), 'Active.Equal(false)'],
  ["field('Salary').equal(1e21)", () => p().field('Salary').equal(1e21), 'Salary.Equal(1e+21)'],
  ["field('Salary').equal(1e-7)", () => p().field('Salary').equal(1e-7), 'Salary.Equal(1e-7)'],
  ["field('Salary').equal(-0)", () => p().field('Salary').equal(-0), 'Salary.Equal(0)'],
  ["field('Name').equal(\"O'Brien, Jr. (Sr)\")", () => p().field('Name').equal("O'Brien, Jr. (Sr)"), "Name.Equal('O''Brien, Jr. (Sr)')"],
  ["field('Name').equal('')", () => p().field('Name').equal(''), "Name.Equal('')"],
  ["field('Name').equal(' padded ')", () => p().field('Name').equal(' padded '), "Name.Equal(' padded ')"],
  // Shrunk counterexamples of test/property/builder.test.ts: lone whitespace must be quoted.
  ["field('Name').inArray('\\r', '')", () => p().field('Name').inArray('\r', ''), "Name.InArray('\r','')"],
  ["field('Name').equal('\\t\\u0001')", () => p().field('Name').equal('\t\u0001'), "Name.Equal('\t\u0001')"],
  ["field('Name').equal('New York')", () => p().field('Name').equal('New York'), 'Name.Equal(New York)'],
  ["field('Name').contains('50%_off\\\\')", () => p().field('Name').contains('50%_off\\'), 'Name.Contains(50%_off\\)'],
  ["inFields('a b').startsWith('Name')", () => p().inFields('a b').startsWith('Name'), "'a b'.StartsWithInFields(Name)"],
  ["inFields(\"it's\").contains('Name')", () => p().inFields("it's").contains('Name'), "'it''s'.ContainsInFields(Name)"],
  [
    "field('Name').startsWith('Sm').or(b => b.field('Age').equal(1), b => b.field('Salary').greaterThan(1000))",
    () =>
      p()
        .field('Name')
        .startsWith('Sm')
        .or(
          (b) => b.field('Age').equal(1),
          (b) => b.field('Salary').greaterThan(1000),
        ),
    'Name.StartsWith(Sm);Or(Age.Equal(1);Salary.GreaterThan(1000))',
  ],
  [
    "or(b => b.field('Name').contains('x'), b => b.field('Age').greaterThan(0).field('Age').lessThan(100))",
    () =>
      p().or(
        (b) => b.field('Name').contains('x'),
        (b) => b.field('Age').greaterThan(0).field('Age').lessThan(100),
      ),
    'Or(Name.Contains(x);And(Age.GreaterThan(0);Age.LessThan(100)))',
  ],
  [
    "and(b => b.field('Age').equal(1), b => b.or(c => c.field('Active').equal(true), c => c.field('Nick').isNull()))",
    () =>
      p().and(
        (b) => b.field('Age').equal(1),
        (b) =>
          b.or(
            (c) => c.field('Active').equal(true),
            (c) => c.field('Nick').isNull(),
          ),
      ),
    'And(Age.Equal(1);Or(Active.Equal(true);Nick.IsNull()))',
  ],
  ['or(filterValue) with a prebuilt filter', () => p().or(p().field('Age').equal(1)), 'Or(Age.Equal(1))'],
  ['and() with no parts', () => p().field('Age').equal(1).and(), 'Age.Equal(1)'],
  ['and(b => b) with an empty part', () => p().and((b) => b), ''],
  ['when(false, …)', () => p().when(false, (b) => b.field('Age').equal(1)), ''],
  ['when(true, …)', () => p().when(true, (b) => b.field('Age').equal(1).field('Name').equal('x')), 'Age.Equal(1);Name.Equal(x)'],
  [
    'where<Employee>() with Gender and BirthOn',
    () => e().field('Gender').inArray(1, 2).field('BirthOn').lessThan(jan1),
    'Gender.InArray(1,2);BirthOn.LessThan(2024-01-01T00:00:00.000Z)',
  ],
  [
    "where<Employee>().inFields('D').startsWith('FirstName','LastName')",
    () => e().inFields('D').startsWith('FirstName', 'LastName'),
    'D.StartsWithInFields(FirstName,LastName)',
  ],
  ['where<Person>() (empty)', () => p(), ''],
];

describe('where() builds canonical text', () => {
  it.each(cases)('%s', (_title, build, expected) => {
    const filter = build();
    expect(filter.toString()).toBe(expected);
    expect(String(filter)).toBe(expected);
    const parsed = parseFilter(expected);
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(stripSpans(parsed.ast.clauses)).toEqual(stripSpans(filter.toAst().clauses));
  });

  it('covers all 26 operators in the table', () => {
    const used = new Set<string>();
    for (const [, build] of cases) {
      const walk = (nodes: readonly any[]): void => {
        for (const n of nodes) {
          if (n.kind === 'group') walk(n.children);
          else used.add(n.operator);
        }
      };
      walk(build().toAst().clauses);
    }
    expect([...FILTER_OPERATORS].filter((op) => !used.has(op))).toEqual([]);
  });
});

function stripSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSpans);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'span' && k !== 'operatorSpan') out[k] = stripSpans(v);
  return out;
}

describe('filters are immutable values', () => {
  it('adding a condition leaves the original unchanged', () => {
    const base = p().field('Age').equal(1);
    const more = base.field('Name').equal('x');
    expect(base.toString()).toBe('Age.Equal(1)');
    expect(more.toString()).toBe('Age.Equal(1);Name.Equal(x)');
    expect(base.isEmpty).toBe(false);
    expect(p().isEmpty).toBe(true);
  });

  it('toAst() is a FilterAst with code-built spans', () => {
    const ast = p().field('Name').equal("O'B").toAst();
    expect(ast.kind).toBe('filter');
    expect(ast.span).toEqual({ start: 0, end: 0 });
    expect(ast.clauses[0]).toMatchObject({ kind: 'comparison', operator: 'Equal', value: { value: "O'B", quoted: true, raw: "'O''B'" } });
  });

  it('toString passes print options through (pretty)', () => {
    const f = p().or(
      (b) => b.field('Name').startsWith('a-rather-long-prefix-to-force-breaking'),
      (b) => b.field('Name').endsWith('another-long-suffix-so-the-line-is-wide'),
    );
    const pretty = f.toString({ pretty: true, width: 40 });
    expect(pretty).toContain('\n');
    expect(stripSpans(parseFilter(pretty).ast.clauses)).toEqual(stripSpans(f.toAst().clauses));
  });

  it('isBuiltFilter tells builders from other values', () => {
    expect(isBuiltFilter(p())).toBe(true);
    expect(isBuiltFilter('Age.Equal(1)')).toBe(false);
    expect(isBuiltFilter({ clauses: [] })).toBe(false);
  });
});

// Values plain JavaScript callers (or `any`) can still pass; the types forbid them.
const loose = (): any => where<any>();
describe('where() refuses values the language cannot express', () => {
  it.each<[string, () => unknown, string, RegExp]>([
    ['equal(NaN)', () => p().field('Age').equal(NaN), 'invalid-value', /Age\.Equal: a number value must be finite, got NaN/],
    ['equal(Infinity)', () => p().field('Age').equal(Infinity), 'invalid-value', /finite, got Infinity/],
    ['inArray(1, -Infinity)', () => p().field('Age').inArray(1, -Infinity), 'invalid-value', /finite, got -Infinity/],
    ['inFields(NaN)', () => p().inFields(NaN).lessThan('Age'), 'invalid-value', /LessThanInFields: a number value must be finite/],
    ['equal(new Date(NaN))', () => p().field('Joined').equal(new Date(NaN)), 'invalid-value', /the Date is invalid/],
    [
      'equal(year 10000)',
      () =>
        p()
          .field('Joined')
          .equal(new Date(Date.UTC(10000, 0, 1))),
      'invalid-value',
      /out of range; datetimes lie in the years 0001 to 9999/,
    ],
    ['equal(year 0)', () => p().field('Joined').equal(new Date('0000-06-01T00:00:00Z')), 'invalid-value', /out of range/],
    ["equal('a\\u0000b')", () => p().field('Name').equal('a\u0000b'), 'invalid-character', /U\+0000/],
    ["equal('\\ud800')", () => p().field('Name').equal('\ud800'), 'invalid-character', /unpaired surrogate/],
    ['inArray([])', () => p().field('Age').inArray([]), 'missing-value', /Age\.InArray needs at least one value/],
    ['or()', () => p().or(), 'empty-group', /or\(\) needs at least one part/],
    [
      'or(b => b)',
      () =>
        p().or(
          (b) => b.field('Age').equal(1),
          (b) => b,
        ),
      'empty-group',
      /part 2 has no condition/,
    ],
    ["field('1bad')", () => loose().field('1bad'), 'invalid-field-path', /"1bad" is not a field path/],
    ["field('a..b')", () => loose().field('a..b'), 'invalid-field-path', /not a field path/],
    ["field('__proto__.x y')", () => loose().field('__proto__.x y'), 'invalid-field-path', /not a field path/],
    ['field(42)', () => loose().field(42), 'invalid-field-path', /must be a string, got 42/],
    ['equal(null)', () => loose().field('A').equal(null), 'invalid-value', /got null/],
    ['equal({})', () => loose().field('A').equal({}), 'invalid-value', /got an object/],
    ['equal(10n)', () => loose().field('A').equal(10n), 'invalid-value', /got 10n/],
    ['equal(1, 2)', () => loose().field('A').equal(1, 2), 'too-many-values', /takes exactly one value, got 2/],
    ['isNull(1)', () => loose().field('A').isNull(1), 'unexpected-argument', /takes no value/],
    ['inFields(1).equal()', () => loose().inFields(1).equal(), 'missing-value', /needs at least one field/],
    ['or(42)', () => loose().or(42), 'invalid-value', /each part must be a filter/],
  ])('%s', (_title, build, code, message) => {
    let error: unknown;
    try {
      build();
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WepqlError);
    expect((error as WepqlError).message).toMatch(message);
    expect((error as WepqlError).diagnostics.map((d) => d.code)).toEqual([code]);
  });
});

describe('deep nesting', () => {
  const nest = (depth: number): Filter<Person, PersonTypes> => {
    let f = p().field('Age').equal(1);
    for (let i = 0; i < depth; i++) {
      const inner = f;
      f = p().or(inner, (b) => b.field('Age').equal(i));
    }
    return f;
  };

  it('32 nested groups print and parse back', () => {
    const text = nest(32).toString();
    expect(parseFilter(text).diagnostics).toEqual([]);
  });

  it('33 nested groups: toString throws nesting-too-deep (the printer shares the parser limit)', () => {
    expect(() => nest(33).toString()).toThrow(WepqlError);
    expect(() => nest(33).toString({ limits: { maxDepth: 40 } })).not.toThrow();
  });
});

describe('builder-strings-checked: where(schema) reads each value as its field type, with the reader validation uses', () => {
  const text = (s: string): string => s; // text whose type is plain string: only the run time can check it
  const refusal = (build: () => unknown): { code: string; message: string } | undefined => {
    try {
      build();
      return undefined;
    } catch (e) {
      expect(e).toBeInstanceOf(WepqlError);
      return { code: (e as WepqlError).diagnostics[0]!.code, message: (e as WepqlError).message };
    }
  };

  it("field('BirthOn').greaterThan('yesterday') throws with the validator's reason", () => {
    const r = refusal(() => where<Employee>(employeeSchema).field('BirthOn').greaterThan(text('yesterday')));
    expect(r?.code).toBe('invalid-value');
    expect(r?.message).toBe(
      'BirthOn.GreaterThan: "yesterday" is not a valid datetime: expected a datetime like 2024-01-31 or 2024-01-31T13:45:00Z',
    );
    // Without a schema the text is only printed (its literal form does not compile: test/types/builder.test.ts).
    expect(where<Employee>().field('BirthOn').greaterThan(text('yesterday')).toString()).toBe('BirthOn.GreaterThan(yesterday)');
  });

  it('checks lists, InFields heads, nested parts and non-text values too; a field the schema lacks is refused', () => {
    const b = where<Employee>(employeeSchema);
    expect(refusal(() => b.field('CreatedOn').inArray('2024-01-01', text('2023-02-30')))?.message).toMatch(/not a real date/);
    expect(refusal(() => b.inFields(text('soon')).greaterThan('CreatedOn', 'ModifiedOn'))?.message).toMatch(
      /^GreaterThanInFields\(CreatedOn\): "soon" is not a valid datetime/,
    );
    expect(refusal(() => b.or((x) => x.field('BirthOn').lessThan(text('never')))))?.toMatchObject({ code: 'invalid-value' });
    expect(refusal(() => b.field('Gender').equal(1.5))?.message).toMatch(/Gender\.Equal: "1\.5" is not a valid integer: it has a fraction/);
    expect(refusal(() => b.field('Gender').equal(2 ** 53))?.code).toBe('integer-out-of-range');
    expect(refusal(() => (b as unknown as Filter<{ Nope: string }>).field('Nope').equal('x'))?.code).toBe('unknown-field');
    const ok = b.field('BirthOn').greaterThan(text('1990-01-01')).field('LastName').equal(text('yesterday'));
    expect(ok.toString()).toBe('BirthOn.GreaterThan(1990-01-01);LastName.Equal(yesterday)');
  });

  it('refuses exactly the values validation refuses (property, every type of field)', () => {
    const fields = ['BirthOn', 'Gender', 'Deceased', 'LastName'] as const;
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('2024-01-31', '2024-02-30', '2024-01-31T24:00', '0000-01-01', '1e3', '4.5', '9007199254740992', 'TRUE', 'false'),
      fc.integer().map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
    );
    fc.assert(
      fc.property(fc.constantFrom(...fields), value, (name, v) => {
        if (hasInvalidCharacter(v)) return; // refused with or without a schema
        const loose = where<Employee>() as unknown as Filter<Record<string, string>>;
        const checked = where<Employee>(employeeSchema) as unknown as Filter<Record<string, string>>;
        const analyzed = analyzeFilter(loose.field(name).equal(v).toAst(), { schema: employeeSchema });
        const refused = refusal(() => checked.field(name).equal(v));
        expect(refused?.code).toBe(analyzed.diagnostics[0]?.code);
      }),
      { numRuns: 500 },
    );
  });
});
