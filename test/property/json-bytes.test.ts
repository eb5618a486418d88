import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonBytes } from '../../src/list/json-bytes.js';
import { errorResponse, listResponse } from '../../src/list/envelope.js';

/** The bytes the servers sent before: the whole body as one string, then UTF-8. */
const reference = (value: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(value));
const same = (value: unknown): void => {
  expect(Buffer.from(jsonBytes(value)).equals(Buffer.from(reference(value)))).toBe(true);
};

// Text with every kind of code unit: lone surrogates, pairs, controls, quotes, backslashes, Latin-1, other scripts.
const text = fc.string({ unit: 'binary', maxLength: 12 });
const key = fc.oneof(text, fc.constantFrom('__proto__', 'constructor', 'toJSON', 'Data', '0', '1', ''));
const number = fc.oneof(
  fc.double(),
  fc.constantFrom(-0, 0, 1e21, -1e-7, Number.MAX_SAFE_INTEGER + 2, Number.MAX_VALUE, Number.MIN_VALUE, NaN, Infinity, -Infinity),
  fc.integer(),
);
// What JSON.stringify leaves out of objects and writes as null in arrays.
const omitted = fc.constantFrom(undefined, () => 1, Symbol('s'));
/** A record as a source returns it: JSON.parse output (so `__proto__` is an own key) or a plain object with odd values. */
const leaf = fc.oneof(text, number, fc.boolean(), fc.constant(null), omitted);
const record = fc.oneof(
  fc
    .dictionary(key, fc.oneof(leaf, fc.array(leaf, { maxLength: 3 }), fc.dictionary(key, leaf, { maxKeys: 3 })), { maxKeys: 8 })
    .map((o) => o as Record<string, unknown>),
  fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown),
  fc.json().map((j) => JSON.parse(j) as unknown),
  leaf,
);
const pagination = fc.record({
  pageNo: fc.integer({ min: 1 }),
  pageSize: fc.integer({ min: 1, max: 1000 }),
  totalRecords: fc.nat(),
  totalPages: fc.nat(),
  dataToken: text,
});

describe('jsonBytes', () => {
  it('equals the UTF-8 of JSON.stringify for list envelopes', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 12 }), fc.option(pagination, { nil: undefined }), (data, p) => {
        same(listResponse({ data, ...(p === undefined ? {} : { pagination: p }) }).body);
      }),
      { numRuns: 500 },
    );
  });

  it('equals the UTF-8 of JSON.stringify for any value, walked or not', () => {
    const plain = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small', maxDepth: 6 },
        leaf,
        record,
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(key, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(fc.property(fc.oneof(plain, fc.anything()), same), { numRuns: 1000 });
  });

  it('equals it for the error envelopes', () => {
    fc.assert(
      fc.property(text, text, (message, param) => {
        same(errorResponse({ kind: 'not-found', message }).body);
        same(errorResponse({ kind: 'validation', errors: [{ param, code: 'outOfRangeError', message }] }).body);
      }),
    );
  });

  it('keeps what JSON.stringify does with special values', () => {
    const date = new Date(Date.UTC(2024, 0, 2));
    // A toJSON that answers by its key: an element of an array gets its index, the whole value ''.
    const keyed = { toJSON: (k: string) => `key:${k}` };
    for (const value of [
      undefined,
      null,
      -0,
      'lone \ud800 and pair \ud83d\ude00',
      { Data: [date, keyed, new Number(3), new String('s'), Object.create(null) as object], Status: 1 },
      { Data: [{ a: keyed }], Status: keyed },
      { Data: [undefined, () => 1, Symbol('x')], Message: undefined, f: () => 1 },
      { Data: [{ ['__proto__']: 1 }], Status: 1 },
      JSON.parse('{"Data":[{"__proto__":{"x":1}}],"__proto__":[1,2]}') as unknown,
      [[1, [2, [3, keyed]]]],
      new Map([[1, 2]]),
      { Data: new Array(3) },
      { Data: [1.5e300, -1e-300, 2 ** 53 + 1, -0] },
    ]) {
      same(value);
    }
  });

  it('grows past its first buffer and encodes four-byte characters', () => {
    const big = { Data: Array.from({ length: 200 }, (_, i) => ({ Id: i, Name: `${'é'.repeat(i)}😀${'x'.repeat(300)}漢` })) };
    same(big);
    expect(jsonBytes(big).length).toBeGreaterThan(16 * 1024);
  });
});
