/**
 * Semantic lint rules: problems a filter can have even when it is well
 * typed — contradictions, duplicates, redundant `Or` branches, repeated list
 * values and filters that can match nothing. They run on the validated tree
 * and report warnings; a filter with such findings still runs.
 */
import {
  assertNever,
  foldFilterWith,
  matchFilterNode,
  matchFilterNodeWith,
  skipChildren,
  type FoldWithHandlers,
  type MatchHandlers,
  type MatchWithHandlers,
} from '../ast/fold.js';
import type { Span } from '../ast/nodes.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { ScalarType } from '../ast/operators.js';
import type { Diagnostic, TextEdit } from '../diagnostics/diagnostic.js';
import type { TypedFilter, TypedFilterNode, TypedGroup } from '../ast/typed-tree.js';
import { instantEquality } from '../schema/date-only.js';
import { implies, normalizeValue, satisfiable, toAtom, type Atom, type SingleFieldCondition } from './atoms.js';

/**
 * Options for `lintFilter`.
 *
 * @example
 * lintFilter(typedFilter, { text, caseSensitive: false });
 */
export interface LintOptions {
  /** The filter's source text, used to quote conditions in messages and to build fixes. */
  readonly text?: string;
  /** Whether string comparisons are case-sensitive (default false, as in evaluation). */
  readonly caseSensitive?: boolean;
}

/**
 * One `lintFilter` call's state. The rules are tables made once at module
 * level and this is passed to them, not captured: the closures made per
 * call and per node were a large share of a cold `wepql lint` run of
 * 10,000 filters (bench/results/startup.md). A node's structural key and
 * atom are asked for by several rules (the duplicates of its level, the
 * redundant branches of its `Or`, the contradictions of its level and of
 * its branch), so each is made once per call, and only when asked.
 */
interface Context {
  readonly text: string | undefined;
  readonly caseSensitive: boolean;
  readonly out: Diagnostic[];
  /**
   * Whether the nodes walked under this context are the direct branches of
   * an Or group: a suggestion replacing one must be a single clause.
   */
  readonly orBranch: boolean;
  /** Shared by every context of one call. */
  readonly memo: Memo;
}

/** What one call works out once: keys, atoms, and the contexts of Or branches and of And levels. */
interface Memo {
  keys?: Map<TypedFilterNode, string>;
  atoms?: Map<SingleFieldCondition, Atom>;
  branches?: Context;
  level?: Context;
}

type NodeSpan = Span;

function spanOf(node: TypedFilterNode): NodeSpan {
  return node.source.span;
}

function quote(ctx: Context, node: TypedFilterNode): string {
  const s = spanOf(node);
  if (ctx.text !== undefined && s.end > s.start) return ctx.text.slice(s.start, s.end);
  return matchFilterNode(node, QUOTE_WITHOUT_TEXT);
}

const fieldCondition = (c: SingleFieldCondition) => `${c.field.name}.${c.operator}(…)`;
const QUOTE_WITHOUT_TEXT: MatchHandlers<TypedFilterNode, string> = {
  group: (g) => `${g.operator}(…)`,
  'in-fields': (f) => `….${f.operator}(${f.fields.map((field) => field.name).join(',')})`,
  comparison: fieldCondition,
  list: fieldCondition,
  'null-check': fieldCondition,
};

const yes = (): boolean => true;
const no = (): boolean => false;
const SINGLE_FIELD: MatchWithHandlers<TypedFilterNode, undefined, boolean> = {
  comparison: yes,
  list: yes,
  'null-check': yes,
  group: no,
  'in-fields': no,
};

function isSingleField(node: TypedFilterNode): node is SingleFieldCondition {
  return matchFilterNodeWith(node, SINGLE_FIELD, undefined, no);
}

/** The JSON of a normalized value: a key part that no other value (of any type) spells. */
function valueKey(v: Parameters<typeof normalizeValue>[0], type: ScalarType, ctx: Context): string {
  return JSON.stringify(normalizeValue(v, type, ctx.caseSensitive));
}

