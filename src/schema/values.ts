/**
 * How text values and record values are read as a field's type (docs/reference.md
 * §"Types and values" and §"Filter semantics").
 * One module so that the validator, the evaluator, the SQL compiler and the
 * tests all read `1e3`, `2024-02-30` or `"TRUE"` the same way.
 *
 * Depends only on the operator table (for the scalar types).
 */

import type { ScalarType } from '../ast/operators.js';

export { SCALAR_TYPES, type ScalarType } from '../ast/operators.js';

/**
 * The largest integer magnitude an `integer` field accepts: 2^53−1.
 *
 * @example
 * MAX_INTEGER; // 9007199254740991
 */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

const NUMBER_PATTERN = /^[+-]?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NUMBER_PARTS = /^[+-]?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
const DATETIME_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2})?)?$/;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Reads `[+-]?digits[.digits][(e|E)[+-]digits]` as a finite number.
 *
 * @example
 * parseNumberText('1e3'); // 1000
 * parseNumberText('.5');  // undefined (a digit must precede the point)
 */
export function parseNumberText(text: string): number | undefined {
  if (!NUMBER_PATTERN.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Whether the value a number text denotes (not its nearest double) has a
 * fraction: `1e-400` and `1.0000000000000001` do, though they round to the
 * whole numbers 0 and 1; `1.50e1` and `100e-2` do not. Call it only on text
 * `NUMBER_PATTERN` accepts.
 */
function hasWrittenFraction(text: string): boolean {
  const m = NUMBER_PARTS.exec(text)!;
  const whole = m[1]!;
  const digits = whole + (m[2] ?? '');
  // Digits from `point` on stand after the decimal point once the exponent is applied.
  const point = whole.length + (m[3] === undefined ? 0 : Number(m[3]));
  return point < digits.length && /[1-9]/.test(digits.slice(Math.max(0, point)));
}

/**
 * Why an integer text was refused.
 *
 * @example
 * const r = parseIntegerText('1e-400');
 * const problem: IntegerProblem | undefined = r.ok ? undefined : r.problem; // 'fraction'
 */
export type IntegerProblem = 'not-a-number' | 'fraction' | 'out-of-range';

/**
 * Reads an integer: a number whose written value has no fraction (`3`,
 * `3.0`, `1e3`, but not `1e-400` or `1.0000000000000001`, which only round
 * to whole numbers), within ±(2^53−1).
 *
 * @example
 * parseIntegerText('42');   // { ok: true, value: 42 }
 * parseIntegerText('4.5');  // { ok: false, problem: 'fraction' }
 */
export function parseIntegerText(text: string): { ok: true; value: number } | { ok: false; problem: IntegerProblem } {
  const n = parseNumberText(text);
  if (n === undefined) return { ok: false, problem: 'not-a-number' };
  if (hasWrittenFraction(text)) return { ok: false, problem: 'fraction' };
  if (Math.abs(n) > MAX_INTEGER) return { ok: false, problem: 'out-of-range' };
  return { ok: true, value: n === 0 ? 0 : n };
}

/**
 * The earliest instant a datetime may hold: 0001-01-01T00:00:00.000Z.
 * Year 0000 and anything earlier or later than years 0001–9999 is out of
 * range everywhere (text, records, typed trees, SQL): PostgreSQL refuses
 * year 0000, and one engine must never accept what another refuses.
 *
 * @example
 * new Date(MIN_DATETIME_MS).toISOString(); // '0001-01-01T00:00:00.000Z'
 */
export const MIN_DATETIME_MS = -62_135_596_800_000;

/**
 * The latest instant a datetime may hold: 9999-12-31T23:59:59.999Z.
 *
 * @example
 * new Date(MAX_DATETIME_MS).toISOString(); // '9999-12-31T23:59:59.999Z'
 */
export const MAX_DATETIME_MS = 253_402_300_799_999;

/**
 * Why a text is not a datetime: not of the form, an impossible date or
 * time (`2023-02-30`, `24:00`), or an instant outside years 0001–9999.
 *
 * @example
 * const r = readDatetimeText('0000-01-01');
 * const problem: DatetimeProblem | undefined = r.ok ? undefined : r.problem; // 'out-of-range'
 */
export type DatetimeProblem = 'not-a-datetime' | 'impossible' | 'out-of-range';

/**
 * Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM]` as epoch
 * milliseconds, saying why when it does not read. No zone means UTC; the
 * fraction is truncated to milliseconds.
 *
 * @example
 * readDatetimeText('2023-02-30'); // { ok: false, problem: 'impossible' }
 */
export function readDatetimeText(text: string): { ok: true; value: number } | { ok: false; problem: DatetimeProblem } {
  const m = DATETIME_PATTERN.exec(text);
  if (m === null) return { ok: false, problem: 'not-a-datetime' };
  const year = +m[1]!;
  const month = +m[2]!;
  const day = +m[3]!;
  if (month < 1 || month > 12 || day < 1) return { ok: false, problem: 'impossible' };
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const maxDay = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  if (day > maxDay) return { ok: false, problem: 'impossible' };
  const hour = m[4] === undefined ? 0 : +m[4];
  const minute = m[5] === undefined ? 0 : +m[5];
  const second = m[6] === undefined ? 0 : +m[6];
  if (hour > 23 || minute > 59 || second > 59) return { ok: false, problem: 'impossible' };
  const millis = m[7] === undefined ? 0 : +(m[7] + '00').slice(0, 3);
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone !== undefined && zone !== 'Z') {
    const oh = +zone.slice(1, 3);
    const om = +zone.slice(4, 6);
    if (oh > 23 || om > 59) return { ok: false, problem: 'impossible' };
    offsetMinutes = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, millis);
  const ms = d.getTime() - offsetMinutes * 60_000;
  return ms >= MIN_DATETIME_MS && ms <= MAX_DATETIME_MS ? { ok: true, value: ms } : { ok: false, problem: 'out-of-range' };
}

/**
 * Reads `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM[:SS[.fraction]][Z|±HH:MM]` as epoch
 * milliseconds. No zone means UTC; the fraction is truncated to milliseconds;
 * impossible dates (`2023-02-30`) and times (`24:00`) and instants outside
 * years 0001–9999 are refused.
 *
 * @example
 * parseDatetimeText('2024-01-01T02:00+02:00'); // 1704067200000
 * parseDatetimeText('2023-02-30');             // undefined
 */
export function parseDatetimeText(text: string): number | undefined {
  const r = readDatetimeText(text);
  return r.ok ? r.value : undefined;
}

/**
 * The instant of a `Date` as epoch milliseconds, or undefined when the
 * value is not a real `Date` (`Object.create(Date.prototype)` is not), is
 * invalid, or lies outside years 0001–9999. Never throws.
 *
 * @example
 * instantOf(new Date(0));                   // 0
 * instantOf(Object.create(Date.prototype)); // undefined
 */
export function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  let ms: number;
  try {
    // A fake Date passes `instanceof`; only a real one has the internal time slot.
    ms = Date.prototype.getTime.call(value as Date);
  } catch {
    return undefined;
  }
  return ms >= MIN_DATETIME_MS && ms <= MAX_DATETIME_MS ? ms : undefined;
}

