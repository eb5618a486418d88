import { describe, expect, it } from 'vitest';
import { WepqlError, parseSort } from '../../../src/index.js';
import { isBuiltSort } from '../../../src/builder/sort-builder.js';
import { orderBy, type Employee, type Sort } from '../../../src/sdk/index.js';

interface Person {
  Name: string;
  Age?: number;
  Address: { Zip: string };
}

function stripSpans(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripSpans);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'span') out[k] = stripSpans(v);
  return out;
}

describe('orderBy() builds canonical sort text', () => {
  it.each<[string, () => Sort<any, any>, string]>([
    [
      "orderBy<Employee>('LastName', 'asc').thenBy('CreatedOn', 'desc')",
      () => orderBy<Employee>('LastName', 'asc').thenBy('CreatedOn', 'desc'),
      'LastName=Asc;CreatedOn=Desc',
    ],
    ["orderBy<Person>('Name')", () => orderBy<Person>('Name'), 'Name=Asc'],
    [
      "orderBy<Person>('Age', 'Desc').thenBy('Address.Zip')",
      () => orderBy<Person>('Age', 'Desc').thenBy('Address.Zip'),
      'Age=Desc;Address.Zip=Asc',
    ],
    [
      "orderBy<Person>('Name', 'Asc').thenBy('Age', 'desc')",
      () => orderBy<Person>('Name', 'Asc').thenBy('Age', 'desc'),
      'Name=Asc;Age=Desc',
    ],
  ])('%s', (_title, build, expected) => {
    const sort = build();
    expect(sort.toString()).toBe(expected);
    const parsed = parseSort(expected);
    expect(parsed.diagnostics).toEqual([]);
    expect(stripSpans(parsed.ast.items)).toEqual(stripSpans(sort.toAst().items));
  });

  it('is immutable', () => {
    const first = orderBy<Person>('Name');
    first.thenBy('Age');
    expect(first.items).toHaveLength(1);
    expect(isBuiltSort(first)).toBe(true);
    expect(isBuiltSort('Name=Asc')).toBe(false);
  });

  it.each<[string, () => unknown, string]>([
    ["orderBy('Name', 'up')", () => orderBy<Person>('Name', 'up' as any), 'invalid-direction'],
    ["orderBy('9x')", () => (orderBy as any)('9x'), 'invalid-field-path'],
  ])('refuses %s', (_title, build, code) => {
    expect(build).toThrow(WepqlError);
    try {
      build();
    } catch (e) {
      expect((e as WepqlError).diagnostics[0]!.code).toBe(code);
    }
  });
});
