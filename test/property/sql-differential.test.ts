/**
 * The SQL compiler agrees with the evaluator: for generated tables (nulls,
 * omitted and wrong-typed fields, mixed case, LIKE wildcards, quotes,
 * non-ASCII and astral text, equal sort keys, datetimes in every accepted
 * form) and type-correct filters and sorts, the rows PostgreSQL (PGlite),
 * SQLite (sql.js) and MariaDB (a real server, when installed) return, in
 * order, are exactly the records `query()` returns. MariaDB's text stays out
 * of its documented case-folding gap (test/support/mysql-fold.ts). Records go in by index and the index is the tie-breaker, which
 * is the evaluator's stable order. A failure is shrunk and reported as the
 * filter text, the SQL, its parameters and the data.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ColumnMap, SqlDialect } from '../../src/sql/index.js';
import type { TypedFilter, TypedSort } from '../../src/index.js';
import { query } from '../../src/index.js';
import { toSql } from '../../src/sql/index.js';
import { findMariadb, mariadbUnavailableReason } from '../support/mariadb-server.js';
import { startMariadb } from '../support/mariadb-engine.js';
import { mysqlSafe } from '../support/mysql-fold.js';
import { ROW_COLUMN, loadTable, selectRows, selectSql, startPglite, startSqlJs, type SqlEngine } from '../support/sql-engines.js';
import { startCaseEngine } from '../support/sql-reused-tables.js';
import { recordsArb, testSchema, typedFilterArb, typedFilterText, typedSortArb, typedSortText } from '../support/typed-arbitraries.js';

const RUNS = 300;
// A real server costs more per case than the in-process engines; fewer cases keep the file's time in bounds.
const runsOn = (dialect: SqlDialect, runs: number): number => (dialect === 'mysql' ? Math.round(runs * 0.6) : runs);

/** Every field of the test schema inside one JSON document column. */
const JSON_COLUMNS: ColumnMap = Object.fromEntries(testSchema.fields.map((f) => [f.name, { json: 'doc', path: f.path }]));

function describeData(records: readonly unknown[]): string {
  return JSON.stringify(records, (_key, value: unknown) => (value === undefined ? '<undefined>' : value), 0).replaceAll('},{', '},\n  {');
}

async function agree(
  engine: SqlEngine,
  records: readonly Record<string, unknown>[],
  filter: TypedFilter,
  sort: TypedSort | null,
  caseSensitive: boolean,
  columns: ColumnMap | undefined,
): Promise<void> {
  if (engine.dialect === 'mysql') {
    records = mysqlSafe(records);
    filter = mysqlSafe(filter);
  }
  // Copies make every record a distinct object, so results map back to indexes.
  const rows = records.map((r) => ({ ...r }));
  const index = new Map<unknown, number>(rows.map((r, i) => [r, i]));
  const fragment = toSql(
    { filter, ...(sort === null ? {} : { sort }) },
    { dialect: engine.dialect, schema: testSchema, caseSensitive, tieBreaker: ROW_COLUMN, ...(columns ? { columns } : {}) },
  );
  await loadTable(engine, testSchema, rows, { table: 'cases', ...(columns ? { columns } : {}) });
  const got = await selectRows(engine, 'cases', fragment);
  const expected = query(rows, { filter, ...(sort === null ? {} : { sort }), schema: testSchema, caseSensitive }).map((r) => index.get(r)!);
  if (JSON.stringify(got) !== JSON.stringify(expected)) {
    throw new Error(
      [
        `${engine.dialect} disagrees with query()${caseSensitive ? ' (case-sensitive)' : ''}`,
        `filter: ${typedFilterText(filter)}`,
        `sort:   ${sort === null ? '' : typedSortText(sort)}`,
        `sql:    ${selectSql('cases', fragment, engine.dialect)}`,
        `params: ${JSON.stringify(fragment.params)}`,
        `rows (by index) from the database: ${JSON.stringify(got)}`,
        `rows (by index) from query():      ${JSON.stringify(expected)}`,
        `data:\n  ${describeData(rows)}`,
      ].join('\n'),
    );
  }
}

const starters: Record<SqlDialect, () => Promise<SqlEngine>> = { postgres: startPglite, sqlite: startSqlJs, mysql: startMariadb };

const mariadb = findMariadb() !== undefined;
if (!mariadb) console.warn(`SKIPPED: toSql differential on MariaDB — ${mariadbUnavailableReason()}`);
const dialects: readonly SqlDialect[] = mariadb ? ['postgres', 'sqlite', 'mysql'] : ['postgres', 'sqlite'];

describe.each(dialects)('toSql on %s returns what query() returns', (dialect) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    // One table per test, emptied between cases instead of dropped and created (test/support/sql-reused-tables.ts).
    engine = await startCaseEngine(starters[dialect]);
  });
  afterAll(async () => {
    await engine?.close();
  });

  it('with one column per field', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ maxLength: 24 }),
        typedFilterArb(),
        fc.option(typedSortArb()),
        fc.boolean(),
        (records, filter, sort, cs) => agree(engine, records, filter, sort, cs, undefined),
      ),
      { numRuns: runsOn(dialect, RUNS) },
    );
    // A real server on a loaded machine can need more than the default minute for 180 cases.
  }, 300_000);

  it('with every field inside a JSON column', async () => {
    await fc.assert(
      fc.asyncProperty(
        recordsArb({ maxLength: 16, jsonOnly: true }),
        typedFilterArb(),
        fc.option(typedSortArb()),
        fc.boolean(),
        (records, filter, sort, cs) => agree(engine, records, filter, sort, cs, JSON_COLUMNS),
      ),
      { numRuns: runsOn(dialect, RUNS / 2) },
    );
  }, 300_000);

  it('sorts by every key kind with NULLs first under Asc and last under Desc', async () => {
    // A fixed table where every sort key has nulls, ties and folding collisions.
    const records = [
      { Name: 'b', Age: 2, Active: true, BornOn: '2024-01-01T00:00:00Z' },
      { Name: 'B', Age: null, Active: false, BornOn: '2024-01-01T02:00:00+02:00' },
      { Age: 1, Active: null },
      { Name: 'a😀', Age: 2, BornOn: '1999-12-31' },
      { Name: 'a\uFF5E', Age: 1, Active: true, BornOn: 'not a date' },
      { Name: 'Ä', Age: 10, Active: false },
    ];
    for (const sortText of ['Name=Asc', 'Name=Desc', 'Age=Asc;Name=Desc', 'Active=Desc;Age=Asc', 'BornOn=Asc', 'BornOn=Desc;Name=Asc']) {
      for (const caseSensitive of [false, true]) {
        const rows = records.map((r) => ({ ...r }));
        const fragment = toSql({ sort: sortText }, { dialect, schema: testSchema, caseSensitive, tieBreaker: ROW_COLUMN });
        await loadTable(engine, testSchema, rows, { table: 'cases' });
        const expected = query(rows, { sort: sortText, schema: testSchema, caseSensitive }).map((r) => rows.indexOf(r));
        expect(await selectRows(engine, 'cases', fragment), `${sortText} caseSensitive=${caseSensitive}`).toEqual(expected);
      }
    }
  });
});
