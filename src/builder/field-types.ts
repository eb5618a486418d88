/**
 * The type-level half of the builder: which dotted paths a record type has,
 * what kind of value each holds, and which operators and values that kind
 * accepts, read from the operator table. Nothing here exists at run time
 * except the `FIELD_TYPES` symbol.
 */
import type { FilterOperator, InFieldsOperator, OPERATORS, OperatorsForType, ScalarType } from '../ast/operators.js';

/**
 * The kinds of field the builder distinguishes (the schema's scalar types).
 *
 * @example
 * const kind: FieldKind = 'datetime';
 */
export type FieldKind = ScalarType;

/**
 * The builder's method name for an operator: `StartsWith` → `startsWith`.
 *
 * @example
 * type M = OperatorMethod<'NotInArrayOrNull'>; // 'notInArrayOrNull'
 */
export type OperatorMethod<O extends FilterOperator> = Uncapitalize<O>;

/**
 * The single-field methods a field of kind `K` offers: exactly the
 * operators the operator table applies to `K`, InFields excluded.
 *
 * @example
 * type M = FieldMethodsOfKind<'boolean'>; // 'equal' | 'notEqual' | 'isNull' | … | 'notInArrayOrNull'
 */
export type FieldMethodsOfKind<K extends FieldKind> = OperatorMethod<Exclude<OperatorsForType<K>, InFieldsOperator>>;

/**
 * A phantom key a record type may carry to declare field kinds its
 * TypeScript types cannot express — above all datetimes held as ISO strings.
 * It is optional and never present at run time, so plain JSON records still
 * satisfy the type.
 *
 * @example
 * interface Order {
 *   readonly [FIELD_TYPES]?: { PlacedOn: 'datetime' };
 *   Id: number;
 *   PlacedOn: string;
 * }
 * where<Order>().field('PlacedOn').greaterThan(new Date('2024-01-01'));
 */
export const FIELD_TYPES: unique symbol = Symbol.for('wepql.field-types');

/**
 * Kinds of fields by dotted path, as given to `where<T, M>()` or under
 * `[FIELD_TYPES]`. Entries override what the TypeScript types say.
 *
 * @example
 * const types = { BirthOn: 'datetime', 'Address.MovedIn': 'datetime' } satisfies FieldTypeMap;
 */
export type FieldTypeMap = { readonly [path: string]: FieldKind };

/**
 * A value a filter can compare with: what the builder turns into text.
 *
 * @example
 * const values: FilterValue[] = ['Sm', 1000, true, new Date('2024-01-01')];
 */
export type FilterValue = string | number | boolean | Date;

/**
 * The TypeScript type of values a field of a kind accepts: numbers for
 * numbers and integers, `Date` or ISO text for datetimes.
 *
 * @example
 * const when: ValueOfKind<'datetime'> = new Date(); // Date | string
 */
export type ValueOfKind<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'number' | 'integer'
    ? number
    : K extends 'datetime'
      ? Date | string
      : K extends 'boolean'
        ? boolean
        : never;

/**
 * The shapes of ISO datetime text (`2024-01-31`, `2024-01-31T13:45:00Z`),
 * as far as a template literal type can tell: a literal outside them
 * (`'yesterday'`, `'31/01/2024'`) is not datetime text. The full rule
 * (real days, times, years 0001–9999) is checked at run time.
 *
 * @example
 * const day: DatetimeText = '2024-01-31';
 */
export type DatetimeText = `${number}-${number}-${number}` | `${number}-${number}-${number}T${string}`;

/**
 * What a datetime method accepts for an argument of type `S`: a `Date`, text
 * whose type is plain `string` (checked at run time), or a literal of
 * `DatetimeText`'s shapes — any other literal is `never`, a compile error.
 *
 * @example
 * type Ok = DatetimeArgument<'2024-01-31'>; // '2024-01-31'
 * type No = DatetimeArgument<'yesterday'>;  // never
 */
export type DatetimeArgument<S> = S extends string ? (string extends S ? S : S extends DatetimeText ? S : never) : S;

type IsAny<V> = 0 extends 1 & V ? true : false;

// Nesting bound for path expansion: deep or recursive record types stop here
// instead of making the compiler give up.
type Depth = [never, 0, 1, 2, 3, 4, 5];

type PathsOfValue<V, K extends string, D extends number> =
  IsAny<V> extends true
    ? K
    : V extends FilterValue
      ? K
      : V extends readonly unknown[] | ((...args: never[]) => unknown)
        ? never
        : V extends object
          ? `${K}.${RecordPaths<V, Depth[D]>}`
          : K;

/**
 * Every dotted path of a record type that ends at a non-object value
 * (arrays, functions and symbol keys excluded), whatever its kind.
 *
 * @example
 * type P = RecordPaths<{ A: string; B: { C: number }; D: string[] }>; // 'A' | 'B.C'
 */
export type RecordPaths<T, D extends number = 5> = [D] extends [never]
  ? never
  : T extends object
    ? { [K in keyof T & string]-?: PathsOfValue<NonNullable<T[K]>, K, D> }[keyof T & string]
    : never;

