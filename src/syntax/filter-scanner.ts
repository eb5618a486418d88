/**
 * A hand-written scanner that produces exactly the tokens of the Chevrotain
 * `filterLexer` (same token types, images and offsets) in one pass with no
 * regular expressions. The parser is fed from here because lexing was about
 * a fifth of parse time with Chevrotain's general-purpose lexer; the
 * Chevrotain lexer stays the reference definition, and a property test
 * checks that both agree on arbitrary text.
 */
import type { IToken, TokenType } from 'chevrotain';
import { isWhitespace } from '../ast/lexical.js';
import { isGroupWord, isWordCode, quotedEnd } from './characters.js';
import { Comma, Dot, GroupKeyword, LParen, Quoted, RParen, Semicolon, StrayQuote, Unterminated, Word } from './filter-lexer.js';

/**
 * A token as the parser sees it, plus its index in the token array.
 *
 * @example
 * const [first]: ScannedToken[] = scanFilter('A.Equal(1)');
 * first!.tokenIndex; // 0
 */
export interface ScannedToken extends IToken {
  /** Position of this token in the array `scanFilter` returned. */
  tokenIndex: number;
}

/**
 * A pooled token of `scanFilterShared`: its image is sliced from the text
 * only when read (the parser reads most positions through `endOffset` and
 * never needs the images of operator names or of multi-word values), and
 * then cached. Chevrotain itself reads `image` only to word error messages.
 */
class PooledToken implements ScannedToken {
  declare image: string;
  startOffset: number;
  /** Offset of the last character (inclusive, as in Chevrotain). */
  endOffset: number;
  tokenTypeIdx: number;
  tokenType: TokenType;
  tokenIndex: number;
  /** The text this token was scanned from. */
  source: string;
  /** The image once read; undefined until then. */
  cached: string | undefined;
  constructor(source: string, startOffset: number, endOffset: number, tokenType: TokenType, tokenIndex: number) {
    this.startOffset = startOffset;
    this.endOffset = endOffset;
    this.tokenTypeIdx = tokenType.tokenTypeIdx!;
    this.tokenType = tokenType;
    this.tokenIndex = tokenIndex;
    this.source = source;
    this.cached = undefined;
  }
  /** Makes this token `source[startOffset, endOffset]` of `tokenType`, keeping its index. */
  refill(source: string, startOffset: number, endOffset: number, tokenType: TokenType): void {
    this.startOffset = startOffset;
    this.endOffset = endOffset;
    this.tokenTypeIdx = tokenType.tokenTypeIdx!;
    this.tokenType = tokenType;
    this.source = source;
    this.cached = undefined;
  }
}
Object.defineProperty(PooledToken.prototype, 'image', {
  get(this: PooledToken): string {
    return (this.cached ??= this.source.slice(this.startOffset, this.endOffset + 1));
  },
  enumerable: true,
  configurable: true,
});

// parseFilter scans into these reused objects so that a parse allocates no
// token objects once warm; the pool is bounded so that one huge input does
// not pin memory forever.
const POOL_LIMIT = 4096;
const pool: PooledToken[] = [];
const shared: ScannedToken[] = [];
let reuse = false;
/** Tokens emitted so far by the current scan. */
let count = 0;

/** Emits the token `text[startOffset, end)`. */
function emit(tokens: ScannedToken[], text: string, startOffset: number, end: number, tokenType: TokenType): void {
  const index = count++;
  if (reuse) {
    // The shared array holds only pooled tokens, each at its own index: one
    // left there by an earlier scan is overwritten in place.
    if (index < tokens.length) {
      (tokens[index] as PooledToken).refill(text, startOffset, end - 1, tokenType);
      return;
    }
    let t: PooledToken;
    // The pool fills densely from 0, so its length says what it holds; a
    // read past it would find a polluted Object.prototype's `[index]`.
    if (index >= POOL_LIMIT || index >= pool.length) {
      t = new PooledToken(text, startOffset, end - 1, tokenType, index);
      if (index < POOL_LIMIT) pool[index] = t;
    } else {
      t = pool[index]!;
      t.refill(text, startOffset, end - 1, tokenType);
    }
    // Truncating the shared array only at the end of a scan keeps its
    // backing store: emptying it and pushing again reallocated it several times per parse.
    tokens.push(t);
    return;
  }
  // Same fields in the same order as Chevrotain's own tokens ('onlyOffset'), plus endOffset and tokenIndex.
  const t = {
    image: text.slice(startOffset, end),
    startOffset,
    endOffset: end - 1,
    tokenTypeIdx: tokenType.tokenTypeIdx!,
    tokenType,
    tokenIndex: index,
  } as ScannedToken;
  if (index < tokens.length) tokens[index] = t;
  else tokens.push(t);
}

