/**
 * parseFilter is fed by a hand-written scanner for speed; the Chevrotain
 * lexer is the reference definition of the tokens. Both must agree exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterLexer } from '../../src/syntax/filter-lexer.js';
import { scanFilter, scanFilterShared } from '../../src/syntax/filter-scanner.js';

const PIECES = [
  '.',
  ';',
  '(',
  ')',
  ',',
  "'",
  "''",
  ' ',
  '\t',
  '\n',
  '\r',
  'and',
  'OR',
  'Or',
  'orx',
  'andy',
  'a',
  'o',
  'Equal',
  'x y',
  '5.5',
  'é',
  '\u0000',
  '\uD800',
  '\u00a0',
  '=',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((a) => a.join('')),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

const shape = (tokens: readonly { image: string; startOffset: number; tokenType: { name: string } }[]) =>
  tokens.map((t) => [t.tokenType.name, t.image, t.startOffset]);

describe('scanFilter', () => {
  it('produces exactly the Chevrotain lexer tokens', () => {
    fc.assert(
      fc.property(text, (t) => {
        const reference = filterLexer.tokenize(t);
        expect(reference.errors).toEqual([]);
        expect(shape(scanFilter(t))).toEqual(shape(reference.tokens));
        expect(shape(scanFilterShared(t))).toEqual(shape(reference.tokens));
      }),
      { numRuns: 3000 },
    );
  });

  it.each(["A.Equal(O'Brien)", "'It''s'", "'a''", 'Or(and.OR(ORDERS', 'x\u0000.y'])('agrees on %j', (t) => {
    expect(shape(scanFilter(t))).toEqual(shape(filterLexer.tokenize(t).tokens));
  });

  it('numbers its tokens', () => {
    expect(scanFilter(' a . b ').map((t) => t.tokenIndex)).toEqual([0, 1, 2]);
  });
});
