/**
 * The one classifier of filter and sort text, for every highlighter: the
 * CodeMirror extension (`highlightTokens`, a range per part) and the
 * language server's semantic tokens (`classifyText`, a span per token).
 *
 * Which part of the text a word is (a field, an operator, a value, a group
 * keyword, a direction) comes from the parser's tree, never from the word's
 * spelling: the same characters are a field, an operator or a value
 * depending on where they stand, and the parser is the one place that
 * decides (STYLE.md: no third tokenizer for one feature). The words
 * themselves are the parser's own scanner's tokens, so punctuation is
 * classified too and no whitespace inside a bare value is coloured (an LSP
 * token may not cross a line). The parser recovers from errors, so a broken
 * text still gets the parts it could read; a token outside every part gets a
 * class from its neighbour alone (a word before `(` is an operator).
 */
import type { FieldNode, FilterNode, ValueNode } from '../ast/nodes.js';
import type { Limits } from '../diagnostics/limits.js';
import { foldFilterWith, type FoldWithHandlers } from '../ast/fold.js';
import { isWhitespace, trimWhitespace } from '../ast/lexical.js';
import { parseFilter } from '../syntax/parse-filter.js';
import { parseSort } from '../syntax/parse-sort.js';
import { scanFilter, type ScannedToken } from '../syntax/filter-scanner.js';
import { Comma, Dot, GroupKeyword, LParen, Quoted, RParen, Semicolon, StrayQuote, Unterminated } from '../syntax/filter-lexer.js';

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
  for (const span of classifyText(text, options)) {
    if (span.class === 'punctuation') continue;
    const last = out[out.length - 1];
    // The tokens of one part (the words of `Address.Zip`, of a bare value `New York`) are one range.
    if (last !== undefined && last.start === span.part.start) continue;
    out.push({ kind: HIGHLIGHT_KIND[span.class], start: span.part.start, end: span.part.end });
  }
  return out;
}

const HIGHLIGHT_KIND: Readonly<Record<Exclude<TextClass, 'punctuation'>, TokenKind>> = {
  field: 'field',
  operator: 'operator',
  keyword: 'keyword',
  direction: 'direction',
  string: 'string',
  number: 'value',
  value: 'value',
};

/**
 * What a piece of filter or sort text is: a field path, an operator, `And`
 * or `Or` (`keyword`), a sort direction, a quoted value (`string`), a bare
 * value that reads as a number (`number`) or as anything else (`value`), or
 * punctuation (`( ) ; , . =`).
 *
 * @example
 * const c: TextClass = 'number';
 */
export type TextClass = 'field' | 'operator' | 'keyword' | 'direction' | 'string' | 'number' | 'value' | 'punctuation';

/**
 * One token of the text with its class, and the part of the text (a field
 * path, a whole value, an operator) it belongs to: the token itself when it
 * belongs to none.
 *
 * @example
 * const s: ClassifiedSpan = { class: 'field', start: 8, end: 12, part: { start: 0, end: 12 } }; // Zip of Address.Zip
 */
export interface ClassifiedSpan {
  readonly class: TextClass;
  /** UTF-16 offset of the token's first character. */
  readonly start: number;
  /** UTF-16 offset just past the token's last character. */
  readonly end: number;
  readonly part: Span;
}

interface Span {
  readonly start: number;
  readonly end: number;
}

interface Part extends Span {
  readonly class: Exclude<TextClass, 'punctuation'>;
}

/**
 * The classified tokens of a filter (or sort), in text order, never
 * overlapping; every character that is not whitespace outside a quoted
 * value is in one. Never throws.
 *
 * @example
 * classifyText('Or(A.Equal(1))').map((s) => s.class);
 * // ['keyword', 'punctuation', 'field', 'punctuation', 'operator', 'punctuation', 'number', 'punctuation', 'punctuation']
 */
export function classifyText(text: string, options: HighlightOptions = {}): ClassifiedSpan[] {
  const parseOptions = options.limits === undefined ? {} : { limits: options.limits };
  if (options.kind === 'sort') return sortSpans(text, parseOptions);
  const parts: Part[] = [];
  pushFilterParts(parts, text, parseFilter(text, parseOptions).ast.clauses);
  return tokenSpans(scanFilter(text), disjoint(parts));
}

/** Parts in text order; recovered nodes may share ranges, and the first pushed (a node before its children) wins. */
function disjoint(parts: Part[]): Part[] {
  const sorted = parts.map((p, k) => ({ p, k })).sort((a, b) => a.p.start - b.p.start || a.p.end - b.p.end || a.k - b.k);
  const out: Part[] = [];
  for (const { p } of sorted) if (out.length === 0 || p.start >= out[out.length - 1]!.end) out.push(p);
  return out;
}

