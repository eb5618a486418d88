/**
 * Record datetimes as epoch milliseconds, fast. `recordValueAs` defines the
 * conversion; this module only adds a fast path for the two forms records
 * usually hold (`YYYY-MM-DDTHH:MM:SSZ` and `YYYY-MM-DDTHH:MM:SS.sssZ`) and
 * hands every other value to `recordValueAs`, so answers never differ.
 */
import { recordValueAs } from '../schema/values.js';

const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** Two ASCII digits at `i`, or -1. */
function two(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Parses `YYYY-MM-DDTHH:MM:SSZ` / `YYYY-MM-DDTHH:MM:SS.sssZ` by hand, or
 * returns undefined for anything else (including impossible dates, which the
 * slow path then refuses too).
 */
function parseUtcFast(s: string): number | undefined {
  const n = s.length;
  if ((n !== 20 && n !== 24) || s.charCodeAt(n - 1) !== 90 /* Z */) return undefined;
  if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) {
    return undefined;
  }
  const hi = two(s, 0);
  const lo = two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if ((hi | lo | month | day | hour | minute | second) < 0) return undefined;
  let millis = 0;
  if (n === 24) {
    if (s.charCodeAt(19) !== 46) return undefined;
    const m1 = two(s, 20);
    const m3 = s.charCodeAt(22) - 48;
    if (m1 < 0 || m3 < 0 || m3 > 9) return undefined;
    millis = m1 * 10 + m3;
  }
  const year = hi * 100 + lo;
  // Year 0000 is out of range; the slow path says so.
  if (year === 0) return undefined;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const maxDay = month === 2 ? (isLeap(year) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  if (day > maxDay) return undefined;
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/**
 * A record value read as a datetime: epoch milliseconds, or `NaN` when it
 * is null or does not convert (so every comparison with it is false).
 *
 * @example
 * recordDatetime('2024-01-01T00:00:00Z'); // 1704067200000
 * recordDatetime('2024-01-01T02:00+02:00'); // 1704067200000 (slow path)
 * recordDatetime('soon');                  // NaN
 */
export function recordDatetime(value: unknown): number {
  if (typeof value === 'string') {
    const fast = parseUtcFast(value);
    if (fast !== undefined) return fast;
  }
  const slow = recordValueAs(value, 'datetime');
  return slow === null ? Number.NaN : (slow as number);
}
