/**
 * The limits of docs/reference.md §"Limits". Every recursive pass (parse, validate, print,
 * evaluate, SQL) honours the same `maxDepth`.
 */

/**
 * Configurable bounds on input size. Every field is optional when passed in.
 *
 * @example
 * parseFilter(text, { limits: { maxDepth: 8 } }); // a Partial<Limits>; the rest keep their defaults
 */
export interface Limits {
  /** Filter or sort text length, checked before lexing. */
  readonly maxLength: number;
  /** Group nesting depth. */
  readonly maxDepth: number;
  /** Conditions in one filter. */
  readonly maxConditions: number;
  /** Values in one list operator. */
  readonly maxListValues: number;
  /** Fields in one InFields operator. */
  readonly maxInFields: number;
  /** Sort keys. */
  readonly maxSortKeys: number;
  /** Diagnostics reported before `too-many-errors` stops reporting. */
  readonly maxErrors: number;
}

/**
 * The defaults of docs/reference.md §"Limits".
 *
 * @example
 * DEFAULT_LIMITS.maxLength; // 8192
 */
export const DEFAULT_LIMITS: Limits = Object.freeze({
  maxLength: 8192,
  maxDepth: 32,
  maxConditions: 256,
  maxListValues: 500,
  maxInFields: 32,
  maxSortKeys: 8,
  maxErrors: 100,
});

/**
 * Fills the unset fields of partial limits with the defaults. A limit must
 * be a whole number ≥ 0, or `Infinity` to lift a bound; `undefined` and any
 * other value (`NaN`, negative, fractional, not a number) take the default,
 * so a configuration mistake can never disable a bound — a `NaN` limit
 * would otherwise let every input through — and parsing still never throws.
 *
 * @example
 * resolveLimits({ maxDepth: 8 }).maxLength; // 8192
 * resolveLimits({ maxLength: NaN }).maxLength; // 8192
 */
export function resolveLimits(partial?: Partial<Limits>): Limits {
  if (partial === undefined) return DEFAULT_LIMITS;
  const out: Record<keyof Limits, number> = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof Limits)[]) {
    if (!Object.hasOwn(partial, key)) continue;
    const value: unknown = partial[key];
    if (typeof value === 'number' && (Number.isSafeInteger(value) || value === Infinity) && value >= 0) out[key] = value;
  }
  return out;
}

/**
 * The deepest group nesting any recursive pass will enter, whatever
 * `limits.maxDepth` says: deeper input is reported as `nesting-too-deep`
 * rather than risking the call stack.
 *
 * @example
 * Math.min(resolveLimits({ maxDepth: Infinity }).maxDepth, DEPTH_CEILING); // 200
 */
export const DEPTH_CEILING = 200;

/**
 * The limits a count can exceed, with the diagnostic each reports.
 *
 * @example
 * LIMIT_CODES.maxListValues; // 'too-many-list-values'
 */
export const LIMIT_CODES = Object.freeze({
  maxLength: 'text-too-long',
  maxDepth: 'nesting-too-deep',
  maxConditions: 'too-many-conditions',
  maxListValues: 'too-many-list-values',
  maxInFields: 'too-many-in-fields',
  maxSortKeys: 'too-many-sort-keys',
} as const);

/**
 * The one wording of a limit passed, for every stage that checks it:
 * parsing, the typed-tree check, sorting. `subject` names what is too big
 * where the limit alone does not (`InArray`, `filter`).
 *
 * @example
 * limitMessage('maxListValues', 500, 'InArray'); // 'InArray has more than 500 values (limit maxListValues)'
 * limitMessage('maxDepth', 32);                   // 'groups nest deeper than 32 levels (limit maxDepth)'
 */
export function limitMessage(limit: keyof typeof LIMIT_CODES, value: number, subject = ''): string {
  switch (limit) {
    case 'maxLength':
      return `the ${subject || 'text'} is longer than ${value} characters (limit maxLength)`;
    case 'maxDepth':
      return `groups nest deeper than ${value} levels (limit maxDepth)`;
    case 'maxConditions':
      return `the filter has more than ${value} conditions (limit maxConditions)`;
    case 'maxListValues':
      return `${subject || 'a list'} has more than ${value} values (limit maxListValues)`;
    case 'maxInFields':
      return `${subject || 'an InFields operator'} lists more than ${value} fields (limit maxInFields)`;
    case 'maxSortKeys':
      return `the sort has more than ${value} keys (limit maxSortKeys)`;
  }
}
