/**
 * Shrunk counterexamples of the round-trip properties (found while
 * checking that the properties fail when a quoting rule is removed), kept
 * as plain cases: each tree prints to the text shown and parses back to
 * the same values.
 */
import { describe, expect, it } from 'vitest';
import type { FilterAst } from '../../../src/index.js';
import { parseFilter, printFilter } from '../../../src/index.js';
import { normalizeAst } from '../../support/arbitraries.js';
import { filter, inFields, list } from './trees.js';

describe('shrunk counterexamples', () => {
  it.each<[string, FilterAst, string]>([
    ['a tab alone needs quotes', filter(list('a', 'InArray', ['\t', ''])), "a.InArray('\t','')"],
    ['two spaces need quotes', filter(list('_', 'InArray', ['  '])), "_.InArray('  ')"],
    ['CR LF alone needs quotes', filter(list('a', 'InArray', ['\r\n', '0'])), "a.InArray('\r\n',0)"],
    ['a head of dots needs quotes', filter(inFields('..', 'EqualInFields', ['a'])), "'..'.EqualInFields(a)"],
    ['a head with a leading dot needs quotes', filter(inFields('.5', 'LessThanInFields', ['a'])), "'.5'.LessThanInFields(a)"],
  ])('%s', (_title, ast, expected) => {
    const text = printFilter(ast);
    expect(text).toBe(expected);
    const parsed = parseFilter(text);
    expect(parsed.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(normalizeAst(parsed.ast)).toEqual(normalizeAst(ast));
  });
});
