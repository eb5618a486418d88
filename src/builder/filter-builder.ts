/**
 * The typed filter builder: `where<Employee>()` starts an immutable filter
 * whose `field(path)` offers only the record type's paths and, per path,
 * only the operators and values its kind accepts (docs/reference.md §"Types and
 * values"). Every call
 * returns a new filter; the result is a `FilterAst` (src/ast/nodes.ts), so
 * `toString()` is the printer's canonical text.
 */
import type { FieldNode, FilterAst, FilterNode } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import type { InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator } from '../ast/operators.js';
import {
  IN_FIELDS_OPERATORS,
  LIST_OPERATORS,
  NO_VALUE_OPERATORS,
  SINGLE_VALUE_OPERATORS,
  baseOperatorOfInFields,
} from '../ast/operators.js';
import type { PrintOptions } from '../print/printer.js';
import { printFilter } from '../print/printer.js';
import type {
  EqualityValue,
  FieldKind,
  FieldMethodsOfKind,
  FieldPath,
  FieldTypesFor,
  FilterValue,
  InFieldsMethod,
  InFieldsPath,
  KindAt,
  DatetimeArgument,
  ValueOfKind,
} from './field-types.js';
import type { Schema } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { builderError, builtField, builtValue, checkedValueText, valueToText } from './values.js';

/** One or more values: spread (`inArray(1, 2)`) or as one array (`inArray(ids)`). */
interface ListMethod<R, E> {
  (values: readonly E[]): R;
  (first: E, ...rest: E[]): R;
}

/**
 * The operators every kind accepts: equality, lists and null checks.
 *
 * @example
 * where<Employee>().field('Gender').notInArrayOrNull(1, 2);
 */
export interface EqualityConditions<R, E> {
  /** `Field.Equal(value)`. */
  equal(value: E): R;
  /** `Field.NotEqual(value)`; false on a null field. */
  notEqual(value: E): R;
  /** `Field.IsNull()`. */
  isNull(): R;
  /** `Field.IsNotNull()`. */
  isNotNull(): R;
  /** `Field.InArray(v1,v2,…)`: equals any value. */
  inArray: ListMethod<R, E>;
  /** `Field.InArrayOrNull(…)`: equals any value, or is null. */
  inArrayOrNull: ListMethod<R, E>;
  /** `Field.NotInArray(…)`: differs from every value; false on a null field. */
  notInArray: ListMethod<R, E>;
  /** `Field.NotInArrayOrNull(…)`: differs from every value, or is null. */
  notInArrayOrNull: ListMethod<R, E>;
}

/**
 * Comparisons, for numbers, integers and datetimes.
 *
 * @example
 * where<Employee>().field('CreatedOn').greaterThanOrEqual(new Date('2024-01-01'));
 */
export interface OrderConditions<R, V> {
  /** `Field.LessThan(value)`. */
  lessThan(value: V): R;
  /** `Field.LessThanOrEqual(value)`. */
  lessThanOrEqual(value: V): R;
  /** `Field.GreaterThan(value)`. */
  greaterThan(value: V): R;
  /** `Field.GreaterThanOrEqual(value)`. */
  greaterThanOrEqual(value: V): R;
}

/**
 * The one-value operators of a datetime field, which take a `Date` or ISO
 * text. Literal text is checked at compile time (`DatetimeArgument`):
 * `greaterThan('yesterday')` does not compile; text whose type is plain
 * `string` is checked when the filter is built with a schema
 * (`where<T>(schema)`), by the reader the validator uses.
 *
 * @example
 * where<Employee>().field('BirthOn').greaterThan('1990-01-01');
 */
export interface DatetimeConditions<R> {
  /** `Field.Equal(value)`. */
  equal<S extends Date | string>(value: S & DatetimeArgument<S>): R;
  /** `Field.NotEqual(value)`; false on a null field. */
  notEqual<S extends Date | string>(value: S & DatetimeArgument<S>): R;
  /** `Field.LessThan(value)`. */
  lessThan<S extends Date | string>(value: S & DatetimeArgument<S>): R;
  /** `Field.LessThanOrEqual(value)`. */
  lessThanOrEqual<S extends Date | string>(value: S & DatetimeArgument<S>): R;
  /** `Field.GreaterThan(value)`. */
  greaterThan<S extends Date | string>(value: S & DatetimeArgument<S>): R;
  /** `Field.GreaterThanOrEqual(value)`. */
  greaterThanOrEqual<S extends Date | string>(value: S & DatetimeArgument<S>): R;
}

