/**
 * Semantic lint rules: problems a filter can have even when it is well
 * typed — contradictions, duplicates, redundant `Or` branches, repeated list
 * values and filters that can match nothing. They run on the validated tree
 * and report warnings; a filter with such findings still runs.
 */
import { foldFilter, foldFilterWith, matchFilterNode, skipChildren, type FoldHandlers, type MatchHandlers } from '../ast/fold.js';
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

interface Context {
  /** The direct branches of Or groups: a suggestion replacing one must be a single clause. */
  readonly orBranches: ReadonlySet<TypedFilterNode>;
  readonly text: string | undefined;
  readonly caseSensitive: boolean;
  readonly out: Diagnostic[];
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

const SINGLE_FIELD: MatchHandlers<TypedFilterNode, boolean> = {
  comparison: () => true,
  list: () => true,
  'null-check': () => true,
  group: () => false,
  'in-fields': () => false,
};

function isSingleField(node: TypedFilterNode): node is SingleFieldCondition {
  return matchFilterNode(node, SINGLE_FIELD);
}

/** A structural key: equal keys mean equivalent conditions. */
function conditionKey(node: TypedFilterNode, caseSensitive: boolean): string {
  const norm = (v: Parameters<typeof normalizeValue>[0], type: ScalarType): string =>
    JSON.stringify(normalizeValue(v, type, caseSensitive));
  return foldFilter<TypedFilterNode, string>(node, {
    comparison: (c) => `c|${c.field.name}|${c.operator}|${norm(c.value, c.field.type)}`,
    'null-check': (n) => `n|${n.field.name}|${n.operator}`,
    list: (l) => `l|${l.field.name}|${l.operator}|${[...new Set(l.values.map((v) => norm(v, l.field.type)))].sort().join(',')}`,
    'in-fields': (f) => `f|${f.operator}|${f.fields.map((field, i) => `${field.name}=${norm(f.values[i]!, field.type)}`).join(',')}`,
    group: (g, children) => `g|${g.operator}(${children.join(';')})`,
  });
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

/** The clauses ANDed at one level: nested `And` groups are looked through (through the fold, so no nesting exhausts the call stack). */
function andLevel(clauses: readonly TypedFilterNode[]): TypedFilterNode[] {
  const out: TypedFilterNode[] = [];
  const take = (node: TypedFilterNode): void => {
    out.push(node);
  };
  foldFilterWith<TypedFilterNode, undefined, void>(
    clauses,
    {
      group: {
        // An Or group is one clause of this level; an And group's children are.
        enter: (group) => {
          if (group.operator === 'And') return undefined;
          take(group);
          return skipChildren(undefined);
        },
        leave: () => undefined,
      },
      comparison: take,
      'null-check': take,
      list: take,
      'in-fields': take,
    },
    undefined,
  );
  return out;
}

/** Duplicate conditions among direct siblings (same level, same group). */
function checkDuplicates(ctx: Context, siblings: readonly TypedFilterNode[]): void {
  // One clause repeats nothing: no key to build (a group's key spells out its whole subtree).
  if (siblings.length < 2) return;
  const seen = new Map<string, TypedFilterNode>();
  siblings.forEach((node, i) => {
    const key = conditionKey(node, ctx.caseSensitive);
    const first = seen.get(key);
    if (first === undefined) {
      seen.set(key, node);
      return;
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
  });
}

/** Repeated values inside one list operator. */
function checkListValues(ctx: Context, node: TypedFilterNode): void {
  if (node.kind !== 'list') return;
  const seen = new Set<string>();
  node.values.forEach((v, i) => {
    const key = JSON.stringify(normalizeValue(v, node.field.type, ctx.caseSensitive));
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
    ctx.orBranches.has(node),
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
 * there is one. Returns whether the level is satisfiable by this test.
 */
function checkContradictions(ctx: Context, level: readonly TypedFilterNode[]): boolean {
  let ok = true;
  const byField = new Map<string, { node: SingleFieldCondition; atom: Atom }[]>();
  for (const node of level) {
    if (!isSingleField(node)) continue;
    const atom = toAtom(node, ctx.caseSensitive);
    if (!satisfiable([atom])) {
      ok = false;
      ctx.out.push({
        code: 'contradiction',
        severity: 'warning',
        message: `${quote(ctx, node)} can never be true: every string contains, starts and ends with the empty string.`,
        start: spanOf(node).start,
        end: spanOf(node).end,
      });
      continue;
    }
    const list = byField.get(atom.field) ?? [];
    list.push({ node, atom });
    byField.set(atom.field, list);
  }
  for (const [field, entries] of byField) {
    if (entries.length < 2 || satisfiable(entries.map((e) => e.atom))) continue;
    ok = false;
    let reported = false;
    for (let j = 1; j < entries.length && !reported; j++) {
      for (let i = 0; i < j && !reported; i++) {
        if (satisfiable([entries[i]!.atom, entries[j]!.atom])) continue;
        reported = true;
        const later = entries[j]!.node;
        ctx.out.push({
          code: 'contradiction',
          severity: 'warning',
          message: `${quote(ctx, later)} contradicts ${quote(ctx, entries[i]!.node)}: no value of ${field} satisfies both.`,
          start: spanOf(later).start,
          end: spanOf(later).end,
        });
      }
    }
    if (!reported) {
      const last = entries[entries.length - 1]!.node;
      ctx.out.push({
        code: 'contradiction',
        severity: 'warning',
        message: `The conditions on ${field} (${entries.map((e) => quote(ctx, e.node)).join(', ')}) cannot all be true together.`,
        start: spanOf(entries[0]!.node).start,
        end: spanOf(last).end,
      });
    }
  }
  return ok;
}

/** Whether branch `a` implies condition `b`: `a` is `b`-implying, or an And containing such a child. */
function branchImplies(a: TypedFilterNode, b: Atom, caseSensitive: boolean): boolean {
  if (isSingleField(a)) return implies(toAtom(a, caseSensitive), b);
  if (a.kind === 'group' && a.operator === 'And') return andLevel(a.children).some((c) => branchImplies(c, b, caseSensitive));
  return false;
}

/** `Or` branches made redundant by a more general sibling condition. */
function checkRedundantBranches(ctx: Context, group: TypedGroup): void {
  const children = group.children;
  const keys = children.map((c) => conditionKey(c, ctx.caseSensitive));
  children.forEach((branch, i) => {
    for (let j = 0; j < children.length; j++) {
      if (i === j || keys[i] === keys[j]) continue; // exact duplicates are duplicate-condition
      const other = children[j]!;
      if (!isSingleField(other)) continue;
      const atom = toAtom(other, ctx.caseSensitive);
      if (!branchImplies(branch, atom, ctx.caseSensitive)) continue;
      // When two branches imply each other, report only the later one.
      if (isSingleField(branch) && implies(atom, toAtom(branch, ctx.caseSensitive)) && i < j) continue;
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

/**
 * The rules of every node, bottom-up through the fold (which walks with its
 * own stack, so a tree as deep as the nesting limit, or deeper, is linted
 * whole): list values and date-only checks on each condition, duplicates
 * among each group's children, redundant branches of each `Or`.
 */
function walkHandlers(ctx: Context): FoldHandlers<TypedFilterNode, NodeFindings> {
  const leaf = (node: TypedFilterNode): NodeFindings => {
    checkListValues(ctx, node);
    checkDateOnly(ctx, node);
    return { satisfiable: true, contradictions: NONE };
  };
  return {
    comparison: leaf,
    'null-check': leaf,
    list: leaf,
    'in-fields': leaf,
    group: (group, children) => {
      checkDuplicates(ctx, group.children);
      if (group.operator === 'And') {
        const level: Context = { ...ctx, out: [] };
        const satisfiable = checkContradictions(level, andLevel(group.children));
        return { satisfiable: satisfiable && children.every((c) => c.satisfiable), contradictions: level.out };
      }
      checkRedundantBranches(ctx, group);
      // Each branch is a level of its own: an And branch's contradictions are reported, a condition is checked alone.
      let any = false;
      group.children.forEach((branch, k) => {
        const found = children[k]!;
        for (const d of found.contradictions) ctx.out.push(d);
        const alone = branch.kind === 'group' || checkContradictions(ctx, [branch]);
        any = (alone && found.satisfiable) || any;
      });
      return { satisfiable: any, contradictions: NONE };
    },
  };
}

/** Lints the top-level clauses (one AND level); returns whether they can be satisfied. */
function walkTopLevel(ctx: Context, clauses: readonly TypedFilterNode[]): boolean {
  const handlers = walkHandlers(ctx);
  const found = clauses.map((clause) => foldFilter(clause, handlers));
  checkDuplicates(ctx, clauses);
  const ok = checkContradictions(ctx, andLevel(clauses));
  return ok && found.every((f) => f.satisfiable);
}

function orBranches(clauses: readonly TypedFilterNode[]): Set<TypedFilterNode> {
  const out = new Set<TypedFilterNode>();
  const none = (): void => undefined;
  foldFilterWith<TypedFilterNode, undefined, void>(
    clauses,
    {
      group: {
        enter: (group) => {
          if (group.operator === 'Or') for (const branch of group.children) out.add(branch);
          return undefined;
        },
        leave: none,
      },
      comparison: none,
      'null-check': none,
      list: none,
      'in-fields': none,
    },
    undefined,
  );
  return out;
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
    orBranches: orBranches(filter.clauses),
    text: options.text,
    caseSensitive: options.caseSensitive === true,
    out: [],
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
