/**
 * A small JSONPath subset for `--filter-path` and `--sort-path`: where the
 * saved filters sit inside a JSON or YAML document. Supported: `$` (the
 * document), `.key` and `['key']` (a member), `[*]` and `.*` (every item or
 * member), `[N]` (an array item), `..key` (the member at any depth).
 */
import { UsageError } from './usage-error.js';

/**
 * One step of a selector.
 *
 * @example
 * const step: SelectorStep = { kind: 'member', key: 'views' };
 */
export type SelectorStep =
  | { readonly kind: 'member'; readonly key: string }
  | { readonly kind: 'index'; readonly index: number }
  | { readonly kind: 'wildcard' }
  | { readonly kind: 'descendant'; readonly key: string };

/**
 * Parses a selector such as `$.views[*].filter`, or throws `UsageError`
 * pointing at the character it cannot read.
 *
 * @example
 * parseSelector('$.views[*].filter'); // [{ kind: 'member', key: 'views' }, { kind: 'wildcard' }, { kind: 'member', key: 'filter' }]
 */
export function parseSelector(text: string, flag = '--filter-path'): SelectorStep[] {
  const fail = (at: number, what: string): never => {
    throw new UsageError(`${flag} ${JSON.stringify(text)}: ${what} at character ${at + 1}; expected a path such as $.views[*].filter`);
  };
  if (!text.startsWith('$')) fail(0, 'a path starts with "$"');
  const steps: SelectorStep[] = [];
  const name = /^[A-Za-z_$][A-Za-z0-9_$-]*/;
  let i = 1;
  while (i < text.length) {
    const rest = text.slice(i);
    if (rest.startsWith('..')) {
      const m = name.exec(rest.slice(2));
      if (m === null) fail(i + 2, 'a member name must follow ".."');
      steps.push({ kind: 'descendant', key: m![0] });
      i += 2 + m![0].length;
    } else if (rest.startsWith('.*')) {
      steps.push({ kind: 'wildcard' });
      i += 2;
    } else if (rest.startsWith('.')) {
      const m = name.exec(rest.slice(1));
      if (m === null) fail(i + 1, 'a member name must follow "."');
      steps.push({ kind: 'member', key: m![0] });
      i += 1 + m![0].length;
    } else if (rest.startsWith('[*]')) {
      steps.push({ kind: 'wildcard' });
      i += 3;
    } else if (/^\[\d+\]/.test(rest)) {
      const m = /^\[(\d+)\]/.exec(rest)!;
      steps.push({ kind: 'index', index: Number(m[1]) });
      i += m[0].length;
    } else if (/^\[(['"])/.test(rest)) {
      const quote = rest[1]!;
      const close = rest.indexOf(`${quote}]`, 2);
      if (close < 0) fail(i, 'unterminated quoted member');
      steps.push({ kind: 'member', key: rest.slice(2, close) });
      i += close + 2;
    } else fail(i, `unexpected ${JSON.stringify(text[i])}`);
  }
  return steps;
}

/**
 * How the selector walks a document tree: a node is a map, a sequence or
 * anything else; the adapter lists a map's (own) members and a sequence's
 * items.
 *
 * @example
 * const adapter: TreeAdapter<unknown> = { members: (n) => …, items: (n) => … };
 */
export interface TreeAdapter<N> {
  /** The members of a map node, or undefined when the node is not a map. */
  members(node: N): readonly (readonly [string, N])[] | undefined;
  /** The items of a sequence node, or undefined when the node is not one. */
  items(node: N): readonly N[] | undefined;
}

/**
 * A selected node and the map that holds it (to find a sibling `name`).
 *
 * @example
 * const hit: Selected<unknown> = { node, parent };
 */
export interface Selected<N> {
  readonly node: N;
  readonly parent?: N;
}

/**
 * Every node the selector reaches, in document order.
 *
 * @example
 * select(root, parseSelector('$.views[*].filter'), adapter);
 */
export function select<N>(root: N, steps: readonly SelectorStep[], adapter: TreeAdapter<N>): Selected<N>[] {
  let current: Selected<N>[] = [{ node: root }];
  for (const step of steps) {
    const next: Selected<N>[] = [];
    for (const { node } of current) {
      const members = adapter.members(node);
      const items = adapter.items(node);
      if (step.kind === 'member') {
        for (const [k, v] of members ?? []) if (k === step.key) next.push({ node: v, parent: node });
      } else if (step.kind === 'index') {
        const item = items?.[step.index];
        if (item !== undefined) next.push({ node: item, parent: node });
      } else if (step.kind === 'wildcard') {
        for (const [, v] of members ?? []) next.push({ node: v, parent: node });
        for (const v of items ?? []) next.push({ node: v, parent: node });
      } else {
        // Iterative depth-first walk: a deeply nested document must not exhaust the stack.
        const stack: N[] = [node];
        const found: Selected<N>[] = [];
        while (stack.length > 0) {
          const n = stack.pop()!;
          const ms = adapter.members(n);
          const children: N[] = [];
          for (const [k, v] of ms ?? []) {
            if (k === step.key) found.push({ node: v, parent: n });
            children.push(v);
          }
          for (const v of adapter.items(n) ?? []) children.push(v);
          for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
        }
        for (const f of found) next.push(f);
      }
    }
    current = next;
  }
  return current;
}
