/**
 * Date-only values of datetime fields. `CreatedOn.Equal(2024-03-21)` reads
 * like "created on that day" but compares one instant, 2024-03-21T00:00:00Z
 * (a date without a time is midnight UTC). `explain` and the lint rule
 * `date-only-equality` both say so, and both offer the same range that does
 * mean "that day"; this module is the one place that range is built.
 */
import { operatorFor, type PositiveRelation } from '../ast/operator-facts.js';
import { parseDatetimeText } from './values.js';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The day a date-only datetime value names, and the bound just past it, or
 * undefined when the text has a time (or is no valid date). The bound is the
 * next day (`2024-03-22`), or the last millisecond of the day inclusive when
 * there is no next day to write (9999-12-31).
 *
 * @example
 * dateOnlyDay('2024-03-21');       // { day: '2024-03-21', next: '2024-03-22', nextInclusive: false }
 * dateOnlyDay('2024-03-21T10:00'); // undefined
 * dateOnlyDay(' 2024-03-21');      // undefined: read as the validator reads it, untrimmed
 */
export function dateOnlyDay(text: string): { day: string; next: string; nextInclusive: boolean } | undefined {
  // No trimming: the validator reads a value exactly as written, so a value
  // with a space (or any other character) around the date is no datetime.
  if (!DATE_ONLY.test(text)) return undefined;
  const start = parseDatetimeText(text);
  if (start === undefined) return undefined;
  const d = new Date(start + 86_400_000);
  const year = d.getUTCFullYear();
  if (year > 9999) return { day: text, next: `${text}T23:59:59.999Z`, nextInclusive: true };
  const next = `${String(year).padStart(4, '0')}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}`;
  return { day: text, next, nextInclusive: false };
}

/**
 * The filter text that means "on that day" (or, with `negate`, "not on that
 * day") for a datetime field and one or more date-only days: the
 * `GreaterThanOrEqual`/`LessThan` pair per day, in an `Or` for several days.
 * With `inOr` (the condition is a branch of an `Or`) the text is one clause,
 * so it can replace the condition in place.
 *
 * @example
 * dayRangeFilter('CreatedOn', ['2024-03-21']);
 * // 'CreatedOn.GreaterThanOrEqual(2024-03-21);CreatedOn.LessThan(2024-03-22)'
 * dayRangeFilter('CreatedOn', ['2024-03-21'], true);
 * // 'Or(CreatedOn.LessThan(2024-03-21);CreatedOn.GreaterThanOrEqual(2024-03-22))'
 */
export function dayRangeFilter(field: string, days: readonly string[], negate = false, inOr = false): string | undefined {
  const ranges = days.map(dateOnlyDay);
  if (ranges.length === 0 || ranges.some((r) => r === undefined)) return undefined;
  const parts = ranges.map((r) => {
    const { day, next, nextInclusive } = r!;
    if (negate) return `Or(${bound(field, '<', day)};${bound(field, nextInclusive ? '>' : '>=', next)})`;
    return `${bound(field, '>=', day)};${bound(field, nextInclusive ? '<=' : '<', next)}`;
  });
  // Several clauses must stay one clause where the condition sits in an Or.
  if (parts.length === 1) return inOr && !negate ? `And(${parts[0]})` : parts[0];
  if (negate) return inOr ? `And(${parts.join(';')})` : parts.join(';');
  return `Or(${parts.map((p) => `And(${p})`).join(';')})`;
}

/** `field.Op(value)` with the single-value operator of an order relation, named by its facts. */
function bound(field: string, relation: Exclude<PositiveRelation, '='>, value: string): string {
  const operator = operatorFor({ test: { kind: 'compare', relation }, values: 'single-value' });
  return `${field}.${operator}(${value})`;
}

/**
 * The instant a date-only datetime value compares as: midnight UTC of that
 * day (docs/reference.md §"Types and values": a date without a time is UTC midnight).
 *
 * @example
 * midnightInstant('2024-03-21'); // '2024-03-21T00:00:00Z'
 */
export function midnightInstant(date: string): string {
  return `${date}T00:00:00Z`;
}

/**
 * What to say about an equality (or `InArray`) of a datetime field with
 * date-only values, so that lint and explain word it alike: the instants it
 * compares, the whole days the author likely meant, and the filter that
 * means them.
 *
 * @example
 * const said = instantEquality('CreatedOn', ['2024-03-21'])!;
 * `compares the instant ${said.instants.join(', ')}, not ${said.wholeDay}; ${said.remedy} write ${said.range}`;
 */
export interface InstantEquality {
  /** Each value as the instant it compares (`2024-03-21T00:00:00Z`). */
  readonly instants: readonly string[];
  /** `the whole day`, or `the whole days` for several values. */
  readonly wholeDay: string;
  /** How the range below is offered: `for the whole day(s)`, or, negated, `to leave out the whole day`. */
  readonly remedy: string;
  /** The filter text that means the whole days (`dayRangeFilter`). */
  readonly range: string;
}

/**
 * The wording of an equality of a datetime field with date-only days, or
 * undefined when some value has a time (then it means an instant, as
 * written). `negate` and `inOr` are those of `dayRangeFilter`.
 *
 * @example
 * instantEquality('CreatedOn', ['2024-03-21'])?.instants; // ['2024-03-21T00:00:00Z']
 * instantEquality('CreatedOn', ['2024-03-21T10:00']);      // undefined
 */
export function instantEquality(field: string, days: readonly string[], negate = false, inOr = false): InstantEquality | undefined {
  const range = dayRangeFilter(field, days, negate, inOr);
  if (range === undefined) return undefined;
  const many = days.length > 1;
  return {
    instants: days.map(midnightInstant),
    wholeDay: `the whole day${many ? 's' : ''}`,
    remedy: negate ? 'to leave out the whole day' : `for the whole day${many ? 's' : ''}`,
    range,
  };
}
