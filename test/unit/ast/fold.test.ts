/**
 * The typed fold (src/ast/fold.ts): bottom-up folding in text order on both
 * trees, iterative at any depth, InFields and groups flattened by
 * `conditionsOf`, and a clear error for a node kind outside the types.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FilterNode } from '../../../src/ast/nodes.js';
import {
  assertNever,
  conditionsOf,
  foldFilter,
  foldFilterWith,
  matchFilterNode,
  matchFilterNodeWith,
  skipChildren,
} from '../../../src/ast/fold.js';
import type { FoldHandlers, FoldWithHandlers, MatchWithHandlers } from '../../../src/ast/fold.js';
import { analyzeFilterOrThrow, parseFilter } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const print: FoldHandlers<FilterNode, string> = {
  group: (g, children) => `${g.operator}(${children.join(';')})`,
  comparison: (c) => `${c.field.name}.${c.operator}`,
  'null-check': (n) => `${n.field.name}.${n.operator}`,
  list: (l) => `${l.field.name}.${l.operator}[${l.values.length}]`,
  'in-fields': (f) => `${f.operator}(${f.fields.map((x) => x.name).join(',')})`,
};

function clauses(text: string): readonly FilterNode[] {
  const { ast } = parseFilter(text);
  return ast!.clauses;
}

describe('foldFilter', () => {
  it('folds groups bottom-up with children in text order', () => {
    const [node] = clauses('Or(A.Equal(1);And(B.IsNull();C.InArray(1,2));5.LessThanInFields(D,E))');
    expect(foldFilter(node!, print)).toBe('Or(A.Equal;And(B.IsNull;C.InArray[2]);LessThanInFields(D,E))');
  });

  it('folds the validated tree with the same handlers shape', () => {
    const typed = analyzeFilterOrThrow('Or(Gender.Equal(1);Gender.IsNull())', { schema: employeeSchema });
    const names = foldFilter(typed.clauses[0]!, {
      group: (_g, children: readonly string[]) => children.join('|'),
      comparison: (c) => `${c.field.name}=${String(c.value)}`,
      'null-check': (n) => `${n.field.name}:null`,
      list: (l) => l.field.name,
      'in-fields': (f) => f.fields.map((x) => x.name).join(','),
    });
    expect(names).toBe('Gender=1|Gender:null');
  });

  it('walks a tree far deeper than the call stack allows', () => {
    let node: FilterNode = clauses('A.IsNull()')[0]!;
    for (let i = 0; i < 200_000; i++)
      node = { kind: 'group', operator: 'And', children: [node], span: node.span, operatorSpan: node.span } as unknown as FilterNode;
    const depth = foldFilter<FilterNode, number>(node, {
      group: (_g, c) => 1 + c[0]!,
      comparison: () => 0,
      'null-check': () => 0,
      list: () => 0,
      'in-fields': () => 0,
    });
    expect(depth).toBe(200_000);
    expect(conditionsOf([node])).toHaveLength(1);
  });

  it('names a node kind outside the types instead of skipping it', () => {
    const alien = { kind: 'xor' } as unknown as FilterNode;
    expect(() => foldFilter(alien, print)).toThrow(/unknown node kind "xor"/);
    expect(() => matchFilterNode(alien, print as never)).toThrow(/matchFilterNode/);
    expect(() => assertNever({ kind: 'x' } as never, 'here')).toThrow('here: unknown node kind "x"');
  });
});

describe('foldFilterWith', () => {
  // Records every step as it happens: `enter` before the children, `leave` after, with context, index and sibling count.
  const trace = (
    steps: string[],
    skip: (g: { operator: string }) => boolean = () => false,
  ): FoldWithHandlers<FilterNode, number, string> => {
    const leaf = (n: FilterNode, depth: number, index: number, siblings: readonly FilterNode[]): string => {
      const name = 'field' in n ? n.field.name : n.kind;
      steps.push(`${name}@${depth}#${index}/${siblings.length}`);
      return name;
    };
    return {
      group: {
        enter: (g, depth, index, siblings) => {
          steps.push(`enter ${g.operator}@${depth}#${index}/${siblings.length}`);
          return skip(g) ? skipChildren(`${g.operator}…`) : depth + 1;
        },
        leave: (g, children, depth, index) => {
          steps.push(`leave ${g.operator}@${depth}#${index}`);
          return `${g.operator}(${children.join(';')})`;
        },
      },
      comparison: leaf,
      'null-check': leaf,
      list: leaf,
      'in-fields': leaf,
    };
  };

  it('enters a group before its children and leaves it after them, in text order, with context, index and siblings', () => {
    const steps: string[] = [];
    const results = foldFilterWith(clauses('A.IsNull();Or(B.Equal(1);And(C.IsNull()));D.IsNull()'), trace(steps), 0);
    expect(results).toEqual(['A', 'Or(B;And(C))', 'D']);
    expect(steps).toEqual([
      'A@0#0/3',
      'enter Or@0#1/3',
      'B@1#0/2',
      'enter And@1#1/2',
      'C@2#0/1',
      'leave And@1#1',
      'leave Or@0#1',
      'D@0#2/3',
    ]);
  });

  it("keeps a group's children out when enter says so, taking its result as the group's", () => {
    const steps: string[] = [];
    const results = foldFilterWith(
      clauses('Or(A.IsNull();And(B.IsNull()))'),
      trace(steps, (g) => g.operator === 'And'),
      0,
    );
    expect(results).toEqual(['Or(A;And…)']);
    expect(steps).toEqual(['enter Or@0#0/1', 'A@1#0/2', 'enter And@1#1/2', 'leave Or@0#0']);
  });

  it('walks a tree far deeper than the call stack allows, entering and leaving every level', () => {
    let node: FilterNode = clauses('A.IsNull()')[0]!;
    for (let i = 0; i < 100_000; i++)
      node = { kind: 'group', operator: 'Or', children: [node], span: node.span, operatorSpan: node.span } as unknown as FilterNode;
    let entered = 0;
    const [depth] = foldFilterWith<FilterNode, number, number>(
      [node],
      {
        group: { enter: (_g, d) => (entered++, d + 1), leave: (_g, c) => c[0]! },
        comparison: (_n, d) => d,
        'null-check': (_n, d) => d,
        list: (_n, d) => d,
        'in-fields': (_n, d) => d,
      },
      0,
    );
    expect([depth, entered]).toEqual([100_000, 100_000]);
  });

  it.each(['raw-sql', '__proto__', 'constructor', 'toString'])(
    'sends a node of kind %j to outside, or throws without one, never reading the prototype chain',
    (kind) => {
      const alien = { kind } as unknown as FilterNode;
      const steps: string[] = [];
      expect(foldFilterWith([alien], trace(steps), 0, (n, d, i) => `outside ${String((n as { kind: unknown }).kind)}@${d}#${i}`)).toEqual([
        `outside ${kind}@0#0`,
      ]);
      expect(() => foldFilterWith([alien], trace(steps), 0)).toThrow(`foldFilter: unknown node kind ${JSON.stringify(kind)}`);
      expect(() => foldFilter(alien, print)).toThrow(/unknown node kind/);
      expect(() => matchFilterNode(alien, print as never)).toThrow(/matchFilterNode: unknown node kind/);
    },
  );
});

describe('matchFilterNodeWith', () => {
  // Module-level, as the validator keeps its table: the context is an argument, not a capture.
  const tagged: MatchWithHandlers<FilterNode, string, string> = {
    group: (g, tag) => `${tag}:group:${g.children.length}`,
    comparison: (c, tag) => `${tag}:${c.field.name}`,
    'null-check': (n, tag) => `${tag}:${n.operator}`,
    list: (l, tag) => `${tag}:${l.values.length}`,
    'in-fields': (f, tag) => `${tag}:${f.fields.length}`,
  };
  const outside = (node: FilterNode, tag: string): string => `${tag}:outside:${String((node as { kind: unknown }).kind)}`;

  it('calls the handler of each kind with the context', () => {
    const nodes = clauses('Or(A.Equal(1);B.IsNull());C.Equal(2);D.IsNull();E.InArray(1,2,3);5.LessThanInFields(F,G)');
    expect(nodes.map((n) => matchFilterNodeWith(n, tagged, 'x', outside))).toEqual(['x:group:2', 'x:C', 'x:IsNull', 'x:3', 'x:2']);
  });

  it.each(['raw-sql', '__proto__', 'constructor', 'toString'])(
    'answers outside for a node of kind %j, without reading the prototype chain',
    (kind) => {
      const node = { kind } as unknown as FilterNode;
      expect(matchFilterNodeWith(node, tagged, 'y', outside)).toBe(`y:outside:${kind}`);
    },
  );
});

describe('conditionsOf', () => {
  it('flattens groups and InFields in text order, with the base operator', () => {
    const flat = conditionsOf(clauses('Or(A.Equal(1);And(B.IsNull()));5.LessThanInFields(D,E);F.NotInArray(1)'));
    expect(flat.map((c) => [c.field.name, c.operator, c.base, c.fieldIndex])).toEqual([
      ['A', 'Equal', 'Equal', 0],
      ['B', 'IsNull', 'IsNull', 0],
      ['D', 'LessThanInFields', 'LessThan', 0],
      ['E', 'LessThanInFields', 'LessThan', 1],
      ['F', 'NotInArray', 'NotInArray', 0],
    ]);
  });

  it('agrees with a recursive reference on every parsed filter', () => {
    const leaf = fc.constantFrom('A.Equal(1)', 'B.IsNull()', 'C.InArray(1,2)', '3.EqualInFields(D,E)');
    const tree: fc.Arbitrary<string> = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', maxDepth: 6 },
        leaf,
        fc
          .tuple(fc.constantFrom('And', 'Or'), fc.array(tie('node'), { minLength: 1, maxLength: 3 }))
          .map(([op, c]) => `${op}(${c.join(';')})`),
      ),
    })).node as fc.Arbitrary<string>;
    fc.assert(
      fc.property(fc.array(tree, { minLength: 1, maxLength: 3 }), (parts) => {
        const nodes = clauses(parts.join(';'));
        const reference: string[] = [];
        const walk = (n: FilterNode): void => {
          if (n.kind === 'group') n.children.forEach(walk);
          else if (n.kind === 'in-fields') n.fields.forEach((f) => reference.push(f.name));
          else reference.push(n.field.name);
        };
        nodes.forEach(walk);
        expect(conditionsOf(nodes).map((c) => c.field.name)).toEqual(reference);
      }),
    );
  });
});
