/**
 * fast-check arbitraries for evaluating filters: a fixed test schema,
 * records that stress docs/reference.md §"Filter semantics" and §"Sort semantics" (nulls, omitted fields, wrong types, mixed
 * case, LIKE wildcards, quotes, astral text, equal keys, datetimes in every
 * accepted form and as `Date` objects), and type-correct validated trees
 * (`TypedFilter`, `TypedSort`) over that schema, with a text form of each.
 *
 * Shared by the in-memory evaluator's properties and the SQL compiler's
 * (compare a database's answer with `referenceMatches` /
 * `referenceSort` from `reference-evaluator.ts`).
 *
 * - `testSchema`: every scalar type, nullable, one nested object
 *   (`Address.City`), and a field named `constructor` (a prototype name
 *   that must read as an ordinary field).
 * - `recordArb()` / `recordsArb()`: plain JSON-like records (plus `Date`
 *   objects and, for numbers, NaN/±Infinity which count as null). Values
 *   come from small pools shared with the filter values, so filters match
 *   often and sorts see many equal keys.
 * - `typedFilterArb()` / `typedSortArb()`: trees whose values already have
 *   their field's type, with `source` nodes that a printer could print.
 * - `typedFilterText()` / `typedSortText()`: a text for a tree that the
 *   parser and validator turn back into the same tree (every value quoted).
 * - `jsonRecordArb()`: records with JSON values only (no `Date`, NaN,
 *   `undefined`), for sinks that store JSON such as a database.
 */
import fc from 'fast-check';
import type {
  FieldNode,
  FilterAst,
  FilterNode,
  ResolvedField,
  SortAst,
  SortDirection,
  TypedFilter,
  TypedFilterNode,
  TypedScalar,
  TypedSort,
  ValueNode,
} from '../../src/index.js';
import {
  IN_FIELDS_OPERATORS,
  LIST_OPERATORS,
  NO_VALUE_OPERATORS,
  SINGLE_VALUE_OPERATORS,
  baseOperatorOfInFields,
} from '../../src/ast/operators.js';
import { NO_SPAN, defineSchema } from '../../src/index.js';
import type { FieldDefinition, FilterOperator, ScalarType, Schema, SchemaDefinition } from '../../src/index.js';

/** The fields of `testSchema`; every one nullable so that null paths are exercised. */
export const TEST_SCHEMA_DEFINITION = {
  fields: {
    Name: { type: 'string', nullable: true },
    Nick: { type: 'string', nullable: true },
    constructor: { type: 'string', nullable: true },
    Age: { type: 'integer', nullable: true },
    Score: { type: 'number', nullable: true },
    Active: { type: 'boolean', nullable: true },
    BornOn: { type: 'datetime', nullable: true },
    SeenOn: { type: 'datetime', nullable: true },
    Address: { type: 'object', nullable: true, fields: { City: { type: 'string', nullable: true } } },
  },
} as const;

/** The schema every arbitrary here generates for. */
export const testSchema: Schema = defineSchema(TEST_SCHEMA_DEFINITION);

/** Strings that fold together, prefix each other, or need care in LIKE, SQL or code. */
export const STRING_POOL: readonly string[] = [
  '',
  ' ',
  'a',
  'A',
  'ab',
  'AB',
  'aB',
  'abc',
  'b',
  'B',
  'ba',
  'Smith',
  'SMITH',
  'smith',
  'Smi',
  "O'Brien",
  "o'brien",
  "'",
  '%',
  '_',
  'a%b',
  'a_b',
  '100%',
  '\\',
  'a\\b',
  ';',
  'x;y',
  'é',
  'É',
  'ß',
  'SS',
  'İ',
  'i',
  'Σ',
  'σ',
  'ς',
  'Zoë',
  'ZOË',
  'Łukasz',
  '😀',
  'a😀',
  '\uFF5E',
  'a\uFF5E',
  '\uE000',
  '𝄞',
  '日本',
  'null',
  'NULL',
  'true',
];

/** Integers and numbers, with equal values written differently. */
export const NUMBER_POOL: readonly number[] = [0, -0, 1, 1.0, -1, 2, 3, 10, 42, 100, 1.5, -2.25, 0.1, 1e3, 2 ** 53 - 1, -(2 ** 53 - 1)];

