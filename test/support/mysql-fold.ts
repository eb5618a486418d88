/**
 * Where MySQL's case folding (`LOWER()` under `utf8mb4_unicode_520_ci`,
 * measured on MariaDB 10.11) differs from `String.prototype.toLowerCase`,
 * as docs/sql.md documents it: the letters whose lower case is newer than
 * Unicode 5.2, `İ` (which JavaScript maps to two code points), and the
 * final sigma (`ΟΔΟΣ` → `οδος`, a rule `LOWER()` does not have). The MySQL
 * differential tests keep their generated text out of this gap; the folding
 * test proves the gap is exactly this.
 */

const GAP_RANGES: readonly (number | readonly [number, number])[] = [
  0x130, 0x37f, 0x526, 0x528, 0x52a, 0x52c, 0x52e, 0x10c7, 0x10cd, [0x13a0, 0x13f5], 0x1c89, [0x1c90, 0x1cba],
  [0x1cbd, 0x1cbf], 0x2c2f, 0x2cf2, 0xa660, 0xa698, 0xa69a, 0xa78d, 0xa790, 0xa792, 0xa796, 0xa798, 0xa79a, 0xa79c,
  0xa79e, 0xa7a0, 0xa7a2, 0xa7a4, 0xa7a6, 0xa7a8, [0xa7aa, 0xa7ae], [0xa7b0, 0xa7b4], 0xa7b6, 0xa7b8, 0xa7ba, 0xa7bc,
  0xa7be, 0xa7c0, 0xa7c2, [0xa7c4, 0xa7c7], 0xa7c9, [0xa7cb, 0xa7cc], 0xa7ce, 0xa7d0, 0xa7d2, 0xa7d4, 0xa7d6, 0xa7d8,
  0xa7da, 0xa7dc, 0xa7f5, [0x104b0, 0x104d3], [0x10570, 0x1057a], [0x1057c, 0x1058a], [0x1058c, 0x10592],
  [0x10594, 0x10595], [0x10c80, 0x10cb2], [0x10d50, 0x10d65], [0x118a0, 0x118bf], [0x16e40, 0x16e5f],
  [0x16ea0, 0x16eb8], [0x1e900, 0x1e921],
];

/** Code points `LOWER()` maps differently from `toLowerCase` on their own (Σ, whose difference is contextual, is not one). */
export const MYSQL_FOLD_GAP: ReadonlySet<number> = new Set(
  GAP_RANGES.flatMap((r) => (typeof r === 'number' ? [r] : Array.from({ length: r[1] - r[0] + 1 }, (_, i) => r[0] + i))),
);

/**
 * Whether MySQL folds `text` exactly as `toLowerCase` does: no code point
 * of the gap, and no final sigma (folding code point by code point gives
 * the same text).
 *
 * @example
 * mysqlFoldsLikeJs('Smith'); // true
 * mysqlFoldsLikeJs('ΟΔΟΣ');  // false
 */
export function mysqlFoldsLikeJs(text: string): boolean {
  for (const c of text) if (MYSQL_FOLD_GAP.has(c.codePointAt(0)!)) return false;
  return text.toLowerCase() === Array.from(text, (c) => c.toLowerCase()).join('');
}

/**
 * `text` moved out of the gap: gap code points dropped, `Σ` written as `σ`
 * when it would be a final sigma.
 *
 * @example
 * mysqlSafeText('İΟΔΟΣ'); // 'ΟΔΟσ'
 */
export function mysqlSafeText(text: string): string {
  if (mysqlFoldsLikeJs(text)) return text;
  const kept = Array.from(text).filter((c) => !MYSQL_FOLD_GAP.has(c.codePointAt(0)!)).join('');
  return mysqlFoldsLikeJs(kept) ? kept : kept.replaceAll('Σ', 'σ');
}

/**
 * A copy of `value` with every string inside plain objects and arrays made
 * safe by `mysqlSafeText`; other objects (dates, schema fields' types) are
 * kept as they are, strings used as keys too.
 *
 * @example
 * mysqlSafe({ Name: 'İ', Tags: ['ΑΣ'] }); // { Name: '', Tags: ['Ασ'] }
 */
export function mysqlSafe<T>(value: T): T {
  if (typeof value === 'string') return mysqlSafeText(value) as T;
  if (Array.isArray(value)) return value.map((v) => mysqlSafe(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      // defineProperty: a `__proto__` key stays an own property.
      Object.defineProperty(out, key, { value: mysqlSafe((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
    }
    return out as T;
  }
  return value;
}
