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
 * literally: `%`, `_` and the escape character `\` are escaped. Use it with
 * an explicit `ESCAPE '\'` clause (PostgreSQL's default escape is also `\`,
 * SQLite's is none).
 *
 * @example
 * likePattern('50%_off', 'starts'); // '50\\%\\_off%'
 */
export function likePattern(value: string, position: TextPosition): string {
  const escaped = value.replace(/[\\%_]/g, (c) => LIKE_ESCAPE + c);
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