/**
 * Tokenizes filter text; whitespace is dropped, as the lexer's `SKIPPED` group does.
 *
 * @example
 * scanFilter('A.Equal(1)').map((t) => t.image); // ['A', '.', 'Equal', '(', '1', ')']
 */
export function scanFilter(text: string): ScannedToken[] {
  reuse = false;
  return scan(text, []);
}

/**
 * Like `scanFilter`, but returns a shared array of pooled token objects that
 * the next call overwrites. For `parseFilter` only, which is done with the
 * tokens before it returns.
 *
 * @example
 * const tokens = scanFilterShared(text); // valid until the next call
 */
export function scanFilterShared(text: string): ScannedToken[] {
  reuse = true;
  return scan(text, shared);
}

function scan(text: string, tokens: ScannedToken[]): ScannedToken[] {
  count = 0;
  scanInto(text, tokens);
  // Drops what a longer previous text left in the shared array.
  if (tokens.length !== count) tokens.length = count;
  return tokens;
}

// The one-character tokens, by character code below 64: one table read in
// the scanner's loop instead of a case per character. Every slot is filled,
// so a read never falls through a hole to a polluted Array.prototype.
const PUNCTUATION: readonly (TokenType | undefined)[] = (() => {
  const table = new Array<TokenType | undefined>(64).fill(undefined);
  for (const [ch, type] of [
    ['(', LParen],
    [')', RParen],
    [';', Semicolon],
    [',', Comma],
    ['.', Dot],
  ] as const)
    table[ch.charCodeAt(0)] = type;
  return table;
})();

/** Scans all of `text` into `tokens`: whitespace and punctuation, quotes (`scanQuote`) and words. */
function scanInto(text: string, tokens: ScannedToken[]): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWhitespace(c)) {
      i++;
      continue;
    }
    const single = c < 64 ? PUNCTUATION[c] : undefined;
    if (single !== undefined) {
      emit(tokens, text, i, i + 1, single);
      i++;
      continue;
    }
    if (c === 39) {
      i = scanQuote(text, tokens, i);
      continue;
    }
    // A word, scanned here (the hot path). Every character that ends a word
    // is at most ';' (59): letters and digits past it cost one comparison
    // instead of isWordCode's seven.
    let j = i + 1;
    for (; j < n; j++) {
      const d = text.charCodeAt(j);
      if (d <= 59 && !isWordCode(d)) break;
    }
    const length = j - i;
    emit(tokens, text, i, j, length <= 3 && isGroupWord(text, i, length) ? GroupKeyword : Word);
    i = j;
  }
}

/**
 * The `'` at `i`: a stray quote when it follows a word character, else a
 * quoted value up to its closing `'` (`''` inside it is a quote), or an
 * unterminated one that runs to the end. Returns where scanning goes on.
 */
function scanQuote(text: string, tokens: ScannedToken[], i: number): number {
  if (i > 0 && isWordCode(text.charCodeAt(i - 1))) {
    emit(tokens, text, i, i + 1, StrayQuote);
    return i + 1;
  }
  const end = quotedEnd(text, i);
  if (end < 0) {
    emit(tokens, text, i, text.length, Unterminated);
    return text.length;
  }
  emit(tokens, text, i, end, Quoted);
  return end;
}
