/**
 * The character rules of the filter and sort lexers (docs/reference.md
 * §"Lexical rules") that the hand-written readers share with the Chevrotain
 * lexers: whitespace, word characters, the group keywords, quoted values.
 * Nothing here needs Chevrotain, so the fast path of `parseFilter` loads
 * without it (the CLI bundle loads Chevrotain only for a text that needs
 * the parser, scripts/bundle.mjs).
 */
import type { GroupOperator } from '../ast/operators.js';

/**
 * The four whitespace characters of docs/reference.md §"Lexical rules".
 *
 * @example
 * isSpaceCode(0x09); // true (tab)
 * isSpaceCode(0xa0); // false: U+00A0 is an ordinary character
 */
export function isSpaceCode(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/**
 * True for a character that may appear in a `Word`: not `.;(),'` and not whitespace.
 *
 * @example
 * isWordCode('x'.charCodeAt(0)); // true
 * isWordCode('.'.charCodeAt(0)); // false
 */
export function isWordCode(code: number): boolean {
  return !(
    code === 46 || // .
    code === 59 || // ;
    code === 40 || // (
    code === 41 || // )
    code === 44 || // ,
    code === 39 || // '
    isSpaceCode(code)
  );
}

/**
 * Start characters of a token that can begin with almost any character.
 * Chevrotain's first-character optimisation cannot analyse negated classes,
 * so it is told every start character explicitly; above U+00FF it buckets
 * code units 255 at a time, so one representative per bucket suffices.
 *
 * Exported for the sort lexer, which reuses the same hint logic.
 *
 * @example
 * createToken({ name: 'Word', pattern: /[^;]+/, start_chars_hint: wordStartChars((c) => c === 59) });
 */
export function wordStartChars(exclude: (code: number) => boolean): number[] {
  const out: number[] = [];
  for (let c = 0; c < 256; c++) if (!exclude(c)) out.push(c);
  // The first code unit of each bucket (bucket 255 + ⌊c / 255⌋): 256, then
  // the multiples of 255. Stepping from bucket to bucket, not through all
  // 65,280 code units, keeps this off the start-up profile (it runs when the
  // module loads, before the interpreter has optimised anything).
  for (let c = 256; c < 65536; c = (Math.floor(c / 255) + 1) * 255) out.push(c);
  return out;
}

/**
 * True when the word `text[start, start + length)` is `and` or `or` in any case: the `GroupKeyword` token
 * (filter-lexer.ts); a longer word such as `Orders` is not.
 *
 * @example
 * isGroupWord('oR(x)', 0, 2); // true
 */
export function isGroupWord(text: string, start: number, length: number): boolean {
  const a = text.charCodeAt(start) | 0x20;
  const b = text.charCodeAt(start + 1) | 0x20;
  if (length === 2) return a === 0x6f && b === 0x72; // or
  return length === 3 && a === 0x61 && b === 0x6e && (text.charCodeAt(start + 2) | 0x20) === 0x64; // and
}

/**
 * Where the quoted value opened by the `'` at `i` ends (just past its closing
 * `'`, with `''` inside it standing for a quote); -1 when it has no closing quote.
 *
 * @example
 * quotedEnd("'It''s' x", 0); // 7
 * quotedEnd("'open", 0);     // -1
 */
export function quotedEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const close = text.indexOf("'", j);
    if (close < 0) return -1;
    if (text.charCodeAt(close + 1) !== 39) return close + 1;
    j = close + 2;
  }
}

/**
 * The group a `GroupKeyword` of `length` characters opens: `or` (two) or `and` (three), in any case.
 *
 * @example
 * groupOperatorOf(2); // 'Or'
 */
export function groupOperatorOf(length: number): GroupOperator {
  return length === 2 ? 'Or' : 'And';
}
