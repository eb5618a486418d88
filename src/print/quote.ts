/**
 * When a value can be written bare and how to quote it (docs/reference.md §"Lexical
 * rules", §"Canonical form"). The
 * rules mirror the lexer exactly: a bare value must re-lex to the same text,
 * so anything the lexer would stop at, trim or split on forces quotes.
 */
import { endsBareValue, isWhitespace } from '../ast/lexical.js';

/**
 * Where a value is written: inside an operator's parentheses, or as the head of an InFields operator.
 *
 * @example
 * const position: ValuePosition = 'in-fields-head'; // as in `'5.5'.GreaterThanInFields(A,B)`
 */
export type ValuePosition = 'argument' | 'in-fields-head';

/**
 * True when `value` must be quoted to read back as itself: it is empty, has
 * leading or trailing whitespace, contains `, ( ) ; '`, or — as an InFields
 * head, whose bare form is split into dot-separated segments that may not
 * hold whitespace — contains `.` or any whitespace.
 *
 * @example
 * needsQuoting('New York', 'argument');        // false
 * needsQuoting(' padded', 'argument');         // true
 * needsQuoting("O'Brien", 'argument');         // true
 * needsQuoting('5.5', 'in-fields-head');       // true
 */
export function needsQuoting(value: string, position: ValuePosition): boolean {
  if (value.length === 0) return true;
  const head = position === 'in-fields-head';
  if (!head && (isWhitespace(value.charCodeAt(0)) || isWhitespace(value.charCodeAt(value.length - 1)))) {
    return true;
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (endsBareValue(code)) return true;
    if (head && (code === 0x2e || isWhitespace(code))) return true;
  }
  return false;
}

export { quoteValue } from '../ast/lexical.js';
