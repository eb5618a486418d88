/**
 * Small character-level checks shared by the filter and sort parsers.
 */

/**
 * True when `s` is a field path segment: `[A-Za-z_][A-Za-z0-9_]*` (SPEC §2).
 *
 * @example
 * isFieldSegment('Address'); // true
 * isFieldSegment('1st');     // false
 */
export function isFieldSegment(s: string): boolean {
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
 * Describes the first character databases reject in a value (U+0000 or an
 * unpaired surrogate), or returns undefined when there is none (SPEC §10).
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
 * Writes `s` as a quoted value, doubling every `'`.
 *
 * @example
 * quoteText("O'Brien"); // "'O''Brien'"
 */
export function quoteText(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/**
 * The value of a quoted token: quotes removed and `''` unescaped.
 *
 * @example
 * unquoteText("'It''s'"); // "It's"
 */
export function unquoteText(raw: string): string {
  const inner = raw.slice(1, -1);
  return inner.includes("''") ? inner.replaceAll("''", "'") : inner;
}

/**
 * A short, printable rendering of source text for messages.
 *
 * @example
 * excerpt('A'.repeat(100)); // 'AAAA…' (40 characters and an ellipsis)
 */
export function excerpt(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
