/**
 * The validated tree: the syntax tree with every field resolved against a
 * schema and every value converted to its field's type. The evaluator and
 * the SQL compiler consume only this tree, so they never re-read text.
 */
import type {
  ComparisonNode,
  FilterAst,
  GroupNode,
  InFieldsNode,
  ListNode,
  NullCheckNode,
  SortAst,
  SortItemNode,
} from '../ast/nodes.js';
import type {
  GroupOperator,
  InFieldsOperator,
  ListOperator,
  NoValueOperator,
  SingleValueOperator,
  SortDirection,
} from '../ast/operators.js';
import type { ResolvedField } from '../schema/schema.js';

/**
 * A value converted to its field's type: a string, a number (number and
 * integer fields), a boolean, or a `Date` (datetime fields, an instant at
 * millisecond precision).
 */
export type TypedScalar = string | number | boolean | Date;

/** A validated `Field.Op(value)`. */
export interface TypedComparison {
  readonly kind: 'comparison';
  readonly operator: SingleValueOperator;
  readonly field: ResolvedField;
  readonly value: TypedScalar;
  readonly source: ComparisonNode;
}

/** A validated `Field.IsNull()` / `Field.IsNotNull()`. */
export interface TypedNullCheck {
  readonly kind: 'null-check';
  readonly operator: NoValueOperator;
  readonly field: ResolvedField;
  readonly source: NullCheckNode;
}

/** A validated list operator. */
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
 */
export interface TypedInFields {
  readonly kind: 'in-fields';
  readonly operator: InFieldsOperator;
  readonly fields: readonly ResolvedField[];
  readonly values: readonly TypedScalar[];
  readonly source: InFieldsNode;
}

/** A validated `And(…)` / `Or(…)`. */
export interface TypedGroup {
  readonly kind: 'group';
  readonly operator: GroupOperator;
  readonly children: readonly TypedFilterNode[];
  readonly source: GroupNode;
}

/** A validated clause. */
export type TypedFilterNode = TypedGroup | TypedComparison | TypedNullCheck | TypedList | TypedInFields;

/** A validated filter: its top-level clauses, ANDed. */
export interface TypedFilter {
  readonly kind: 'typed-filter';
  readonly clauses: readonly TypedFilterNode[];
  readonly source: FilterAst;
}

/** One effective sort key (duplicates already removed: the first wins). */
export interface TypedSortKey {
  readonly field: ResolvedField;
  readonly direction: SortDirection;
  readonly source: SortItemNode;
}

/** A validated sort. */
export interface TypedSort {
  readonly kind: 'typed-sort';
  readonly keys: readonly TypedSortKey[];
  readonly source: SortAst;
}