/**
 * Substring tests, for strings (case-insensitive by default, docs/reference.md §"Filter
 * semantics").
 *
 * @example
 * where<Employee>().field('WorkEmail').endsWith('@example.com');
 */
export interface TextConditions<R> {
  /** `Field.Contains(text)`. */
  contains(text: string): R;
  /** `Field.StartsWith(text)`. */
  startsWith(text: string): R;
  /** `Field.EndsWith(text)`. */
  endsWith(text: string): R;
  /** `Field.NotContains(text)`; false on a null field. */
  notContains(text: string): R;
  /** `Field.NotStartsWith(text)`; false on a null field. */
  notStartsWith(text: string): R;
  /** `Field.NotEndsWith(text)`; false on a null field. */
  notEndsWith(text: string): R;
}

/**
 * The operators a field of kind `K` accepts, each returning `R` (the filter
 * with the condition added); `E` is the type `Equal` and the lists accept.
 *
 * @example
 * const next: Filter<Employee> = where<Employee>().field('Gender').inArray(1, 2);
 */
export type FieldConditions<R, K extends FieldKind, E> = K extends 'datetime'
  ? Pick<DatetimeConditions<R> & Omit<EqualityConditions<R, E>, keyof DatetimeConditions<R>>, FieldMethodsOfKind<'datetime'>>
  : K extends FieldKind
    ? Pick<EqualityConditions<R, E> & OrderConditions<R, ValueOfKind<K>> & TextConditions<R>, FieldMethodsOfKind<K>>
    : never;

type FieldsOf<T, M, Method extends InFieldsMethod, V> = [InFieldsPath<T, M, Method, V>, ...InFieldsPath<T, M, Method, V>[]];

/**
 * `v.EqualInFields(F1,…)`: any listed field equals the value.
 *
 * @example
 * where<Employee>().inFields(1).equal('Gender', 'Source'); // '1.EqualInFields(Gender,Source)'
 */
export interface InFieldsEquality<T, M, V, R> {
  /** `value.EqualInFields(F1,…)`: true when any listed field equals the value. */
  equal(...fields: FieldsOf<T, M, 'equal', V>): R;
}

/**
 * The ordering InFields operators: any listed field compares with the value.
 *
 * @example
 * where<Employee>().inFields(new Date('2024-01-01')).lessThan('CreatedOn', 'ModifiedOn');
 */
export interface InFieldsOrder<T, M, V, R> {
  /** `v.LessThanInFields(F1,…)`: any field is less than the value. */
  lessThan(...fields: FieldsOf<T, M, 'lessThan', V>): R;
  /** `v.LessThanOrEqualInFields(F1,…)`. */
  lessThanOrEqual(...fields: FieldsOf<T, M, 'lessThanOrEqual', V>): R;
  /** `v.GreaterThanInFields(F1,…)`: any field is greater than the value. */
  greaterThan(...fields: FieldsOf<T, M, 'greaterThan', V>): R;
  /** `v.GreaterThanOrEqualInFields(F1,…)`. */
  greaterThanOrEqual(...fields: FieldsOf<T, M, 'greaterThanOrEqual', V>): R;
}

/**
 * The text InFields operators: any listed string field contains, starts or ends with the value.
 *
 * @example
 * where<Employee>().inFields('D').startsWith('FirstName', 'LastName');
 */
export interface InFieldsText<T, M, V, R> {
  /** `v.ContainsInFields(F1,…)`. */
  contains(...fields: FieldsOf<T, M, 'contains', V>): R;
  /** `v.StartsWithInFields(F1,…)`. */
  startsWith(...fields: FieldsOf<T, M, 'startsWith', V>): R;
  /** `v.EndsWithInFields(F1,…)`. */
  endsWith(...fields: FieldsOf<T, M, 'endsWith', V>): R;
}