const PUNCTUATION = new Set([LParen, RParen, Semicolon, Comma, Dot]);
const QUOTED = new Set([Quoted, Unterminated, StrayQuote]);

/** Each scanned token with the class of the part it lies in; punctuation inside a part (the dot of a path) stays punctuation. */
function tokenSpans(tokens: readonly ScannedToken[], parts: readonly Part[]): ClassifiedSpan[] {
  const out: ClassifiedSpan[] = [];
  let p = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const start = t.startOffset;
    const end = (t.endOffset ?? t.startOffset + t.image.length - 1) + 1;
    while (p < parts.length && parts[p]!.end <= start) p++;
    const part = parts[p] !== undefined && parts[p]!.start <= start && end <= parts[p]!.end ? parts[p] : undefined;
    if (PUNCTUATION.has(t.tokenType)) out.push({ class: 'punctuation', start, end, part: part ?? { start, end } });
    else if (part !== undefined) out.push({ class: part.class, start, end, part });
    else out.push({ class: unreadClass(t, tokens[i + 1]), start, end, part: { start, end } });
  }
  return out;
}

/** A token the parser read into no part (broken text): by its kind and what follows it. */
function unreadClass(token: ScannedToken, next: ScannedToken | undefined): Exclude<TextClass, 'punctuation'> {
  if (QUOTED.has(token.tokenType)) return 'string';
  if (next?.tokenType !== LParen) return 'field';
  return token.tokenType === GroupKeyword ? 'keyword' : 'operator';
}

/**
 * The parts of every node, each node before its children, through the fold
 * (its own stack, so no nesting the limits allow exhausts the call stack).
 */
function pushFilterParts(out: Part[], text: string, clauses: readonly FilterNode[]): void {
  const value = (v: ValueNode) => push(out, valueClass(text, v), v.span);
  const field = (f: FieldNode) => push(out, 'field', f.span);
  const handlers: FoldWithHandlers<FilterNode, undefined, void> = {
    group: {
      enter: (node) => {
        push(out, 'keyword', node.operatorSpan);
        return undefined;
      },
      leave: () => undefined,
    },
    comparison: (node) => {
      field(node.field);
      push(out, 'operator', node.operatorSpan);
      value(node.value);
    },
    'null-check': (node) => {
      field(node.field);
      push(out, 'operator', node.operatorSpan);
    },
    list: (node) => {
      field(node.field);
      push(out, 'operator', node.operatorSpan);
      for (const v of node.values) value(v);
    },
    'in-fields': (node) => {
      value(node.value);
      push(out, 'operator', node.operatorSpan);
      for (const f of node.fields) field(f);
    },
  };
  foldFilterWith(clauses, handlers, undefined);
}

const NUMBER = /^-?\d+(\.\d+)?$/;

/** A quoted value is a string; a bare one a number when its text, without the whitespace around it, is written as one. */
function valueClass(text: string, value: ValueNode): Part['class'] {
  if (value.quoted) return 'string';
  return NUMBER.test(trimWhitespace(text.slice(value.span.start, value.span.end))) ? 'number' : 'value';
}

function push(out: Part[], kind: Part['class'], span: Span): void {
  if (span.end > span.start) out.push({ class: kind, start: span.start, end: span.end });
}

/** Each sort item's field, its `=` and direction when written, and the `;` between items. */
function sortSpans(text: string, parseOptions: { readonly limits?: Partial<Limits> }): ClassifiedSpan[] {
  const out: ClassifiedSpan[] = [];
  const one = (c: TextClass, start: number, end: number) => out.push({ class: c, start, end, part: { start, end } });
  let after = 0;
  for (const item of parseSort(text, parseOptions).ast.items) {
    for (let at = text.indexOf(';', after); at !== -1 && at < item.span.start; at = text.indexOf(';', at + 1))
      one('punctuation', at, at + 1);
    after = item.span.end;
    if (item.field.span.end > item.field.span.start) one('field', item.field.span.start, item.field.span.end);
    if (!item.explicitDirection) continue;
    const eq = text.lastIndexOf('=', item.span.end - 1);
    if (eq < item.field.span.end) continue;
    one('punctuation', eq, eq + 1);
    let start = eq + 1;
    // The language's whitespace only (docs/reference.md §"Lexical rules"): U+00A0 belongs to the word, as the parser reads it.
    while (start < item.span.end && isWhitespace(text.charCodeAt(start))) start++;
    if (start < item.span.end) one('direction', start, item.span.end);
  }
  for (let at = text.indexOf(';', after); at !== -1; at = text.indexOf(';', at + 1)) one('punctuation', at, at + 1);
  return out;
}