/** The key of each kind of condition (a group's spells out its children's: `KEY_STEPS`). */
const LEAF_KEYS: MatchWithHandlers<TypedFilterNode, Context, string> = {
  comparison: (c, ctx) => `c|${c.field.name}|${c.operator}|${valueKey(c.value, c.field.type, ctx)}`,
  'null-check': (n) => `n|${n.field.name}|${n.operator}`,
  list: (l, ctx) => `l|${l.field.name}|${l.operator}|${listKey(l, ctx)}`,
  'in-fields': (f, ctx) =>
    `f|${f.operator}|${f.fields.map((field, i) => `${field.name}=${valueKey(f.values[i]!, field.type, ctx)}`).join(',')}`,
  group: (g) => {
    throw new TypeError(`LEAF_KEYS: a group (${g.operator}) is keyed by KEY_STEPS`);
  },
};

const leafKey = (node: TypedFilterNode, ctx: Context): string =>
  remember(ctx, node, matchFilterNodeWith(node, LEAF_KEYS, ctx, unknownKind));

const unknownKind = (node: TypedFilterNode): never => assertNever(node as never, 'lintFilter');

/** Keys of a group's subtree; a group already keyed (by the duplicates of a level below) is not walked again. */
const KEY_STEPS: FoldWithHandlers<TypedFilterNode, Context, string> = {
  comparison: leafKey,
  'null-check': leafKey,
  list: leafKey,
  'in-fields': leafKey,
  group: {
    enter: (g, ctx) => {
      const known = ctx.memo.keys?.get(g);
      return known === undefined ? ctx : skipChildren(known);
    },
    leave: (g, children, ctx) => remember(ctx, g, `g|${g.operator}(${children.join(';')})`),
  },
};

/** A list's values as a set: sorted, each once. */
function listKey(l: Extract<TypedFilterNode, { kind: 'list' }>, ctx: Context): string {
  return [...new Set(l.values.map((v) => valueKey(v, l.field.type, ctx)))].sort().join(',');
}

function remember(ctx: Context, node: TypedFilterNode, key: string): string {
  (ctx.memo.keys ??= new Map()).set(node, key);
  return key;
}

/** A structural key: equal keys mean equivalent conditions. */
function conditionKey(node: TypedFilterNode, ctx: Context): string {
  const known = ctx.memo.keys?.get(node);
  if (known !== undefined) return known;
  return node.kind === 'group' ? foldFilterWith([node], KEY_STEPS, ctx)[0]! : leafKey(node, ctx);
}

/**
 * Whether some two siblings could have equal keys: a key spells its node's
 * kind and, for a condition on one field, the field (`LEAF_KEYS`), so
 * siblings of different kinds or fields never repeat one another. Checked
 * pair by pair, so only for a short list: a longer one goes straight to the
 * keys.
 */
function mayRepeat(siblings: readonly TypedFilterNode[]): boolean {
  if (siblings.length > SHORT_LEVEL) return true;
  for (let j = 1; j < siblings.length; j++) {
    const b = siblings[j]!;
    for (let i = 0; i < j; i++) {
      const a = siblings[i]!;
      if (a.kind === b.kind && (!isSingleField(a) || a.field.name === (b as SingleFieldCondition).field.name)) return true;
    }
  }
  return false;
}

/** The most siblings (or conditions of one level) compared pair by pair before a map is made. */
const SHORT_LEVEL = 16;

/** The node's atom, made once per call. */
function atomOf(ctx: Context, node: SingleFieldCondition): Atom {
  const atoms = (ctx.memo.atoms ??= new Map());
  let atom = atoms.get(node);
  if (atom === undefined) atoms.set(node, (atom = toAtom(node, ctx.caseSensitive)));
  return atom;
}

/**
 * An edit removing clause `index` of a list of sibling clauses together with
 * one adjacent `;` separator, or undefined without source text.
 */
