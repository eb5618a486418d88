/**
 * The range `toSql` adds to StartsWith (`folded >= prefix AND folded <
 * successor(prefix)`, for the index) never changes a result: on PGlite,
 * sql.js and MariaDB, StartsWith and StartsWithInFields over text built
 * from the code points where orders and successors go wrong — the last
 * before the surrogates (U+D7FF) and the first after (U+E000), U+FFFF and
 * U+10000 (where UTF-16 order and code-point order part), U+10FFFF (no
 * successor), letters that fold — return exactly what `query()` returns,
 * case-insensitively and case-sensitively. It also pins the collation
 * order each engine compares the folded text in: code-point order, which
 * the range relies on.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineSchema, query } from '../../src/index.js';
import { toSql } from '../../src/sql/index.js';
import { dialectEngines } from '../support/mariadb-engine.js';
import { mysqlFoldsLikeJs } from '../support/mysql-fold.js';
import { ROW_COLUMN, loadTable, selectRows, startPglite, type SqlEngine } from '../support/sql-engines.js';

const schema = defineSchema({ fields: { S: { type: 'string', nullable: true }, T: { type: 'string', nullable: true } } });

const EDGES = [
  'a',
  'b',
  'A',
  'z',
  '{',
  'É',
  'é',
  '\u{D7FF}',
  '\u{E000}',
  '\u{FFFF}',
  '\u{10000}',
  '\u{10FFFF}',
  '\u{10FFFE}',
  '%',
  '_',
  '\\',
  '!',
];
const text = fc.array(fc.constantFrom(...EDGES), { minLength: 0, maxLength: 4 }).map((cs) => cs.join(''));
const records = fc.array(
  fc.record({ S: fc.option(text, { nil: undefined }), T: fc.option(text, { nil: undefined }) }, { requiredKeys: [] }),
  {
    minLength: 1,
    maxLength: 16,
  },
);
const prefix = fc.array(fc.constantFrom(...EDGES), { minLength: 1, maxLength: 3 }).map((cs) => cs.join(''));

const quoted = (value: string) => `'${value.replaceAll("'", "''")}'`;

// PGlite from the run's fresh data directory (test/support/sql-pglite.ts).
const engines = dialectEngines('prefix ranges').map(([dialect, start]) => [dialect, dialect === 'postgres' ? startPglite : start] as const);

describe.each(engines)('StartsWith with its prefix range on %s', (dialect, start) => {
  let engine: SqlEngine;
  beforeAll(async () => {
    engine = await start();
  }, 120_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('orders the compared text by code point (the order the range is computed in)', async () => {
    const data = EDGES.map((S) => ({ S }));
    await loadTable(engine, schema, data, { table: 'edges' });
    for (const caseSensitive of [false, true]) {
      const fragment = toSql({ sort: 'S=Asc' }, { dialect, schema, caseSensitive, tieBreaker: ROW_COLUMN });
      const got = (await selectRows(engine, 'edges', fragment)).map((i) => data[i]!.S);
      expect(got).toEqual(query(data, { sort: 'S=Asc', schema, caseSensitive }).map((r) => r.S));
    }
  });

  it('never changes what StartsWith and StartsWithInFields return', async () => {
    await fc.assert(
      fc.asyncProperty(records, prefix, fc.boolean(), fc.boolean(), async (data, p, inFields, caseSensitive) => {
        // MariaDB's fold collation differs from toLowerCase on a documented set of letters; none here.
        if (dialect === 'mysql' && ![p, ...data.flatMap((r) => [r.S ?? '', r.T ?? ''])].every(mysqlFoldsLikeJs)) return;
        const filter = inFields ? `${quoted(p)}.StartsWithInFields(S,T)` : `S.StartsWith(${quoted(p)})`;
        const rows = data.map((r) => ({ ...r }));
        const index = new Map<unknown, number>(rows.map((r, i) => [r, i]));
        const fragment = toSql({ filter }, { dialect, schema, caseSensitive, tieBreaker: ROW_COLUMN });
        expect(fragment.where).toMatch(/ >= /);
        await loadTable(engine, schema, rows, { table: 'prefixes' });
        const expected = query(rows, { filter, schema, caseSensitive }).map((r) => index.get(r)!);
        expect(await selectRows(engine, 'prefixes', { ...fragment, orderBy: ROW_COLUMN })).toEqual(expected);
      }),
      { numRuns: dialect === 'mysql' ? 60 : 150 },
    );
  }, 300_000);
});
