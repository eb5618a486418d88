/**
 * wepql operators under react-querybuilder's names, and the `fields` /
 * `operators` configuration of its `<QueryBuilder>` generated from a wepql
 * schema. Which operator applies to which field type comes from the
 * operator table through `operatorsForType`; this module only names them
 * the way react-querybuilder does, so its `formatQuery` exports (SQL,
 * JsonLogic, …) understand the rules wepql produces.
 */
import type { Field, FullOperator } from '@react-querybuilder/core';
import type { FilterOperator, InFieldsOperator, ScalarType } from '../ast/operators.js';
import { OPERATORS, canonicalOperator } from '../ast/operators.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { operatorsForType } from '../validate/applicability.js';

/**
 * The operators a react-querybuilder rule can hold: every wepql operator
 * but the InFields ones (which become an `or` group of rules, one per field).
 *
 * @example
 * const op: RuleOperator = 'NotInArrayOrNull';
 */
export type RuleOperator = Exclude<FilterOperator, InFieldsOperator>;

/**
 * react-querybuilder's name for each wepql rule operator. Sixteen are its
 * default operators; `InArrayOrNull` and `NotInArrayOrNull` have no
 * counterpart there and keep names of their own (`inOrNull`, `notInOrNull`),
 * which `formatQuery` does not export.
 *
 * @example
 * QUERY_BUILDER_OPERATOR_NAMES.StartsWith; // 'beginsWith'
 */
export const QUERY_BUILDER_OPERATOR_NAMES: Readonly<Record<RuleOperator, string>> = Object.freeze({
  Equal: '=',
  NotEqual: '!=',
  LessThan: '<',
  LessThanOrEqual: '<=',
  GreaterThan: '>',
  GreaterThanOrEqual: '>=',
  Contains: 'contains',
  StartsWith: 'beginsWith',
  EndsWith: 'endsWith',
  NotContains: 'doesNotContain',
  NotStartsWith: 'doesNotBeginWith',
  NotEndsWith: 'doesNotEndWith',
  IsNull: 'null',
  IsNotNull: 'notNull',
  InArray: 'in',
  NotInArray: 'notIn',
  InArrayOrNull: 'inOrNull',
  NotInArrayOrNull: 'notInOrNull',
});

const LIST_NAMES: ReadonlySet<string> = new Set(
  (Object.keys(QUERY_BUILDER_OPERATOR_NAMES) as RuleOperator[])
    .filter((op) => OPERATORS[op].arity === 'list')
    .map((op) => QUERY_BUILDER_OPERATOR_NAMES[op]),
);

const OPERATOR_BY_QB_NAME: ReadonlyMap<string, RuleOperator> = new Map(
  (Object.keys(QUERY_BUILDER_OPERATOR_NAMES) as RuleOperator[]).map((op) => [QUERY_BUILDER_OPERATOR_NAMES[op], op] as const),
);

/**
 * The wepql operator a rule's operator name stands for: react-querybuilder's
 * name (`beginsWith`), or a wepql name in any case (`StartsWith`,
 * `startswith`); `between` and `notBetween` are answered by the caller.
 *
 * @example
 * ruleOperator('beginsWith'); // 'StartsWith'
 * ruleOperator('notinarray'); // 'NotInArray'
 * ruleOperator('between');    // undefined
 */
export function ruleOperator(name: unknown): RuleOperator | undefined {
  if (typeof name !== 'string') return undefined;
  const byQb = OPERATOR_BY_QB_NAME.get(name);
  if (byQb !== undefined) return byQb;
  const op = canonicalOperator(name);
  return op === undefined || OPERATORS[op].arity === 'in-fields' ? undefined : (op as RuleOperator);
}

/**
 * One entry of the generated `operators` configuration.
 *
 * @example
 * const op: QueryBuilderOperator = { name: 'beginsWith', value: 'beginsWith', label: 'StartsWith', arity: 'binary' };
 */
export type QueryBuilderOperator = FullOperator<string>;

/**
 * One entry of the generated `fields` configuration.
 *
 * @example
 * const field: QueryBuilderField = queryBuilderFields(employeeSchema)[0]!;
 */
export type QueryBuilderField = Field<string, string, string> & {
  readonly name: string;
  readonly label: string;
  readonly operators: QueryBuilderOperator[];
  /** The wepql type of the field. */
  readonly datatype: ScalarType;
};

function operatorEntry(op: RuleOperator): QueryBuilderOperator {
  const name = QUERY_BUILDER_OPERATOR_NAMES[op];
  const arity = OPERATORS[op].arity;
  return { name, value: name, label: op, arity: arity === 'no-value' ? 'unary' : 'binary' };
}