/**
 * The InFields operators for a head value of type `V`: a string may be
 * tested against string fields (text operators) and datetime fields
 * (ordering), a number or Date against ordered fields, a boolean only for
 * equality. Each method lists only fields that accept the operator and `V`.
 *
 * @example
 * where<Employee>().inFields('D').startsWith('FirstName', 'LastName');
 */
export type InFieldsConditions<T, M, V, R> = [V] extends [string]
  ? InFieldsEquality<T, M, V, R> & InFieldsOrder<T, M, V, R> & InFieldsText<T, M, V, R>
  : [V] extends [number | Date]
    ? InFieldsEquality<T, M, V, R> & InFieldsOrder<T, M, V, R>
    : InFieldsEquality<T, M, V, R>;

/**
 * A filter to combine, or a function that builds one from an empty filter.
 *
 * @example
 * const young: FilterPart<Employee> = (b) => b.field('BirthOn').greaterThan(new Date('2000-01-01'));
 * where<Employee>().or(young, where<Employee>().field('Gender').isNull());
 */
export type FilterPart<T, M = {}> = Filter<T, M> | ((b: Filter<T, M>) => Filter<T, M>);

/**
 * An immutable filter over records of type `T` (with field kinds declared
 * in `M`). Top-level conditions are ANDed, in the order they were added.
 *
 * @example
 * const f: Filter<Employee> = where<Employee>().field('LastName').startsWith('Sm');
 * f.toString(); // 'LastName.StartsWith(Sm)'
 */
export interface Filter<T, M = {}> {
  /**
   * Starts a condition on a field: one of `T`'s dotted paths whose kind is
   * known; the result offers the operators that kind accepts.
   */
  field<P extends FieldPath<T, M>>(path: P): FieldConditions<Filter<T, M>, KindAt<T, M, P>, EqualityValue<T, M, P>>;
  /** Starts an InFields condition with its head value: `inFields('D').startsWith('FirstName', 'LastName')`. */
  inFields<V extends FilterValue>(value: V): InFieldsConditions<T, M, V, Filter<T, M>>;
  /**
   * Adds `And(…)` holding the clauses of every part in order. Parts without
   * clauses add nothing; when no part has a clause, the filter is unchanged.
   */
  and(...parts: FilterPart<T, M>[]): Filter<T, M>;
  /**
   * Adds `Or(…)` with one branch per part; a part with several clauses
   * becomes an `And(…)` branch. Throws `WepqlError` (`empty-group`) when
   * there is no part or a part has no clause (an empty branch would match
   * every record).
   */
  or(...parts: FilterPart<T, M>[]): Filter<T, M>;
  /** Adds the part's clauses when `condition` is truthy; otherwise returns this filter. */
  when(condition: unknown, part: FilterPart<T, M>): Filter<T, M>;
  /** The top-level clauses built so far. */
  readonly clauses: readonly FilterNode[];
  /** True when no clause was added: the filter matches every record. */
  readonly isEmpty: boolean;
  /** The syntax tree, with `NO_SPAN` spans. */
  toAst(): FilterAst;
  /** The canonical text (`printFilter`); `''` for an empty filter. */
  toString(options?: PrintOptions): string;
}

function inFieldsMethodName(op: InFieldsOperator): string {
  return camel(baseOperatorOfInFields(op));
}

function camel(op: string): string {
  return op[0]!.toLowerCase() + op.slice(1);
}

function listValues(args: readonly unknown[]): readonly unknown[] {
  return args.length === 1 && Array.isArray(args[0]) ? (args[0] as readonly unknown[]) : args;
}

class BuiltFilter {
  readonly clauses: readonly FilterNode[];
  /** The schema whose field types check values as they are added, when `where()` was given one. */
  readonly schema: Schema | undefined;

  constructor(clauses: readonly FilterNode[], schema: Schema | undefined) {
    this.clauses = clauses;
    this.schema = schema;
  }

  get isEmpty(): boolean {
    return this.clauses.length === 0;
  }

  /** Appends one clause; exposed to the condition prototypes below. */
  withClause(node: FilterNode): BuiltFilter {
    return new BuiltFilter([...this.clauses, node], this.schema);
  }

