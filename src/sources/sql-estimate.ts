/**
 * A SQL source's answer to `estimateCount`: the rows a query matches,
 * counted exactly up to a threshold (a count over `LIMIT threshold + 1`, so
 * it never reads more rows than that), and above it the planner's row
 * estimate — PostgreSQL's `EXPLAIN (FORMAT JSON)` "Plan Rows", MySQL's and
 * MariaDB's `EXPLAIN` rows × filtered. SQLite has no row estimate: there the
 * total is counted exactly. A total read from the counter table is exact.
 */
import type { SqlDialect } from '../sql/dialect.js';
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
 * const table: EstimatingTable = { dialect: 'postgres', placeholder: (n) => `$${n}`, quote: (s) => `"${s}"`, limitValue: (n) => n, run, exact };
 */
export interface EstimatingTable {
  readonly dialect: SqlDialect;
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
  const explain = explainSql(table.dialect, matching.sql);
  const planned = explain === undefined ? undefined : plannedRows(table.dialect, await table.run({ ...matching, sql: explain }));
  if (planned === undefined) return { total: await table.exact(), estimated: false };
  return { total: Math.max(exactUpTo + 1, planned), estimated: true };
}

function explainSql(dialect: SqlDialect, sql: string): string | undefined {
  if (dialect === 'postgres') return `EXPLAIN (FORMAT JSON) ${sql}`;
  if (dialect === 'mysql') return `EXPLAIN ${sql}`;
  return undefined;
}

/**
 * The planner's row estimate from the rows of an `EXPLAIN`, or undefined when it has none.
 *
 * @example
 * plannedRows('postgres', [{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': 969897 } }] }]); // 969897
 */
export function plannedRows(dialect: SqlDialect, rows: readonly Record<string, unknown>[]): number | undefined {
  if (dialect === 'postgres') {
    const raw = rows[0]?.['QUERY PLAN'];
    const plan: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const n = Array.isArray(plan) ? (plan[0] as { Plan?: { 'Plan Rows'?: unknown } } | undefined)?.Plan?.['Plan Rows'] : undefined;
    return wholeRows(n);
  }
  // MySQL and MariaDB: one row per table read; the statement reads one table.
  const first = rows[0];
  if (first === undefined) return undefined;
  const examined = Number(first.rows);
  const filtered = first.filtered === undefined || first.filtered === null ? 100 : Number(first.filtered);
  return wholeRows((examined * filtered) / 100);
}

function wholeRows(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
}