function removeClauseEdit(ctx: Context, siblings: readonly TypedFilterNode[], index: number): TextEdit[] | undefined {
  if (ctx.text === undefined) return undefined;
  const span = spanOf(siblings[index]!);
  if (index > 0) return [{ start: spanOf(siblings[index - 1]!).end, end: span.end, newText: '' }];
  if (siblings.length > 1) return [{ start: span.start, end: spanOf(siblings[1]!).start, newText: '' }];
  return undefined;
}

/** Takes each node of an AND level: an Or group is one clause of it, an And group's children are. */
const AND_LEVEL: FoldWithHandlers<TypedFilterNode, TypedFilterNode[], void> = {
  group: {
    enter: (group, out) => {
      if (group.operator === 'And') return out;
      out.push(group);
      return skipChildren(undefined);
    },
    leave: () => undefined,
  },
  comparison: (node, out) => void out.push(node),
  'null-check': (node, out) => void out.push(node),
  list: (node, out) => void out.push(node),
  'in-fields': (node, out) => void out.push(node),
};

/** The clauses ANDed at one level: nested `And` groups are looked through (through the fold, so no nesting exhausts the call stack). */
function andLevel(clauses: readonly TypedFilterNode[]): readonly TypedFilterNode[] {
  // Without an And group among them, the clauses are the level.
  if (!clauses.some(isAndGroup)) return clauses;
  const out: TypedFilterNode[] = [];
  foldFilterWith(clauses, AND_LEVEL, out);
  return out;
}

function isAndGroup(node: TypedFilterNode): boolean {
  return node.kind === 'group' && node.operator === 'And';
}

/** Duplicate conditions among direct siblings (same level, same group). */
function checkDuplicates(ctx: Context, siblings: readonly TypedFilterNode[]): void {
  // One clause repeats nothing: no key to build (a group's key spells out its whole subtree).
  if (siblings.length < 2 || !mayRepeat(siblings)) return;
  const seen = new Map<string, TypedFilterNode>();
  for (let i = 0; i < siblings.length; i++) {
    const node = siblings[i]!;
    const key = conditionKey(node, ctx);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, node);
      continue;
    }
    const fix = removeClauseEdit(ctx, siblings, i);
    ctx.out.push({
      code: 'duplicate-condition',
      severity: 'warning',
      message:
        quote(ctx, node) === quote(ctx, first)
          ? `${quote(ctx, node)} repeats an earlier condition at the same level; remove the repeat.`
          : `${quote(ctx, node)} means the same as ${quote(ctx, first)} earlier at the same level; remove the repeat.`,
      start: spanOf(node).start,
      end: spanOf(node).end,
      ...(fix === undefined ? {} : { fix }),
    });
  }
}

/** Repeated values inside one list operator. */
function checkListValues(ctx: Context, node: TypedFilterNode): void {
  if (node.kind !== 'list') return;
  const seen = new Set<string>();
  node.values.forEach((v, i) => {
    const key = valueKey(v, node.field.type, ctx);
    if (!seen.has(key)) {
      seen.add(key);
      return;
    }
    const valueNode = node.source.values[i]!;
    const prev = node.source.values[i - 1]!;
    ctx.out.push({
      code: 'duplicate-list-value',
      severity: 'warning',
      message: `${node.operator} lists the value ${valueNode.raw} more than once; remove the repeat.`,
      start: valueNode.span.start,
      end: valueNode.span.end,
      ...(ctx.text === undefined ? {} : { fix: [{ start: prev.span.end, end: valueNode.span.end, newText: '' }] }),
    });
  });
}

/** The values a condition tests for equality with one instant each: `Equal`/`NotEqual` (negated) and the list operators that match no null. */
interface InstantTest {
  readonly values: readonly { readonly value: string }[];
  readonly negate: boolean;
  readonly field: SingleFieldCondition['field'];
}

