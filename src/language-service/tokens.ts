/**
 * The highlighting of a filter or sort: which range of the text is a field,
 * an operator, a value, a quoted value, a group keyword or a direction.
 *
 * Why from the parser's tree and not a tokenizer of its own: the same
 * characters are a field, an operator or a value depending on where they
 * stand, and the parser is the one place that decides (STYLE.md: no third
 * tokenizer for one feature). The parser recovers from errors, so a broken
 * text still gets the ranges of the parts it could read; the errors
 * themselves are marked by their diagnostics.
 */
import type { FieldNode, FilterNode, ValueNode } from '../ast/nodes.js';
import type { Limits } from '../diagnostics/limits.js';
import { matchFilterNode, type MatchHandlers } from '../ast/fold.js';
import { isWhitespace } from '../ast/lexical.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';

/**
 * What a highlighted range is.
 *
 * @example
 * const kinds: TokenKind[] = highlightTokens('Or(A.Equal(1))').map((t) => t.kind); // ['keyword', 'field', 'operator', 'value']
 */
export type TokenKind = 'field' | 'operator' | 'value' | 'string' | 'keyword' | 'direction';

/**
 * One highlighted range of the text.
 *
 * @example
 * const token: HighlightToken = { kind: 'operator', start: 9, end: 19 };
 */
export interface HighlightToken {
  readonly kind: TokenKind;
  /** UTF-16 offset of the first character. */
  readonly start: number;
  /** UTF-16 offset just past the last character. */
  readonly end: number;
}

/**
 * Options for `highlightTokens`.
 *
 * @example
 * highlightTokens('LastName=Desc', { kind: 'sort' } satisfies HighlightOptions);
 */
export interface HighlightOptions {
  /** Which language the text is in. Default `'filter'`. */
  readonly kind?: 'filter' | 'sort';
  readonly limits?: Partial<Limits>;
}

/**
 * The highlighted ranges of a filter (or sort), in text order, never
 * overlapping. Works on broken text (what the parser recovered is
 * highlighted); never throws.
 *
 * @example
 * highlightTokens("LastName.StartsWith('Sm')");
 * // [{ kind: 'field', start: 0, end: 8 }, { kind: 'operator', start: 9, end: 19 }, { kind: 'string', start: 20, end: 24 }]
 * highlightTokens('LastName=Desc', { kind: 'sort' });
 * // [{ kind: 'field', start: 0, end: 8 }, { kind: 'direction', start: 9, end: 13 }]
 */
export function highlightTokens(text: string, options: HighlightOptions = {}): HighlightToken[] {
  const out: HighlightToken[] = [];
  const parseOptions = options.limits === undefined ? {} : { limits: options.limits };
  if (options.kind === 'sort') pushSortTokens(out, text, parseOptions);
  else pushFilterTokens(out, parseFilter(text, parseOptions).ast.clauses);
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  // Recovered nodes may share ranges; keep the ranges disjoint for editors.
  const disjoint: HighlightToken[] = [];
  for (const t of out) if (disjoint.length === 0 || t.start >= disjoint[disjoint.length - 1]!.end) disjoint.push(t);
  return disjoint;
}

/** Each sort item's field and, when written, its direction: the word after `=` at the end of the item. */
function pushSortTokens(out: HighlightToken[], text: string, parseOptions: { readonly limits?: Partial<Limits> }): void {
  for (const item of parseSort(text, parseOptions).ast.items) {
    pushField(out, item.field);
    if (!item.explicitDirection) continue;
    const itemText = text.slice(item.span.start, item.span.end);
    const eq = itemText.lastIndexOf('=');
    if (eq < 0) continue;
    let start = item.span.start + eq + 1;
    // The language's whitespace only (docs/reference.md §"Lexical rules"): U+00A0 belongs to the word, as the parser reads it.
    while (start < item.span.end && isWhitespace(text.charCodeAt(start))) start++;
    if (start < item.span.end) out.push({ kind: 'direction', start, end: item.span.end });
  }
}

/**
 * The ranges of every node, each node before its children (a recovered
 * group may share a range with a child, and the first range pushed wins).
 * An explicit stack, so no nesting the limits allow exhausts the call stack.
 */
function pushFilterTokens(out: HighlightToken[], clauses: readonly FilterNode[]): void {
  const stack: FilterNode[] = [...clauses].reverse();
  const handlers: MatchHandlers<FilterNode, void> = {
    group: (node) => {
      push(out, 'keyword', node.operatorSpan);
      for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
    },
    comparison: (node) => {
      pushField(out, node.field);
      push(out, 'operator', node.operatorSpan);
      pushValue(out, node.value);
    },
    'null-check': (node) => {
      pushField(out, node.field);
      push(out, 'operator', node.operatorSpan);
    },
    list: (node) => {
      pushField(out, node.field);
      push(out, 'operator', node.operatorSpan);
      for (const v of node.values) pushValue(out, v);
    },
    'in-fields': (node) => {
      pushValue(out, node.value);
      push(out, 'operator', node.operatorSpan);
      for (const f of node.fields) pushField(out, f);
    },
  };
  while (stack.length > 0) matchFilterNode(stack.pop()!, handlers);
}

function push(out: HighlightToken[], kind: TokenKind, span: { readonly start: number; readonly end: number }): void {
  if (span.end > span.start) out.push({ kind, start: span.start, end: span.end });
}

function pushField(out: HighlightToken[], field: FieldNode): void {
  push(out, 'field', field.span);
}

function pushValue(out: HighlightToken[], value: ValueNode): void {
  push(out, value.quoted ? 'string' : 'value', value.span);
}
