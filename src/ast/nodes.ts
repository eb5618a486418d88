/**
 * The syntax tree of filters and sorts. Nodes are plain readonly objects
 * tagged by `kind`; every node carries the source range it was parsed from
 * (UTF-16 offsets, `end` exclusive). Trees built by code rather than parsed
 * (the builder, tests) use `{ start: 0, end: 0 }`.
 *
 * Nothing here depends on any other module of wepql.
 */
import type { GroupOperator, InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator, SortDirection } from './operators.js';

/**
 * A half-open range of UTF-16 offsets into the source text.
 *
 * @example
 * const span: Span = parseFilter('A.Equal(1)').ast.clauses[0]!.span;
 * // { start: 0, end: 10 }
 */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * A literal value. Values are lexically untyped (docs/reference.md §"Types and values"):
 * the field's type
 * decides how `value` is read.
 *
 * @example
 * const value = (parseFilter("A.Equal('O''Brien')").ast.clauses[0] as ComparisonNode).value;
 * // { kind: 'value', value: "O'Brien", quoted: true, raw: "'O''Brien'", span: { start: 8, end: 18 } }
 */
export interface ValueNode {
  readonly kind: 'value';
  /** The value itself: quotes removed, `''` unescaped, bare values trimmed. */
  readonly value: string;
  /** Whether the source wrote it in single quotes. */
  readonly quoted: boolean;
  /** The exact source text, quotes included (equal to `value` for a bare value). */
  readonly raw: string;
  readonly span: Span;
}

/**
 * A field path such as `Address.Zip`.
 *
 * @example
 * const field = (parseFilter('Address.Zip.Equal(1)').ast.clauses[0] as ComparisonNode).field;
 * // { kind: 'field', path: ['Address', 'Zip'], name: 'Address.Zip', span: { start: 0, end: 11 } }
 */
export interface FieldNode {
  readonly kind: 'field';
  /** The path segments as written: `['Address', 'Zip']`. */
  readonly path: readonly string[];
  /** The segments joined with `.`. */
  readonly name: string;
  readonly span: Span;
}

/**
 * `Field.Op(value)` for the twelve single-value operators.
 *
 * @example
 * const node = parseFilter('Age.GreaterThan(30)').ast.clauses[0] as ComparisonNode;
 * node.operator;     // 'GreaterThan'
 * node.value.value;  // '30'
 */
export interface ComparisonNode {
  readonly kind: 'comparison';
  readonly field: FieldNode;
  readonly operator: SingleValueOperator;
  readonly operatorSpan: Span;
  readonly value: ValueNode;
  readonly span: Span;
}

/**
 * `Field.IsNull()` / `Field.IsNotNull()`.
 *
 * @example
 * const node = parseFilter('Gender.IsNull()').ast.clauses[0] as NullCheckNode;
 * node.kind;     // 'null-check'
 * node.operator; // 'IsNull'
 */
export interface NullCheckNode {
  readonly kind: 'null-check';
  readonly field: FieldNode;
  readonly operator: NoValueOperator;
  readonly operatorSpan: Span;
  readonly span: Span;
}

/**
 * `Field.InArray(v1,v2,…)` and the other list operators.
 *
 * @example
 * const node = parseFilter('Gender.InArray(1,2)').ast.clauses[0] as ListNode;
 * node.values.map((v) => v.value); // ['1', '2']
 */
export interface ListNode {
  readonly kind: 'list';
  readonly field: FieldNode;
  readonly operator: ListOperator;
  readonly operatorSpan: Span;
  /** One or more values. */
  readonly values: readonly ValueNode[];
  readonly span: Span;
}

/**
 * `value.OpInFields(F1,F2,…)`.
 *
 * @example
 * const node = parseFilter("'D'.StartsWithInFields(FirstName,LastName)").ast.clauses[0] as InFieldsNode;
 * node.value.value;                 // 'D'
 * node.fields.map((f) => f.name);   // ['FirstName', 'LastName']
 */
export interface InFieldsNode {
  readonly kind: 'in-fields';
  readonly value: ValueNode;
  readonly operator: InFieldsOperator;
  readonly operatorSpan: Span;
  /** One or more fields. */
  readonly fields: readonly FieldNode[];
  readonly span: Span;
}

/**
 * `And(…)` / `Or(…)`.
 *
 * @example
 * const node = parseFilter('Or(A.Equal(1);B.Equal(2))').ast.clauses[0] as GroupNode;
 * node.operator;        // 'Or'
 * node.children.length; // 2
 */
export interface GroupNode {
  readonly kind: 'group';
  readonly operator: GroupOperator;
  readonly operatorSpan: Span;
  /** One or more children (an empty group is an error and is not built). */
  readonly children: readonly FilterNode[];
  readonly span: Span;
}

/**
 * A condition: anything that tests fields of one record.
 *
 * @example
 * const isCondition = (node: FilterNode): node is ConditionNode => node.kind !== 'group';
 */
export type ConditionNode = ComparisonNode | NullCheckNode | ListNode | InFieldsNode;

/**
 * A clause of a filter or of a group.
 *
 * @example
 * function countConditions(node: FilterNode): number {
 *   return node.kind === 'group' ? node.children.reduce((n, c) => n + countConditions(c), 0) : 1;
 * }
 */
export type FilterNode = GroupNode | ConditionNode;

/**
 * A whole filter: its top-level clauses, ANDed (docs/reference.md §"Filter grammar"). An
 * empty filter
 * has no clauses and matches every record.
 *
 * @example
 * const ast: FilterAst = parseFilter('A.Equal(1);B.IsNull()').ast;
 * ast.clauses.length; // 2
 */
export interface FilterAst {
  readonly kind: 'filter';
  readonly clauses: readonly FilterNode[];
  readonly span: Span;
}

/**
 * One `Field=Asc` item of a sort.
 *
 * @example
 * const item = parseSort('LastName').ast.items[0]!;
 * item.direction;         // 'Asc'
 * item.explicitDirection; // false
 */
export interface SortItemNode {
  readonly kind: 'sort-item';
  readonly field: FieldNode;
  readonly direction: SortDirection;
  /** False when the source omitted `=Asc`/`=Desc` (docs/reference.md §"Sort grammar": implicit `Asc`). */
  readonly explicitDirection: boolean;
  readonly span: Span;
}

/**
 * A whole sort: keys in priority order.
 *
 * @example
 * const ast: SortAst = parseSort('LastName=Asc;CreatedOn=Desc').ast;
 * ast.items.map((i) => `${i.field.name} ${i.direction}`); // ['LastName Asc', 'CreatedOn Desc']
 */
export interface SortAst {
  readonly kind: 'sort';
  readonly items: readonly SortItemNode[];
  readonly span: Span;
}

/**
 * Any node of either tree.
 *
 * @example
 * const spanOf = (node: Node): Span => node.span;
 */
export type Node = FilterAst | FilterNode | ValueNode | FieldNode | SortAst | SortItemNode;

/**
 * The span used for nodes built by code rather than parsed from text.
 *
 * @example
 * const value: ValueNode = { kind: 'value', value: '1', quoted: false, raw: '1', span: NO_SPAN };
 */
export const NO_SPAN: Span = Object.freeze({ start: 0, end: 0 });
