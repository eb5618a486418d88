/**
 * Completion on every prefix of a valid filter: it never throws, and what it
 * offers is what validation accepts. Each offered operator, written in with a
 * value and the open groups closed, makes a filter whose only possible error
 * is the placeholder value; each field offered inside an InFields list makes
 * a filter with no error at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { operatorKind, type FilterOperator } from '../../src/ast/operators.js';
import { complete } from '../../src/index.js';
import { GroupKeyword, LParen, RParen } from '../../src/syntax/filter-lexer.js';
import { scanFilter } from '../../src/syntax/filter-scanner.js';
import { analyzeFilter } from '../../src/validate/analyze.js';
import { testSchema, typedFilterArb, typedFilterText } from '../support/typed-arbitraries.js';

/** Parentheses opened and not closed in `text`, counted on the parser's own tokens. */
function openParens(text: string): number {
  let open = 0;
  for (const t of scanFilter(text)) {
    if (t.tokenType === LParen) open++;
    else if (t.tokenType === RParen) open--;
  }
  return open;
}

/** True when the innermost open parenthesis of `text` is an operator's argument list, not an And/Or group. */
function inArguments(text: string): boolean {
  const tokens = scanFilter(text);
  const opened: boolean[] = [];
  tokens.forEach((t, i) => {
    if (t.tokenType === LParen) opened.push(tokens[i - 1]?.tokenType !== GroupKeyword);
    else if (t.tokenType === RParen) opened.pop();
  });
  return opened[opened.length - 1] === true;
}

function errorCodes(text: string): string[] {
  return analyzeFilter(text, { schema: testSchema })
    .diagnostics.filter((d) => d.severity === 'error')
    .map((d) => d.code);
}

const filterAndCut = typedFilterArb({ maxDepth: 2, maxClauses: 3 })
  .map(typedFilterText)
  .chain((text) => fc.tuple(fc.constant(text), fc.integer({ min: 0, max: text.length })));

describe('completion on prefixes of valid filters', () => {
  it('never throws and offers only operators and fields that validation accepts', () => {
    let checked = 0;
    fc.assert(
      fc.property(filterAndCut, ([text, cut]) => {
        const prefix = text.slice(0, cut);
        const { items, replace } = complete(prefix, cut, testSchema);
        const before = prefix.slice(0, replace.start);
        for (const item of items) {
          if (item.kind === 'operator' && operatorKind(item.label as FilterOperator) !== 'in-fields') {
            const call = operatorKind(item.label as FilterOperator) === 'no-value' ? '()' : '(x)';
            const candidate = `${before}${item.label}${call}${')'.repeat(openParens(before))}`;
            // `x` may not parse as the field's type; nothing else may be wrong.
            expect(
              errorCodes(candidate).filter((c) => c !== 'invalid-value'),
              candidate,
            ).toEqual([]);
            checked++;
          } else if (item.kind === 'field' && inArguments(before) && !item.insertText.endsWith('.')) {
            // A field offered inside an argument list is one for an InFields operator's list.
            const candidate = `${before}${item.insertText}${')'.repeat(openParens(before))}`;
            expect(errorCodes(candidate), candidate).toEqual([]);
            checked++;
          }
        }
      }),
      { numRuns: 300 },
    );
    // The property must have judged something, or it proves nothing.
    expect(checked).toBeGreaterThan(0);
  });
});
