/**
 * The syntax corpus's language-neutral tree form (grammar/README.md
 * §"Simplified tree"): positions dropped, a bare value as a JSON string, a
 * quoted value as `{ "quoted": text }`, fields as dotted paths.
 */
import { foldFilter } from '../ast/fold.js';
import type { FieldNode, FilterAst, FilterNode, SortAst, ValueNode } from '../ast/nodes.js';

/** A value of the simplified tree: bare text, or `{ quoted }`. */
export type SimpleValue = string | { readonly quoted: string };

/** A clause of the simplified tree. */
export type SimpleClause =
  | { readonly op: string; readonly children: readonly SimpleClause[] }
  | { readonly op: string; readonly field: string; readonly value: SimpleValue }
  | { readonly op: string; readonly field: string }
  | { readonly op: string; readonly field: string; readonly values: readonly SimpleValue[] }
  | { readonly op: string; readonly value: SimpleValue; readonly fields: readonly string[] };

/** A sort item of the simplified tree. */
export interface SimpleSortItem {
  readonly field: string;
  readonly direction: string;
  readonly explicit: boolean;
}

/**
 * A value node in the simplified form.
 *
 * @example
 * simpleValue(node); // 'Smith' or { quoted: "O'Brien" }
 */
export function simpleValue(v: ValueNode): SimpleValue {
  return v.quoted ? { quoted: v.value } : v.value;
}

const fieldName = (f: FieldNode): string => f.path.join('.');

/**
 * One clause (and everything under it) in the simplified form.
 *
 * @example
 * simpleClause(parseFilter('A.IsNull()').ast.clauses[0]); // { op: 'IsNull', field: 'A' }
 */
export function simpleClause(node: FilterNode): SimpleClause {
  return foldFilter<FilterNode, SimpleClause>(node, {
    group: (g, children) => ({ op: g.operator, children }),
    comparison: (c) => ({ op: c.operator, field: fieldName(c.field), value: simpleValue(c.value) }),
    'null-check': (n) => ({ op: n.operator, field: fieldName(n.field) }),
    list: (l) => ({ op: l.operator, field: fieldName(l.field), values: l.values.map(simpleValue) }),
    'in-fields': (f) => ({ op: f.operator, value: simpleValue(f.value), fields: f.fields.map(fieldName) }),
  });
}

/**
 * A filter's top-level clauses in the simplified form.
 *
 * @example
 * simplifyFilter(parseFilter('A.Equal(1)').ast); // [{ op: 'Equal', field: 'A', value: '1' }]
 */
export function simplifyFilter(ast: FilterAst): SimpleClause[] {
  return ast.clauses.map(simpleClause);
}

/**
 * A sort's items in the simplified form.
 *
 * @example
 * simplifySort(parseSort('A').ast); // [{ field: 'A', direction: 'Asc', explicit: false }]
 */
export function simplifySort(ast: SortAst): SimpleSortItem[] {
  return ast.items.map((i) => ({ field: fieldName(i.field), direction: i.direction, explicit: i.explicitDirection }));
}
