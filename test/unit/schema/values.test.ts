/**
 * How value text reads as a field type (docs/reference.md §"Types and values"). The validator, the
 * evaluator and the SQL compiler all read through these functions.
 */
import { describe, expect, it } from 'vitest';
import { compileFilter, defineSchema } from '../../../src/index.js';
import { parseIntegerText } from '../../../src/schema/values.js';
import { toSql } from '../../../src/sql/index.js';

describe('parseIntegerText: a number with no fraction, within ±(2^53−1)', () => {
  it.each<[string, number]>([
    ['42', 42],
    ['-7', -7],
    ['+7', 7],
    ['3.0', 3],
    ['3.000', 3],
    ['1e3', 1000],
    ['1.5e1', 15],
    ['100e-2', 1],
    ['12.50e1', 125],
    ['0e5', 0],
    ['0.0e-400', 0],
    ['-0', 0],
    ['9007199254740991', 9007199254740991],
    ['-9007199254740991', -9007199254740991],
    ['9007199254740991.000', 9007199254740991],
  ])('%s reads as %d', (text, value) => {
    expect(parseIntegerText(text)).toEqual({ ok: true, value });
  });

  // The fraction is judged on the written value, not on the nearest double:
  // 1e-400 rounds to 0 and 1.0000000000000001 to 1, yet neither is whole.
  it.each(['1.5', '1e-1', '1e-400', '-1e-400', '1.0000000000000001', '9007199254740990.5', '123456789.0000000000000000000001', '15e-1'])(
    '%s has a fraction',
    (text) => {
      expect(parseIntegerText(text)).toEqual({ ok: false, problem: 'fraction' });
    },
  );

  it.each(['9007199254740992', '-9007199254740992', '1e16', '-1e300', '9007199254740991.5e1'])('%s is out of range', (text) => {
    expect(parseIntegerText(text)).toEqual({ ok: false, problem: 'out-of-range' });
  });

  it.each(['', '.5', '5.', '1e', 'abc', '0x10', '1_000', '1e999'])('%s is not a number', (text) => {
    expect(parseIntegerText(text)).toEqual({ ok: false, problem: 'not-a-number' });
  });

  it('an integer filter value with a tiny fraction is refused, not read as a whole number, by every stage', () => {
    const schema = defineSchema({ fields: { Id: { type: 'integer' } } });
    expect(() => compileFilter('Id.Equal(1e-400)', { schema })).toThrow(/fraction/);
    expect(() => compileFilter('Id.Equal(1.0000000000000001)', { schema })).toThrow(/fraction/);
    expect(() => toSql({ filter: 'Id.InArray(1, 2.0000000000000001)' }, { dialect: 'sqlite', schema })).toThrow(/fraction/);
  });
});
