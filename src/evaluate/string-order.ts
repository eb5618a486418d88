/**
 * String order by Unicode code point (docs/reference.md §"Sort semantics"). JavaScript's
 * `<` compares
 * UTF-16 code units, which disagrees with code points exactly when one
 * string has a surrogate (U+D800–U+DFFF, half of an astral character) where
 * the other has a unit in U+E000–U+FFFF; everything below U+D800 agrees.
 */

/**
 * Compares two strings by code point: negative, 0 or positive.
 *
 * @example
 * compareCodePoints('\uFF5E', '\u{1F600}'); // negative: U+FF5E < U+1F600 (while '\uFF5E' < '\u{1F600}' is false)
 */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      // Lift surrogates above U+E000–U+FFFF so that unit order becomes code-point order.
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

const AT_OR_ABOVE_SURROGATES = /[\uD800-\uFFFF]/;

/**
 * True when a string has a code unit at or above U+D800, the only case in
 * which `<` and code-point order can disagree.
 *
 * @example
 * needsCodePointCompare('Zoë');  // false
 * needsCodePointCompare('Dot 🙂'); // true
 */
export function needsCodePointCompare(text: string): boolean {
  return AT_OR_ABOVE_SURROGATES.test(text);
}