  field(path: unknown): FieldTarget {
    const target: FieldTarget = Object.create(FIELD_METHODS);
    target.filter = this;
    target.field = builtField(path);
    target.type = typeOf(this.schema, target.field);
    return target;
  }

  inFields(head: unknown): InFieldsTarget {
    const target: InFieldsTarget = Object.create(IN_FIELDS_METHODS);
    target.filter = this;
    target.head = head;
    return target;
  }

  and(...parts: unknown[]): BuiltFilter {
    const children = parts.flatMap((part) => this.#resolve(part, 'And').clauses);
    if (children.length === 0) return this;
    return this.withClause({ kind: 'group', operator: 'And', operatorSpan: NO_SPAN, children, span: NO_SPAN });
  }

  or(...parts: unknown[]): BuiltFilter {
    if (parts.length === 0) builderError('empty-group', 'or() needs at least one part');
    const children = parts.map((part, i): FilterNode => {
      const { clauses } = this.#resolve(part, 'Or');
      if (clauses.length === 0) {
        builderError('empty-group', `or(): part ${i + 1} has no condition; an empty branch would match every record`);
      }
      if (clauses.length === 1) return clauses[0]!;
      return { kind: 'group', operator: 'And', operatorSpan: NO_SPAN, children: clauses, span: NO_SPAN };
    });
    return this.withClause({ kind: 'group', operator: 'Or', operatorSpan: NO_SPAN, children, span: NO_SPAN });
  }

  when(condition: unknown, part: unknown): BuiltFilter {
    if (!condition) return this;
    const { clauses } = this.#resolve(part, 'when');
    return clauses.length === 0 ? this : new BuiltFilter([...this.clauses, ...clauses], this.schema);
  }

  #resolve(part: unknown, where: string): BuiltFilter {
    const built = typeof part === 'function' ? (part as (b: BuiltFilter) => unknown)(emptyFilter(this.schema)) : part;
    if (!(built instanceof BuiltFilter)) {
      return builderError('invalid-value', `${where}: each part must be a filter from where() or a function returning one`);
    }
    return built;
  }

  toAst(): FilterAst {
    return { kind: 'filter', clauses: this.clauses, span: NO_SPAN };
  }

  toString(options?: PrintOptions): string {
    return printFilter(this.toAst(), options);
  }
}

// `field()` and `inFields()` return small objects whose methods live on one
// shared prototype per kind of call, built once: creating 18 closures per
// `field()` call made building several times slower than parsing.
interface FieldTarget {
  filter: BuiltFilter;
  field: FieldNode;
  /** The field's type in the filter's schema; undefined without a schema. */
  type: ScalarType | undefined;
}

// The type of a field in the schema `where()` was given: a name the schema lacks is refused here,
// as the validator would refuse it.
function typeOf(schema: Schema | undefined, field: FieldNode): ScalarType | undefined {
  if (schema === undefined) return undefined;
  const hit = schema.lookup(field.name);
  if (hit.found !== 'field') builderError('unknown-field', `${field.name} is not a field of the schema`);
  return hit.field.type;
}
interface InFieldsTarget {
  filter: BuiltFilter;
  head: unknown;
}

function comparison(field: FieldNode, type: ScalarType | undefined, operator: SingleValueOperator, args: readonly unknown[]): FilterNode {
  const where = `${field.name}.${operator}`;
  if (args.length !== 1) builderError('too-many-values', `${where} takes exactly one value, got ${args.length}`);
  const value = builtValue(checkedValueText(args[0], type, where), 'argument');
  return { kind: 'comparison', field, operator, operatorSpan: NO_SPAN, value, span: NO_SPAN };
}

function nullCheck(field: FieldNode, operator: NoValueOperator, args: readonly unknown[]): FilterNode {
  if (args.length !== 0) builderError('unexpected-argument', `${field.name}.${operator}() takes no value`);
  return { kind: 'null-check', field, operator, operatorSpan: NO_SPAN, span: NO_SPAN };
}

function list(field: FieldNode, type: ScalarType | undefined, operator: ListOperator, args: readonly unknown[]): FilterNode {
  const where = `${field.name}.${operator}`;
  const values = listValues(args);
  if (values.length === 0) builderError('missing-value', `${where} needs at least one value`);
  const nodes = values.map((v) => builtValue(checkedValueText(v, type, where), 'argument'));
  return { kind: 'list', field, operator, operatorSpan: NO_SPAN, values: nodes, span: NO_SPAN };
}

