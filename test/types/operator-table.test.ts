/**
 * The builder's types are derived from the operator table: for every field
 * kind, the methods `field(path)` offers are exactly the table's operators
 * for that kind, and the fields an InFields method may list are exactly
 * those whose kind the table allows. Checked by `tsc --noEmit` (npm test);
 * the runtime half checks the builder's methods against the same table.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  FILTER_OPERATORS,
  OPERATORS,
  SCALAR_TYPES,
  type FilterOperator,
  type InFieldsOperator,
  type OperatorsForType,
  type ScalarType,
} from '../../src/ast/operators.js';
import type { FieldKind, InFieldsPath } from '../../src/builder/field-types.js';
import { where, type FieldConditions } from '../../src/builder/filter-builder.js';
import { applicableTypes } from '../../src/validate/applicability.js';

interface Row {
  Text: string;
  Num: number;
  When: Date;
  Flag: boolean;
  Int: number;
}
type RowKinds = { Int: 'integer' };

const rows = where<Row, RowKinds>();

/** The methods `where<Row>().field(P)` offers, as a union of names. */
type FieldMethods<P extends 'Text' | 'Num' | 'When' | 'Flag' | 'Int'> = {
  Text: keyof ReturnType<typeof rows.field<'Text'>>;
  Num: keyof ReturnType<typeof rows.field<'Num'>>;
  When: keyof ReturnType<typeof rows.field<'When'>>;
  Flag: keyof ReturnType<typeof rows.field<'Flag'>>;
  Int: keyof ReturnType<typeof rows.field<'Int'>>;
}[P];

/** What the table allows on a single field of kind `K`, as method names. */
type TableMethods<K extends ScalarType> = Uncapitalize<Exclude<OperatorsForType<K>, InFieldsOperator>>;

describe('the builder accepts exactly what the operator table allows', () => {
  it('single-field methods per kind', () => {
    expectTypeOf<FieldMethods<'Text'>>().toEqualTypeOf<TableMethods<'string'>>();
    expectTypeOf<FieldMethods<'Num'>>().toEqualTypeOf<TableMethods<'number'>>();
    expectTypeOf<FieldMethods<'Int'>>().toEqualTypeOf<TableMethods<'integer'>>();
    expectTypeOf<FieldMethods<'When'>>().toEqualTypeOf<TableMethods<'datetime'>>();
    expectTypeOf<FieldMethods<'Flag'>>().toEqualTypeOf<TableMethods<'boolean'>>();
    // The table itself, spelled out once, so a change to it is a visible diff here.
    expectTypeOf<TableMethods<'boolean'>>().toEqualTypeOf<
      'equal' | 'notEqual' | 'isNull' | 'isNotNull' | 'inArray' | 'inArrayOrNull' | 'notInArray' | 'notInArrayOrNull'
    >();
    expectTypeOf<Exclude<TableMethods<'string'>, TableMethods<'boolean'>>>().toEqualTypeOf<
      'contains' | 'startsWith' | 'endsWith' | 'notContains' | 'notStartsWith' | 'notEndsWith'
    >();
    expectTypeOf<Exclude<TableMethods<'datetime'>, TableMethods<'boolean'>>>().toEqualTypeOf<
      'lessThan' | 'lessThanOrEqual' | 'greaterThan' | 'greaterThanOrEqual'
    >();
    expectTypeOf<keyof FieldConditions<0, 'integer', number>>().toEqualTypeOf<TableMethods<'integer'>>();
  });

  it('InFields methods list only fields whose kind the table allows', () => {
    expectTypeOf<InFieldsPath<Row, RowKinds, 'startsWith', string>>().toEqualTypeOf<'Text'>();
    expectTypeOf<InFieldsPath<Row, RowKinds, 'lessThan', number>>().toEqualTypeOf<'Num' | 'Int'>();
    expectTypeOf<InFieldsPath<Row, RowKinds, 'equal', boolean>>().toEqualTypeOf<'Flag'>();
    // @ts-expect-error: LessThanInFields does not apply to booleans
    where<Row, RowKinds>().inFields(true).lessThan('Flag');
    // @ts-expect-error: ContainsInFields does not apply to numbers
    where<Row, RowKinds>().inFields('1').contains('Num');
  });

  it('at run time, each method the types offer builds its operator', () => {
    const paths: Readonly<Record<FieldKind, 'Text' | 'Num' | 'When' | 'Flag' | 'Int'>> = {
      string: 'Text',
      number: 'Num',
      integer: 'Int',
      datetime: 'When',
      boolean: 'Flag',
    };
    const sample: Readonly<Record<FieldKind, unknown>> = {
      string: 'a',
      number: 1.5,
      integer: 2,
      datetime: new Date(Date.UTC(2024, 0, 1)),
      boolean: true,
    };
    for (const type of SCALAR_TYPES) {
      for (const op of FILTER_OPERATORS.filter((o: FilterOperator) => OPERATORS[o].arity !== 'in-fields')) {
        if (!applicableTypes(op).includes(type)) continue;
        const method = (op.charAt(0).toLowerCase() + op.slice(1)) as keyof FieldConditions<unknown, FieldKind, unknown>;
        const field = where<Row, RowKinds>().field(paths[type]) as unknown as Record<string, (...a: unknown[]) => unknown>;
        const arity = OPERATORS[op].arity;
        const built = arity === 'no-value' ? field[method]!() : field[method]!(sample[type]);
        expect(String(built)).toContain(`${paths[type]}.${op}(`);
      }
    }
  });
});
