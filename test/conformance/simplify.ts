/**
 * The corpus's language-neutral tree form (grammar/README.md): positions
 * dropped, a bare value as a JSON string, a quoted value as { "quoted": text }.
 */
import type { FieldNode, FilterAst, FilterNode, SortAst, ValueNode } from '../../src/index.js';

export type SimpleValue = string | { readonly quoted: string };
export type SimpleClause =
  | { readonly op: string; readonly children: readonly SimpleClause[] }
  | { readonly op: string; readonly field: string; readonly value: SimpleValue }
  | { readonly op: string; readonly field: string }
  | { readonly op: string; readonly field: string; readonly values: readonly SimpleValue[] }
  | { readonly op: string; readonly value: SimpleValue; readonly fields: readonly string[] };
export interface SimpleSortItem {
  readonly field: string;
  readonly direction: string;
  readonly explicit: boolean;
}

export function simpleValue(v: ValueNode): SimpleValue {
  return v.quoted ? { quoted: v.value } : v.value;
}

function fieldName(f: FieldNode): string {
  return f.path.join('.');
}

export function simpleClause(node: FilterNode): SimpleClause {
  switch (node.kind) {
    case 'group':
      return { op: node.operator, children: node.children.map(simpleClause) };
    case 'comparison':
      return { op: node.operator, field: fieldName(node.field), value: simpleValue(node.value) };
    case 'null-check':
      return { op: node.operator, field: fieldName(node.field) };
    case 'list':
      return { op: node.operator, field: fieldName(node.field), values: node.values.map(simpleValue) };
    case 'in-fields':
      return { op: node.operator, value: simpleValue(node.value), fields: node.fields.map(fieldName) };
  }
}

export function simplifyFilter(ast: FilterAst): SimpleClause[] {
  return ast.clauses.map(simpleClause);
}

export function simplifySort(ast: SortAst): SimpleSortItem[] {
  return ast.items.map((i) => ({ field: fieldName(i.field), direction: i.direction, explicit: i.explicitDirection }));
}
