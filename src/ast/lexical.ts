/**
 * The language's character rules, in one place: what an identifier is,
 * what counts as whitespace, which characters end a bare value, which
 * characters no value may hold, and how a value is quoted. The lexer, the
 * printer, the schema, the SQL compiler, the builder and completion all ask
 * this module rather than restating a rule.
 *
 * Depends on nothing.
 */

/**
 * The identifier rule as text, for messages: field path segments, schema
 * field names and JSON keys must match it.
 *
 * @example
 * `names must match ${IDENTIFIER_RULE}`; // 'names must match [A-Za-z_][A-Za-z0-9_]*'
 */
export const IDENTIFIER_RULE = '[A-Za-z_][A-Za-z0-9_]*';

/**
 * True when `s` is an identifier: `[A-Za-z_][A-Za-z0-9_]*`, ASCII only.
 *
 * @example
 * isIdentifier('Address'); // true
 * isIdentifier('1st');     // false
 */
export function isIdentifier(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (i === 0 || c < 48 || c > 57)) return false;
  }
  return true;
}

/**
 * True for a character that may continue an identifier: an ASCII letter, a
 * digit or `_`.
 *
 * @example
 * isIdentifierCode('Z'.charCodeAt(0)); // true
 * isIdentifierCode('.'.charCodeAt(0)); // false
 */
export function isIdentifierCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c >= 48 && c <= 57);
}

/**
 * True when `s` is a field path: identifiers joined by `.` (`Address.Zip`).
 *
 * @example
 * isFieldPath('Address.Zip'); // true
 * isFieldPath('Address.');    // false
 */
export function isFieldPath(s: string): boolean {
  // One pass, no slicing: the printer checks every field it writes.
  let segmentStart = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) {
      if (segmentStart) return false;
      segmentStart = true;
      continue;
    }
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (segmentStart || c < 48 || c > 57)) return false;
    segmentStart = false;
  }
  return !segmentStart;
}

/**
 * True for the language's whitespace: exactly space, tab, CR and LF. Other
 * Unicode spaces (U+00A0, U+2028, U+FEFF, …) are ordinary characters.
 *
 * @example
 * isWhitespace(0x20);   // true
 * isWhitespace(0x00a0); // false
 */
export function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/**
 * True for a character that ends a bare value inside parentheses: `, ( ) ; '`.
 *
 * @example
 * endsBareValue(','.charCodeAt(0)); // true
 */
export function endsBareValue(code: number): boolean {
  return code === 0x2c || code === 0x28 || code === 0x29 || code === 0x3b || code === 0x27;
}

/**
 * Describes the first character databases reject in a value (U+0000 or an
 * unpaired surrogate), or returns undefined when there is none.
 *
 * @example
 * invalidCharacter('a\u0000b'); // 'U+0000'
 * invalidCharacter('ok');       // undefined
 */
export function invalidCharacter(s: string): string | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return 'U+0000';
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff) {
        const next = s.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          continue;
        }
      }
      return `an unpaired surrogate U+${c.toString(16).toUpperCase()}`;
    }
  }
  return undefined;
}

/**
 * True when a string holds U+0000 or an unpaired surrogate
 * (`invalid-character`: databases reject such text).
 *
 * @example
 * hasInvalidCharacter('a\u0000b'); // true
 */
export function hasInvalidCharacter(s: string): boolean {
  return invalidCharacter(s) !== undefined;
}

/**
 * Writes a value in single quotes, doubling every `'` inside.
 *
 * @example
 * quoteValue("O'Brien"); // "'O''Brien'"
 * quoteValue('');        // "''"
 */
export function quoteValue(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The value of a quoted token: quotes removed and `''` unescaped.
 *
 * @example
 * unquoteValue("'It''s'"); // "It's"
 */
export function unquoteValue(raw: string): string {
  const inner = raw.slice(1, -1);
  return inner.includes("''") ? inner.replaceAll("''", "'") : inner;
}

/**
 * `s` without leading and trailing whitespace in the language's sense
 * (space, tab, CR, LF); unlike `String.prototype.trim`, U+00A0 and other
 * Unicode spaces stay.
 *
 * @example
 * trimWhitespace(' New York\t'); // 'New York'
 * trimWhitespace('\u00a0x');     // '\u00a0x'
 */
export function trimWhitespace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}
