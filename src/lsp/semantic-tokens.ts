/**
 * Semantic tokens of saved filters and sorts for `wepql lsp`: which spans of
 * an entry are fields, operators, values, keywords and punctuation. Filters
 * are classified from the tokens of the parser's own scanner (`scanFilter`),
 * so the editor colours exactly what the parser reads; sorts from the
 * parsed sort's items.
 */
import { trimWhitespace } from '../ast/lexical.js';
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
    else if (inside === 'values') spans.push({ start, end, type: valueType(t.image) });
    else if (inside === 'fields') spans.push({ start, end, type: 'property' });
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

/** A value token that reads as a number; the token holds no whitespace of the language, and U+00A0 or U+200B make it text, as they do for the parser. */
function valueType(image: string): SemanticTokenType {
  return NUMBER.test(trimWhitespace(image)) ? 'number' : 'string';
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
