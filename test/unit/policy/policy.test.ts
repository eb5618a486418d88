/**
 * Per-endpoint policies: definitions checked against the schema, refusals as
 * diagnostics at the refused field or operator, and the same refusals in the
 * 400 envelope of handleListRequest and in lintText.
 */
import { describe, expect, it } from 'vitest';
import { lintText } from '../../../src/lint/lint-text.js';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import { checkFilterPolicy, checkSortPolicy, definePolicy, policyLimits, PolicyDefinitionError } from '../../../src/index.js';
import type { PolicyDefinition } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { analyzeFilter, analyzeSort } from '../../../src/validate/analyze.js';

const SSN_POLICY: PolicyDefinition = { fields: { Ssn: { filter: ['Equal'], sort: false }, BirthOn: { filter: false } } };
const policy = definePolicy(SSN_POLICY, employeeSchema);

function refusals(text: string, kind: 'filter' | 'sort', p = policy): string[] {
  if (kind === 'filter') {
    const typed = analyzeFilter(text, { schema: employeeSchema }).value!;
    return checkFilterPolicy(typed, p).map((d) => `${d.code} ${text.slice(d.start, d.end)}`);
  }
  const typed = analyzeSort(text, { schema: employeeSchema }).value!;
  return checkSortPolicy(typed, p).map((d) => `${d.code} ${text.slice(d.start, d.end)}`);
}

describe('checkFilterPolicy', () => {
  it.each([
    ['Ssn.Equal(123456789)', []],
    ['ssn.equal(123456789)', []],
    ['Ssn.StartsWith(123)', ['operator-not-allowed StartsWith']],
    ['BirthOn.GreaterThan(2000-01-01)', ['field-not-filterable BirthOn']],
    ['LastName.StartsWith(Sm);Or(Gender.Equal(1);Ssn.InArray(1,2))', ['operator-not-allowed InArray']],
    ["'12'.ContainsInFields(LastName,Ssn,OtherNames)", ['operator-not-allowed ContainsInFields']],
    ['And(Or(BirthOn.IsNull();Ssn.IsNotNull()))', ['field-not-filterable BirthOn', 'operator-not-allowed IsNotNull']],
    ['2000-01-01.LessThanInFields(CreatedOn,BirthOn)', ['field-not-filterable BirthOn']],
    ['LastName.Contains(Ssn)', []],
  ])('%s', (text, expected) => {
    expect(refusals(text, 'filter')).toEqual(expected);
  });

  it('suggests the one allowed operator and names the allowed ones', () => {
    const [d] = checkFilterPolicy(analyzeFilter('Ssn.Contains(12)', { schema: employeeSchema }).value!, policy);
    expect(d).toMatchObject({ code: 'operator-not-allowed', severity: 'error', start: 4, end: 12, suggestion: 'Equal' });
    expect(d!.message).toBe('this endpoint does not allow Contains on Ssn; allowed: Equal');
  });

  it('with otherFields: deny, only listed fields may be filtered or sorted', () => {
    const only = definePolicy({ otherFields: 'deny', fields: { LastName: {}, Gender: { sort: false } } }, employeeSchema);
    expect(refusals('LastName.Equal(a);Gender.Equal(1);FirstName.Equal(b)', 'filter', only)).toEqual(['field-not-filterable FirstName']);
    expect(refusals('LastName=Asc;Gender=Desc;Id=Asc', 'sort', only)).toEqual(['field-not-sortable Gender', 'field-not-sortable Id']);
  });
});

describe('checkSortPolicy', () => {
  it.each([
    ['LastName=Asc', []],
    ['LastName=Asc;Ssn=Desc', ['field-not-sortable Ssn']],
    ['BirthOn=Desc', []],
  ])('%s', (text, expected) => {
    expect(refusals(text, 'sort')).toEqual(expected);
  });
});

describe('definePolicy', () => {
  it.each([
    ['an unknown field', { fields: { Nope: { sort: false } } }, 'fields.Nope: is not a field of the schema'],
    [
      'an unknown operator',
      { fields: { Ssn: { filter: ['Equals'] } } },
      'fields.Ssn.filter[0]: "Equals" is not an operator (write it as in the language, such as "Equal")',
    ],
    ['a non-boolean sort', { fields: { Ssn: { sort: 'no' } } }, 'fields.Ssn.sort: must be true or false'],
    ['an unknown rule key', { fields: { Ssn: { filtr: false } } }, 'fields.Ssn.filtr: unknown key (expected filter or sort)'],
    ['a field given twice in different case', { fields: { Ssn: {}, ssn: {} } }, 'fields.ssn: repeats the rule of Ssn'],
    ['a negative cap', { caps: { maxConditions: -1 } }, 'caps.maxConditions: must be a whole number ≥ 0'],
    [
      'an unknown cap',
      { caps: { maxErrors: 1 } },
      'caps.maxErrors: unknown cap (expected one of maxConditions, maxListValues, maxDepth, maxInFields, maxSortKeys, maxLength)',
    ],
    ['a bad otherFields', { otherFields: 'maybe' }, 'otherFields: must be "allow" or "deny"'],
    ['an unknown top-level key', { field: {} }, 'field: unknown key (expected fields, otherFields or caps)'],
    [
      'a __proto__ key from JSON',
      JSON.parse('{"__proto__": {"fields": {}}}'),
      '__proto__: unknown key (expected fields, otherFields or caps)',
    ],
    [
      'a __proto__ field from JSON',
      JSON.parse('{"fields": {"__proto__": {"sort": false}}}'),
      'fields.__proto__: is not a field of the schema',
    ],
  ])('refuses %s', (_title, definition, message) => {
    expect(() => definePolicy(definition as PolicyDefinition, employeeSchema)).toThrow(PolicyDefinitionError);
    expect(() => definePolicy(definition as PolicyDefinition, employeeSchema)).toThrow(message);
  });

  it('tightens limits to its caps and never loosens them', () => {
    const capped = definePolicy({ caps: { maxConditions: 10, maxDepth: 40 } }, employeeSchema);
    expect(policyLimits({ maxConditions: 100, maxDepth: 3 }, capped)).toEqual({ maxConditions: 10, maxDepth: 3 });
    expect(policyLimits(undefined, capped)).toEqual({ maxConditions: 10, maxDepth: 40 });
    expect(policyLimits({ maxSortKeys: 2 }, policy)).toEqual({ maxSortKeys: 2 });
  });
});

