/**
 * How the filter parser's modules read one token: where it ends, whether it
 * can be a name, and how a message names it. Shared by the grammar, the
 * recovery and the condition builders so that each says it the same way.
 */
import type { IToken, TokenType } from 'chevrotain';
import { Comma, Dot, GroupKeyword, LParen, RParen, Semicolon, StrayQuote, Word } from './filter-lexer.js';
import { operatorAt, type NamedOperator } from './operator-lookup.js';
import { excerpt } from './text-checks.js';

/**
 * Offset just past `t` (the scanner sets `endOffset` on every token, so reading it slices no image).
 *
 * @example
 * endOf(scanFilter('Name')[0]!); // 4
 */
export function endOf(t: IToken): number {
  return t.endOffset! + 1;
}

/**
 * True for the token types a name (a field segment, an operator) is made of.
 *
 * @example
 * isNameToken(GroupKeyword); // true: `Or` may name a field
 */
export function isNameToken(type: TokenType): boolean {
  return type === Word || type === GroupKeyword;
}

/**
 * How a token is named in messages: punctuation quoted, anything else as an excerpt of its text.
 *
 * @example
 * describeToken(scanFilter(')')[0]!); // "')'"
 */
export function describeToken(t: IToken): string {
  const type = t.tokenType;
  if (type === LParen) return "'('";
  if (type === RParen) return "')'";
  if (type === Comma) return "','";
  if (type === Semicolon) return "';'";
  if (type === Dot) return "'.'";
  if (type === StrayQuote) return "'";
  return `"${excerpt(t.image, 30)}"`;
}

/**
 * The operator (with its shape) that the token `token` of `text` names, in any case; undefined when it names none.
 *
 * @example
 * const text = 'A.startswith(x)';
 * operatorNamed(text, scanFilter(text)[2]!)?.op; // 'StartsWith'
 */
export function operatorNamed(text: string, token: IToken): NamedOperator | undefined {
  return operatorAt(text, token.startOffset, endOf(token));
}
