/**
 * Where MySQL's case folding (`LOWER()` under `utf8mb4_unicode_520_ci`,
 * measured on MariaDB 10.11) differs from `String.prototype.toLowerCase`,
 * as docs/sql.md documents it: the letters whose lower case is newer than
 * Unicode 5.2, `İ` (which JavaScript maps to two code points), and the
 * final sigma (`ΟΔΟΣ` → `οδος`, a rule `LOWER()` does not have). The MySQL
 * differential tests keep their generated text out of this gap; the folding
 * test proves the gap is exactly docs/sql.md's generated table, which is
 * where the list lives (test/support/fold-gaps.ts reads it).
 */
import { foldGap, foldsLikeJs } from './fold-gaps.js';

/** Code points `LOWER()` maps differently from `toLowerCase` on their own (Σ, whose difference is contextual, is not one). */
export const MYSQL_FOLD_GAP: ReadonlySet<number> = new Set([...foldGap('mariadb')].filter((cp) => cp !== 0x3a3));

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
  return foldsLikeJs('mariadb', text);
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
  const kept = Array.from(text)
    .filter((c) => !MYSQL_FOLD_GAP.has(c.codePointAt(0)!))
    .join('');
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
      Object.defineProperty(out, key, {
        value: mysqlSafe((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}
