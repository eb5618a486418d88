/**
 * Policies against a reference: for random schemas, valid filters and sorts,
 * and random policies, checkFilterPolicy / checkSortPolicy refuse exactly the
 * conditions and sort keys a direct reading of the policy refuses, each at
 * the range of the refused field or operator; an allow-everything policy
 * refuses nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterOperator } from '../../src/ast/operators.js';
import { checkFilterPolicy, checkSortPolicy, definePolicy } from '../../src/index.js';
import type { FieldRule, PolicyDefinition } from '../../src/index.js';
import type { Schema } from '../../src/schema/schema.js';
import { analyzeFilter, analyzeSort } from '../../src/validate/analyze.js';
import { operatorsForType } from '../../src/validate/applicability.js';
import type { Draft } from './validate-arbitraries.js';
import { draftFilterArb, renderFilter, schemaArb } from './validate-arbitraries.js';

function ruleArb(schema: Schema): fc.Arbitrary<PolicyDefinition> {
  const rule = (type: Schema['fields'][number]['type']): fc.Arbitrary<FieldRule> =>
    fc.record(
      {
        filter: fc.oneof(fc.boolean(), fc.subarray([...operatorsForType(type)] as FilterOperator[])),
        sort: fc.boolean(),
      },
      { requiredKeys: [] },
    );
  return fc
    .record({
      fields: fc
        .subarray([...schema.fields])
        .chain((fields) => fc.tuple(...fields.map((f) => rule(f.type).map((r) => [f.name, r] as const)))),
      otherFields: fc.constantFrom<'allow' | 'deny' | undefined>('allow', 'deny', undefined),
    })
    .map(({ fields, otherFields }) => ({ fields: Object.fromEntries(fields), ...(otherFields === undefined ? {} : { otherFields }) }));
}

/** What the policy definition says of one condition, read directly. */
function refusal(
  definition: PolicyDefinition,
  field: string,
  operator: string,
): 'field-not-filterable' | 'operator-not-allowed' | undefined {
  const rule = definition.fields !== undefined && Object.hasOwn(definition.fields, field) ? definition.fields[field]! : undefined;
  const filter = rule === undefined ? definition.otherFields !== 'deny' : (rule.filter ?? true);
  if (filter === true) return undefined;
  if (filter === false) return 'field-not-filterable';
  return filter.includes(operator as FilterOperator) ? undefined : 'operator-not-allowed';
}

function expected(definition: PolicyDefinition, clauses: readonly Draft[]): string[] {
  const out: string[] = [];
  const visit = (d: Draft): void => {
    if (d.kind === 'group') return d.children.forEach(visit);
    const fields = d.kind === 'in-fields' ? d.fields : [d.field];
    for (const f of fields) {
      const code = refusal(definition, f, d.operator);
      if (code !== undefined) out.push(`${code} ${code === 'field-not-filterable' ? f : d.operator}`);
    }
  };
  clauses.forEach(visit);
  return out.sort();
}

const caseArb = schemaArb().chain((schema) =>
  fc.record({
    schema: fc.constant(schema),
    clauses: draftFilterArb(schema),
    definition: ruleArb(schema),
    sortFields: fc.uniqueArray(fc.constantFrom(...schema.fields.map((f) => f.name)), { minLength: 1, maxLength: 4 }),
  }),
);

describe('policies against a direct reading', () => {
  it('refuse exactly the conditions the policy refuses, at the refused field or operator', () => {
    fc.assert(
      fc.property(caseArb, ({ schema, clauses, definition }) => {
        const { text } = renderFilter(clauses);
        const typed = analyzeFilter(text, { schema }).value;
        // The shared arbitraries may produce a value the validator now refuses (year 0000); policies see only valid filters.
        fc.pre(typed !== undefined);
        const found = checkFilterPolicy(typed, definePolicy(definition, schema)).map((d) => `${d.code} ${text.slice(d.start, d.end)}`);
        expect(found.sort()).toEqual(expected(definition, clauses));
        expect(checkFilterPolicy(typed, definePolicy({}, schema))).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  it('refuse exactly the sort keys the policy refuses', () => {
    fc.assert(
      fc.property(caseArb, ({ schema, definition, sortFields }) => {
        const text = sortFields.map((f, i) => `${f}=${i % 2 === 0 ? 'Asc' : 'Desc'}`).join(';');
        const typed = analyzeSort(text, { schema }).value!;
        const policy = definePolicy(definition, schema);
        const refused = sortFields.filter((f) => {
          const rule = definition.fields !== undefined && Object.hasOwn(definition.fields, f) ? definition.fields[f] : undefined;
          return rule === undefined ? definition.otherFields === 'deny' : rule.sort === false;
        });
        expect(checkSortPolicy(typed, policy).map((d) => text.slice(d.start, d.end))).toEqual(refused);
      }),
      { numRuns: 200 },
    );
  });
});