const INSTANT_TESTS: MatchHandlers<TypedFilterNode, InstantTest | undefined> = {
  comparison: (c) => {
    const facts = operatorFacts(c.operator);
    if (facts.test.kind !== 'compare' || facts.test.relation !== '=') return undefined;
    return { values: [c.source.value], negate: facts.negated, field: c.field };
  },
  list: (l) => {
    const facts = operatorFacts(l.operator);
    return facts.negated || facts.nullMatches ? undefined : { values: l.source.values, negate: false, field: l.field };
  },
  'null-check': () => undefined,
  'in-fields': () => undefined,
  group: () => undefined,
};

/**
 * A datetime compared with a date that has no time: `Equal`, `NotEqual` and
 * `InArray` then test one instant (midnight UTC), which is rarely what the
 * author meant. A suggestion, not a fix: the range changes what the filter
 * matches, so only a person may choose it.
 */
function checkDateOnly(ctx: Context, node: TypedFilterNode): void {
  const tested = matchFilterNode(node, INSTANT_TESTS);
  if (tested === undefined) return;
  const { values, negate, field } = tested;
  if (field.type !== 'datetime') return;
  const said = instantEquality(
    field.name,
    values.map((v) => v.value),
    negate,
    ctx.orBranch,
  );
  if (said === undefined) return;
  const s = values.length > 1 ? 's' : '';
  ctx.out.push({
    code: 'date-only-equality',
    severity: 'warning',
    message: `${quote(ctx, node)} compares ${field.name} with the exact instant${s} ${said.instants.join(', ')} (midnight UTC), not with ${said.wholeDay}; ${said.remedy} write ${said.range}.`,
    start: spanOf(node).start,
    end: spanOf(node).end,
    suggestion: said.range,
  });
}

/**
 * Contradictions at one AND level: per field, whether the single-field
 * conditions can hold together. Reports the smallest conflicting pair when
 * there is one, in `out` (the call's findings, or an And group's, which its
 * parent reports or drops). Returns whether the level is satisfiable by
 * this test.
 */
function checkContradictions(ctx: Context, level: readonly TypedFilterNode[], out: Diagnostic[] = ctx.out): boolean {
  let ok = true;
  // The conditions on one field each that can hold alone, in order; grouped by field only when a field repeats.
  const kept: SingleFieldCondition[] = [];
  // A counted loop: a for-of allocates at each step until V8 optimizes this (see nonNullSatisfiable).
  for (let i = 0; i < level.length; i++) {
    const node = level[i]!;
    if (!isSingleField(node)) continue;
    const atom = atomOf(ctx, node);
    if (!satisfiable([atom])) {
      ok = false;
      out.push({
        code: 'contradiction',
        severity: 'warning',
        message: `${quote(ctx, node)} can never be true: every string contains, starts and ends with the empty string.`,
        start: spanOf(node).start,
        end: spanOf(node).end,
      });
      continue;
    }
    kept.push(node);
  }
  if (!fieldRepeats(kept)) return ok;
  const byField = new Map<string, { node: SingleFieldCondition; atom: Atom }[]>();
  for (const node of kept) {
    const atom = atomOf(ctx, node);
    const list = byField.get(atom.field) ?? [];
    list.push({ node, atom });
    byField.set(atom.field, list);
  }
  for (const [field, entries] of byField) {
    if (entries.length < 2 || satisfiable(entries.map((e) => e.atom))) continue;
    ok = false;
    reportFieldConflict(ctx, field, entries, out);
  }
  return ok;
}

/**
 * The contradiction among the conditions on one field that cannot hold
 * together: the first pair that cannot, at its later condition, or, when
 * every pair can, all of them.
 */
