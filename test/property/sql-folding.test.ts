/**
 * Case folding in SQL against `String.prototype.toLowerCase`, for every
 * Unicode code point, on every engine and version the tests run on: the
 * expression toSql writes for a case-insensitive string (PostgreSQL
 * `lower(… COLLATE …)`, SQLite `wepql_lower(…)`, MySQL `LOWER(… COLLATE …)`)
 * is run by the real engine over every scalar value. Where it differs, the
 * difference must be exactly the generated table docs/sql.md holds for that
 * engine ("Where folding differs, engine by engine"); a stale table fails
 * here, and `WEPQL_UPDATE_DOCS=1 npx vitest run test/property/sql-folding.test.ts`
 * rewrites it. Contexts (Final_Sigma, expansions) are checked against the
 * table's rule: equal exactly when the text folds like `toLowerCase` on that engine.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema } from '../../src/index.js';
import { toSql, type SqlDialect } from '../../src/sql/index.js';
import {
  documentedFoldTable,
  foldsLikeJs,
  measureFoldGap,
  renderFoldTable,
  SCANNED_CODE_POINTS,
  writeFoldTable,
  type FoldEngine,
} from '../support/fold-gaps.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb, mariadbUnavailableReason } from '../support/mariadb-server.js';
import { startPostgresEngine } from '../support/postgres-engine.js';
import { findPostgresBin, postgresUnavailableReason } from '../support/postgres-server.js';
import { startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';

const schema = defineSchema({ fields: { T: { type: 'string' } } });

/** Contexts where the lower case of a letter depends on its neighbours (Final_Sigma) or expands (İ, ẞ, ǅ). */
const CONTEXTS = [
  'Σ',
  'ΑΣ',
  'ΑΣ Β',
  'ΑΣΑ',
  'Α.Σ',
  "ΑΣ'",
  'ΑΣ\u0301',
  'Σ\u0301Α',
  'ΟΔΟΣ',
  'ὈΔΥΣΣΕΎΣ',
  'İstanbul',
  'İ\u0307',
  'ẞ',
  'ǅ',
  'ǈǋ',
  'ΑΣ😀',
  '\uFEFFAb',
];

function foldExpression(dialect: SqlDialect, column: string, foldCollation: string | undefined): string {
  const { orderBy } = toSql({ sort: 'T=Asc' }, { dialect, schema, columns: { T: column }, ...(foldCollation ? { foldCollation } : {}) });
  return orderBy.replace(/ ASC( NULLS FIRST)?$/, '');
}

interface FoldRun {
  readonly engine: SqlEngine;
  readonly foldCollation?: string;
}

/**
 * The engine's fold of `x` + every code point (SCANNED_CODE_POINTS of them)
 * whose text the fold changes, by code point: the engine makes the texts
 * itself (PostgreSQL `generate_series` and `chr`, SQLite a recursive CTE and
 * `char`, MariaDB its sequence table and `CHAR(… USING utf32)`), folds each
 * with the expression toSql writes, compares the fold with the text as
 * bytes (whatever the collation), and answers one row: how many texts it
 * folded that are exactly `x` followed by their code point (checked in the
 * engine with its own code point function) and, as one JSON array, the code
 * point and fold of each changed text. Sending the texts instead (JSON
 * parameters of 50,000 texts and their lower cases) cost the clients and
 * this process more than the engines took to fold them.
 */
