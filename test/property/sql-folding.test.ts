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
 * Folds many texts in one statement per 50,000, in order. Each statement
 * answers one value, a JSON array of the folded texts in their order: the
 * engines' clients decoded 50,000 rows for each statement in about three
 * times the CPU the fold itself took. Each folded text comes back behind an
 * `x`: PGlite's client decodes a text value that starts with U+FEFF as a
 * byte-order mark and drops it (docs/sql.md), which is not folding.
 */
async function fold(run: FoldRun, texts: readonly string[]): Promise<string[]> {
  const { engine } = run;
  const folded = foldExpression(engine.dialect, 't', run.foldCollation);
  const expr = engine.dialect === 'mysql' ? `CONCAT('x', ${folded})` : `'x' || ${folded}`;
  const select: Record<SqlDialect, string> = {
    postgres: `SELECT json_agg(${expr} ORDER BY n)::text AS l FROM unnest($1::text[]) WITH ORDINALITY AS u(t, n)`,
    sqlite: `SELECT json_group_array(${expr} ORDER BY key) AS l FROM (SELECT value AS t, key FROM json_each(?))`,
    mysql: `SELECT JSON_ARRAYAGG(${expr} ORDER BY j.n) AS l FROM JSON_TABLE(?, '$[*]' COLUMNS (n FOR ORDINALITY, t LONGTEXT CHARACTER SET utf8mb4 PATH '$')) AS j`,
  };
  // MariaDB builds JSON_ARRAYAGG as GROUP_CONCAT does, cut at group_concat_max_len (1 MiB by default).
  if (engine.dialect === 'mysql') await engine.run('SET SESSION group_concat_max_len = 1073741824');
  const out: string[] = [];
  for (let i = 0; i < texts.length; i += 50_000) {
    const chunk = texts.slice(i, i + 50_000);
    const param = engine.dialect === 'postgres' ? chunk : JSON.stringify(chunk);
    const [row] = await engine.rows(select[engine.dialect], [param]);
    const list = (typeof row?.l === 'string' ? JSON.parse(row.l) : row?.l) as string[];
    expect(list).toHaveLength(chunk.length);
    for (const text of list) out.push(text.slice(1));
  }
  return out;
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
    const measured = renderFoldTable(await measureFoldGap((texts) => fold(run, texts)));
    if (process.env.WEPQL_UPDATE_DOCS === '1' && measured !== documentedFoldTable(name)) writeFoldTable(name, measured);
    expect(measured, `docs/sql.md's table for ${name} is stale: rerun with WEPQL_UPDATE_DOCS=1`).toBe(documentedFoldTable(name));
  });

  it.skipIf(!available[name]).each(CONTEXTS)('in context: %s (equal exactly when the table says so)', async (text) => {
    const [folded] = await fold(run, [text]);
    if (foldsLikeJs(name, text)) expect(folded).toBe(text.toLowerCase());
    else expect(folded).not.toBe(text.toLowerCase());
  });
});