/**
 * The value type at a dotted path of a record type, with null and undefined
 * removed.
 *
 * @example
 * type Z = ValueAt<{ Address?: { Zip: string | null } }, 'Address.Zip'>; // string
 */
export type ValueAt<T, P extends string> = T extends unknown
  ? P extends keyof T
    ? NonNullable<T[P]>
    : P extends `${infer H}.${infer R}`
      ? H extends keyof T
        ? ValueAt<NonNullable<T[H]>, R>
        : never
      : never
  : never;

// A type alias, not an interface, must hold the map: interfaces have no
// implicit index signature and so never match `FieldTypeMap`.
type DeclaredTypes<T> = T extends { readonly [FIELD_TYPES]?: infer D }
  ? [NonNullable<D>] extends [FieldTypeMap]
    ? NonNullable<D>
    : {}
  : {};

/**
 * The effective kind map: the explicit map `M` over what the record type
 * declares under `[FIELD_TYPES]`.
 */
type Declared<T, M> = M & Omit<DeclaredTypes<T>, keyof M>;

type KindOfValue<V> =
  IsAny<V> extends true
    ? never
    : [V] extends [never]
      ? never
      : [V] extends [boolean]
        ? 'boolean'
        : [V] extends [Date]
          ? 'datetime'
          : [V] extends [string]
            ? 'string'
            : [V] extends [number]
              ? 'number'
              : never;

/**
 * The kind of the field at path `P`: declared in `M` or under
 * `[FIELD_TYPES]`, else read from its TypeScript type (`string`, `number`,
 * `boolean`, `Date`); `never` for anything else (unions of kinds, `any`).
 *
 * @example
 * type K = KindAt<Employee, {}, 'BirthOn'>; // 'datetime'
 */
export type KindAt<T, M, P extends string> = P extends keyof Declared<T, M>
  ? Declared<T, M>[P] extends infer K extends FieldKind
    ? K
    : never
  : KindOfValue<ValueAt<T, P>>;

/**
 * The paths a filter or sort may name: every path whose kind is known.
 *
 * @example
 * type F = FieldPath<{ A: string; B: { C: number }; D: unknown }, {}>; // 'A' | 'B.C'
 */
export type FieldPath<T, M = {}> =
  RecordPaths<T> extends infer P ? (P extends string ? ([KindAt<T, M, P>] extends [never] ? never : P) : never) : never;

/**
 * What `M` in `where<T, M>()` may hold: kinds for paths of `T` only, so a
 * misspelled path is a compile error rather than a silent no-op.
 *
 * @example
 * type Ok = FieldTypesFor<Employee, { BirthOn: 'datetime' }>; // { BirthOn: FieldKind }
 */
export type FieldTypesFor<T, M> = { readonly [K in keyof M]: K extends RecordPaths<T> ? FieldKind : never };

/**
 * The values `Equal`, `NotEqual` and the list operators accept for path `P`:
 * the field's own type when it is a narrower string, number or boolean type
 * (a literal union or an enum), else the kind's value type.
 *
 * @example
 * type V = EqualityValue<{ Status: 'open' | 'closed' }, {}, 'Status'>; // 'open' | 'closed'
 */
export type EqualityValue<T, M, P extends string> =
  KindAt<T, M, P> extends infer K extends FieldKind
    ? K extends 'datetime'
      ? Date | string
      : ValueAt<T, P> extends ValueOfKind<K>
        ? ValueAt<T, P>
        : ValueOfKind<K>
    : never;

/** The builder method of InFields operators `O`: its base operator in the operator table, uncapitalised (`StartsWithInFields` → `startsWith`). */
type InFieldsBase<O extends InFieldsOperator> = O extends InFieldsOperator ? Uncapitalize<(typeof OPERATORS)[O]['base']> : never;

/**
 * The InFields operators, by the builder's method names.
 *
 * @example
 * const method: InFieldsMethod = 'startsWith'; // inFields('D').startsWith(…)
 */
export type InFieldsMethod = InFieldsBase<InFieldsOperator>;

/**
 * The InFields methods that may list a field of kind `K`: the InFields
 * operators the operator table applies to `K`.
 *
 * @example
 * type M = InFieldsMethodsOfKind<'boolean'>; // 'equal'
 */
export type InFieldsMethodsOfKind<K extends FieldKind> = InFieldsBase<Extract<OperatorsForType<K>, InFieldsOperator>>;

/**
 * The paths an InFields operator may list for a head value of type `V`:
 * fields whose kind accepts the operator and whose value type `V` fits
 * (docs/reference.md §"Types and values": every listed field must accept the operator
 * and the value).
 *
 * @example
 * type P = InFieldsPath<Employee, {}, 'startsWith', string>; // 'FirstName' | 'LastName' | …
 */
export type InFieldsPath<T, M, Method extends InFieldsMethod, V> =
  FieldPath<T, M> extends infer P
    ? P extends string
      ? KindAt<T, M, P> extends infer K extends FieldKind
        ? Method extends InFieldsMethodsOfKind<K>
          ? [V] extends [ValueOfKind<K>]
            ? P
            : never
          : never
        : never
      : never
    : never;