function reportFieldConflict(
  ctx: Context,
  field: string,
  entries: readonly { node: SingleFieldCondition; atom: Atom }[],
  out: Diagnostic[],
): void {
  for (let j = 1; j < entries.length; j++) {
    for (let i = 0; i < j; i++) {
      if (satisfiable([entries[i]!.atom, entries[j]!.atom])) continue;
      const later = entries[j]!.node;
      out.push({
        code: 'contradiction',
        severity: 'warning',
        message: `${quote(ctx, later)} contradicts ${quote(ctx, entries[i]!.node)}: no value of ${field} satisfies both.`,
        start: spanOf(later).start,
        end: spanOf(later).end,
      });
      return;
    }
  }
  const last = entries[entries.length - 1]!.node;
  out.push({
    code: 'contradiction',
    severity: 'warning',
    message: `The conditions on ${field} (${entries.map((e) => quote(ctx, e.node)).join(', ')}) cannot all be true together.`,
    start: spanOf(entries[0]!.node).start,
    end: spanOf(last).end,
  });
}

/** Whether two of the conditions are on one field (true for a long list, which the map groups instead). */
function fieldRepeats(conditions: readonly SingleFieldCondition[]): boolean {
  if (conditions.length > SHORT_LEVEL) return true;
  for (let j = 1; j < conditions.length; j++)
    for (let i = 0; i < j; i++) if (conditions[i]!.field.name === conditions[j]!.field.name) return true;
  return false;
}

/** Whether branch `a` implies condition `b`: `a` is `b`-implying, or an And containing such a child. */
function branchImplies(ctx: Context, a: TypedFilterNode, b: Atom): boolean {
  if (isSingleField(a)) return implies(atomOf(ctx, a), b);
  if (a.kind === 'group' && a.operator === 'And') return andLevel(a.children).some((c) => branchImplies(ctx, c, b));
  return false;
}

/** `Or` branches made redundant by a more general sibling condition. */
function checkRedundantBranches(ctx: Context, group: TypedGroup): void {
  const children = group.children;
  children.forEach((branch, i) => {
    for (let j = 0; j < children.length; j++) {
      if (i === j) continue;
      const other = children[j]!;
      if (!isSingleField(other)) continue;
      const atom = atomOf(ctx, other);
      if (!branchImplies(ctx, branch, atom)) continue;
      // Exact duplicates are duplicate-condition. Asked last: most branches imply no other, and need no key.
      if (conditionKey(branch, ctx) === conditionKey(other, ctx)) continue;
      // When two branches imply each other, report only the later one.
      if (isSingleField(branch) && implies(atom, atomOf(ctx, branch)) && i < j) continue;
      const fix = removeClauseEdit(ctx, children, i);
      ctx.out.push({
        code: 'redundant-or-branch',
        severity: 'warning',
        message: `${quote(ctx, branch)} adds nothing to this Or: every record it matches is already matched by ${quote(ctx, other)}.`,
        start: spanOf(branch).start,
        end: spanOf(branch).end,
        ...(fix === undefined ? {} : { fix }),
      });
      return;
    }
  });
}

/**
 * What the fold of one node gives its parent: whether the node can match
 * some record by these rules, and, for an `And` group, the contradictions
 * of its level — reported by an `Or` parent (the group is a branch of its
 * own), dropped by an `And` parent (whose level looks through the group and
 * reports them itself).
 */
interface NodeFindings {
  readonly satisfiable: boolean;
  readonly contradictions: readonly Diagnostic[];
}

const NONE: readonly Diagnostic[] = [];

/** What a condition gives its parent: it can match, and has no contradictions of a level to pass up. */
const CONDITION: NodeFindings = { satisfiable: true, contradictions: NONE };

/** The rules of one condition: repeated list values and date-only equality. */
function conditionFindings(node: TypedFilterNode, ctx: Context): NodeFindings {
  checkListValues(ctx, node);
  checkDateOnly(ctx, node);
  return CONDITION;
}

