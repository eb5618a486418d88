/**
 * Type-level tests of the builder, checked by `tsc --noEmit` (npm test runs
 * it over test/): every `@ts-expect-error` line must fail to compile, and
 * would make tsc fail if it ever compiled. The same lines also run under
 * vitest, where they only build filters.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { FIELD_TYPES, orderBy, where, type Employee, type FieldPath, type Filter, type KindAt, type Sort } from '../../src/sdk/index.js';
import { WepqlError } from '../../src/index.js';

interface Person {
  Name: string;
  Nick?: string | null;
  Status: 'open' | 'closed';
  Age: number;
  Active: boolean;
  Joined: Date;
  BirthOn: string;
  Address?: { Zip: string; Geo: { Lat: number } } | null;
  Tags: string[];
  Meta: unknown;
  Any: any;
  Mixed: string | number;
}

interface Order {
  readonly [FIELD_TYPES]?: { PlacedOn: 'datetime' };
  Id: number;
  PlacedOn: string;
}

const jan1 = new Date(Date.UTC(2024, 0, 1));

describe('field names', () => {
  it('offers exactly the scalar dotted paths', () => {
    expectTypeOf<FieldPath<Person>>().toEqualTypeOf<
      'Name' | 'Nick' | 'Status' | 'Age' | 'Active' | 'Joined' | 'BirthOn' | 'Address.Zip' | 'Address.Geo.Lat'
    >();
    expectTypeOf<FieldPath<Order>>().toEqualTypeOf<'Id' | 'PlacedOn'>();
    where<Person>().field('Address.Geo.Lat').greaterThan(1);
    // @ts-expect-error: not a field
    where<Person>().field('Nme');
    // @ts-expect-error: an object, not a leaf
    where<Person>().field('Address');
    // @ts-expect-error: arrays cannot be filtered
    where<Person>().field('Tags');
    // @ts-expect-error: no such nested field
    where<Person>().field('Address.Nope');
    // @ts-expect-error: unknown, any and unions of kinds have no known kind
    where<Person>().field('Meta');
    // @ts-expect-error: any has no kind
    where<Person>().field('Any');
    // @ts-expect-error: a union of kinds has no kind
    where<Person>().field('Mixed');
    // @ts-expect-error: the employee's Files array
    where<Employee>().field('Files');
  });
});

describe('operators per kind', () => {
  it('strings: equality, text, lists, null checks — no comparisons', () => {
    expectTypeOf(where<Person>().field('Name').startsWith('Sm')).toEqualTypeOf<Filter<Person>>();
    where<Person>().field('Name').notEndsWith('x').field('Nick').isNull().field('Name').inArray(['a', 'b']);
    // @ts-expect-error: LessThan does not apply to strings
    where<Person>().field('Name').lessThan('b');
    // @ts-expect-error: a number for a string field
    where<Person>().field('Name').equal(1);
    // @ts-expect-error: Contains takes text
    where<Person>().field('Name').contains(1);
    // @ts-expect-error: a list needs at least one value
    expect(() => where<Person>().field('Name').inArray()).toThrow(WepqlError);
  });

  it('literal unions accept only their members for equality', () => {
    expectTypeOf(where<Person>().field('Status').equal).parameter(0).toEqualTypeOf<'open' | 'closed'>();
    where<Person>().field('Status').inArray('open', 'closed').field('Status').contains('op');
    // @ts-expect-error: not a member of the union
    where<Person>().field('Status').equal('pending');
  });

  it('numbers: comparisons, equality, lists, null checks — no text operators', () => {
    where<Person>().field('Age').greaterThanOrEqual(18).field('Age').notInArrayOrNull(1, 2).field('Age').isNotNull();
    // @ts-expect-error: Contains does not apply to numbers
    where<Person>().field('Age').contains('1');
    // @ts-expect-error: a string for a number field
    where<Person>().field('Age').equal('1');
    // @ts-expect-error: a Date for a number field
    where<Person>().field('Age').lessThan(jan1);
  });

  it('datetimes: Date or ISO text, comparisons — no text operators', () => {
    where<Person>().field('Joined').lessThan('2024-01-01T13:45:00Z').field('Joined').greaterThanOrEqual(new Date());
    where<Person>().field('Joined').lessThan(jan1).field('Joined').equal('2024-01-01').field('Joined').inArray(jan1, '2024-02-01');
    // @ts-expect-error: StartsWith does not apply to datetimes
    where<Person>().field('Joined').startsWith('2024');
    // @ts-expect-error: a number is not a datetime
    where<Person>().field('Joined').greaterThan(1);
  });

  it('builder-strings-checked: literal datetime text must look like a datetime; plain string text is checked at run time', () => {
    const text: string = 'yesterday';
    // Text of type string cannot be told apart at compile time: where(schema) reads it when it is added.
    where<Employee>().field('BirthOn').greaterThan(text);
    where<Employee>().field('BirthOn').greaterThan('1990-01-01').field('CreatedOn').notEqual('2024-01-31T13:45:00+02:00');
    // @ts-expect-error: 'yesterday' is not datetime text
    where<Employee>().field('BirthOn').greaterThan('yesterday');
    // @ts-expect-error: nor is a day in another order
    where<Employee>().field('BirthOn').equal('31/01/1990');
    // @ts-expect-error: a year alone is not a datetime
    where<Person>().field('Joined').lessThan('2024');
    const either = '2024-01-01' as '2024-01-01' | 'today';
    // @ts-expect-error: a union holding one bad literal
    where<Order>().field('PlacedOn').notEqual(either);
    expect(where<Employee>().field('BirthOn').greaterThan('1990-01-01').toString()).toBe('BirthOn.GreaterThan(1990-01-01)');
  });

  it('booleans: equality, lists, null checks only', () => {
    where<Person>().field('Active').equal(true).field('Active').notInArray(false).field('Active').isNull();
    // @ts-expect-error: booleans have no order
    where<Person>().field('Active').lessThan(true);
    // @ts-expect-error: booleans have no text operators
    where<Person>().field('Active').contains('t');
    // @ts-expect-error: the text 'true' is not a boolean
    where<Person>().field('Active').equal('true');
  });

  it('ISO-string datetimes are declared with M or [FIELD_TYPES]', () => {
    // @ts-expect-error: without a declaration BirthOn is a string
    where<Person>().field('BirthOn').lessThan('1990-01-01');
    where<Person, { BirthOn: 'datetime' }>().field('BirthOn').lessThan(jan1);
    // @ts-expect-error: declared a datetime, so no text operators
    where<Person, { BirthOn: 'datetime' }>().field('BirthOn').startsWith('19');
    where<Order>().field('PlacedOn').greaterThan(jan1);
    expectTypeOf<KindAt<Order, {}, 'PlacedOn'>>().toEqualTypeOf<'datetime'>();
    // @ts-expect-error: a misspelled path in M
    where<Person, { BirthOnn: 'datetime' }>();
    // @ts-expect-error: not a kind
    where<Person, { BirthOn: 'date' }>();
  });

  it('Employee works out of the box', () => {
    expectTypeOf<KindAt<Employee, {}, 'BirthOn'>>().toEqualTypeOf<'datetime'>();
    expectTypeOf<KindAt<Employee, {}, 'Gender'>>().toEqualTypeOf<'integer'>();
    expectTypeOf<KindAt<Employee, {}, 'Deceased'>>().toEqualTypeOf<'boolean'>();
    expectTypeOf<KindAt<Employee, {}, 'LastName'>>().toEqualTypeOf<'string'>();
    where<Employee>().field('CreatedOn').greaterThan(jan1).field('Gender').inArrayOrNull(1).field('HCE').equal(false);
    // @ts-expect-error: CreatedOn is a datetime
    where<Employee>().field('CreatedOn').contains('2024');
    // @ts-expect-error: Gender is an integer
    where<Employee>().field('Gender').equal('1');
    // A JSON record (no phantom key) is an Employee.
    expectTypeOf<Omit<Employee, typeof FIELD_TYPES>>().toExtend<Employee>();
  });
});

describe('InFields', () => {
  it('lists only fields that accept the operator and the value', () => {
    where<Employee>().inFields('D').startsWith('FirstName', 'LastName');
    where<Employee>().inFields(jan1).lessThan('BirthOn', 'CreatedOn');
    where<Employee>().inFields('2024-01-01').greaterThan('CreatedOn');
    where<Employee>().inFields(5).lessThanOrEqual('Gender', 'Id');
    where<Employee>().inFields(true).equal('Blind', 'Deceased');
    // @ts-expect-error: Gender is not a string field
    where<Employee>().inFields('D').startsWith('FirstName', 'Gender');
    // @ts-expect-error: a string value for number fields
    where<Employee>().inFields('5').lessThan('Gender');
    // @ts-expect-error: a number value for a string field
    where<Employee>().inFields(5).equal('LastName');
    // @ts-expect-error: no text operators for a number head
    where<Employee>().inFields(5).startsWith('LastName');
    // @ts-expect-error: booleans have no order
    where<Employee>().inFields(true).lessThan('Blind');
    // @ts-expect-error: at least one field
    expect(() => where<Employee>().inFields('D').contains()).toThrow(WepqlError);
  });
});

describe('groups', () => {
  it('parts are filters of the same record type', () => {
    const f = where<Person>().or(
      (b) => b.field('Age').lessThan(18),
      (b) => b.and((c) => c.field('Active').equal(true)),
    );
    expectTypeOf(f).toEqualTypeOf<Filter<Person>>();
    // @ts-expect-error: a filter over another record type
    where<Person>().or(where<Order>().field('Id').equal(1));
    // @ts-expect-error: inside a part the same field rules hold
    where<Person>().or((b) => b.field('Name').lessThan('x'));
  });
});

describe('sort', () => {
  it('offers only scalar paths and the two directions', () => {
    expectTypeOf(orderBy<Employee>('LastName', 'asc').thenBy('CreatedOn', 'desc')).toEqualTypeOf<Sort<Employee>>();
    orderBy<Person>('Address.Geo.Lat', 'Desc').thenBy('Active');
    // @ts-expect-error: arrays are not sortable
    orderBy<Person>('Tags');
    // @ts-expect-error: objects are not sortable
    orderBy<Person>('Address');
    // @ts-expect-error: not a direction
    expect(() => orderBy<Person>('Name', 'up')).toThrow(WepqlError);
    // @ts-expect-error: not a field
    orderBy<Employee>('LastName').thenBy('Salary');
  });
});
