/**
 * The one walk over filter trees, for the syntax tree (`nodes.ts`) and the
 * validated tree (`typed-tree.ts`) alike. A stage states what it does with
 * each kind of node in a `Record` keyed by kind, so a new node kind fails to
 * compile until every stage handles it, instead of falling through a
 * `default:` or a hand-written `if` chain.
 *
 * - `foldFilter` folds bottom-up: a group's handler gets its children's
 *   results. It walks with its own stack, so a tree as deep as the parser's
 *   nesting limit allows (docs/reference.md §"Limits") never exhausts the
 *   call stack.
 * - `matchFilterNode` dispatches on one node, for walks that pass context
 *   down (a negation, a path) and decide themselves whether to descend;
 *   `matchFilterNodeWith` does the same with a module-level table and a
 *   context argument, for hot walks (validation).
 * - `conditionsOf` flattens groups and InFields into the field conditions
 *   in text order, for stages that ask "which fields are tested, and how".
 */
import type { FieldNode, FilterNode } from './nodes.js';
import type { ResolvedField } from './fields.js';
import type { FilterOperator } from './operators.js';
import { baseOperatorOfInFields } from './operators.js';
import type { TypedFilterNode } from './typed-tree.js';

/**
 * A node of either filter tree: the syntax tree or the validated tree.
 *
 * @example
 * const node: FilterTreeNode = parseFilter('Gender.IsNull()').ast!.clauses[0]!;
 */
export type FilterTreeNode = FilterNode | TypedFilterNode;

/**
 * The node of kind `K` in the tree `N` belongs to.
 *
 * @example
 * type G = NodeOfKind<TypedFilterNode, 'group'>; // TypedGroup
 */
export type NodeOfKind<N extends FilterTreeNode, K extends N['kind']> = Extract<N, { readonly kind: K }>;

/**
 * What `foldFilter` does with each kind of node: a group gets its
 * children's results, in order; every other kind is a leaf.
 *
 * @example
 * const count: FoldHandlers<FilterNode, number> = {
 *   group: (_node, children) => children.reduce((a, b) => a + b, 0),
 *   comparison: () => 1, 'null-check': () => 1, list: () => 1, 'in-fields': () => 1,
 * };
 */
export type FoldHandlers<N extends FilterTreeNode, R> = {
  readonly [K in N['kind']]: K extends 'group' ? (node: NodeOfKind<N, K>, children: readonly R[]) => R : (node: NodeOfKind<N, K>) => R;
};

/**
 * What `matchFilterNode` does with each kind of node.
 *
 * @example
 * const describe: MatchHandlers<FilterNode, string> = {
 *   group: (g) => g.operator, comparison: (c) => c.operator, 'null-check': (n) => n.operator, list: (l) => l.operator, 'in-fields': (f) => f.operator,
 * };
 */
export type MatchHandlers<N extends FilterTreeNode, R> = {
  readonly [K in N['kind']]: (node: NodeOfKind<N, K>) => R;
};

/**
 * Calls the handler of the node's kind.
 *
 * @example
 * matchFilterNode(node, { group: () => 'group', comparison: () => 'leaf', 'null-check': () => 'leaf', list: () => 'leaf', 'in-fields': () => 'leaf' });
 */
export function matchFilterNode<N extends FilterTreeNode, R>(node: N, handlers: MatchHandlers<N, R>): R {
  const handler = (handlers as unknown as Readonly<Record<string, (node: N) => R>>)[node.kind];
  if (handler === undefined) return assertNever(node as never, 'matchFilterNode');
  return handler(node);
}

/**
 * What `matchFilterNodeWith` does with each kind of node, given the caller's context.
 *
 * @example
 * const depthOf: MatchWithHandlers<FilterNode, number, number> = {
 *   group: (_g, depth) => depth + 1, comparison: (_c, depth) => depth, 'null-check': (_n, depth) => depth, list: (_l, depth) => depth, 'in-fields': (_f, depth) => depth,
 * };
 */
export type MatchWithHandlers<N extends FilterTreeNode, C, R> = {
  readonly [K in N['kind']]: (node: NodeOfKind<N, K>, context: C) => R;
};

/**
 * Calls the handler of the node's kind with `context`, or `outside` for a
 * node whose kind is none of the tree's (a tree built by code from untrusted
 * data). For hot walks (validation): the handlers are a table made once at
 * module level and the context is passed, not captured, so no closure is
 * made per walk; the dispatch is a switch on the kind calling each handler
 * by name, which V8 compiles to pointer comparisons and a monomorphic call,
 * where a lookup keyed by the kind goes megamorphic (measured 10-20 % slower
 * per node in validation).
 *
 * @example
 * matchFilterNodeWith(node, DEPTH_HANDLERS, 0, () => -1);
 */
export function matchFilterNodeWith<N extends FilterTreeNode, C, R>(
  node: N,
  handlers: MatchWithHandlers<N, C, R>,
  context: C,
  outside: (node: N, context: C) => R,
): R {
  // One table type for both trees: their kinds are the same five names.
  const table = handlers as unknown as MatchWithHandlers<FilterNode, C, R>;
  const known = node as FilterTreeNode;
  switch (known.kind) {
    case 'group':
      return table.group(node as never, context);
    case 'comparison':
      return table.comparison(node as never, context);
    case 'null-check':
      return table['null-check'](node as never, context);
    case 'list':
      return table.list(node as never, context);
    case 'in-fields':
      return table['in-fields'](node as never, context);
    default: {
      // A new node kind is a compile error here until it has a case.
      const unhandled: never = known;
      return outside(unhandled as N, context);
    }
  }
}

