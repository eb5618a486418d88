/**
 * The SQL data source's side of an engine, around a statement runner: the
 * dialect's placeholders, its driver face (the statement as sent, how rows,
 * seek keys and record values come back, which errors mean a stop or a
 * retry), and the row shapes every driver returns.
 */
import type { ScalarType } from '../schema/values.js';
import type { Dialect, SeekValue, SqlStatementRunner, StatementContext } from '../sql/dialects/dialect.js';

export type { SqlStatementRunner, StatementContext } from '../sql/dialects/dialect.js';

/**
 * One engine's side of the SQL data source.
 *
 * @example
 * const engine = sqlEngine(dialectOf('postgres'), run);
 * engine.placeholder(3); // '$3'
 */
export interface SqlEngine {
  /** The n-th (1-based) placeholder (the dialect's own, `Dialect.rules.placeholder`). */
  placeholder(n: number): string;
  /**
   * Runs a SELECT and returns its rows; `ordered` when it has an ORDER BY.
   * The context's time limit is written into the statement where the engine
   * takes one there (MySQL, MariaDB), and the context goes to the runner.
   */
  rows(sql: string, params: unknown[], ordered: boolean, context?: StatementContext): Promise<readonly Record<string, unknown>[]>;
  /** Whether a driver error says the statement was stopped (its time ran out, or it was cancelled). */
  interrupted(error: unknown): boolean;
  /** The expression a record's field is read with. */
  readExpression(expr: string, type: ScalarType): string;
  /** The expression a sort key is read with for a seek key: the engine's exact value. */
  keyExpression(expr: string, type: ScalarType): string;
  /** A value read by `keyExpression` as a seek value (`'tie'` for the tie-breaker). */
  seekValue(value: unknown, type: ScalarType | 'tie'): SeekValue;
  /** A value read by `readExpression` as the record's value; null when absent. */
  recordValue(value: unknown, type: ScalarType): unknown;
  /** Whether a statement's error is worth one more attempt: the database cancelled a read it would now run. */
  transient(error: unknown): boolean;
}

/**
 * The engine side of a dialect, around a statement runner.
 *
 * @example
 * const engine = sqlEngine(MYSQL_DIALECT, (sql, params) => pool.execute(sql, params));
 */
export function sqlEngine(dialect: Dialect, run: SqlStatementRunner): SqlEngine {
  const { driver } = dialect;
  const call = (sql: string, params: unknown[], context: StatementContext | undefined) =>
    context === undefined ? run(sql, params) : run(sql, params, context);
  return {
    placeholder: dialect.rules.placeholder,
    rows: async (sql, params, ordered, context) => rowsOf(await call(driver.statement(sql, ordered, context?.timeoutMs), params, context)),
    interrupted: driver.interrupted,
    readExpression: driver.readExpression,
    keyExpression: driver.keyExpression,
    seekValue: driver.seekValue,
    recordValue: driver.recordValue,
    transient: driver.transient,
  };
}

/** Rows from `{ rows }` (`pg`, PGlite), mysql2's `[rows, fields]` pair, or the rows themselves. */
function rowsOf(result: unknown): readonly Record<string, unknown>[] {
  if (Array.isArray(result)) return (Array.isArray(result[0]) ? result[0] : result) as Record<string, unknown>[];
  if (typeof result === 'object' && result !== null && Array.isArray((result as { rows?: unknown }).rows)) {
    return (result as { rows: Record<string, unknown>[] }).rows;
  }
  return [];
}
