/**
 * The one walk over filter trees, for the syntax tree (`nodes.ts`) and the
 * validated tree (`typed-tree.ts`) alike. A stage states what it does with
 * each kind of node in a `Record` keyed by kind, so a new node kind fails to
 * compile until every stage handles it, instead of falling through a
 * `default:` or a hand-written `if` chain.
 *
 * - `foldFilter` folds bottom-up: a group's handler gets its children's
 *   results. `foldFilterWith` is the same fold over a list of siblings with
 *   a context passed down: a group's `enter` runs before its children (in
 *   text order, so a walk can write text or stop at a limit as it goes) and
 *   may keep them out, its `leave` runs after them. Both walk with one
 *   explicit stack, here and nowhere else, so no tree — not even one built by
 *   code a hundred thousand groups deep — exhausts the call stack.
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
  const handler = handlerOf<(node: N) => R>(handlers, node.kind);
  if (handler === undefined) return assertNever(node as never, 'matchFilterNode');
  return handler(node);
}

/**
 * The handler of `kind`, read as an own property only: a kind such as
 * `toString` or `__proto__` in a tree built from untrusted data must find no
 * handler, not one of `Object.prototype`'s functions.
 */
function handlerOf<H>(handlers: object, kind: string): H | undefined {
  return Object.hasOwn(handlers, kind) ? ((handlers as Readonly<Record<string, H>>)[kind] as H) : undefined;
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

/**
 * What `foldFilterWith` returns from a group's `enter` to keep the group's
 * children out of the walk: `result` is the group's result, and its `leave`
 * is not called. Made by `skipChildren`.
 *
 * @example
 * const fits: Skipped<string> = skipChildren('Or(A.IsNull();B.IsNull())');
 */
export class Skipped<R> {
  /** The group's result. */
  readonly result: R;
  constructor(result: R) {
    this.result = result;
  }
}

/**
 * Keeps a group's children out of a `foldFilterWith` walk, `result` standing
 * for the group's (a group that fits on one line, a group too deep to enter,
 * a group the cursor is not on).
 *
 * @example
 * enter: (group, depth) => (depth > maxDepth ? skipChildren(group) : depth + 1)
 */
export function skipChildren<R>(result: R): Skipped<R> {
  return new Skipped(result);
}

/**
 * What `foldFilterWith` does with a group: `enter` before its children, with
 * the group's context, its index among its siblings and the siblings, returns
 * the context its children get (or `skipChildren(result)`); `leave` after
 * them gets their results in order and the group's own context.
 *
 * @example
 * const group: GroupSteps<GroupNode, FilterNode, number, number> = {
 *   enter: (_g, depth) => depth + 1,
 *   leave: (_g, children) => Math.max(0, ...children),
 * };
 */
export interface GroupSteps<G, N, C, R> {
  readonly enter: (group: G, context: C, index: number, siblings: readonly N[]) => C | Skipped<R>;
  readonly leave: (group: G, children: readonly R[], context: C, index: number, siblings: readonly N[]) => R;
}

/**
 * What `foldFilterWith` does with each kind of node: a group's two steps,
 * and a function per leaf kind given the node's context, its index among its
 * siblings and the siblings.
 *
 * @example
 * const depths: FoldWithHandlers<FilterNode, number, number> = {
 *   group: { enter: (_g, depth) => depth + 1, leave: (_g, children) => Math.max(0, ...children) },
 *   comparison: (_c, depth) => depth, 'null-check': (_n, depth) => depth, list: (_l, depth) => depth, 'in-fields': (_f, depth) => depth,
 * };
 */
export type FoldWithHandlers<N extends FilterTreeNode, C, R> = {
  readonly [K in N['kind']]: K extends 'group'
    ? GroupSteps<NodeOfKind<N, K>, N, C, R>
    : (node: NodeOfKind<N, K>, context: C, index: number, siblings: readonly N[]) => R;
};

/** A group being walked (or, at the bottom of the stack, the list of nodes the walk began with). */
interface Frame<N, C, R> {
  readonly group: N | undefined;
  readonly children: readonly N[];
  /** The context the children get. */
  readonly context: C;
  /** The context the group was entered with, and its place among its siblings: for its `leave`. */
  readonly outer: C;
  readonly index: number;
  readonly siblings: readonly N[];
  readonly results: R[];
  next: number;
}

/**
 * Folds a list of sibling nodes (a filter's clauses, a group's children) in
 * text order with a context passed down: each leaf by its handler, each group
 * by `enter` before its children and `leave` after them, unless `enter`
 * keeps them out with `skipChildren`. Returns one result per node of
 * `nodes`. A node whose kind is none of the tree's (a tree built by code from
 * untrusted data) goes to `outside`, or throws a `TypeError` without one.
 *
 * @example
 * // The canonical text of a tree, refusing groups nested deeper than 32.
 * const texts = foldFilterWith<FilterNode, number, string>(ast.clauses, {
 *   group: {
 *     enter: (g, depth) => { if (depth > 32) throw new Error('too deep'); return depth + 1; },
 *     leave: (g, children) => `${g.operator}(${children.join(';')})`,
 *   },
 *   comparison: (c) => `${c.field.name}.${c.operator}(${c.value.value})`,
 *   'null-check': (n) => `${n.field.name}.${n.operator}()`,
 *   list: (l) => `${l.field.name}.${l.operator}(${l.values.map((v) => v.value).join(',')})`,
 *   'in-fields': (f) => `${f.value.value}.${f.operator}(${f.fields.map((x) => x.name).join(',')})`,
 * }, 1);
 */
export function foldFilterWith<N extends FilterTreeNode, C, R>(
  nodes: readonly N[],
  handlers: FoldWithHandlers<N, C, R>,
  context: C,
  outside?: (node: N, context: C, index: number, siblings: readonly N[]) => R,
): R[] {
  const group = (handlers as unknown as { readonly group: GroupSteps<N, N, C, R> }).group;
  const bottom: Frame<N, C, R> = {
    group: undefined,
    children: nodes,
    context,
    outer: context,
    index: 0,
    siblings: nodes,
    results: [],
    next: 0,
  };
  const stack: Frame<N, C, R>[] = [bottom];
  for (;;) {
    const frame = stack[stack.length - 1]!;
    if (frame.next < frame.children.length) {
      const index = frame.next++;
      const node = frame.children[index]!;
      if (node.kind !== 'group') {
        const leaf = handlerOf<(node: N, context: C, index: number, siblings: readonly N[]) => R>(handlers, node.kind);
        if (leaf !== undefined) frame.results.push(leaf(node, frame.context, index, frame.children));
        else if (outside !== undefined) frame.results.push(outside(node, frame.context, index, frame.children));
        else assertNever(node as never, 'foldFilter');
        continue;
      }
      const inner = group.enter(node, frame.context, index, frame.children);
      if (inner instanceof Skipped) {
        frame.results.push(inner.result as R);
        continue;
      }
      const children = (node as NodeOfKind<N, 'group'>).children as readonly N[];
      stack.push({ group: node, children, context: inner, outer: frame.context, index, siblings: frame.children, results: [], next: 0 });
      continue;
    }
    if (frame === bottom) return bottom.results;
    stack.pop();
    stack[stack.length - 1]!.results.push(group.leave(frame.group!, frame.results, frame.outer, frame.index, frame.siblings));
  }
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
  const bottomUp = handlers as unknown as FoldHandlers<FilterNode, R>;
  const steps: GroupSteps<GroupOf<N>, N, undefined, R> = {
    enter: () => undefined,
    leave: (g, children) => bottomUp.group(g as never, children),
  };
  return foldFilterWith<N, undefined, R>(
    [node],
    { ...handlers, group: steps } as unknown as FoldWithHandlers<N, undefined, R>,
    undefined,
  )[0]!;
}

/** The group node of tree `N`. */
type GroupOf<N extends FilterTreeNode> = NodeOfKind<N, 'group'>;

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
