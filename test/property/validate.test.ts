import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, TypedFilterNode } from '../../src/index.js';
import { analyzeFilter, analyzeSort, hasErrors, inferSchema, validateFilter, validateSort } from '../../src/index.js';
import { convertValueText } from '../../src/validate/convert-value.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { filterAstArb, sortAstArb } from '../support/arbitraries.js';
import type { FaultKind } from './validate-arbitraries.js';
import { draftFilterArb, faultSpan, injectFault, renderFilter, renderSort, schemaArb } from './validate-arbitraries.js';

const errorsOf = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === 'error').map((d) => [d.code, d.start, d.end]);
const validCase = schemaArb().chain((schema) => draftFilterArb(schema).map((draft) => ({ schema, draft })));

describe('validation properties', () => {
  it('a filter whose every value suits its field validates without errors, text or tree', () => {
    fc.assert(
      fc.property(validCase, ({ schema, draft }) => {
        const { text, ast } = renderFilter(draft);
        const fromTree = validateFilter(ast, schema);
        expect(errorsOf(fromTree.diagnostics)).toEqual([]);
        expect(fromTree.value).toBeDefined();
        const fromText = analyzeFilter(text, { schema });
        expect(errorsOf(fromText.diagnostics)).toEqual([]);
        expect(fromText.value).toBeDefined();
        // Every typed value is what the shared conversion makes of its text.
        const check = (n: TypedFilterNode): void => {
          switch (n.kind) {
            case 'group':
              return n.children.forEach(check);
            case 'comparison':
              return expect(n.value).toEqual((convertValueText(n.source.value.value, n.field.type) as { value: unknown }).value);
            case 'list':
              return n.values.forEach((v, i) =>
                expect(v).toEqual((convertValueText(n.source.values[i]!.value, n.field.type) as { value: unknown }).value),
              );
            case 'in-fields':
              return n.values.forEach((v, i) =>
                expect(v).toEqual((convertValueText(n.source.value.value, n.fields[i]!.type) as { value: unknown }).value),
              );
            case 'null-check':
              return;
          }
        };
        fromText.value!.clauses.forEach(check);
      }),
      { numRuns: 300 },
    );
  });

  it.each<FaultKind>(['invalid-value', 'unknown-field', 'operator-not-applicable', 'integer-out-of-range'])(
    'one injected %s fault is reported exactly once, at its node, from text and from the tree',
    (code) => {
      fc.assert(
        fc.property(validCase, fc.nat(), ({ schema, draft }, choice) => {
          const injected = injectFault(schema, draft, code, choice);
          fc.pre(injected !== undefined);
          const { text, ast } = renderFilter(injected!.clauses);
          const span = faultSpan(ast, injected!.fault);
          const expected = [[code, span.start, span.end]];
          const fromTree = validateFilter(ast, schema);
          expect(errorsOf(fromTree.diagnostics)).toEqual(expected);
          expect(fromTree.value).toBeUndefined();
          const fromText = analyzeFilter(text, { schema });
          expect(errorsOf(fromText.diagnostics)).toEqual(expected);
          expect(fromText.value).toBeUndefined();
        }),
        { numRuns: 200 },
      );
    },
  );

  it('a sort over schema fields validates, keeping the first key per field', () => {
    const sortCase = schemaArb().chain((schema) =>
      fc
        .array(
          fc.record({
            field: fc.constantFrom(...schema.fields.map((f) => f.name)),
            direction: fc.constantFrom('Asc' as const, 'Desc' as const),
          }),
          { minLength: 1, maxLength: 8 },
        )
        .map((items) => ({ schema, items })),
    );
    fc.assert(
      fc.property(sortCase, ({ schema, items }) => {
        const { text, ast } = renderSort(items);
        const expected: string[] = [];
        for (const i of items) if (!expected.includes(i.field)) expected.push(i.field);
        for (const result of [validateSort(ast, schema), analyzeSort(text, { schema })]) {
          expect(hasErrors(result.diagnostics)).toBe(false);
          expect(result.value!.keys.map((k) => k.field.name)).toEqual(expected);
        }
      }),
    );
  });

  it('validation never throws on any parsed text', () => {
    fc.assert(
      fc.property(schemaArb(), fc.string({ maxLength: 60 }), (schema, text) => {
        const r = analyzeFilter(text, { schema });
        expect(r.value === undefined).toBe(hasErrors(r.diagnostics));
        const s = analyzeSort(text, { schema });
        expect(s.value === undefined).toBe(hasErrors(s.diagnostics));
      }),
    );
  });

  it('validation never throws on any tree built by code, and value is undefined exactly when there is an error', () => {
    const schemas = [
      employeeSchema,
      inferSchema([{ And: 1, Or: 'x', __proto__x: true, A1: { _: '2024-01-01' } }, JSON.parse('{"__proto__": 1}')]),
    ];
    fc.assert(
      fc.property(fc.constantFrom(...schemas), filterAstArb(), sortAstArb(), (schema, filter, sort) => {
        const f = validateFilter(filter, schema);
        expect(f.value === undefined).toBe(hasErrors(f.diagnostics));
        const s = validateSort(sort, schema);
        expect(s.value === undefined).toBe(hasErrors(s.diagnostics));
      }),
      { numRuns: 300 },
    );
  });
});
