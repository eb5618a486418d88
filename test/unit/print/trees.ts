/**
 * Tiny tree constructors for printer tests that must not depend on the
 * parser: every node gets `NO_SPAN`, values are written as given.
 */
import type { FieldNode, FilterAst, FilterNode, SortAst, SortDirection, ValueNode } from '../../../src/index.js';
import type { GroupOperator, InFieldsOperator, ListOperator, NoValueOperator, SingleValueOperator } from '../../../src/ast/operators.js';
import { NO_SPAN } from '../../../src/index.js';

export function value(text: string): ValueNode {
  return { kind: 'value', value: text, quoted: false, raw: text, span: NO_SPAN };
}

export function field(name: string): FieldNode {
  return { kind: 'field', path: name.split('.'), name, span: NO_SPAN };
}

export function cmp(name: string, operator: SingleValueOperator, text: string): FilterNode {
  return { kind: 'comparison', field: field(name), operator, operatorSpan: NO_SPAN, value: value(text), span: NO_SPAN };
}

export function isNull(name: string, operator: NoValueOperator = 'IsNull'): FilterNode {
  return { kind: 'null-check', field: field(name), operator, operatorSpan: NO_SPAN, span: NO_SPAN };
}

export function list(name: string, operator: ListOperator, texts: readonly string[]): FilterNode {
  return { kind: 'list', field: field(name), operator, operatorSpan: NO_SPAN, values: texts.map(value), span: NO_SPAN };
}

export function inFields(text: string, operator: InFieldsOperator, names: readonly string[]): FilterNode {
  return { kind: 'in-fields', value: value(text), operator, operatorSpan: NO_SPAN, fields: names.map(field), span: NO_SPAN };
}

export function group(operator: GroupOperator, children: readonly FilterNode[]): FilterNode {
  return { kind: 'group', operator, operatorSpan: NO_SPAN, children, span: NO_SPAN };
}

export function filter(...clauses: FilterNode[]): FilterAst {
  return { kind: 'filter', clauses, span: NO_SPAN };
}

export function sort(...items: Array<[string, SortDirection, boolean?]>): SortAst {
  return {
    kind: 'sort',
    items: items.map(([name, direction, explicit]) => ({
      kind: 'sort-item',
      field: field(name),
      direction,
      explicitDirection: explicit ?? true,
      span: NO_SPAN,
    })),
    span: NO_SPAN,
  };
}

/** `depth` groups nested inside each other around one condition. */
export function nested(depth: number): FilterAst {
  let node: FilterNode = cmp('A', 'Equal', '1');
  for (let i = 0; i < depth; i++) node = group(i % 2 === 0 ? 'And' : 'Or', [node]);
  return filter(node);
}
