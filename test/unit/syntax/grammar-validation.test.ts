/**
 * Production builds the parsers and lexers without Chevrotain's checks of
 * the grammar and the token definitions (they cost a third of building a
 * parser, at every start of the CLI and the language server). Here they run:
 * each is built with the checks on, must pass them, and must be the grammar
 * production runs — the same rules, alternatives and tokens, serialized — so
 * a grammar change that the checks would reject fails here rather than
 * slipping through a production build.
 */
import { Lexer } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { isWordCode, wordStartChars } from '../../../src/syntax/characters.js';
import { FILTER_LEXER_CONFIG, FILTER_TOKENS, filterLexer } from '../../../src/syntax/filter-lexer.js';
import { FilterParser } from '../../../src/syntax/filter-parser.js';
import { filterGrammarProductions, sortGrammarProductions } from '../../../src/syntax/grammar-productions.js';
import { SORT_LEXER_CONFIG, SORT_TOKENS, SortParser, sortLexer } from '../../../src/syntax/sort-parser.js';

describe('the grammar production runs is the grammar Chevrotain checks', () => {
  it('production skips the checks: the documented option, on every parser and lexer', () => {
    expect(FILTER_LEXER_CONFIG.skipValidations).toBe(true);
    expect(SORT_LEXER_CONFIG.skipValidations).toBe(true);
    // A parser built with the checks on and an invalid grammar throws; production's never runs them.
    expect((new FilterParser() as unknown as { skipValidations: boolean }).skipValidations).toBe(true);
    expect((new SortParser() as unknown as { skipValidations: boolean }).skipValidations).toBe(true);
  });

  it('the filter parser passes the checks, and its checked grammar is the one production builds', () => {
    const checked = new FilterParser({ validate: true });
    expect((checked as unknown as { skipValidations: boolean }).skipValidations).toBe(false);
    // With the checks on, Chevrotain throws on a grammar that fails them; what it found is kept here too.
    expect((checked as unknown as { definitionErrors: unknown[] }).definitionErrors).toEqual([]);
    expect(checked.getSerializedGastProductions()).toEqual(filterGrammarProductions());
  });

  it('the sort parser passes the checks, and its checked grammar is the one production builds', () => {
    const checked = new SortParser({ validate: true });
    expect((checked as unknown as { definitionErrors: unknown[] }).definitionErrors).toEqual([]);
    expect(checked.getSerializedGastProductions()).toEqual(sortGrammarProductions());
  });

  it('the lexers pass the checks of their token definitions and lex as production does', () => {
    const text = "A.Equal(1);Or(B.StartsWith('x y');C.InArray(1,2)) ;; 'open";
    const filter = new Lexer(FILTER_TOKENS, { ...FILTER_LEXER_CONFIG, skipValidations: false });
    expect(filter.lexerDefinitionErrors).toEqual([]);
    const shape = (tokens: readonly { image: string; startOffset: number; tokenType: { name: string } }[]) =>
      tokens.map((t) => [t.tokenType.name, t.image, t.startOffset]);
    expect(shape(filter.tokenize(text).tokens)).toEqual(shape(filterLexer.tokenize(text).tokens));
    const sortText = 'LastName=Asc; FirstName = desc,Id';
    const sort = new Lexer(SORT_TOKENS, { ...SORT_LEXER_CONFIG, skipValidations: false });
    expect(sort.lexerDefinitionErrors).toEqual([]);
    expect(shape(sort.tokenize(sortText).tokens)).toEqual(shape(sortLexer.tokenize(sortText).tokens));
  });

  it("the start-character hints are one representative of each of Chevrotain's buckets, as a walk through every code unit finds them", () => {
    // The definition the lexers' hints follow: every allowed character below
    // U+0100, then the first code unit of each bucket above it (Chevrotain
    // buckets code units 255 at a time there).
    const walked = (exclude: (code: number) => boolean): number[] => {
      const out: number[] = [];
      for (let c = 0; c < 256; c++) if (!exclude(c)) out.push(c);
      let lastBucket = -1;
      for (let c = 256; c < 65536; c++) {
        const bucket = 255 + Math.floor(c / 255);
        if (bucket !== lastBucket) out.push(c);
        lastBucket = bucket;
      }
      return out;
    };
    const filterWord = (c: number) => !isWordCode(c);
    const sortWord = (c: number) => c === 59 || c === 44 || c === 61 || c === 32 || c === 9 || c === 10 || c === 13;
    for (const exclude of [filterWord, sortWord, () => false, () => true]) expect(wordStartChars(exclude)).toEqual(walked(exclude));
    expect(FILTER_TOKENS.find((t) => t.name === 'Word')?.START_CHARS_HINT).toEqual(walked(filterWord));
    expect(SORT_TOKENS.find((t) => t.name === 'SortWord')?.START_CHARS_HINT).toEqual(walked(sortWord));
  });
});
