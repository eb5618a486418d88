/**
 * One meaning on every engine: random tables, filters and sorts run on the
 * in-memory evaluator (`query()`, the reference) and pushed down to PGlite,
 * sql.js, a real PostgreSQL 15 server and a real MariaDB server; the rows
 * each engine returns, in order, must be the evaluator's. A disagreement
 * is allowed only where docs/sql.md's generated folding tables say that
 * engine folds differently (a case-insensitive case whose data or filter
 * holds a code point of its table); every other disagreement fails, with
 * the filter, sort, SQL and data of the first one.
 *
 * The generated data leans on the edges where engines have differed:
 * letters newer than an engine's Unicode tables, a leading U+FEFF, final
 * sigma, and datetimes in years 0001–0099, 0100 and 9999 — substituted into
 * the shared generators' records and filter values.
 *
 * Size and seed: `WEPQL_ENGINES_RUNS` cases per engine (30 in `npm test`;
 * `npm run test:engines` runs 700) and `WEPQL_ENGINES_SEED` (default 20261124).
 * The counts per engine are printed and written to .tmp/engines-report.json.
 */
import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../../src/index.js';
import { toSql } from '../../src/sql/index.js';
import { touchesFoldGap, type FoldEngine } from '../support/fold-gaps.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { findMariadb, mariadbUnavailableReason } from '../support/mariadb-server.js';
import { startPostgresEngine } from '../support/postgres-engine.js';
import { findPostgresBin, postgresUnavailableReason } from '../support/postgres-server.js';
import { ROW_COLUMN, loadTable, selectRows, selectSql, startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';
import { startCaseEngine } from '../support/sql-reused-tables.js';
import { testSchema, typedFilterText, typedSortText } from '../support/typed-arbitraries.js';
import { EDGE_INSTANTS, EDGE_STRINGS, ENGINES_RUNS as RUNS, ENGINES_SEED as SEED, caseArb, valuesOf, type Case } from './cases.js';

interface EngineRun {
  readonly name: string;
  readonly fold: FoldEngine;
  readonly engine: SqlEngine;
  readonly foldCollation?: string;
}

type Outcome = 'agree' | 'allowed' | 'disagree';

/** Runs one case on one engine; a disagreement's description goes to `report`. */
async function runCase(run: EngineRun, c: Case, report: (text: string) => void): Promise<Outcome> {
  const rows = c.records.map((r) => ({ ...r }));
  const fragment = toSql(
    { filter: c.filter, ...(c.sort === null ? {} : { sort: c.sort }) },
    {
      dialect: run.engine.dialect,
      schema: testSchema,
      caseSensitive: c.caseSensitive,
      tieBreaker: ROW_COLUMN,
      ...(run.foldCollation === undefined ? {} : { foldCollation: run.foldCollation }),
    },
  );
  await loadTable(run.engine, testSchema, rows, { table: 'cases' });
  const got = await selectRows(run.engine, 'cases', fragment);
  const index = new Map<unknown, number>(rows.map((r, i) => [r, i]));
  const expected = query(rows, {
    filter: c.filter,
    ...(c.sort === null ? {} : { sort: c.sort }),
    schema: testSchema,
    caseSensitive: c.caseSensitive,
  }).map((r) => index.get(r)!);
  if (JSON.stringify(got) === JSON.stringify(expected)) return 'agree';
  if (!c.caseSensitive && touchesFoldGap(run.fold, [c.records, c.filter.clauses.map(valuesOf)])) return 'allowed';
  report(
    [
      `${run.name} disagrees with query()${c.caseSensitive ? ' (case-sensitive)' : ''}`,
      `filter: ${typedFilterText(c.filter)}`,
      `sort:   ${c.sort === null ? '' : typedSortText(c.sort)}`,
      `sql:    ${selectSql('cases', fragment, run.engine.dialect)}`,
      `params: ${JSON.stringify(fragment.params)}`,
      `rows from the database: ${JSON.stringify(got)}`,
      `rows from query():      ${JSON.stringify(expected)}`,
      `data: ${JSON.stringify(rows)}`,
    ].join('\n'),
  );
  return 'disagree';
}

const postgres = findPostgresBin() !== undefined;
const mariadb = findMariadb() !== undefined;
if (!postgres) console.warn(`SKIPPED: engines differential on PostgreSQL 15 — ${postgresUnavailableReason()}`);
if (!mariadb) console.warn(`SKIPPED: engines differential on MariaDB — ${mariadbUnavailableReason()}`);

// Every case loads its rows into the one "cases" table, emptied between cases rather than dropped and created
// (startCaseEngine): the DDL was most of a case's work on the servers.
const STARTERS: readonly { name: string; fold: FoldEngine; available: boolean; start: () => Promise<Omit<EngineRun, 'name' | 'fold'>> }[] =
  [
    { name: 'PGlite', fold: 'pglite', available: true, start: async () => ({ engine: await startCaseEngine(startPglite) }) },
    { name: 'sql.js', fold: 'sqlite', available: true, start: async () => ({ engine: await startCaseEngine(startSqlJs) }) },
    {
      name: 'PostgreSQL 15',
      fold: 'postgres15',
      available: postgres,
      start: async () => {
        const engine = await startCaseEngine(() => startPostgresEngine());
        return { engine, ...(engine.foldCollation === undefined ? {} : { foldCollation: engine.foldCollation }) };
      },
    },
    { name: 'MariaDB', fold: 'mariadb', available: mariadb, start: async () => ({ engine: await startCaseEngine(() => startMariadb()) }) },
  ];

const counts: Record<string, Record<Outcome, number>> = {};

afterAll(() => {
  if (Object.keys(counts).length === 0) return;
  const lines = Object.entries(counts).map(
    ([name, c]) => `${name}: ${c.agree} agree, ${c.allowed} differ where docs/sql.md's table allows, ${c.disagree} disagree`,
  );
  console.log(`engines differential (seed ${SEED}, ${RUNS} cases per engine):\n  ${lines.join('\n  ')}`);
  mkdirSync('.tmp', { recursive: true });
  writeFileSync('.tmp/engines-report.json', `${JSON.stringify({ seed: SEED, runs: RUNS, counts }, null, 2)}\n`);
});

describe.each(STARTERS)('$name returns what query() returns', ({ name, fold, available, start }) => {
  let run: EngineRun | undefined;
  beforeAll(async () => {
    if (available) run = { name, fold, ...(await start()) };
  });
  afterAll(async () => {
    await run?.engine.close();
  });

  it.skipIf(!available)(`on ${RUNS} random cases, disagreeing only inside its folding table`, async () => {
    const tally: Record<Outcome, number> = { agree: 0, allowed: 0, disagree: 0 };
    counts[name] = tally;
    const cases = fc.sample(caseArb, { numRuns: RUNS, seed: SEED });
    let first: string | undefined;
    for (const c of cases) {
      tally[await runCase(run!, c, (text) => (first ??= text))]++;
    }
    expect(tally.disagree, first).toBe(0);
  });
});

describe('the edge substitutions', () => {
  it('reach every edge value over a run', () => {
    const seen = new Set<unknown>();
    for (const c of fc.sample(caseArb, { numRuns: 300, seed: SEED })) {
      for (const r of c.records) for (const v of Object.values(r)) seen.add(v);
      for (const clause of c.filter.clauses) {
        const stack: unknown[] = [valuesOf(clause)];
        while (stack.length > 0) {
          const v = stack.pop();
          if (Array.isArray(v)) stack.push(...v);
          else seen.add(v instanceof Date ? v.toISOString() : v);
        }
      }
    }
    for (const s of EDGE_STRINGS) expect(seen.has(s), s).toBe(true);
    for (const ms of EDGE_INSTANTS) expect(seen.has(new Date(ms).toISOString()), new Date(ms).toISOString()).toBe(true);
  });
});