/** Instants (epoch ms) shared by records and filter values. */
export const INSTANT_POOL: readonly number[] = [
  Date.UTC(2024, 0, 1),
  Date.UTC(2024, 0, 1, 0, 0, 0, 1),
  Date.UTC(2023, 11, 31, 22, 0),
  Date.UTC(2024, 1, 29, 12, 30, 15, 250),
  Date.UTC(1999, 11, 31, 23, 59, 59, 999),
  Date.UTC(2000, 0, 1),
  Date.UTC(1970, 0, 1),
  Date.UTC(2038, 0, 19, 3, 14, 7),
];

const pad = (n: number, w = 2): string => String(Math.abs(n)).padStart(w, '0');

/** Every ISO form `recordValueAs` accepts for one instant (date-only when it is midnight UTC). */
export function datetimeForms(ms: number): string[] {
  const d = new Date(ms);
  const ymd = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const hms = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  const millis = pad(d.getUTCMilliseconds(), 3);
  const forms = [`${ymd}T${hms}.${millis}Z`, `${ymd}T${hms}.${millis}000Z`, `${ymd}T${hms}.${millis}`];
  if (d.getUTCMilliseconds() === 0) forms.push(`${ymd}T${hms}Z`, `${ymd}T${hms}`, `${ymd}T${hms}+00:00`);
  if (d.getUTCMilliseconds() === 0 && d.getUTCSeconds() === 0) forms.push(`${ymd}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}Z`);
  if (ms % 86_400_000 === 0) forms.push(ymd);
  // The same instant seen from +02:00 and -05:30.
  for (const offset of [120, -330]) {
    const l = new Date(ms + offset * 60_000);
    const sign = offset < 0 ? '-' : '+';
    forms.push(
      `${pad(l.getUTCFullYear(), 4)}-${pad(l.getUTCMonth() + 1)}-${pad(l.getUTCDate())}T${pad(l.getUTCHours())}:${pad(l.getUTCMinutes())}:${pad(l.getUTCSeconds())}.${millis}${sign}${pad(Math.trunc(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`,
    );
  }
  return forms;
}

/** Values that do not convert to `type` and therefore count as null (docs/reference.md §"Filter semantics"). */
const WRONG_TYPE: Readonly<Record<ScalarType, readonly unknown[]>> = {
  string: [1, true, {}, [], ['a']],
  number: ['1', true, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, {}],
  integer: ['1', 1.5, 2 ** 53, Number.NaN, false],
  boolean: ['true', 1, 0, null],
  datetime: ['2023-02-30', '2024-01-01T24:00:00Z', 'yesterday', 1704067200000, new Date(Number.NaN), '2024-1-1'],
};

/** A record value for a field of `type`: usually of that type, sometimes absent-like or wrong. */
function fieldValueArb(type: ScalarType, jsonOnly: boolean): fc.Arbitrary<unknown> {
  const good: fc.Arbitrary<unknown> = (() => {
    switch (type) {
      case 'string':
        return fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...STRING_POOL) },
          { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
        );
      case 'number':
        return fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...NUMBER_POOL) },
          { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }) },
        );
      case 'integer':
        return fc.oneof(
          { weight: 3, arbitrary: fc.constantFrom(...NUMBER_POOL.filter((n) => Number.isSafeInteger(n))) },
          { weight: 1, arbitrary: fc.integer({ min: -1000, max: 1000 }) },
        );
      case 'boolean':
        return fc.boolean();
      case 'datetime': {
        const forms = fc.constantFrom(...INSTANT_POOL).chain((ms) => fc.constantFrom(...datetimeForms(ms)));
        return jsonOnly
          ? forms
          : fc.oneof({ weight: 3, arbitrary: forms }, { weight: 1, arbitrary: fc.constantFrom(...INSTANT_POOL).map((ms) => new Date(ms)) });
      }
    }
  })();
  const wrong = WRONG_TYPE[type].filter(
    (v) =>
      !jsonOnly ||
      v === null ||
      typeof v === 'string' ||
      typeof v === 'boolean' ||
      (typeof v === 'number' && Number.isFinite(v)) ||
      (typeof v === 'object' && !(v instanceof Date)),
  );
  return fc.oneof(
    { weight: 8, arbitrary: good },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom(...wrong) },
  );
}

/** A sentinel meaning "leave the key out of the record". */
const OMIT = Symbol('omit');

