/**
 * Completion and the parser share one notion of whitespace (space, tab, CR,
 * LF): text the parser reads as a different name must not be completed as
 * the field it resembles.
 */
import { describe, expect, it } from 'vitest';
import { isWhitespace, trimWhitespace } from '../../../src/ast/lexical.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { complete } from '../../../src/language-service/complete.js';
import { parseFilter } from '../../../src/syntax/parse-filter.js';
import { analyzeFilter } from '../../../src/validate/analyze.js';

const labels = (text: string): string[] => complete(text, text.length, employeeSchema).items.map((i) => i.label);

describe('completion reads whitespace as the parser does', () => {
  it.each(['\u00a0LastName.Sta', '\u2028LastName.Sta', '\ufeffLastName.Sta', 'LastName\u00a0.Sta'])(
    'offers no field operator after %j, a name the schema does not have (only InFields, for a value head)',
    (text) => {
      expect(labels(text)).toEqual(['StartsWithInFields']);
      const parsed = `${text}rtsWith(Sm)`;
      expect(analyzeFilter(parsed, { schema: employeeSchema }).value).toBeUndefined();
    },
  );

  it.each([' LastName.Sta', '\tLastName.Sta', '\r\nLastName.Sta', 'Or( LastName.Sta'])(
    'offers StartsWith after %j, which parses',
    (text) => {
      expect(labels(text)).toEqual(['StartsWith']);
      expect(
        parseFilter(`${text}rtsWith(Sm)${text.startsWith('Or(') ? ')' : ''}`).diagnostics.filter((d) => d.severity === 'error'),
      ).toEqual([]);
    },
  );

  it('has exactly four whitespace characters', () => {
    const all = Array.from({ length: 0x10000 }, (_, c) => c).filter(isWhitespace);
    expect(all).toEqual([0x09, 0x0a, 0x0d, 0x20]);
    expect(trimWhitespace('\u00a0 x \u00a0')).toBe('\u00a0 x \u00a0');
  });
});
