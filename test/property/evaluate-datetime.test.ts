/**
 * The evaluator's datetime fast path reads exactly what `recordValueAs`
 * reads, for the `…Z` forms it handles itself and for everything it hands on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordValueAs } from '../../src/schema/values.js';
import { recordDatetime } from '../../src/evaluate/datetime.js';

const digits = (n: number) => fc.string({ unit: fc.constantFrom('0', '1', '2', '3', '5', '9'), minLength: n, maxLength: n });
const nearlyIso = fc
  .tuple(
    digits(4),
    digits(2),
    digits(2),
    digits(2),
    digits(2),
    digits(2),
    fc.option(digits(3)),
    fc.constantFrom('Z', 'z', '', '+00:00'),
    fc.constantFrom('-', '/'),
  )
  .map(([y, mo, d, h, mi, s, ms, zone, sep]) => `${y}${sep}${mo}${sep}${d}T${h}:${mi}:${s}${ms === null ? '' : `.${ms}`}${zone}`);

function same(value: unknown): void {
  const slow = recordValueAs(value, 'datetime');
  const fast = recordDatetime(value);
  if (slow === null) expect(fast).toBeNaN();
  else expect(fast).toBe(slow);
}

describe('recordDatetime', () => {
  it('agrees with recordValueAs on real instants written with Z', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -62_167_219_200_000 /* 0000-01-01 */, max: 253_402_300_799_999 /* 9999-12-31T23:59:59.999Z */ }),
        (ms) => {
          const iso = new Date(ms).toISOString();
          same(iso);
          same(iso.slice(0, 19) + 'Z');
          same(iso.slice(0, 23));
        },
      ),
    );
  });

  it('agrees with recordValueAs on near-ISO text, impossible dates included', () => {
    fc.assert(
      fc.property(nearlyIso, (text) => same(text)),
      { numRuns: 3000 },
    );
  });

  it.each([
    '2024-02-29T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '1900-02-29T00:00:00Z',
    '2000-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-00-10T00:00:00Z',
    '2024-13-10T00:00:00Z',
    '2024-01-00T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:60:00Z',
    '2024-01-01T23:59:60Z',
    '0000-01-01T00:00:00Z',
    '9999-12-31T23:59:59.999Z',
    '2024-01-01T00:00:00.1Z',
    '2024-01-01T00:00:00.12Z',
    '2024-01-01T00:00:00.1234Z',
    '2024-01-01T00:00:00.a23Z',
    ' 2024-01-01T00:00:00Z',
    '2024-01-01T00:00:00Z ',
    '２０２４-01-01T00:00:00Z',
  ])('%s reads as recordValueAs reads it', (text) => same(text));

  it.each([null, undefined, 0, 1704067200000, true, {}, new Date(0), new Date(Number.NaN)])('%o reads as recordValueAs reads it', (value) =>
    same(value),
  );
});
