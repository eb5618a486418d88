/**
 * The validated tree: the syntax tree with every field resolved against a
 * schema and every value converted to its field's type. The evaluator and
 * the SQL compiler consume only this tree, so they never re-read text.
 */
import type { ComparisonNode, FilterAst, GroupNode, InFieldsNode, ListNode, NullCheckNode, SortAst, SortItemNode } from './nodes.js';
import type { GroupOperator, InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator, SortDirection } from './operators.js';
import type { ResolvedField } from './fields.js';

/**
 * A value converted to its field's type: a string, a number (number and
 * integer fields), a boolean, or a `Date` (datetime fields, an instant at
 * millisecond precision).
 *
 * @example
 * const values: TypedScalar[] = ['smith', 42, true, new Date('2024-01-01T00:00:00Z')];
 */
export type TypedScalar = string | number | boolean | Date;

/**
 * A validated `Field.Op(value)`.
 *
 * @example
 * const c = analyzeFilterOrThrow('Salary.GreaterThan(1e3)', { schema }).clauses[0] as TypedComparison;
 * c.value; // 1000
 */
export interface TypedComparison {
  readonly kind: 'comparison';
  readonly operator: SingleValueOperator;
  readonly field: ResolvedField;
  readonly value: TypedScalar;
  readonly source: ComparisonNode;
}

/**
 * A validated `Field.IsNull()` / `Field.IsNotNull()`.
 *
 * @example
 * const n = analyzeFilterOrThrow('Gender.IsNull()', { schema }).clauses[0] as TypedNullCheck;
 * n.operator; // 'IsNull'
 */
export interface TypedNullCheck {
  readonly kind: 'null-check';
  readonly operator: NoValueOperator;
  readonly field: ResolvedField;
  readonly source: NullCheckNode;
}

/**
 * A validated list operator.
 *
 * @example
 * const l = analyzeFilterOrThrow('Gender.InArray(1,2)', { schema }).clauses[0] as TypedList;
 * l.values; // [1, 2]
 */
export interface TypedList {
  readonly kind: 'list';
  readonly operator: ListOperator;
  readonly field: ResolvedField;
  readonly values: readonly TypedScalar[];
  readonly source: ListNode;
}

/**
 * A validated `v.OpInFields(F1,…)`. The head value is converted once per
 * field, since each field's type decides how it reads: `values[i]` belongs
 * to `fields[i]`.
 *
 * @example
 * const f = analyzeFilterOrThrow('5.LessThanInFields(Salary,Gender)', { schema }).clauses[0] as TypedInFields;
 * f.fields.map((x) => x.name); // ['Salary', 'Gender']; f.values: [5, 5]
 */
export interface TypedInFields {
  readonly kind: 'in-fields';
  readonly operator: InFieldsOperator;
  readonly fields: readonly ResolvedField[];
  readonly values: readonly TypedScalar[];
  readonly source: InFieldsNode;
}

/**
 * A validated `And(…)` / `Or(…)`.
 *
 * @example
 * const g = analyzeFilterOrThrow('Or(Gender.Equal(1);Gender.IsNull())', { schema }).clauses[0] as TypedGroup;
 * g.children.length; // 2
 */
export interface TypedGroup {
  readonly kind: 'group';
  readonly operator: GroupOperator;
  readonly children: readonly TypedFilterNode[];
  readonly source: GroupNode;
}

/**
 * A validated clause.
 *
 * @example
 * const kinds = typed.clauses.map((node: TypedFilterNode) => node.kind); // ['comparison', 'group', …]
 */
export type TypedFilterNode = TypedGroup | TypedComparison | TypedNullCheck | TypedList | TypedInFields;

/**
 * A validated filter: its top-level clauses, ANDed.
 *
 * @example
 * const typed: TypedFilter = analyzeFilterOrThrow('LastName.StartsWith(Sm)', { schema: employeeSchema });
 * compileFilter(typed); // no schema needed: the tree is already typed
 */
export interface TypedFilter {
  readonly kind: 'typed-filter';
  readonly clauses: readonly TypedFilterNode[];
  readonly source: FilterAst;
}

/**
 * One effective sort key (duplicates already removed: the first wins).
 *
 * @example
 * const key: TypedSortKey = analyzeSortOrThrow('CreatedOn=Desc', { schema: employeeSchema }).keys[0]!;
 * key.field.type; // 'datetime'
 */
export interface TypedSortKey {
  readonly field: ResolvedField;
  readonly direction: SortDirection;
  readonly source: SortItemNode;
}

/**
 * A validated sort.
 *
 * @example
 * const typed: TypedSort = analyzeSortOrThrow('LastName=Asc;CreatedOn=Desc', { schema: employeeSchema });
 * sortRecords(employees, typed);
 */
export interface TypedSort {
  readonly kind: 'typed-sort';
  readonly keys: readonly TypedSortKey[];
  readonly source: SortAst;
}
