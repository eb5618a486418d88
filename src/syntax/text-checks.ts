/**
 * Small text helpers shared by the filter and sort parsers; the character
 * rules themselves live in `ast/lexical.ts`.
 */

/**
 * A short, printable rendering of source text for messages.
 *
 * @example
 * excerpt('A'.repeat(100)); // 'AAAA…' (40 characters and an ellipsis)
 */
export function excerpt(s: string, max = 40): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