function inFields(schema: Schema | undefined, head: unknown, operator: InFieldsOperator, paths: readonly unknown[]): FilterNode {
  if (paths.length === 0) builderError('missing-value', `${operator} needs at least one field`);
  const fields = paths.map(builtField);
  const text = valueToText(head, operator);
  // The head is compared with every listed field, so it must read as each one's type.
  for (const field of fields) checkedValueText(text, typeOf(schema, field), `${operator}(${field.name})`);
  const value = builtValue(text, 'in-fields-head');
  return { kind: 'in-fields', value, operator, operatorSpan: NO_SPAN, fields, span: NO_SPAN };
}

type Method<Target> = (this: Target, ...args: unknown[]) => BuiltFilter;

const FIELD_METHODS: Record<string, Method<FieldTarget>> = Object.create(null);
for (const operator of SINGLE_VALUE_OPERATORS) {
  FIELD_METHODS[camel(operator)] = function (...args) {
    return this.filter.withClause(comparison(this.field, this.type, operator, args));
  };
}
for (const operator of NO_VALUE_OPERATORS) {
  FIELD_METHODS[camel(operator)] = function (...args) {
    return this.filter.withClause(nullCheck(this.field, operator, args));
  };
}
for (const operator of LIST_OPERATORS) {
  FIELD_METHODS[camel(operator)] = function (...args) {
    return this.filter.withClause(list(this.field, this.type, operator, args));
  };
}

const IN_FIELDS_METHODS: Record<string, Method<InFieldsTarget>> = Object.create(null);
for (const operator of IN_FIELDS_OPERATORS) {
  IN_FIELDS_METHODS[inFieldsMethodName(operator)] = function (...fields) {
    return this.filter.withClause(inFields(this.filter.schema, this.head, operator, fields));
  };
}

const EMPTY = new BuiltFilter([], undefined);

// The empty filter of a schema (one per schema, as filters are immutable).
const EMPTY_OF_SCHEMA = new WeakMap<Schema, BuiltFilter>();
function emptyFilter(schema: Schema | undefined): BuiltFilter {
  if (schema === undefined) return EMPTY;
  let empty = EMPTY_OF_SCHEMA.get(schema);
  if (empty === undefined) EMPTY_OF_SCHEMA.set(schema, (empty = new BuiltFilter([], schema)));
  return empty;
}

/**
 * Starts an empty, immutable filter over records of type `T`. Field kinds
 * come from the TypeScript types (`string`, `number`, `boolean`, `Date`),
 * from the record type's `[FIELD_TYPES]` declaration, or from `M` — which is
 * how datetimes held as ISO strings are declared.
 *
 * Literal datetime text is checked at compile time. Given a `schema`, every
 * value is also read as its field's type as it is added — text held in a
 * plain `string`, numbers for integer fields, values from JavaScript callers
 * — and a value the schema's type does not read, or a field the schema lacks,
 * throws `WepqlError` (`invalid-value`, `unknown-field`) then, with the
 * validator's message, rather than when the request is sent.
 *
 * @example
 * const filter = where<Employee>()
 *   .field('LastName').startsWith('Sm')
 *   .or(
 *     (b) => b.field('Gender').equal(1),
 *     (b) => b.field('BirthOn').lessThan(new Date('1990-01-01')),
 *   );
 * filter.toString(); // 'LastName.StartsWith(Sm);Or(Gender.Equal(1);BirthOn.LessThan(1990-01-01T00:00:00.000Z))'
 */
export function where<T, M extends FieldTypesFor<T, M> = {}>(schema?: Schema): Filter<T, M> {
  return emptyFilter(schema) as unknown as Filter<T, M>;
}

/**
 * True when a value is a filter built by `where()`.
 *
 * @example
 * isBuiltFilter(where<Employee>()); // true
 * isBuiltFilter('A.Equal(1)');      // false
 */
export function isBuiltFilter(value: unknown): value is Filter<unknown, {}> {
  return value instanceof BuiltFilter;
}
