/**
 * One classifier for both highlighters: the CodeMirror ranges
 * (`highlightTokens`) and the language server's semantic spans
 * (`filterSpans`, `sortSpans`) are two views of `classifyText`, and a word's
 * class comes from where the parser put it, not from its spelling.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { highlightTokens } from '../../../src/index.js';
import { classifyText } from '../../../src/language-service/tokens.js';
import { filterSpans, sortSpans } from '../../../src/lsp/semantic-tokens.js';

const PIECES = [
  '.',
  ';',
  '(',
  ')',
  ',',
  "'",
  '=',
  ' ',
  'And',
  'Or(',
  'Equal',
  'EqualInFields',
  'InArray',
  'IsNull',
  'Asc',
  'LastName',
  'A.B',
  '1',
  '-2.5',
  'x y',
  'é',
];
const text = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((a) => a.join('')),
  fc.string({ maxLength: 40 }),
);
const LSP_OF = {
  field: ['property'],
  operator: ['method'],
  keyword: ['keyword'],
  direction: ['keyword'],
  string: ['string'],
  value: ['string', 'number'],
};

describe('the two highlighters are views of one classifier', () => {
  it('every semantic span of a word lies in a CodeMirror range of the same class, and every range holds one', () => {
    fc.assert(
      fc.property(text, fc.constantFrom('filter' as const, 'sort' as const), (t, kind) => {
        const ranges = highlightTokens(t, { kind });
        const spans = (kind === 'sort' ? sortSpans(t) : filterSpans(t)).filter((s) => s.type !== 'operator');
        for (const s of spans) {
          const range = ranges.find((r) => r.start <= s.start && s.end <= r.end);
          expect(range, `${JSON.stringify(t)} ${s.start}`).toBeDefined();
          expect(LSP_OF[range!.kind]).toContain(s.type);
        }
        for (const r of ranges) expect(spans.some((s) => r.start <= s.start && s.end <= r.end)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

const show = (t: string) => classifyText(t).map((s) => `${t.slice(s.start, s.end)}:${s.class}`);

describe('a word is classified by where it stands, not how it is spelled', () => {
  it.each([
    // A field named like an operator, and a value spelled like one.
    [
      'EqualInFields.Equal(StartsWithInFields)',
      ['EqualInFields:field', '.:punctuation', 'Equal:operator', '(:punctuation', 'StartsWithInFields:value', '):punctuation'],
    ],
    // The InFields head is a value and its arguments fields, known from the tree.
    [
      '5.EqualInFields(A,B.C)',
      [
        '5:number',
        '.:punctuation',
        'EqualInFields:operator',
        '(:punctuation',
        'A:field',
        ',:punctuation',
        'B:field',
        '.:punctuation',
        'C:field',
        '):punctuation',
      ],
    ],
    [
      'A.InArray(1 2,x)',
      ['A:field', '.:punctuation', 'InArray:operator', '(:punctuation', '1:value', '2:value', ',:punctuation', 'x:value', '):punctuation'],
    ],
  ])('%s', (t, expected) => {
    expect(show(t)).toEqual(expected);
  });

  it('a sort: field, =, direction and ;', () => {
    const t = 'LastName = Desc;Age';
    expect(classifyText(t, { kind: 'sort' }).map((s) => `${t.slice(s.start, s.end)}:${s.class}`)).toEqual([
      'LastName:field',
      '=:punctuation',
      'Desc:direction',
      ';:punctuation',
      'Age:field',
    ]);
  });
});