/** The rules of one group, its children's findings in hand: duplicates among its children, then its level's contradictions (And) or its branches' (Or). */
function groupFindings(group: TypedGroup, children: readonly NodeFindings[], ctx: Context): NodeFindings {
  checkDuplicates(ctx, group.children);
  if (group.operator === 'And') {
    const contradictions: Diagnostic[] = [];
    const satisfiable = checkContradictions(ctx, andLevel(group.children), contradictions);
    return { satisfiable: satisfiable && children.every((c) => c.satisfiable), contradictions };
  }
  checkRedundantBranches(ctx, group);
  // Each branch is a level of its own: an And branch's contradictions are reported, a condition is checked alone.
  let any = false;
  for (let k = 0; k < group.children.length; k++) {
    const branch = group.children[k]!;
    const found = children[k]!;
    for (const d of found.contradictions) ctx.out.push(d);
    const alone = branch.kind === 'group' || checkContradictions(ctx, [branch]);
    any = (alone && found.satisfiable) || any;
  }
  return { satisfiable: any, contradictions: NONE };
}

/**
 * The rules of every node, bottom-up through the fold (which walks with its
 * own stack, so a tree as deep as the nesting limit, or deeper, is linted
 * whole): list values and date-only checks on each condition, duplicates
 * among each group's children, redundant branches of each `Or`.
 */
const WALK: FoldWithHandlers<TypedFilterNode, Context, NodeFindings> = {
  comparison: conditionFindings,
  'null-check': conditionFindings,
  list: conditionFindings,
  'in-fields': conditionFindings,
  group: { enter: (group, ctx) => (group.operator === 'Or' ? branchesOf(ctx) : levelOf(ctx)), leave: groupFindings },
};

/** The context of an Or group's children (made once per call). */
function branchesOf(ctx: Context): Context {
  return ctx.orBranch ? ctx : (ctx.memo.branches ??= { ...ctx, orBranch: true });
}

/** The context of an And group's children (made once per call). */
function levelOf(ctx: Context): Context {
  return ctx.orBranch ? (ctx.memo.level ??= { ...ctx, orBranch: false }) : ctx;
}

/** Lints the top-level clauses (one AND level); returns whether they can be satisfied. */
function walkTopLevel(ctx: Context, clauses: readonly TypedFilterNode[]): boolean {
  const found = foldFilterWith(clauses, WALK, ctx);
  checkDuplicates(ctx, clauses);
  const ok = checkContradictions(ctx, andLevel(clauses));
  return ok && found.every((f) => f.satisfiable);
}

/**
 * Runs the semantic rules on a validated filter: `contradiction`,
 * `duplicate-condition`, `redundant-or-branch`, `duplicate-list-value`,
 * `date-only-equality` and `unsatisfiable-filter`. All findings are warnings; where removing text
 * fixes one safely (a duplicate clause, a repeated list value, a redundant
 * branch), the diagnostic carries the edit.
 *
 * @example
 * const typed = analyzeFilterOrThrow('Gender.GreaterThan(5);Gender.LessThan(3)', { schema: employeeSchema });
 * lintFilter(typed, { text: 'Gender.GreaterThan(5);Gender.LessThan(3)' }).map((d) => d.code);
 * // ['contradiction', 'unsatisfiable-filter']
 */
export function lintFilter(filter: TypedFilter, options: LintOptions = {}): Diagnostic[] {
  const ctx: Context = {
    text: options.text,
    caseSensitive: options.caseSensitive === true,
    out: [],
    orBranch: false,
    memo: {},
  };
  const ok = filter.clauses.length === 0 || walkTopLevel(ctx, filter.clauses);
  if (!ok) {
    const span = filter.source.span;
    const start = filter.clauses.length > 0 ? spanOf(filter.clauses[0]!).start : span.start;
    const end = filter.clauses.length > 0 ? spanOf(filter.clauses[filter.clauses.length - 1]!).end : span.end;
    ctx.out.push({
      code: 'unsatisfiable-filter',
      severity: 'warning',
      message: 'This filter can match no record; see the contradictions reported in it.',
      start,
      end,
    });
  }
  return ctx.out.sort((a, b) => a.start - b.start || a.end - b.end);
}
