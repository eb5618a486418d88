/**
 * Recovery of the filter parser (docs/reference.md §"Diagnostics"): tokens
 * the grammar cannot place are reported once and skipped up to the next
 * `;`, the next unbalanced `)` or the end, so that the parser never stops
 * at the first error. Also the report of a `(` left open (the reports of
 * what the grammar accepts but the language frowns on are in
 * clause-reports.ts, shared with the fast path).
 */
import { EOF, type IToken } from 'chevrotain';
import type { DiagnosticSink } from './diagnostic-sink.js';
import { Comma, LParen, RParen, Semicolon, Unterminated } from './filter-lexer.js';
import { describeToken, endOf } from './token-facts.js';

/**
 * The parser's position in its tokens, as recovery reads and moves it.
 *
 * @example
 * const cursor: TokenCursor = { la: (n) => parser.LA(n), skip: () => parser.SKIP_TOKEN() };
 */
export interface TokenCursor {
  /** The token `n` places ahead (1: the next one, 0: the last one read; EOF past either end). */
  la(n: number): IToken;
  /** Skips the next token. */
  skip(): void;
}

/**
 * After a clause (or where a clause should start), skips tokens the grammar
 * cannot place up to the next `;`, the next unbalanced `)` or the end,
 * reporting the first. Returns true when anything was skipped.
 *
 * @example
 * if (skipClauseJunk(cursor, sink, true)) slotNonEmpty = true;
 */
export function skipClauseJunk(cursor: TokenCursor, sink: DiagnosticSink, afterClause: boolean): boolean {
  let skipped = false;
  let reported = false;
  let local = 0;
  for (;;) {
    const t = cursor.la(1);
    const type = t.tokenType;
    if (type === EOF || type === Semicolon) return skipped;
    if (type === RParen && local === 0) return skipped;
    if (type === LParen) local++;
    else if (type === RParen) local--;
    if (!reported && type !== Unterminated) {
      reported = true;
      sink.add(
        'unexpected-token',
        afterClause
          ? `unexpected ${describeToken(t)} after the clause; separate clauses with ';'`
          : `unexpected ${describeToken(t)}; a clause is Field.Operator(…), value.OperatorInFields(…), And(…) or Or(…)`,
        t.startOffset,
        endOf(t),
      );
    }
    skipped = true;
    cursor.skip();
  }
}

/**
 * Inside `(…)` of a condition: skips to the next `,`, `)`, `;` or the end,
 * reporting the first token skipped. Returns true when anything was skipped.
 *
 * @example
 * const junk = skipArgumentJunk(cursor, sink);
 */
export function skipArgumentJunk(cursor: TokenCursor, sink: DiagnosticSink): boolean {
  let skipped = false;
  let local = 0;
  for (;;) {
    const t = cursor.la(1);
    const type = t.tokenType;
    if (type === EOF || type === Semicolon) return skipped;
    if (local === 0 && (type === Comma || type === RParen)) return skipped;
    if (type === LParen) local++;
    else if (type === RParen) local--;
    if (!skipped && type !== Unterminated) {
      sink.add(
        'unexpected-token',
        `unexpected ${describeToken(t)} in a value; quote values that contain ( ) , or ; as in 'a(b)'`,
        t.startOffset,
        endOf(t),
      );
    }
    skipped = true;
    cursor.skip();
  }
}

/**
 * Skips a too-deep group's body, stopping before its closing `)`: a body of
 * any depth costs linear time and no recursion.
 *
 * @example
 * if (depth >= maxDepth) skipGroupBody(cursor);
 */
export function skipGroupBody(cursor: TokenCursor): void {
  let local = 0;
  for (;;) {
    const type = cursor.la(1).tokenType;
    if (type === EOF) return;
    if (type === RParen) {
      if (local === 0) return;
      local--;
    } else if (type === LParen) local++;
    cursor.skip();
  }
}

/**
 * Reports a `(` that has no matching `)`.
 *
 * @example
 * if (close === undefined) reportMissingClose(sink, open);
 */
export function reportMissingClose(sink: DiagnosticSink, open: IToken): void {
  // Where the ')' belongs is a guess, so it is a suggestion, not a fix:
  // a fix is applied by `lint --fix` and must keep the author's meaning.
  sink.add('missing-close-paren', "this '(' has no matching ')'", open.startOffset, open.startOffset + 1, {
    suggestion: ')',
  });
}