/**
 * The rule operators that apply to a field type, in the operator table's
 * order, as react-querybuilder operator options (label: the wepql name).
 *
 * @example
 * queryBuilderOperatorsFor('boolean').map((o) => o.label);
 * // ['Equal', 'NotEqual', 'IsNull', 'IsNotNull', 'InArray', 'InArrayOrNull', 'NotInArray', 'NotInArrayOrNull']
 */
export function queryBuilderOperatorsFor(type: ScalarType): QueryBuilderOperator[] {
  return operatorsForType(type)
    .filter((op): op is RuleOperator => OPERATORS[op].arity !== 'in-fields')
    .map(operatorEntry);
}

/**
 * The browser input a value of a field type is typed into (one value; a
 * list is always comma-separated text): a number input for numbers,
 * `datetime-local` for datetimes, text otherwise.
 *
 * @example
 * inputTypeFor('integer'); // 'number'
 */
export function inputTypeFor(type: ScalarType): 'number' | 'datetime-local' | 'text' {
  return type === 'number' || type === 'integer' ? 'number' : type === 'datetime' ? 'datetime-local' : 'text';
}

// The value editor per field type: booleans get a checkbox (a list of them is text), the rest a text input whose type getInputType picks.
function editorOf(type: ScalarType): Pick<QueryBuilderField, 'valueEditorType' | 'defaultValue'> {
  if (type === 'boolean')
    return { valueEditorType: (operator: string) => (LIST_NAMES.has(operator) ? 'text' : 'checkbox'), defaultValue: false };
  return { valueEditorType: 'text' };
}

function fieldEntry(field: ResolvedField): QueryBuilderField {
  const entry: QueryBuilderField = {
    name: field.name,
    value: field.name,
    label: field.name,
    datatype: field.type,
    operators: queryBuilderOperatorsFor(field.type),
    defaultOperator: QUERY_BUILDER_OPERATOR_NAMES.Equal,
    ...editorOf(field.type),
  };
  return field.description === undefined ? entry : { ...entry, placeholder: field.description };
}

/**
 * react-querybuilder's `fields` for a schema: every filterable field, with
 * only the operators that apply to its type and a value editor for it (a
 * checkbox for booleans, text otherwise; `queryBuilderConfig`'s
 * `getInputType` makes it a number or `datetime-local` input by type).
 *
 * @example
 * <QueryBuilder fields={queryBuilderFields(employeeSchema)} listsAsArrays />
 */
export function queryBuilderFields(schema: Schema): QueryBuilderField[] {
  return schema.fields.filter((f) => f.filterable).map(fieldEntry);
}

/**
 * react-querybuilder's `operators`: every rule operator under its
 * react-querybuilder name, labelled with the wepql name. Per-field lists
 * (`queryBuilderFields`) narrow this to what applies.
 *
 * @example
 * queryBuilderOperators().length; // 18
 */
export function queryBuilderOperators(): QueryBuilderOperator[] {
  return (Object.keys(QUERY_BUILDER_OPERATOR_NAMES) as RuleOperator[]).map(operatorEntry);
}

/**
 * What `queryBuilderConfig` returns: props of `<QueryBuilder>`.
 *
 * @example
 * const { fields, operators, combinators, getInputType }: QueryBuilderConfig = queryBuilderConfig(employeeSchema);
 */
export interface QueryBuilderConfig {
  /** The filterable fields with their operators and value editors. */
  fields: QueryBuilderField[];
  /** Every rule operator (react-querybuilder's names, wepql's labels). */
  operators: QueryBuilderOperator[];
  /** `and` and `or`. */
  combinators: { name: string; value: string; label: string }[];
  /** The input a value is typed into: by the field's type for one value, text for a list. */
  getInputType: (field: string, operator: string, meta: { fieldData: { datatype?: unknown } }) => string;
}

/**
 * The whole configuration to spread into `<QueryBuilder>`: `fields`,
 * `operators`, the `and`/`or` combinators (wepql has no `xor`) and
 * `getInputType` (lists are typed as comma-separated text).
 *
 * @example
 * <QueryBuilder {...queryBuilderConfig(employeeSchema)} query={query} onQueryChange={setQuery} listsAsArrays />
 */
export function queryBuilderConfig(schema: Schema): QueryBuilderConfig {
  return {
    fields: queryBuilderFields(schema),
    operators: queryBuilderOperators(),
    // A list is typed as comma-separated text, whatever the field's own input.
    getInputType: (_field, operator, { fieldData }) =>
      LIST_NAMES.has(operator) || typeof fieldData.datatype !== 'string' ? 'text' : inputTypeFor(fieldData.datatype as ScalarType),
    combinators: [
      { name: 'and', value: 'and', label: 'And' },
      { name: 'or', value: 'or', label: 'Or' },
    ],
  };
}