describe('handleListRequest with a policy', () => {
  const records = [
    { Id: 1, ClientId: 1, Ssn: '111', LastName: 'A', BirthOn: '1990-01-01T00:00:00Z', RowStatus: 1 },
    { Id: 2, ClientId: 1, Ssn: '222', LastName: 'B', BirthOn: '1980-01-01T00:00:00Z', RowStatus: 1 },
  ];
  const options = {
    source: createMemoryDataSource(records, { schema: employeeSchema, clientField: 'ClientId', tieBreaker: 'Id' }),
    schema: employeeSchema,
    codec: createTokenCodec({ secret: 'policy test secret, 16+ bytes' }),
    route: '/api/public/clients/1/employees',
    clientId: 1,
    policy: definePolicy({ ...SSN_POLICY, caps: { maxConditions: 2 } }, employeeSchema),
  };

  it('serves what the policy allows', async () => {
    const r = await handleListRequest({ query: { limit: '5', filter: 'Ssn.Equal(222)', sort: 'BirthOn=Desc' } }, options);
    expect(r.status).toBe(200);
    expect((r.body as { Data: { Id: number }[] }).Data.map((e) => e.Id)).toEqual([2]);
  });

  it('answers refusals with ValidationErrors that point at what was refused', async () => {
    const r = await handleListRequest(
      { query: { limit: '5', filter: 'Ssn.StartsWith(1);BirthOn.GreaterThan(2000-01-01)', sort: 'Ssn=Asc' } },
      options,
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      Code: 'DataValidationError',
      ValidationErrors: {
        filter: [
          ['regularExpressionError', 'this endpoint does not allow StartsWith on Ssn; allowed: Equal (operator-not-allowed at 4-14)'],
          ['regularExpressionError', 'this endpoint does not allow filtering on BirthOn (field-not-filterable at 18-25)'],
        ],
        sort: [['regularExpressionError', 'this endpoint does not allow sorting by Ssn (field-not-sortable at 0-3)']],
      },
    });
  });

  it('applies its caps', async () => {
    const r = await handleListRequest({ query: { limit: '5', filter: 'Id.Equal(1);Id.Equal(2);Id.Equal(3)' } }, options);
    expect(r.status).toBe(400);
    expect((r.body as { ValidationErrors: Record<string, string[][]> }).ValidationErrors.filter![0]![0]).toBe('outOfRangeError');
  });

  it('checks a token page against the policy too (a token issued before the policy changed)', async () => {
    const open = { ...options, policy: undefined };
    const first = await handleListRequest({ query: { limit: '1', sort: 'Ssn=Desc' } }, open);
    const token = (first.body as { Pagination: { DataToken: string } }).Pagination.DataToken;
    const next = await handleListRequest({ query: { 'data-token': token, 'next-page': 'true' } }, options);
    expect(next.status).toBe(400);
    expect(JSON.stringify(next.body)).toContain('field-not-sortable');
  });
});

describe('lintText with a policy', () => {
  it('reports the refusals with the other findings, by position', () => {
    const codes = lintText('Ssn.Contains(1);Ssn.Contains(1)', 'filter', { schema: employeeSchema, policy }).map(
      (d) => `${d.code}@${d.start}`,
    );
    expect(codes).toEqual(['operator-not-allowed@4', 'duplicate-condition@16', 'operator-not-allowed@20']);
    expect(lintText('Ssn=Asc', 'sort', { schema: employeeSchema, policy }).map((d) => d.code)).toEqual(['field-not-sortable']);
  });

  it('applies the caps as limits', () => {
    const capped = definePolicy({ caps: { maxListValues: 2 } }, employeeSchema);
    expect(lintText('Id.InArray(1,2,3)', 'filter', { schema: employeeSchema, policy: capped }).map((d) => d.code)).toContain(
      'too-many-list-values',
    );
  });
});
