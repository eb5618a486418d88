import { createSyntaxDiagramsCode } from 'chevrotain';
import { describe, expect, it } from 'vitest';
import { filterGrammarProductions, sortGrammarProductions } from '../../../src/syntax/grammar-productions.js';

describe('grammar productions', () => {
  it('exposes the filter parser rules, each citing grammar/filter.ebnf', () => {
    const rules = filterGrammarProductions();
    expect(rules.map((r) => (r as { name?: string }).name)).toEqual(['filter', 'clauses', 'group', 'condition', 'arguments']);
    const json = JSON.stringify(rules);
    for (const token of ['GroupKeyword', 'LParen', 'RParen', 'Semicolon', 'Comma', 'RunPart']) expect(json).toContain(token);
  });

  it('exposes the sort parser rules', () => {
    expect(sortGrammarProductions().map((r) => (r as { name?: string }).name)).toEqual(['sort', 'item']);
  });

  it('draws railroad diagrams with Chevrotain', () => {
    const html = createSyntaxDiagramsCode(filterGrammarProductions());
    expect(html).toContain('diagrams');
    expect(html).toContain('condition');
  });
});
