import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { analyzeFilterOrThrow, compileFilter, query, WepqlError } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { schema } from './fixtures.js';

const employees = JSON.parse(readFileSync(new URL('../../../examples/employees.json', import.meta.url), 'utf8')) as Record<
  string,
  unknown
>[];

describe('query', () => {
  const people = [
    { Id: 1, LastName: 'Smith', Salary: 900, HiredOn: '2020-01-01T00:00:00Z' },
    { Id: 2, LastName: 'jones', Salary: 1500, HiredOn: '2021-06-01T00:00:00Z' },
    { Id: 3, LastName: 'SMITHERS', Salary: 1200 },
    { Id: 4, LastName: 'Brown', Salary: 1500, HiredOn: '2019-03-01T00:00:00Z' },
  ];
  const ids = (rows: readonly { Id: number }[]) => rows.map((r) => r.Id);

  it.each([
    [{}, [1, 2, 3, 4]],
    [{ filter: 'LastName.StartsWith(smith)' }, [1, 3]],
    [{ filter: 'Salary.GreaterThan(1000)', sort: 'LastName=Asc' }, [4, 2, 3]],
    [{ sort: 'Salary=Desc;LastName=Asc' }, [4, 2, 3, 1]],
    [{ sort: 'HiredOn=Asc' }, [3, 4, 1, 2]],
    [{ sort: 'HiredOn=Desc' }, [2, 1, 4, 3]],
    [{ sort: 'Id=Asc', skip: 1, limit: 2 }, [2, 3]],
    [{ sort: 'Id=Asc', skip: 3 }, [4]],
    [{ sort: 'Id=Asc', skip: 10 }, []],
    [{ limit: 0 }, []],
    [{ filter: 'HiredOn.LessThan(2020-06-01)', sort: 'HiredOn=Asc' }, [4, 1]],
    [{ filter: 'LastName.Equal(smith)', caseSensitive: true }, []],
  ] as const)('%o gives %o (schema inferred from the records)', (options, expected) => {
    expect(ids(query(people, options))).toEqual(expected);
  });

  it('never changes its input', () => {
    const copy = structuredClone(people);
    query(people, { filter: 'Salary.GreaterThan(0)', sort: 'LastName=Desc' });
    expect(people).toEqual(copy);
  });

  it('returns the records themselves, in a new array', () => {
    const out = query(people, {});
    expect(out).not.toBe(people);
    expect(out[0]).toBe(people[0]);
  });

  it('throws WepqlError with every diagnostic for an invalid filter or sort', () => {
    try {
      query(people, { filter: 'LastName.Equalz(x);Salary.GreaterThan(abc)' });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(WepqlError);
      expect((e as WepqlError).diagnostics.filter((d) => d.severity === 'error').length).toBeGreaterThanOrEqual(2);
    }
    expect(() => query(people, { sort: 'Nope=Asc' })).toThrow(WepqlError);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses skip and limit of %s', (n) => {
    expect(() => query(people, { skip: n })).toThrow(WepqlError);
    expect(() => query(people, { limit: n })).toThrow(WepqlError);
  });

  it('uses the given schema instead of inferring one', () => {
    expect(() => query(people, { filter: 'LastName.Equal(x)', schema })).toThrow(/LastName/);
  });

  it('accepts typed trees without any schema', () => {
    const typed = analyzeFilterOrThrow('ClientId.Equal(2);RowStatus.NotEqual(3)', { schema: employeeSchema });
    const expected = employees.filter((e) => e['ClientId'] === 2 && e['RowStatus'] !== 3);
    expect(query(employees, { filter: typed })).toEqual(expected);
  });
});

describe('compileFilter input forms', () => {
  it('text needs a schema; typed trees do not', () => {
    expect(() => compileFilter('S.Equal(a)')).toThrow(/schema is required/);
    const typed = analyzeFilterOrThrow('S.Equal(a)', { schema });
    expect(compileFilter(typed)({ S: 'A' })).toBe(true);
  });

  it('text, syntax tree and typed tree give the same predicate', () => {
    const typed = analyzeFilterOrThrow('S.Equal(a)', { schema });
    for (const input of ['S.Equal(a)', typed.source, typed]) {
      const p = compileFilter(input, { schema });
      expect([p({ S: 'a' }), p({ S: 'b' }), p({})]).toEqual([true, false, false]);
    }
  });

  it('reports every error of invalid text in one WepqlError', () => {
    try {
      compileFilter('S.Foo(1);N.Equal(abc);Q.IsNull()', { schema });
      expect.unreachable();
    } catch (e) {
      const codes = (e as WepqlError).diagnostics.map((d) => d.code);
      expect(codes).toEqual(expect.arrayContaining(['unknown-operator', 'invalid-value', 'unknown-field']));
    }
  });
});

describe('the sample employees', () => {
  it('every active employee of client 1 whose name starts with o', () => {
    const matches = compileFilter("ClientId.Equal(1);RowStatus.NotEqual(3);LastName.StartsWith('o''')", { schema: employeeSchema });
    const expected = employees.filter(
      (e) => e['ClientId'] === 1 && e['RowStatus'] !== 3 && String(e['LastName']).toLowerCase().startsWith("o'"),
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(employees.filter(matches)).toEqual(expected);
  });

  it('optional fields are omitted and read as null', () => {
    const withoutGender = employees.filter((e) => !Object.hasOwn(e, 'Gender'));
    expect(withoutGender.length).toBeGreaterThan(0);
    expect(employees.filter(compileFilter('Gender.IsNull()', { schema: employeeSchema }))).toEqual(withoutGender);
    expect(employees.filter(compileFilter('Gender.NotEqual(1)', { schema: employeeSchema })).some((e) => !Object.hasOwn(e, 'Gender'))).toBe(
      false,
    );
  });

  it("LIKE wildcards in values are literal: 'C_' and '%' match only those characters", () => {
    const underscore = employees.filter(compileFilter('ClockNumber.StartsWith(C_)', { schema: employeeSchema }));
    expect(underscore.length).toBeGreaterThan(0);
    expect(underscore.every((e) => String(e['ClockNumber']).startsWith('C_'))).toBe(true);
    const percent = employees.filter(compileFilter('NickName.Contains(%)', { schema: employeeSchema }));
    expect(percent.every((e) => String(e['NickName']).includes('%'))).toBe(true);
  });
});
