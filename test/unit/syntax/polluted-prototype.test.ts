/**
 * An enumerable property on Object.prototype (a polluted environment) must
 * not make parsing throw: the parsers are built, and run, inside the guard
 * that turns every failure into a diagnostic. The modules are loaded afresh
 * so the parsers are built while the prototype is polluted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const KEYS = ['polluted', 'LastName', 'kind', 'type', 'from', '0', '1', '2', '3', '4', '5', '40', '65', '200', '300', '400'];

afterEach(() => {
  for (const key of KEYS) delete (Object.prototype as Record<string, unknown>)[key];
});

describe('parsing with a polluted Object.prototype', () => {
  it('parses filters and sorts as usual, never throwing', async () => {
    vi.resetModules();
    for (const key of KEYS) (Object.prototype as Record<string, unknown>)[key] = key === 'type' ? () => 1 : 1;
    const { parseFilter } = await import('../../../src/syntax/parse-filter.js');
    const { parseSort } = await import('../../../src/syntax/parse-sort.js');
    const filter = parseFilter('LastName.StartsWith(Sm);Or(Gender.Equal(1);Salary.GreaterThan(1000))');
    expect(filter.diagnostics).toEqual([]);
    expect(filter.ast.clauses.map((c) => c.kind)).toEqual(['comparison', 'group']);
    expect(parseSort('LastName=Asc;CreatedOn=Desc').diagnostics).toEqual([]);
    expect(parseFilter('A.Foo(1)').diagnostics.map((d) => d.code)).toEqual(['unknown-operator']);
  });
});
