/**
 * A SQL source's answer to `estimateCount`: the rows a query matches,
 * counted exactly up to a threshold (a count over `LIMIT threshold + 1`, so
 * it never reads more rows than that), and above it the planner's row
 * estimate, as the dialect's driver face asks for and reads it
 * (`RowEstimate`). SQLite has no row estimate: there the total is counted exactly. A total read from the counter table is exact.
 */
import type { RowEstimate } from '../sql/dialects/dialect.js';
import type { CountAnswer } from '../list/data-source.js';

/**
 * One parameterised statement as the SQL source sends it.
 *
 * @example
 * const statement: EstimateStatement = { sql: 'SELECT 1 FROM "employees" WHERE "ClientId" = $1', params: [1], ordered: false };
 */
export interface EstimateStatement {
  readonly sql: string;
  readonly params: unknown[];
  readonly ordered: boolean;
}

/**
 * What `estimateSqlCount` needs of the source: its dialect's spelling and
 * how it runs a statement (with the request's deadline and signal).
 *
 * @example
 * const table: EstimatingTable = { rowEstimate: dialectOf('postgres').driver.rowEstimate, placeholder: (n) => `$${n}`, quote: (s) => `"${s}"`, limitValue: (n) => n, run, exact };
 */
export interface EstimatingTable {
  /** The engine's row estimate; without one the total is counted exactly. */
  readonly rowEstimate: RowEstimate | undefined;
  readonly placeholder: (n: number) => string;
  readonly quote: (name: string) => string;
  readonly limitValue: (count: number) => number | string;
  readonly run: (statement: EstimateStatement) => Promise<readonly Record<string, unknown>[]>;
  /** The exact count (the counter table's sum or `COUNT(*)`). */
  readonly exact: () => Promise<number>;
}

/**
 * The total of the rows `matching` selects (`SELECT 1 FROM … WHERE …`):
 * exact when at most `exactUpTo` match, else the planner's estimate (never
 * below `exactUpTo + 1`, which the bounded count proved), marked estimated.
 *
 * @example
 * await estimateSqlCount(table, { sql: 'SELECT 1 FROM "employees" WHERE "ClientId" = $1', params: [1], ordered: false }, 10_000);
 */
export async function estimateSqlCount(table: EstimatingTable, matching: EstimateStatement, exactUpTo: number): Promise<CountAnswer> {
  const { quote } = table;
  const bounded = await table.run({
    sql: `SELECT COUNT(*) AS ${quote('n')} FROM (${matching.sql} LIMIT ${table.placeholder(matching.params.length + 1)}) AS ${quote('wepql_matching')}`,
    params: [...matching.params, table.limitValue(exactUpTo + 1)],
    ordered: false,
  });
  const counted = Number(bounded[0]?.n ?? 0);
  if (counted <= exactUpTo) return { total: counted, estimated: false };
  const estimate = table.rowEstimate;
  const planned =
    estimate === undefined ? undefined : estimate.plannedRows(await table.run({ ...matching, sql: estimate.explain(matching.sql) }));
  if (planned === undefined) return { total: await table.exact(), estimated: false };
  return { total: Math.max(exactUpTo + 1, planned), estimated: true };
}
