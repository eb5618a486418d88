/**
 * The filter language's tokens (docs/reference.md §"Lexical rules"), lexed uniformly:
 * the lexer does
 * not know whether it is inside a head or an argument list, so bare values
 * are rebuilt by the parser as source slices from their first to their last
 * token (which keeps `New York` and `5.5` intact).
 *
 * Every character lexes to some token, so this lexer never reports errors:
 * whitespace is skipped, `.;(),` are punctuation, `'` starts a quoted value
 * (or is a stray quote when it follows a word character), and anything else
 * belongs to a `Word`.
 *
 * This Chevrotain lexer is the reference definition of the tokens.
 * `parseFilter` feeds the parser from `scanFilter` (filter-scanner.ts), a
 * hand-written equivalent that is about three times faster; a property test
 * keeps the two identical.
 */
import { createToken, Lexer, type CustomPatternMatcherReturn, type ILexerConfig, type TokenType } from 'chevrotain';
import { isWordCode, wordStartChars } from './characters.js';
import { lazyLexer } from './shielded.js';

/**
 * Tokens that may make up a head segment or a bare value (a token category).
 *
 * @example
 * filterLexer.tokenize('5.5').tokens.every((t) => tokenMatcher(t, RunPart)); // true
 */
export const RunPart = createToken({ name: 'RunPart', pattern: Lexer.NA });

/**
 * Space, tab, CR, LF: ignored between tokens.
 *
 * @example
 * filterLexer.tokenize(' A ').tokens.length; // 1: the spaces are skipped
 */
export const WhiteSpace = createToken({
  name: 'WhiteSpace',
  pattern: /[ \t\r\n]+/,
  group: Lexer.SKIPPED,
  line_breaks: true,
});
/**
 * `(`
 *
 * @example
 * filterLexer.tokenize('(').tokens[0]!.tokenType === LParen; // true
 */
export const LParen = createToken({ name: 'LParen', pattern: '(', label: "'('" });
/**
 * `)`
 *
 * @example
 * filterLexer.tokenize(')').tokens[0]!.tokenType === RParen; // true
 */
export const RParen = createToken({ name: 'RParen', pattern: ')', label: "')'" });
/**
 * `;` — separates clauses.
 *
 * @example
 * filterLexer.tokenize(';').tokens[0]!.tokenType === Semicolon; // true
 */
export const Semicolon = createToken({ name: 'Semicolon', pattern: ';', label: "';'" });
/**
 * `,` — separates arguments.
 *
 * @example
 * filterLexer.tokenize(',').tokens[0]!.tokenType === Comma; // true
 */
export const Comma = createToken({ name: 'Comma', pattern: ',', label: "','" });
/**
 * `.` — separates head segments; inside a bare value it is an ordinary character.
 *
 * @example
 * filterLexer.tokenize('A.B').tokens[1]!.tokenType === Dot; // true
 */
export const Dot = createToken({ name: 'Dot', pattern: '.', label: "'.'", categories: [RunPart] });

/**
 * A `'` directly after a word character (`O'Brien`): not the start of a
 * quoted value but an error inside a bare value, reported as
 * `unexpected-quote` by the parser with the value quoted properly.
 *
 * @example
 * filterLexer.tokenize("O'Brien").tokens.map((t) => t.tokenType.name); // ['Word', 'StrayQuote', 'Word']
 */
export const StrayQuote = createToken({
  name: 'StrayQuote',
  pattern: {
    exec: (text: string, offset: number): CustomPatternMatcherReturn | null =>
      offset > 0 && text.charCodeAt(offset) === 39 && isWordCode(text.charCodeAt(offset - 1)) ? ["'"] : null,
  },
  start_chars_hint: ["'"],
  line_breaks: false,
  categories: [RunPart],
});

/**
 * `'…'` with `''` standing for one `'` (docs/reference.md §"Lexical rules").
 *
 * @example
 * filterLexer.tokenize("'It''s'").tokens[0]!.image; // "'It''s'"
 */
export const Quoted = createToken({
  name: 'Quoted',
  pattern: {
    exec: (text: string, offset: number): CustomPatternMatcherReturn | null => {
      if (text.charCodeAt(offset) !== 39) return null;
      let i = offset + 1;
      for (;;) {
        const j = text.indexOf("'", i);
        if (j < 0) return null;
        if (text.charCodeAt(j + 1) === 39) {
          i = j + 2;
          continue;
        }
        return [text.slice(offset, j + 1)];
      }
    },
  },
  start_chars_hint: ["'"],
  line_breaks: true,
  categories: [RunPart],
});

/**
 * A `'` with no closing quote: runs to the end of the text (`unterminated-string`).
 *
 * @example
 * filterLexer.tokenize("'open").tokens[0]!.tokenType === Unterminated; // true
 */
export const Unterminated = createToken({
  name: 'Unterminated',
  pattern: /'[\s\S]*/,
  line_breaks: true,
  categories: [RunPart],
});

/**
 * A run of characters other than `.;(),'` and whitespace.
 *
 * @example
 * filterLexer.tokenize('New York').tokens.map((t) => t.image); // ['New', 'York']
 */
export const Word = createToken({
  name: 'Word',
  pattern: /[^.;(),' \t\r\n]+/,
  start_chars_hint: wordStartChars((c) => !isWordCode(c)),
  line_breaks: false,
  categories: [RunPart],
});

/**
 * `And` / `Or` in any case; a longer word such as `Orders` stays a `Word`.
 *
 * @example
 * filterLexer.tokenize('oR Orders').tokens.map((t) => t.tokenType.name); // ['GroupKeyword', 'Word']
 */
export const GroupKeyword = createToken({
  name: 'GroupKeyword',
  pattern: /and|or/i,
  longer_alt: Word,
  line_breaks: false,
  categories: [RunPart],
});

/**
 * Every filter token, in lexing priority order.
 *
 * @example
 * const lexer = new Lexer(FILTER_TOKENS, { positionTracking: 'onlyOffset' });
 */
export const FILTER_TOKENS: TokenType[] = [
  WhiteSpace,
  LParen,
  RParen,
  Semicolon,
  Comma,
  Dot,
  StrayQuote,
  Quoted,
  Unterminated,
  GroupKeyword,
  Word,
  RunPart,
];

/**
 * How the filter lexer is built. Chevrotain's checks of the token
 * definitions are skipped, as its documentation advises for production:
 * test/unit/syntax/grammar-validation.test.ts builds the same lexer with
 * them on.
 *
 * @example
 * new Lexer(FILTER_TOKENS, { ...FILTER_LEXER_CONFIG, skipValidations: false });
 */
export const FILTER_LEXER_CONFIG: ILexerConfig = { positionTracking: 'onlyOffset', ensureOptimizations: true, skipValidations: true };

/**
 * The filter lexer: one instance, reused for every call, built on the first
 * (`parseFilter` reads with the scanner; this is its reference).
 *
 * @example
 * filterLexer.tokenize('A.Equal(1)').tokens.map((t) => t.image); // ['A', '.', 'Equal', '(', '1', ')']
 */
export const filterLexer = lazyLexer(() => new Lexer(FILTER_TOKENS, FILTER_LEXER_CONFIG));