async function foldChanges(run: FoldRun): Promise<Map<number, string>> {
  const { engine } = run;
  const folded = foldExpression(engine.dialect, 't', run.foldCollation);
  // Each engine's texts as rows: cp the code point, t the text `x` + it, ok whether t is exactly that.
  const source: Record<SqlDialect, string> = {
    postgres:
      `SELECT cp, t, length(t) = 2 AND ascii(substr(t, 2)) = cp AS ok FROM (SELECT cp, 'x' || chr(cp) AS t` +
      ` FROM generate_series(1, 1114111) AS g(cp) WHERE cp < 55296 OR cp > 57343) AS c`,
    sqlite:
      `SELECT cp, t, length(t) = 2 AND unicode(substr(t, 2)) = cp AS ok FROM (SELECT cp, 'x' || char(cp) AS t FROM` +
      ` (WITH RECURSIVE g(cp) AS (SELECT 1 UNION ALL SELECT cp + 1 FROM g WHERE cp < 1114111) SELECT cp FROM g)` +
      ` WHERE cp < 55296 OR cp > 57343) AS c`,
    mysql:
      `SELECT cp, t, CHAR_LENGTH(t) = 2 AND HEX(CONVERT(SUBSTRING(t, 2) USING utf32)) = LPAD(HEX(cp), 8, '0') AS ok` +
      ` FROM (SELECT seq AS cp, CONCAT('x', CONVERT(CHAR(seq USING utf32) USING utf8mb4)) AS t` +
      ` FROM seq_1_to_1114111 WHERE seq < 55296 OR seq > 57343) AS c`,
  };
  const sql: Record<SqlDialect, string> = {
    postgres:
      `SELECT count(*) FILTER (WHERE ok) AS n, coalesce(json_agg(json_build_array(cp, f)) FILTER (WHERE f COLLATE "C" <> t COLLATE "C"), '[]') AS d` +
      ` FROM (SELECT cp, t, ok, ${folded} AS f FROM (${source.postgres}) AS s) AS v`,
    sqlite:
      `SELECT sum(ok) AS n, json_group_array(json_array(cp, f)) FILTER (WHERE f IS NOT t) AS d` +
      ` FROM (SELECT cp, t, ok, ${folded} AS f FROM (${source.sqlite}) AS s) AS v`,
    mysql:
      `SELECT SUM(ok) AS n, CONCAT('[', COALESCE(GROUP_CONCAT(IF(BINARY f <> BINARY t, JSON_ARRAY(cp, f), NULL)), ''), ']') AS d` +
      ` FROM (SELECT cp, t, ok, ${folded} AS f FROM (${source.mysql}) AS s) AS v`,
  };
  const [row] = await engine.rows(sql[engine.dialect]);
  expect(Number(row?.n), 'the texts the engine folded, each x and its code point').toBe(SCANNED_CODE_POINTS);
  const d = typeof row?.d === 'string' ? (JSON.parse(row.d) as unknown) : row?.d;
  const changes = new Map<number, string>();
  for (const [cp, f] of d as [number | string, string][]) changes.set(Number(cp), f);
  // The scan reached 'A' and its comparison sees a change: a broken comparison cannot pass for an empty gap.
  expect(changes.get(0x41), 'U+0041 among the changes').toBe('xa');
  return changes;
}

/** A text, and a lower case no engine folds it to (see foldDifferences). */
const CONTROL = ['xA', 'xA'] as const;

/**
 * The engine's fold of each text that differs from its `toLowerCase`, by
 * index in `texts` (`lowers` holds the lower cases). The engine folds and
 * compares (as bytes, whatever the collation), so only the differences come
 * back. The statement ends with a control text whose lower case is wrong on
 * purpose (`xA`, `xA`): it must come back, last, folded to `xa`, which shows
 * the engine read the lists to their end and that its comparison finds a
 * difference. The texts and lower cases go in as JSON text, one string
 * parameter for every engine's client. Each folded text comes back behind
 * an `x`: PGlite's client decodes a text value that starts with U+FEFF as
 * a byte-order mark and drops it (docs/sql.md), which is not folding.
 */
