/**
 * Case folding in SQL is `String.prototype.toLowerCase`, checked for every
 * Unicode code point: the expression toSql writes for a case-insensitive
 * string (PostgreSQL `lower(… COLLATE "pg_unicode_fast")`, SQLite
 * `wepql_lower(…)`) is run by the real engine over every scalar value and
 * compared with JavaScript. The only allowed differences are the
 * documented gap (docs/sql.md): letters new in Unicode 17, which
 * PostgreSQL 18's Unicode 16 tables do not know yet; on MySQL (MariaDB,
 * `LOWER()` under `utf8mb4_unicode_520_ci`) letters newer than Unicode
 * 5.2, `İ` and the final sigma (test/support/mysql-fold.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema } from '../../src/index.js';
import { toSql, type SqlDialect } from '../../src/sql/index.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb, mariadbUnavailableReason } from '../support/mariadb-server.js';
import { MYSQL_FOLD_GAP, mysqlFoldsLikeJs } from '../support/mysql-fold.js';
import { startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';

const schema = defineSchema({ fields: { T: { type: 'string' } } });

/** Code points whose lower case is new in Unicode 17 (PostgreSQL 18 has Unicode 16); docs/sql.md lists them. */
const POSTGRES_UNICODE_GAP: ReadonlySet<number> = new Set([
  0xa7ce, 0xa7d2, 0xa7d4,
  ...Array.from({ length: 0x16eb8 - 0x16ea0 + 1 }, (_, i) => 0x16ea0 + i),
]);

/** Every scalar value, each after an `x` (a leading U+FEFF would be eaten as a byte-order mark by PGlite's text decoding). */
function everyCodePoint(): string[] {
  const out: string[] = [];
  for (let cp = 1; cp <= 0x10ffff; cp++) if (cp < 0xd800 || cp > 0xdfff) out.push(`x${String.fromCodePoint(cp)}`);
  return out;
}

/** Contexts where the lower case of a letter depends on its neighbours (Final_Sigma) or expands (İ, ẞ, ǅ). */
const CONTEXTS = ['Σ', 'ΑΣ', 'ΑΣ Β', 'ΑΣΑ', 'Α.Σ', "ΑΣ'", 'ΑΣ\u0301', 'Σ\u0301Α', 'ΟΔΟΣ', 'ὈΔΥΣΣΕΎΣ', 'İstanbul', 'İ\u0307', 'ẞ', 'ǅ', 'ǈǋ', 'ΑΣ😀'];

function foldExpression(dialect: SqlDialect, column: string): string {
  const { orderBy } = toSql({ sort: 'T=Asc' }, { dialect, schema, columns: { T: column } });
  return orderBy.replace(/ ASC NULLS FIRST$/, '');
}

const starters: Record<'postgres' | 'sqlite', () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs };

describe.each(['postgres', 'sqlite'] as const)('%s folds like toLowerCase', (dialect) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await starters[dialect]();
  });
  afterAll(async () => {
    await engine?.close();
  });

  async function fold(texts: readonly string[]): Promise<string[]> {
    const expr = foldExpression(dialect, 't');
    const out: string[] = [];
    for (let i = 0; i < texts.length; i += 50_000) {
      const chunk = texts.slice(i, i + 50_000);
      const rows =
        dialect === 'postgres'
          ? await engine.rows(`SELECT ${expr} AS l FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n) ORDER BY n`, [chunk])
          : await engine.rows(`SELECT ${expr} AS l FROM (SELECT value AS t, key FROM json_each(?)) ORDER BY key`, [JSON.stringify(chunk)]);
      for (const row of rows) out.push(row.l as string);
    }
    return out;
  }

  it('for every code point', async () => {
    const texts = everyCodePoint();
    const folded = await fold(texts);
    const differing: number[] = [];
    texts.forEach((t, i) => {
      if (folded[i] !== t.toLowerCase()) differing.push(t.codePointAt(1)!);
    });
    const allowed = dialect === 'postgres' ? POSTGRES_UNICODE_GAP : new Set<number>();
    expect(differing.filter((cp) => !allowed.has(cp)).map((cp) => cp.toString(16))).toEqual([]);
  });

  it.each(CONTEXTS)('in context: %s', async (text) => {
    expect(await fold([text])).toEqual([text.toLowerCase()]);
  });
});

const mariadb = findMariadb() !== undefined;
if (!mariadb) console.warn(`SKIPPED: MySQL case folding on MariaDB — ${mariadbUnavailableReason()}`);

describe.skipIf(!mariadb)('mysql (MariaDB) folds like toLowerCase outside its documented gap', () => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await startMariadb();
  });
  afterAll(async () => {
    await engine?.close();
  });

  async function fold(texts: readonly string[]): Promise<string[]> {
    const expr = foldExpression('mysql', 't').replace(/ ASC$/, '');
    const out: string[] = [];
    for (let i = 0; i < texts.length; i += 50_000) {
      const rows = await engine.rows(
        `SELECT ${expr} AS l FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, t LONGTEXT CHARACTER SET utf8mb4 PATH '$')) AS j ORDER BY j.n`,
        [JSON.stringify(texts.slice(i, i + 50_000))],
      );
      for (const row of rows) out.push(row.l as string);
    }
    return out;
  }

  it('for every code point: exactly the gap differs (Σ after a letter is a final sigma)', async () => {
    const texts = everyCodePoint();
    const folded = await fold(texts);
    const differing = new Set<number>();
    texts.forEach((t, i) => {
      if (folded[i] !== t.toLowerCase()) differing.add(t.codePointAt(1)!);
    });
    const expected = new Set([...MYSQL_FOLD_GAP, 0x3a3]);
    expect([...differing].filter((cp) => !expected.has(cp)).map((cp) => cp.toString(16))).toEqual([]);
    expect([...expected].filter((cp) => !differing.has(cp)).map((cp) => cp.toString(16))).toEqual([]);
  });

  it.each(CONTEXTS)('in context: %s (equal exactly when outside the gap)', async (text) => {
    const [folded] = await fold([text]);
    if (mysqlFoldsLikeJs(text)) expect(folded).toBe(text.toLowerCase());
    else expect(folded).not.toBe(text.toLowerCase());
  });
});
