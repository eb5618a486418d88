/**
 * Reads a filter value's text as a field type, with a message that says
 * what a valid value looks like when it does not read. Goes through
 * `schema/values.ts` only, so every stage reads values identically.
 */
import type { ScalarType } from '../schema/values.js';
import { MAX_INTEGER, parseBooleanText, parseIntegerText, parseNumberText, readDatetimeText } from '../schema/values.js';
import type { TypedScalar } from '../ast/typed-tree.js';

/**
 * The result of `convertValueText`.
 *
 * @example
 * const r: ConvertedValue = convertValueText('9007199254740992', 'integer');
 * r.ok; // false (r.code is 'integer-out-of-range')
 */
export type ConvertedValue =
  | { readonly ok: true; readonly value: TypedScalar }
  | { readonly ok: false; readonly code: 'invalid-value' | 'integer-out-of-range'; readonly reason: string };

// Shapes that look like a date but name an impossible day or time get their
// own explanation: "expected a datetime" would puzzle someone who wrote one.
const DATETIME_SHAPE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * What a valid value of each type looks like, for messages.
 *
 * @example
 * VALUE_EXAMPLES.datetime; // 'a datetime like 2024-01-31 or 2024-01-31T13:45:00Z'
 */
export const VALUE_EXAMPLES: Readonly<Record<ScalarType, string>> = Object.freeze({
  string: 'any text',
  number: 'a number like 42, -3.5 or 1e3',
  integer: 'a whole number like 42 or -7',
  datetime: 'a datetime like 2024-01-31 or 2024-01-31T13:45:00Z',
  boolean: 'true or false',
});

/**
 * Converts a value's text to a field type: numbers for `number` and
 * `integer`, a `Date` for `datetime`, a boolean for `boolean`, the text
 * itself for `string`. On failure, `reason` says what is wrong and what a
 * valid value looks like (`expected a number like 42, -3.5 or 1e3`).
 *
 * @example
 * convertValueText('2024-01-31', 'datetime'); // { ok: true, value: Date(2024-01-31T00:00:00.000Z) }
 * convertValueText('4.5', 'integer');         // { ok: false, code: 'invalid-value', reason: 'it has a fraction; expected a whole number like 42 or -7' }
 */
export function convertValueText(text: string, type: ScalarType): ConvertedValue {
  switch (type) {
    case 'string':
      return { ok: true, value: text };
    case 'number': {
      const n = parseNumberText(text);
      if (n !== undefined) return { ok: true, value: n };
      return invalid(`expected ${VALUE_EXAMPLES.number}`);
    }
    case 'integer': {
      const r = parseIntegerText(text);
      if (r.ok) return { ok: true, value: r.value };
      if (r.problem === 'out-of-range') {
        return {
          ok: false,
          code: 'integer-out-of-range',
          reason: `it is outside ±${MAX_INTEGER} (2^53−1), the range of integers`,
        };
      }
      if (r.problem === 'fraction') return invalid(`it has a fraction; expected ${VALUE_EXAMPLES.integer}`);
      return invalid(`expected ${VALUE_EXAMPLES.integer}`);
    }
    case 'datetime': {
      const r = readDatetimeText(text);
      if (r.ok) return { ok: true, value: new Date(r.value) };
      if (r.problem === 'out-of-range') return invalid('it is out of range; datetimes lie in the years 0001 to 9999');
      if (DATETIME_SHAPE.test(text)) return invalid(`it is not a real date or time; expected ${VALUE_EXAMPLES.datetime}`);
      return invalid(`expected ${VALUE_EXAMPLES.datetime}`);
    }
    case 'boolean': {
      const b = parseBooleanText(text);
      if (b !== undefined) return { ok: true, value: b };
      return invalid(`expected ${VALUE_EXAMPLES.boolean}`);
    }
  }
}

function invalid(reason: string): ConvertedValue {
  return { ok: false, code: 'invalid-value', reason };
}