async function foldDifferences(run: FoldRun, texts: readonly string[], lowers: readonly string[]): Promise<Map<number, string>> {
  const { engine } = run;
  const folded = foldExpression(engine.dialect, 't', run.foldCollation);
  // Each engine's list as rows (i from 0, t the text, e its toLowerCase), and its byte comparison of f and e.
  const source: Record<SqlDialect, string> = {
    postgres: `SELECT n - 1 AS i, t, e FROM ROWS FROM (json_array_elements_text($1::json), json_array_elements_text($2::json)) WITH ORDINALITY AS u(t, e, n)`,
    sqlite: `SELECT key AS i, json_extract(value, '$[0]') AS t, json_extract(value, '$[1]') AS e FROM json_each(?)`,
    mysql:
      `SELECT n - 1 AS i, t, e FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY,` +
      ` t LONGTEXT CHARACTER SET utf8mb4 PATH '$[0]', e LONGTEXT CHARACTER SET utf8mb4 PATH '$[1]')) AS j`,
  };
  const differs: Record<SqlDialect, string> = {
    postgres: `convert_to(f, 'UTF8') <> convert_to(e, 'UTF8')`,
    sqlite: 'f IS NOT e',
    mysql: 'BINARY f <> BINARY e',
  };
  const marked = engine.dialect === 'mysql' ? `CONCAT('x', f)` : `'x' || f`;
  const sql =
    `SELECT i, ${marked} AS f, ${differs[engine.dialect]} AS d FROM (SELECT i, ${folded} AS f, e FROM (${source[engine.dialect]}) AS s) AS v` +
    ` WHERE ${differs[engine.dialect]} ORDER BY i`;
  const t = [...texts, CONTROL[0]];
  const e = [...lowers, CONTROL[1]];
  // PostgreSQL reads the texts and the lower cases as two arrays (each element parsed once), the others as pairs.
  const params =
    engine.dialect === 'postgres' ? [JSON.stringify(t), JSON.stringify(e)] : [JSON.stringify(t.map((text, k) => [text, e[k]]))];
  const rows = await engine.rows(sql, params);
  const control = rows.pop();
  expect({ i: Number(control?.i), f: control?.f, d: Number(control?.d) }, 'the control text, last').toEqual({
    i: t.length - 1,
    f: 'xxa',
    d: 1,
  });
  const out = new Map<number, string>();
  for (const row of rows) {
    expect(Number(row.d), 'only differences answer').toBe(1);
    out.set(Number(row.i), String(row.f).slice(1));
  }
  return out;
}

/** The engine's fold of one text. */
async function fold(run: FoldRun, text: string): Promise<string> {
  const lower = text.toLowerCase();
  return (await foldDifferences(run, [text], [lower])).get(0) ?? lower;
}

const postgres = findPostgresBin() !== undefined;
const mariadb = findMariadb() !== undefined;
if (!postgres) console.warn(`SKIPPED: case folding on PostgreSQL 15 — ${postgresUnavailableReason()}`);
if (!mariadb) console.warn(`SKIPPED: case folding on MariaDB — ${mariadbUnavailableReason()}`);

const starters: Record<FoldEngine, () => Promise<FoldRun>> = {
  pglite: async () => ({ engine: await startPglite() }),
  sqlite: async () => ({ engine: await startSqlJs() }),
  postgres15: async () => {
    const engine = await startPostgresEngine();
    return { engine, ...(engine.foldCollation ? { foldCollation: engine.foldCollation } : {}) };
  },
  mariadb: async () => ({ engine: await startMariadb() }),
};
const available: Record<FoldEngine, boolean> = { pglite: true, sqlite: true, postgres15: postgres, mariadb };

describe.each(Object.keys(starters) as FoldEngine[])('%s folds like toLowerCase outside its documented table', (name) => {
  let run: FoldRun;
  beforeAll(async () => {
    if (available[name]) run = await starters[name]();
  });
  afterAll(async () => {
    await run?.engine.close();
  });

  it.skipIf(!available[name])('every code point: the measured differences are the table in docs/sql.md', async () => {
    const measured = renderFoldTable(measureFoldGap(await foldChanges(run)));
    if (process.env.WEPQL_UPDATE_DOCS === '1' && measured !== documentedFoldTable(name)) writeFoldTable(name, measured);
    expect(measured, `docs/sql.md's table for ${name} is stale: rerun with WEPQL_UPDATE_DOCS=1`).toBe(documentedFoldTable(name));
  });

  it.skipIf(!available[name]).each(CONTEXTS)('in context: %s (equal exactly when the table says so)', async (text) => {
    const folded = await fold(run, text);
    if (foldsLikeJs(name, text)) expect(folded).toBe(text.toLowerCase());
    else expect(folded).not.toBe(text.toLowerCase());
  });
});