function recordArbWith(jsonOnly: boolean): fc.Arbitrary<Record<string, unknown>> {
  const scalar = (type: ScalarType) =>
    fc.oneof(
      { weight: 6, arbitrary: fieldValueArb(type, jsonOnly) },
      { weight: 2, arbitrary: fc.constant(OMIT) },
      ...(jsonOnly ? [] : [{ weight: 1, arbitrary: fc.constant(undefined) }]),
    );
  const address = fc.oneof(
    { weight: 4, arbitrary: fc.record({ City: scalar('string') }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(OMIT, null, 'Boston', [{ City: 'a' }], {}) },
  );
  return fc
    .record({
      Name: scalar('string'),
      Nick: scalar('string'),
      constructor: scalar('string'),
      Age: scalar('integer'),
      Score: scalar('number'),
      Active: scalar('boolean'),
      BornOn: scalar('datetime'),
      SeenOn: scalar('datetime'),
      Address: address,
    })
    .map((raw) => {
      // Build with defineProperty semantics so `constructor` is an own data property.
      const record: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(raw)) {
        if (value === OMIT) continue;
        if (key === 'Address' && value !== null && typeof value === 'object' && !Array.isArray(value)) {
          const nested: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== OMIT) nested[k] = v;
          record[key] = nested;
        } else record[key] = value;
      }
      return record;
    });
}

/**
 * One record for `testSchema`. Fields may be omitted, `undefined`, `null`
 * or of the wrong type (all null by docs/reference.md §"Filter semantics"); datetimes are ISO strings in
 * any accepted form or `Date` objects.
 *
 * @example
 * fc.assert(fc.property(recordArb(), (r) => typeof r === 'object'));
 */
export function recordArb(): fc.Arbitrary<Record<string, unknown>> {
  return recordArbWith(false);
}

/**
 * Like `recordArb`, with JSON values only (no `Date`, `undefined`, NaN or
 * ±Infinity), for sinks that store JSON such as a database.
 *
 * @example
 * fc.sample(jsonRecordArb(), 1)[0];
 */
export function jsonRecordArb(): fc.Arbitrary<Record<string, unknown>> {
  return recordArbWith(true);
}

/**
 * Arrays of records, often with repeated records (equal sort keys).
 *
 * @example
 * fc.assert(fc.property(recordsArb({ maxLength: 20 }), (rs) => rs.length <= 20));
 */
export function recordsArb(
  options: { readonly maxLength?: number; readonly jsonOnly?: boolean } = {},
): fc.Arbitrary<Record<string, unknown>[]> {
  const one = options.jsonOnly === true ? jsonRecordArb() : recordArb();
  return fc
    .array(fc.oneof({ weight: 3, arbitrary: one.map((r) => [r]) }, { weight: 1, arbitrary: one.map((r) => [r, { ...r }]) }), {
      maxLength: options.maxLength ?? 30,
    })
    .map((groups) => groups.flat());
}

/** The fields of `testSchema`, resolved. */
export const TEST_FIELDS: readonly ResolvedField[] = testSchema.fields;

/** A typed value for a field of `type`, from the shared pools. */
export function typedValueArb(type: ScalarType): fc.Arbitrary<TypedScalar> {
  switch (type) {
    case 'string':
      return fc.oneof(
        { weight: 5, arbitrary: fc.constantFrom(...STRING_POOL) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 3 }) },
      );
    case 'number':
      return fc.oneof(fc.constantFrom(...NUMBER_POOL), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }));
    case 'integer':
      return fc.oneof(fc.constantFrom(...NUMBER_POOL.filter((n) => Number.isSafeInteger(n))), fc.integer({ min: -1000, max: 1000 }));
    case 'boolean':
      return fc.boolean();
    case 'datetime':
      return fc
        .oneof(
          { weight: 4, arbitrary: fc.constantFrom(...INSTANT_POOL) },
          { weight: 1, arbitrary: fc.integer({ min: Date.UTC(1960, 0, 1), max: Date.UTC(2060, 0, 1) }) },
        )
        .map((ms) => new Date(ms));
  }
}

/** The text a typed value is written as (for `source` nodes and `typedFilterText`). */
export function typedValueText(value: TypedScalar): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  return String(value);
}

function valueNode(value: TypedScalar): ValueNode {
  const text = typedValueText(value);
  return { kind: 'value', value: text, quoted: true, raw: `'${text.replaceAll("'", "''")}'`, span: NO_SPAN };
}

function fieldNode(field: ResolvedField): FieldNode {
  return { kind: 'field', path: field.path, name: field.name, span: NO_SPAN };
}

/** Does the table of docs/reference.md §"Operator applicability" let `operator` test a field of `type`? (Kept local: tests restate the rule.) */
function applies(operator: FilterOperator, type: ScalarType): boolean {
  const base = (IN_FIELDS_OPERATORS as readonly string[]).includes(operator)
    ? baseOperatorOfInFields(operator as (typeof IN_FIELDS_OPERATORS)[number])
    : operator;
  if (['LessThan', 'LessThanOrEqual', 'GreaterThan', 'GreaterThanOrEqual'].includes(base)) {
    return type === 'number' || type === 'integer' || type === 'datetime';
  }
  if (['Contains', 'StartsWith', 'EndsWith', 'NotContains', 'NotStartsWith', 'NotEndsWith'].includes(base)) return type === 'string';
  return true;
}

