import { describe, expect, it } from 'vitest';
import { compareCodePoints } from '../../../src/evaluate/string-order.js';
import { compileSort, sortRecords, WepqlError } from '../../../src/index.js';
import { schema } from './fixtures.js';

type Rec = Record<string, unknown> & { id: number };

/** Sorts with both the fast path and the comparator, checks they agree, and returns the ids. */
function order(sort: string, records: readonly Rec[], caseSensitive = false): number[] {
  const fast = sortRecords(records, sort, { schema, caseSensitive }).map((r) => r.id);
  const slow = [...records].sort(compileSort(sort, { schema, caseSensitive })).map((r) => r.id);
  expect(slow).toEqual(fast);
  return fast;
}

const recs = (...values: Record<string, unknown>[]): Rec[] => values.map((v, id) => ({ id, ...v }));

describe('sortRecords and compileSort', () => {
  it.each([
    ['S=Asc', recs({ S: 'b' }, { S: 'A' }, { S: 'a' }, { S: 'B' }), [1, 2, 0, 3]],
    ['S=Desc', recs({ S: 'b' }, { S: 'A' }, { S: 'a' }, { S: 'B' }), [0, 3, 1, 2]],
    ['S=Asc', recs({ S: 'b' }, {}, { S: 'a' }, { S: null }, { S: 7 }), [1, 3, 4, 2, 0]],
    ['S=Desc', recs({ S: 'b' }, {}, { S: 'a' }, { S: null }, { S: 7 }), [0, 2, 1, 3, 4]],
    ['N=Asc', recs({ N: 10 }, { N: 9 }, { N: -1 }, { N: 1.5 }, { N: Number.NaN }), [4, 2, 3, 1, 0]],
    ['N=Desc', recs({ N: 10 }, { N: 9 }, { N: -1 }, {}), [0, 1, 2, 3]],
    ['I=Asc', recs({ I: 2 }, { I: 1.5 }, { I: 1 }), [1, 2, 0]],
    ['B=Asc', recs({ B: true }, { B: false }, {}, { B: 'false' }), [2, 3, 1, 0]],
    ['B=Desc', recs({ B: true }, { B: false }, {}), [0, 1, 2]],
    [
      'D=Asc',
      recs({ D: '2024-01-01T01:00:00+02:00' }, { D: '2024-01-01' }, { D: new Date(Date.UTC(2023, 11, 31, 23)) }, { D: '2023-02-30' }),
      [3, 0, 2, 1],
    ],
    ['D=Desc', recs({ D: '2024-01-01T00:00:00.001Z' }, { D: '2024-01-01' }, { D: 'nope' }), [0, 1, 2]],
    ['S=Asc;N=Desc', recs({ S: 'a', N: 1 }, { S: 'A', N: 2 }, { S: 'b', N: 3 }, { S: 'a' }), [1, 0, 3, 2]],
    ['S=Asc;N=Asc;I=Asc', recs({ S: 'a', N: 1, I: 2 }, { S: 'a', N: 1, I: 1 }, { S: 'a', N: 0 }), [2, 1, 0]],
    ['Obj.City=Asc', recs({ Obj: { City: 'b' } }, { Obj: null }, { Obj: { City: 'A' } }), [1, 2, 0]],
  ] as const)('%s orders %o as %o', (sort, records, expected) => {
    expect(order(sort, records)).toEqual(expected);
  });

  it('is stable: records equal on every key keep their input order', () => {
    const records = recs({ S: 'x' }, { S: 'X' }, { S: 'a' }, {}, { S: 'x' }, { S: null }, { S: 'A' });
    expect(order('S=Asc', records)).toEqual([3, 5, 2, 6, 0, 1, 4]);
    expect(order('S=Desc', records)).toEqual([0, 1, 4, 2, 6, 3, 5]);
  });

  it('compares strings by code point of the lower-cased text, not by UTF-16 unit', () => {
    // U+FF5E (a BMP character above the surrogates) < U+1F600 (astral) by code point,
    // although '\uFF5E' > '\uD83D\uDE00' by UTF-16 code unit.
    const records = recs({ S: '😀' }, { S: '\uFF5E' }, { S: '\uE000' }, { S: 'z' }, { S: '𝄞' });
    expect(order('S=Asc', records)).toEqual([3, 2, 1, 4, 0]);
    expect(order('S=Desc', records)).toEqual([0, 4, 1, 2, 3]);
  });

  it('folds with toLowerCase, so accents and other scripts order by their lower-case code points', () => {
    const records = recs({ S: 'Zoë' }, { S: 'zoe' }, { S: 'ZOÉ' }, { S: 'Åberg' }, { S: 'abe' });
    // 'abe' < 'zoe' < 'zoé' (U+00E9) < 'zoë' (U+00EB) < 'åberg' (U+00E5 sorts after z).
    expect(order('S=Asc', records)).toEqual([4, 1, 2, 0, 3]);
  });

  it('orders exactly (upper case before lower case) when case-sensitive', () => {
    const records = recs({ S: 'b' }, { S: 'B' }, { S: 'a' }, { S: 'A' });
    expect(order('S=Asc', records, true)).toEqual([3, 1, 2, 0]);
  });

  it('returns a new array and leaves the input alone', () => {
    const records = recs({ S: 'b' }, { S: 'a' });
    const sorted = sortRecords(records, 'S=Asc', { schema });
    expect(sorted).not.toBe(records);
    expect(records.map((r) => r.id)).toEqual([0, 1]);
    expect(sorted[0]).toBe(records[1]);
  });

  it('handles empty and one-record arrays, and an empty sort', () => {
    expect(sortRecords([], 'S=Asc', { schema })).toEqual([]);
    expect(sortRecords(recs({ S: 'a' }), 'S=Asc', { schema }).length).toBe(1);
    const records = recs({ S: 'b' }, { S: 'a' });
    expect(sortRecords(records, '', { schema })).toEqual(records);
  });

  it('throws WepqlError with diagnostics for an invalid sort', () => {
    expect(() => sortRecords([], 'Nope=Asc', { schema })).toThrow(WepqlError);
    try {
      compileSort('S=Sideways', { schema });
      expect.unreachable();
    } catch (e) {
      expect((e as WepqlError).diagnostics.some((d) => d.severity === 'error')).toBe(true);
    }
  });

  it('honours limits.maxSortKeys', () => {
    expect(() => compileSort('S=Asc;N=Asc;I=Asc', { schema, limits: { maxSortKeys: 2 } })).toThrow(WepqlError);
  });
});

describe('compareCodePoints', () => {
  it.each([
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['a', 'a', 0],
    ['a', 'ab', -1],
    ['', 'a', -1],
    ['\uFF5E', '😀', -1],
    ['😀', '\uFF5E', 1],
    ['\uE000', '\uD800\uDC00', -1],
    ['😀', '😁', -1],
    ['\uD7FF', '😀', -1],
  ] as const)('%j vs %j has sign %i', (a, b, sign) => {
    expect(Math.sign(compareCodePoints(a, b))).toBe(sign);
  });
});