/**
 * A value of a typed tree (or a builder) in the form every engine compares:
 * text folded with `toLowerCase` when `fold` is set, a finite number (a safe
 * integer for `integer`), a boolean, a datetime as epoch milliseconds; or
 * undefined when the value does not have the type. The evaluator, the lint
 * logic and the SQL compiler all normalise values through this function.
 *
 * @example
 * comparableValue('Smith', 'string', true);            // 'smith'
 * comparableValue(new Date(0), 'datetime', false);     // 0
 * comparableValue(new Date('0000-01-01'), 'datetime', false); // undefined
 */
export function comparableValue(value: unknown, type: ScalarType, fold: boolean): string | number | boolean | undefined {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? (fold ? value.toLowerCase() : value) : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
    case 'boolean':
      return typeof value === 'boolean' ? value : undefined;
    case 'datetime':
      return instantOf(value);
  }
}

/**
 * Reads `true` / `false` in any case.
 *
 * @example
 * parseBooleanText('TRUE'); // true
 * parseBooleanText('1');    // undefined
 */
export function parseBooleanText(text: string): boolean | undefined {
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return undefined;
}

/**
 * Reads a value found in a record as the field's type, or `null` when it is
 * missing, null or does not convert (docs/reference.md §"Filter semantics": such values
 * count as null).
 * Datetimes come back as epoch milliseconds; a record may hold them as ISO
 * text in any form `parseDatetimeText` accepts, or as `Date` objects.
 * Numbers must be JavaScript numbers (no numeric strings); integers must be
 * whole and within ±(2^53−1); booleans must be booleans; strings, strings;
 * datetimes within years 0001–9999 (a fake `Date` counts as null).
 *
 * @example
 * recordValueAs('2024-01-01', 'datetime'); // 1704067200000
 * recordValueAs('12', 'number');           // null
 */
export function recordValueAs(value: unknown, type: ScalarType): string | number | boolean | null {
  switch (type) {
    case 'string':
      return typeof value === 'string' ? value : null;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : null;
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'datetime':
      if (typeof value === 'string') return parseDatetimeText(value) ?? null;
      return instantOf(value) ?? null;
  }
}

export { hasInvalidCharacter } from '../ast/lexical.js';