function conditionArb(fields: readonly ResolvedField[]): fc.Arbitrary<TypedFilterNode> {
  const fieldArb = fc.constantFrom(...fields);
  const comparison = fieldArb.chain((field) =>
    fc
      .record({
        operator: fc.constantFrom(...SINGLE_VALUE_OPERATORS.filter((op) => applies(op, field.type))),
        value: typedValueArb(field.type),
      })
      .map(({ operator, value }): TypedFilterNode => ({
        kind: 'comparison',
        operator,
        field,
        value,
        source: { kind: 'comparison', field: fieldNode(field), operator, operatorSpan: NO_SPAN, value: valueNode(value), span: NO_SPAN },
      })),
  );
  const nullCheck = fc
    .record({ field: fieldArb, operator: fc.constantFrom(...NO_VALUE_OPERATORS) })
    .map(({ field, operator }): TypedFilterNode => ({
      kind: 'null-check',
      operator,
      field,
      source: { kind: 'null-check', field: fieldNode(field), operator, operatorSpan: NO_SPAN, span: NO_SPAN },
    }));
  const list = fieldArb.chain((field) =>
    fc
      .record({ operator: fc.constantFrom(...LIST_OPERATORS), values: fc.array(typedValueArb(field.type), { minLength: 1, maxLength: 5 }) })
      .map(({ operator, values }): TypedFilterNode => ({
        kind: 'list',
        operator,
        field,
        values,
        source: { kind: 'list', field: fieldNode(field), operator, operatorSpan: NO_SPAN, values: values.map(valueNode), span: NO_SPAN },
      })),
  );
  // InFields: fields of one type family, so one head text reads as each field's type.
  const inFields = fc
    .constantFrom<ScalarType>('string', 'integer', 'number', 'datetime', 'boolean')
    .chain((type) => {
      const sameType = fields.filter((f) => f.type === type || (type === 'number' && f.type === 'integer'));
      const operators = IN_FIELDS_OPERATORS.filter((op) => applies(op, type));
      return fc.record({
        operator: fc.constantFrom(...operators),
        fields: fc.uniqueArray(fc.constantFrom(...sameType), { minLength: 1, maxLength: 3 }),
        value: typedValueArb(type === 'number' ? 'integer' : type),
      });
    })
    .map(({ operator, fields: chosen, value }): TypedFilterNode => ({
      kind: 'in-fields',
      operator,
      fields: chosen,
      values: chosen.map(() => value),
      source: { kind: 'in-fields', value: valueNode(value), operator, operatorSpan: NO_SPAN, fields: chosen.map(fieldNode), span: NO_SPAN },
    }));
  return fc.oneof(
    { weight: 4, arbitrary: comparison },
    { weight: 1, arbitrary: nullCheck },
    { weight: 2, arbitrary: list },
    { weight: 1, arbitrary: inFields },
  );
}

/** Options of `typedFilterArb`. */
export interface TypedFilterArbOptions {
  /** Fields to draw from (default: every field of `testSchema`). */
  readonly fields?: readonly ResolvedField[];
  /** Deepest group nesting (default 3). */
  readonly maxDepth?: number;
  /** Most clauses at top level and in a group (default 4). */
  readonly maxClauses?: number;
}

/**
 * A type-correct validated filter over `testSchema` (or the given fields),
 * with nested And/Or groups.
 *
 * @example
 * fc.assert(fc.property(typedFilterArb(), recordArb(), (f, r) => typeof compileFilter(f)(r) === 'boolean'));
 */
export function typedFilterArb(options: TypedFilterArbOptions = {}): fc.Arbitrary<TypedFilter> {
  const fields = options.fields ?? TEST_FIELDS;
  const maxClauses = options.maxClauses ?? 4;
  const { node } = fc.letrec<{ node: TypedFilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', maxDepth: options.maxDepth ?? 3, withCrossShrink: true },
      conditionArb(fields),
      fc
        .record({
          operator: fc.constantFrom('And' as const, 'Or' as const),
          children: fc.array(tie('node'), { minLength: 1, maxLength: maxClauses }),
        })
        .map(({ operator, children }): TypedFilterNode => ({
          kind: 'group',
          operator,
          children,
          source: { kind: 'group', operator, operatorSpan: NO_SPAN, children: children.map((c) => c.source as FilterNode), span: NO_SPAN },
        })),
    ),
  }));
  return fc.array(node, { maxLength: maxClauses }).map((clauses) => typedFilterOf(clauses));
}

