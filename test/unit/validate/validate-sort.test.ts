import { describe, expect, it } from 'vitest';
import type { Diagnostic, SortAst } from '../../../src/index.js';
import { NO_SPAN, WepqlError, analyzeSort, analyzeSortOrThrow, defineSchema, parseSort, validateSort } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const schema = defineSchema({
  fields: {
    LastName: { type: 'string' },
    Salary: { type: 'number' },
    Notes: { type: 'string', sortable: false },
    Address: { type: 'object', fields: { Zip: { type: 'string' } } },
  },
});
const brief = (ds: readonly Diagnostic[]) => ds.map((d) => [d.code, d.start, d.end]);

describe('validateSort', () => {
  it.each<[string, string, number, number]>([
    ['Salry=Asc', 'unknown-field', 0, 5],
    ['LastName=Asc;Notes=Desc', 'not-sortable', 13, 18],
    ['Address=Desc', 'not-a-leaf-field', 0, 7],
    ['Address.Zipp=Desc', 'unknown-field', 0, 12],
  ])('%s → %s', (text, code, start, end) => {
    const { value, diagnostics } = analyzeSort(text, { schema });
    expect(brief(diagnostics)).toEqual([[code, start, end]]);
    expect(value).toBeUndefined();
  });

  it('names the problem', () => {
    expect(analyzeSort('Notes=Asc', { schema }).diagnostics[0]!.message).toBe(
      'field "Notes" cannot be used in a sort: the schema marks it not sortable',
    );
    const [d] = analyzeSort('Salry=Asc', { schema }).diagnostics;
    expect(d!.message).toBe('unknown field "Salry"; did you mean "Salary"?');
    expect(d!.suggestion).toBe('Salary');
    expect(d!.fix).toBeUndefined();
  });

  it('does not suggest a field that cannot be sorted', () => {
    expect(analyzeSort('Note=Asc', { schema }).diagnostics[0]!.suggestion).toBeUndefined();
  });

  it('resolves keys to the schema spelling, warning on case', () => {
    const { value, diagnostics } = analyzeSort('lastname=Asc;Address.Zip=Desc', { schema });
    expect(brief(diagnostics)).toEqual([['field-case-mismatch', 0, 8]]);
    expect(value!.keys.map((k) => [k.field.name, k.direction])).toEqual([
      ['LastName', 'Asc'],
      ['Address.Zip', 'Desc'],
    ]);
  });

  it('drops a repeated field from the keys without reporting it again', () => {
    const { value, diagnostics } = analyzeSort('LastName=Desc;Salary=Asc;lastname=Asc', { schema });
    expect(diagnostics.map((d) => d.code)).toEqual(['duplicate-sort-field', 'field-case-mismatch']);
    expect(value!.keys.map((k) => [k.field.name, k.direction])).toEqual([
      ['LastName', 'Desc'],
      ['Salary', 'Asc'],
    ]);
    expect(value!.keys[0]!.source).toBe(value!.source.items[0]);
  });

  it('types an empty sort as no keys', () => {
    expect(analyzeSort('', { schema }).value!.keys).toEqual([]);
  });

  it('enforces maxSortKeys on a tree built by code', () => {
    const item = (name: string) => ({
      kind: 'sort-item' as const,
      field: { kind: 'field' as const, path: [name], name, span: NO_SPAN },
      direction: 'Asc' as const,
      explicitDirection: true,
      span: NO_SPAN,
    });
    const ast: SortAst = { kind: 'sort', items: [item('LastName'), item('Salary'), item('LastName')], span: NO_SPAN };
    expect(validateSort(ast, schema, { limits: { maxSortKeys: 2 } }).diagnostics.map((d) => d.code)).toEqual(['too-many-sort-keys']);
    expect(validateSort(ast, schema).value!.keys).toHaveLength(2);
  });

  it('reports the parser limit once on text', () => {
    const text = Array.from({ length: 9 }, (_, i) => `F${i}=Asc`).join(';');
    expect(analyzeSort(text, { schema }).diagnostics.filter((d) => d.code === 'too-many-sort-keys')).toHaveLength(1);
  });

  it('works with the employee schema and throws from the OrThrow form', () => {
    expect(analyzeSortOrThrow('Gender=Asc;CreatedOn=Desc', { schema: employeeSchema }).keys.map((k) => k.field.type)).toEqual([
      'integer',
      'datetime',
    ]);
    expect(() => analyzeSortOrThrow('Files=Asc', { schema: employeeSchema })).toThrow(WepqlError);
    expect(analyzeSortOrThrow(parseSort('Id=Desc').ast, { schema: employeeSchema }).keys).toHaveLength(1);
  });
});
