/**
 * `recordTypeFor` (what `wepql schema --types` prints): the employee type it
 * writes is committed next to this test (generated-employee.ts), the test
 * keeps that file equal to the generator's output, and `tsc --noEmit` over
 * test/ checks that the builder reads it as the hand-written `Employee`:
 * datetimes as datetimes, integers as numbers, unknown fields refused.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineSchema, recordTypeFor } from '../../src/index.js';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { orderBy, where, type Employee } from '../../src/sdk/index.js';
import type { GeneratedEmployee } from './generated-employee.js';

describe('recordTypeFor', () => {
  it('writes generated-employee.ts for the employee schema', () => {
    const committed = readFileSync(new URL('./generated-employee.ts', import.meta.url), 'utf8');
    expect(recordTypeFor(employeeSchema, { name: 'GeneratedEmployee', sdkModule: '../../src/sdk/index.js' })).toBe(committed);
  });

  it('gives the builder what the hand-written Employee gives it', () => {
    const text = where<GeneratedEmployee>()
      .field('BirthOn')
      .lessThan(new Date('1990-01-01T00:00:00Z'))
      .field('Gender')
      .inArray(1, 2)
      .toString();
    expect(text).toBe(
      where<Employee>().field('BirthOn').lessThan(new Date('1990-01-01T00:00:00Z')).field('Gender').inArray(1, 2).toString(),
    );
    expect(orderBy<GeneratedEmployee>('LastName', 'asc').toString()).toBe('LastName=Asc');
    // @ts-expect-error BirthOn is a datetime: no text operators
    where<GeneratedEmployee>().field('BirthOn').startsWith('19');
    // @ts-expect-error not a field of the schema
    where<GeneratedEmployee>().field('Salary');
    // @ts-expect-error Gender is an integer
    where<GeneratedEmployee>().field('Gender').equal('1');
    expectTypeOf<GeneratedEmployee['BirthOn']>().toEqualTypeOf<Employee['BirthOn']>();
    expectTypeOf<GeneratedEmployee['Gender']>().toEqualTypeOf<Employee['Gender']>();
    expectTypeOf<GeneratedEmployee['HCE']>().toEqualTypeOf<Employee['HCE']>();
  });

  it('writes nested objects inline, with their datetime paths under FIELD_TYPES', () => {
    const schema = defineSchema({
      fields: {
        Id: { type: 'integer' },
        Address: {
          type: 'object',
          nullable: true,
          fields: { MovedIn: { type: 'datetime' }, Zip: { type: 'string', description: 'a */ b' } },
        },
      },
    });
    expect(recordTypeFor(schema, { name: 'Person' })).toBe(
      [
        "import type { FIELD_TYPES } from 'wepql/sdk';",
        '',
        'export interface Person {',
        "  readonly [FIELD_TYPES]?: { readonly Id: 'integer'; readonly 'Address.MovedIn': 'datetime' };",
        '  Id: number;',
        '  Address?: {',
        '    MovedIn: string;',
        '    /** a *\\/ b */',
        '    Zip: string;',
        '  };',
        '}',
        '',
      ].join('\n'),
    );
    expect(() => recordTypeFor(schema, { name: 'not valid' })).toThrow(TypeError);
  });
});