/**
 * Wraps clauses in a `TypedFilter` with a matching source tree.
 *
 * @example
 * typedFilterOf([]); // the empty filter, which matches everything
 */
export function typedFilterOf(clauses: readonly TypedFilterNode[]): TypedFilter {
  const source: FilterAst = { kind: 'filter', clauses: clauses.map((c) => c.source as FilterNode), span: NO_SPAN };
  return { kind: 'typed-filter', clauses, source };
}

/**
 * A type-correct validated sort of one to four distinct keys.
 *
 * @example
 * fc.sample(typedSortArb(), 1)[0].keys.length >= 1; // true
 */
export function typedSortArb(
  options: { readonly fields?: readonly ResolvedField[]; readonly maxKeys?: number } = {},
): fc.Arbitrary<TypedSort> {
  const fields = options.fields ?? TEST_FIELDS;
  return fc
    .uniqueArray(fc.record({ field: fc.constantFrom(...fields), direction: fc.constantFrom<SortDirection>('Asc', 'Desc') }), {
      minLength: 1,
      maxLength: options.maxKeys ?? 4,
      selector: (k) => k.field.name,
    })
    .map((keys) => typedSortOf(keys));
}

/**
 * Builds a `TypedSort` (with its source tree) from fields and directions.
 *
 * @example
 * typedSortOf([{ field: testSchema.fields[0], direction: 'Desc' }]);
 */
export function typedSortOf(keys: readonly { readonly field: ResolvedField; readonly direction: SortDirection }[]): TypedSort {
  const items = keys.map(({ field, direction }) => ({
    kind: 'sort-item' as const,
    field: fieldNode(field),
    direction,
    explicitDirection: true,
    span: NO_SPAN,
  }));
  const source: SortAst = { kind: 'sort', items, span: NO_SPAN };
  return { kind: 'typed-sort', keys: keys.map((k, i) => ({ field: k.field, direction: k.direction, source: items[i]! })), source };
}

function nodeText(node: TypedFilterNode): string {
  const q = (v: TypedScalar): string => `'${typedValueText(v).replaceAll("'", "''")}'`;
  switch (node.kind) {
    case 'group':
      return `${node.operator}(${node.children.map(nodeText).join(';')})`;
    case 'comparison':
      return `${node.field.name}.${node.operator}(${q(node.value)})`;
    case 'null-check':
      return `${node.field.name}.${node.operator}()`;
    case 'list':
      return `${node.field.name}.${node.operator}(${node.values.map(q).join(',')})`;
    case 'in-fields':
      return `${q(node.values[0]!)}.${node.operator}(${node.fields.map((f) => f.name).join(',')})`;
  }
}

/**
 * Filter text that parses and validates (against `testSchema`) to the same
 * typed tree: every value quoted, numbers in JavaScript's shortest form,
 * datetimes as `toISOString()`.
 *
 * @example
 * typedFilterText(filter); // "Name.StartsWith('sm');Or(Age.LessThan('3');Active.IsNull())"
 */
export function typedFilterText(filter: TypedFilter): string {
  return filter.clauses.map(nodeText).join(';');
}

/**
 * Sort text for a typed sort.
 *
 * @example
 * typedSortText(sort); // 'Name=Asc;BornOn=Desc'
 */
export function typedSortText(sort: TypedSort): string {
  return sort.keys.map((k) => `${k.field.name}=${k.direction}`).join(';');
}

/**
 * The test schema after a release that renamed fields: each renamed field
 * under its new name, with `renamedFrom` the old one (own properties only:
 * the test schema has a field named `constructor`).
 *
 * @example
 * const next = renamedTestSchema({ Age: 'Years' }); // Years, renamedFrom Age
 */
export function renamedTestSchema(renames: Readonly<Record<string, string>>): Schema {
  const fields: Record<string, FieldDefinition> = {};
  for (const [name, def] of Object.entries(TEST_SCHEMA_DEFINITION.fields as Record<string, FieldDefinition>)) {
    const to = Object.hasOwn(renames, name) ? renames[name]! : undefined;
    Object.defineProperty(fields, to ?? name, {
      value: to === undefined ? def : { ...def, renamedFrom: name },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return defineSchema({ fields } as SchemaDefinition);
}
