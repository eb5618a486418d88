import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
// Internal helper (not part of the public entry): tested directly.
import { decodeBase64Url, encodeBase64Url, isBase64Url } from '../../../src/list/base64url.js';

describe('base64url', () => {
  it("agrees with Node's encoder and round-trips any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const text = encodeBase64Url(bytes);
        expect(text).toBe(Buffer.from(bytes).toString('base64url'));
        expect(decodeBase64Url(text)).toEqual(bytes);
      }),
    );
  });

  it.each(['a', 'abcde', 'ab=', 'ab+c', 'ab/c', 'é', 'ab c'])('refuses %j', (text) => {
    expect(isBase64Url(text)).toBe(false);
    expect(decodeBase64Url(text)).toBeUndefined();
  });
});
