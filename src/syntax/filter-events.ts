/**
 * The filter parser's events: a visitor told what the parser reads as it
 * reads it (a group, a condition, its head, each argument, a separator,
 * skipped tokens), with offsets in the text, like the `visit` of
 * node-jsonc-parser. Tools that need to know where a position stands in the
 * grammar (completion) follow these events instead of rebuilding the
 * parser's frames and recovery. Every callback is optional; a parse without
 * a visitor pays one test per event and nothing else.
 */
import type { IToken } from 'chevrotain';

/**
 * What the parser reports while it reads a filter. Offsets are into the
 * text given to `visitFilter`; events come in text order, nested as the
 * grammar nests (a group's events lie between its `enterGroup` and its
 * `leaveGroup`).
 *
 * @example
 * const visitor: FilterVisitor = { enterCondition: (start) => starts.push(start) };
 * visitFilter('A.Equal(1);B.IsNull()', visitor); // starts: [0, 11]
 */
export interface FilterVisitor {
  /** A group `And(`/`Or(`: where its keyword starts and its body begins (past `(`). `skipped`: too deep, its body is skipped unread. */
  enterGroup?(start: number, bodyStart: number, skipped: boolean): void;
  /** The end of the group entered last: past its `)` when `closed`, else past the last token read. */
  leaveGroup?(end: number, closed: boolean): void;
  /** A condition (or a clause that is only a head) starts at `start`. */
  enterCondition?(start: number): void;
  /** The tokens of the condition's head (everything before its `(`), a fresh array the visitor may keep. */
  head?(tokens: readonly IToken[]): void;
  /** An argument slot begins at `start`, just past `(` or `,`. */
  enterArgument?(start: number): void;
  /** The slot entered last ends at `end`: where the `,`, `)` or `;` after it starts, or the end of the text. */
  leaveArgument?(end: number): void;
  /** The condition entered last ends: past its `)` when `closed`, else past the last token read. */
  leaveCondition?(end: number, closed: boolean): void;
  /** A `;` between clauses at `offset`. */
  separator?(offset: number): void;
  /** Tokens the grammar cannot place, `[start, end)`, were reported and skipped (docs/reference.md §"Diagnostics"). */
  skipped?(start: number, end: number): void;
  /** The text ends inside a quoted value that starts at `start`; it is reported before any other event. */
  unterminatedQuote?(start: number): void;
}
