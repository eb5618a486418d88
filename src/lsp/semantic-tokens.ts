/**
 * Semantic tokens of saved filters and sorts for `wepql lsp`: which spans of
 * an entry are fields, operators, values, keywords and punctuation. Filters
 * are classified from the tokens of the parser's own scanner (`scanFilter`),
 * so the editor colours exactly what the parser reads; sorts from the
 * parsed sort's items.
 */
import { trimWhitespace } from '../ast/lexical.js';
import type { IToken } from 'chevrotain';
import { parseSort } from '../syntax/parse-sort.js';
import { scanFilter } from '../syntax/filter-scanner.js';
import { Comma, Dot, GroupKeyword, LParen, Quoted, RParen, Semicolon, StrayQuote, Unterminated } from '../syntax/filter-lexer.js';

/**
 * The token types, in the order of the legend the server announces (the
 * standard LSP names, so every editor theme colours them).
 *
 * @example
 * SEMANTIC_TOKEN_TYPES.indexOf('property'); // 0
 */
export const SEMANTIC_TOKEN_TYPES = ['property', 'method', 'string', 'number', 'keyword', 'operator'] as const;

/**
 * What a span of an entry is: a field (`property`), an operator (`method`),
 * a value (`string` or `number`), `And`/`Or` or a sort direction
 * (`keyword`), or punctuation (`operator`).
 *
 * @example
 * const kind: SemanticTokenType = 'property';
 */
export type SemanticTokenType = (typeof SEMANTIC_TOKEN_TYPES)[number];

/**
 * One classified span of an entry's text (UTF-16 offsets, end exclusive).
 *
 * @example
 * const span: SemanticSpan = { start: 0, end: 8, type: 'property' };
 */
export interface SemanticSpan {
  readonly start: number;
  readonly end: number;
  readonly type: SemanticTokenType;
}

const PUNCTUATION = new Set([LParen, RParen, Semicolon, Comma, Dot]);
const NUMBER = /^-?\d+(\.\d+)?$/;

/**
 * The semantic spans of one filter, in text order. Inside an operator's
 * parentheses every word is a value (a field for the `…InFields` operators,
 * whose subject before the dot is the value); elsewhere the words before an
 * operator's `(` are the field path and the last of them the operator.
 *
 * @example
 * filterSpans('Or(A.Equal(1))').map((s) => s.type); // ['keyword', 'operator', 'property', 'operator', 'method', 'operator', 'number', 'operator', 'operator']
 */
export function filterSpans(text: string): SemanticSpan[] {
  const tokens = scanFilter(text);
  const spans: SemanticSpan[] = [];
  // For each open parenthesis, what its words are: clauses (a group), values or fields (an operator's arguments).
  const opened: ('clauses' | 'values' | 'fields')[] = [];
  let clauseStart = 0;
  // The type of the bare value the current word belongs to, valid up to token `value.last`.
  let value = { last: -1, type: 'string' as SemanticTokenType };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const start = t.startOffset;
    const end = (t.endOffset ?? t.startOffset + t.image.length - 1) + 1;
    const inside = opened[opened.length - 1] ?? 'clauses';
    const next = tokens[i + 1]?.tokenType;
    if (t.tokenType === LParen)
      opened.push(tokens[i - 1]?.tokenType === GroupKeyword ? 'clauses' : IN_FIELDS.test(tokens[i - 1]?.image ?? '') ? 'fields' : 'values');
    if (t.tokenType === RParen) opened.pop();
    if (PUNCTUATION.has(t.tokenType)) spans.push({ start, end, type: 'operator' });
    else if (t.tokenType === Quoted || t.tokenType === Unterminated || t.tokenType === StrayQuote)
      spans.push({ start, end, type: 'string' });
    else if (inside === 'values') {
      if (i > value.last) value = bareValueAt(text, tokens, i);
      spans.push({ start, end, type: value.type });
    } else if (inside === 'fields') spans.push({ start, end, type: 'property' });
    else if (t.tokenType === GroupKeyword && next === LParen) spans.push({ start, end, type: 'keyword' });
    else if (next !== LParen) spans.push({ start, end, type: 'property' });
    else {
      // `'D'.StartsWithInFields(A,B)`: what came before the operator is its value, not a field path.
      if (IN_FIELDS.test(t.image))
        for (let k = clauseStart; k < spans.length; k++)
          if (spans[k]!.type === 'property') spans[k] = { ...spans[k]!, type: valueType(text.slice(spans[k]!.start, spans[k]!.end)) };
      spans.push({ start, end, type: 'method' });
    }
    if (inside === 'clauses' && (t.tokenType === Semicolon || t.tokenType === LParen)) clauseStart = spans.length;
  }
  return spans;
}

const IN_FIELDS = /InFields$/i;

/** A word of an InFields head: its words are typed one by one. */
function valueType(image: string): SemanticTokenType {
  return NUMBER.test(image) ? 'number' : 'string';
}

/** Tokens that end a bare value inside an operator's parentheses (a `(` is an error the parser reports). */
const ENDS_VALUE = new Set([Comma, RParen, Semicolon, LParen]);

/**
 * The bare value around the word at token `i`, as the parser reads it: the
 * source from its first to its last token, so whitespace inside is kept and
 * none is around it (docs/reference.md §"Lexical rules"). Each word of
 * `Age.Equal(1 2)` is text, as the value `1 2` is; U+00A0 or U+200B next
 * to a digit is part of the value, never whitespace.
 */
function bareValueAt(text: string, tokens: readonly IToken[], i: number): { last: number; type: SemanticTokenType } {
  let first = i;
  while (first > 0 && !ENDS_VALUE.has(tokens[first - 1]!.tokenType)) first--;
  let last = i;
  while (last + 1 < tokens.length && !ENDS_VALUE.has(tokens[last + 1]!.tokenType)) last++;
  const value = text.slice(tokens[first]!.startOffset, tokens[last]!.startOffset + tokens[last]!.image.length);
  return { last, type: NUMBER.test(trimWhitespace(value)) ? 'number' : 'string' };
}

/**
 * The semantic spans of one sort: each field, `=`, its direction and the `;` between items.
 *
 * @example
 * sortSpans('LastName=Asc').map((s) => s.type); // ['property', 'operator', 'keyword']
 */
export function sortSpans(text: string): SemanticSpan[] {
  const spans: SemanticSpan[] = [];
  const items = parseSort(text).ast?.items ?? [];
  for (const item of items) {
    spans.push({ start: item.field.span.start, end: item.field.span.end, type: 'property' });
    const rest = text.slice(item.field.span.end, item.span.end);
    const equals = rest.indexOf('=');
    if (equals < 0) continue;
    spans.push({ start: item.field.span.end + equals, end: item.field.span.end + equals + 1, type: 'operator' });
    const word = /[A-Za-z]+/.exec(rest.slice(equals + 1));
    if (word !== null) {
      const at = item.field.span.end + equals + 1 + word.index;
      spans.push({ start: at, end: at + word[0].length, type: 'keyword' });
    }
  }
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 59) spans.push({ start: i, end: i + 1, type: 'operator' });
  return spans.sort((a, b) => a.start - b.start);
}
