/**
 * When a value can be written bare and how to quote it (SPEC §2, §8). The
 * rules mirror the lexer exactly: a bare value must re-lex to the same text,
 * so anything the lexer would stop at, trim or split on forces quotes.
 */

/**
 * Where a value is written: inside an operator's parentheses, or as the head of an InFields operator.
 *
 * @example
 * const position: ValuePosition = 'in-fields-head'; // as in `'5.5'.GreaterThanInFields(A,B)`
 */
export type ValuePosition = 'argument' | 'in-fields-head';

// SPEC §2: whitespace is exactly space, tab, CR and LF. Other Unicode spaces
// (U+00A0, U+2028, U+FEFF, …) are ordinary characters of a bare value.
function isSpecWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

// Characters that end a bare argument: , ( ) ; '
function endsBareArgument(code: number): boolean {
  return code === 0x2c || code === 0x28 || code === 0x29 || code === 0x3b || code === 0x27;
}

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
  if (!head && (isSpecWhitespace(value.charCodeAt(0)) || isSpecWhitespace(value.charCodeAt(value.length - 1)))) {
    return true;
  }
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (endsBareArgument(code)) return true;
    if (head && (code === 0x2e || isSpecWhitespace(code))) return true;
  }
  return false;
}

/**
 * Writes a value in single quotes, doubling every `'` inside (SPEC §2).
 *
 * @example
 * quoteValue("O'Brien"); // "'O''Brien'"
 * quoteValue('');        // "''"
 */
export function quoteValue(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
