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
