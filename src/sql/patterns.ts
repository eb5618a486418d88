/**
 * Substring tests as patterns. The pattern is always a bound parameter;
 * escaping only makes the user's `%`, `_`, `*`, `?` and `[` mean
 * themselves.
 */
import type { TextPosition } from '../ast/operators.js';

/**
 * The escape character every LIKE wepql writes declares with `ESCAPE '\'`.
 *
 * @example
 * `col LIKE $1 ESCAPE '${LIKE_ESCAPE}'`;
 */
export const LIKE_ESCAPE = '\\';

/**
 * A LIKE pattern matching text that contains, starts or ends with `value`
 * literally: `%`, `_` and the escape character (`\` unless another is
 * given) are escaped. Use it with an explicit `ESCAPE` clause naming the
 * same character (PostgreSQL's default escape is also `\`, SQLite's is
 * none, MySQL's depends on the SQL mode).
 *
 * @example
 * likePattern('50%_off', 'starts');      // '50\\%\\_off%'
 * likePattern('50%!', 'contains', '!');  // '%50!%!!%'
 */
export function likePattern(value: string, position: TextPosition, escape: string = LIKE_ESCAPE): string {
  let escaped = '';
  for (const c of value) escaped += c === escape || c === '%' || c === '_' ? escape + c : c;
  return position === 'contains' ? `%${escaped}%` : position === 'starts' ? `${escaped}%` : `%${escaped}`;
}

/**
 * A SQLite GLOB pattern matching text that contains, starts or ends with
 * `value` literally. GLOB has no escape character, so `*`, `?` and `[`
 * become one-character classes (`[*]`, `[?]`, `[[]`). GLOB is what SQLite
 * needs for case-sensitive tests, since its LIKE ignores ASCII case.
 *
 * @example
 * globPattern('a*b', 'contains'); // '*a[*]b*'
 */
export function globPattern(value: string, position: TextPosition): string {
  const escaped = value.replace(/[*?[]/g, (c) => `[${c}]`);
  return position === 'contains' ? `*${escaped}*` : position === 'starts' ? `${escaped}*` : `*${escaped}`;
}

// The largest code point, and the surrogate block no text in a database holds.
const MAX_CODE_POINT = 0x10ffff;
const SURROGATES_FIRST = 0xd800;
const SURROGATES_END = 0xe000;

/**
 * The smallest text after every text that starts with `prefix`, in
 * code-point order: the prefix with its last code point raised by one
 * (over the surrogate block), trailing U+10FFFF dropped first, since
 * nothing follows them. Undefined when the prefix is all U+10FFFF (or
 * empty): then no text is above the prefix's texts and only `>= prefix`
 * bounds them.
 *
 * @example
 * prefixSuccessor('sm');            // 'sn'
 * prefixSuccessor('a\u{10FFFF}');   // 'b'
 * prefixSuccessor('\u{D7FF}');      // '\u{E000}'
 * prefixSuccessor('\u{10FFFF}');    // undefined
 */
export function prefixSuccessor(prefix: string): string | undefined {
  const points = Array.from(prefix, (c) => c.codePointAt(0)!);
  while (points.length > 0 && points[points.length - 1] === MAX_CODE_POINT) points.pop();
  if (points.length === 0) return undefined;
  let last = points.pop()! + 1;
  if (last === SURROGATES_FIRST) last = SURROGATES_END;
  points.push(last);
  return String.fromCodePoint(...points);
}
