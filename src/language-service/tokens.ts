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
  if (options.kind === 'sort') {
    for (const item of parseSort(text, parseOptions).ast.items) {
      pushField(out, item.field);
      if (!item.explicitDirection) continue;
      // The direction is the word after `=` at the end of the item.
      const itemText = text.slice(item.span.start, item.span.end);
      const eq = itemText.lastIndexOf('=');
      if (eq < 0) continue;
      let start = item.span.start + eq + 1;
      while (start < item.span.end && /\s/.test(text[start]!)) start++;
      if (start < item.span.end) out.push({ kind: 'direction', start, end: item.span.end });
    }
  } else {
    const stack: FilterNode[] = [...parseFilter(text, parseOptions).ast.clauses].reverse();
    while (stack.length > 0) {
      const node = stack.pop()!;
      switch (node.kind) {
        case 'group':
          push(out, 'keyword', node.operatorSpan);
          for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]!);
          break;
        case 'comparison':
          pushField(out, node.field);
          push(out, 'operator', node.operatorSpan);
          pushValue(out, node.value);
          break;
        case 'null-check':
          pushField(out, node.field);
          push(out, 'operator', node.operatorSpan);
          break;
        case 'list':
          pushField(out, node.field);
          push(out, 'operator', node.operatorSpan);
          for (const v of node.values) pushValue(out, v);
          break;
        case 'in-fields':
          pushValue(out, node.value);
          push(out, 'operator', node.operatorSpan);
          for (const f of node.fields) pushField(out, f);
          break;
      }
    }
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  // Recovered nodes may share ranges; keep the ranges disjoint for editors.
  const disjoint: HighlightToken[] = [];
  for (const t of out) if (disjoint.length === 0 || t.start >= disjoint[disjoint.length - 1]!.end) disjoint.push(t);
  return disjoint;
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