interface Frame<N, R> {
  readonly node: N;
  readonly results: R[];
  next: number;
}

/**
 * Folds a filter node bottom-up: leaves by their handlers, a group by its
 * handler given its children's results in order.
 *
 * @example
 * const depth = foldFilter<FilterNode, number>(node, {
 *   group: (_g, children) => 1 + Math.max(0, ...children),
 *   comparison: () => 1, 'null-check': () => 1, list: () => 1, 'in-fields': () => 1,
 * });
 */
export function foldFilter<N extends FilterTreeNode, R>(node: N, handlers: FoldHandlers<N, R>): R {
  const table = handlers as unknown as Readonly<Record<string, (node: N, children?: readonly R[]) => R>>;
  const leaf = (n: N): R => {
    const handler = table[n.kind];
    if (handler === undefined) return assertNever(n as never, 'foldFilter');
    return handler(n);
  };
  if (node.kind !== 'group') return leaf(node);
  const stack: Frame<N, R>[] = [{ node, results: [], next: 0 }];
  let done: R | undefined;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const children = (frame.node as NodeOfKind<N, 'group'>).children as readonly N[];
    if (frame.next < children.length) {
      const child = children[frame.next++]!;
      if (child.kind === 'group') stack.push({ node: child, results: [], next: 0 });
      else frame.results.push(leaf(child));
      continue;
    }
    stack.pop();
    const result = table['group']!(frame.node, frame.results);
    if (stack.length > 0) stack[stack.length - 1]!.results.push(result);
    else done = result;
  }
  return done as R;
}

/**
 * Folds each top-level clause of a filter (its clauses are ANDed).
 *
 * @example
 * const perClause = foldClauses(parseFilter('A.IsNull();Or(B.IsNull())').ast!.clauses, handlers);
 */
export function foldClauses<N extends FilterTreeNode, R>(clauses: readonly N[], handlers: FoldHandlers<N, R>): R[] {
  return clauses.map((clause) => foldFilter(clause, handlers));
}

/**
 * The field of a condition in tree `N`: a `FieldNode` in the syntax tree, a
 * `ResolvedField` in the validated tree.
 *
 * @example
 * type F = FieldOf<TypedFilterNode>; // ResolvedField
 */
export type FieldOf<N extends FilterTreeNode> = N extends TypedFilterNode ? ResolvedField : FieldNode;

/**
 * One field tested by a condition: a plain condition gives one, an InFields
 * condition one per field (docs/reference.md §"Filter semantics": `v.OpInFields(F1,F2)`
 * is `F1.Op(v)` or `F2.Op(v)`).
 *
 * @example
 * conditionsOf(parseFilter('5.LessThanInFields(A,B)').ast!.clauses).map((c) => [c.field.name, c.base]);
 * // [['A', 'LessThan'], ['B', 'LessThan']]
 */
export interface FieldCondition<N extends FilterTreeNode> {
  /** The condition node the field is tested by. */
  readonly node: Exclude<N, { readonly kind: 'group' }>;
  /** The field tested. */
  readonly field: FieldOf<N>;
  /** The field's position in an InFields list (0 for other conditions). */
  readonly fieldIndex: number;
  /** The operator as written. */
  readonly operator: FilterOperator;
  /** The operator applied to this field: an InFields operator's base operator, else the operator. */
  readonly base: FilterOperator;
}

/**
 * Every field condition under the given nodes, groups and InFields
 * flattened, in text order.
 *
 * @example
 * conditionsOf(parseFilter('Or(A.Equal(1);B.IsNull())').ast!.clauses).map((c) => c.field.name); // ['A', 'B']
 */
export function conditionsOf<N extends FilterTreeNode>(nodes: readonly N[]): FieldCondition<N>[] {
  const out: FieldCondition<N>[] = [];
  const stack: N[] = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.kind === 'group') {
      const children = (node as NodeOfKind<N, 'group'>).children as readonly N[];
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
      continue;
    }
    const condition = node as Exclude<N, { readonly kind: 'group' }>;
    if (condition.kind === 'in-fields') {
      const base = baseOperatorOfInFields(condition.operator);
      condition.fields.forEach((field, fieldIndex) => {
        out.push({ node: condition, field: field as FieldOf<N>, fieldIndex, operator: condition.operator, base });
      });
    } else {
      out.push({
        node: condition,
        field: condition.field as FieldOf<N>,
        fieldIndex: 0,
        operator: condition.operator,
        base: condition.operator,
      });
    }
  }
  return out;
}

/**
 * Marks a branch a switch can never reach: the compiler checks `value` is
 * `never`, and at run time (a tree built outside the types) it throws.
 *
 * @example
 * default: return assertNever(node, 'printFilterNode');
 */
export function assertNever(value: never, where: string): never {
  const kind = (value as { kind?: unknown } | null)?.kind;
  throw new TypeError(`${where}: unknown node kind ${JSON.stringify(kind ?? value)}`);
}
