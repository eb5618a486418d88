/**
 * MySQL's and MariaDB's driver side (mysql2): the per-statement settings
 * written into a statement's text, which errors mean it was stopped or may
 * be run again; values come back as epoch milliseconds and 0/1.
 */
import type { DialectDriver, RowEstimate } from '../dialect.js';
import { epochValues } from '../shared.js';

/**
 * The `max_sort_length` every ordered MariaDB statement of the SQL data
 * source sets for itself (`SET STATEMENT … FOR`). MariaDB's ORDER BY
 * compares only the first `max_sort_length` bytes of a string's sort
 * weight (1,024 by default: 341 characters under `utf8mb4_nopad_bin`, 3
 * bytes a character) while a seek predicate compares whole strings, so a
 * walk over keys sharing a longer prefix would skip rows. 65,536 bytes
 * (21,845 characters) still sorts within the default 2 MiB
 * `sort_buffer_size` (larger values fail with "Out of sort memory"); keys
 * sharing a longer prefix remain a documented gap (docs/server.md).
 *
 * @example
 * MARIADB_MAX_SORT_LENGTH; // 65536
 */
export const MARIADB_MAX_SORT_LENGTH = 65_536;

/**
 * The per-statement settings of an ordered (and, with a time limit, any)
 * MySQL-dialect statement. MariaDB runs the executable comment (`/*M!` and
 * the version that has SET STATEMENT, 10.1.2): whole-string ORDER BY and
 * `max_statement_time` in seconds, for this statement only (a pooler in
 * transaction mode cannot leak it). MySQL reads a plain comment, keeps its
 * own `max_sort_length` (docs/server.md says how to raise it there) and takes
 * the time limit from the `MAX_EXECUTION_TIME` optimizer hint after SELECT.
 */
function mysqlStatement(sql: string, ordered: boolean, timeoutMs: number | undefined): string {
  // The limit in whole seconds, rounded up: a driver prepares a statement once per text and the server keeps it until
  // closed (mysql2 caches 16,000 per connection), so a limit to the millisecond would prepare, and keep, a new statement
  // every time: two round trips, and the server's max_prepared_stmt_count reached. The deadline itself stays exact:
  // the pooled runner kills the statement (KILL QUERY) when its request's time is up.
  const seconds = timeoutMs === undefined ? undefined : Math.max(1, Math.ceil(timeoutMs / 1000));
  const settings = [
    ...(seconds === undefined ? [] : [`max_statement_time=${seconds}`]),
    ...(ordered ? [`max_sort_length=${MARIADB_MAX_SORT_LENGTH}`] : []),
  ];
  const hinted = seconds === undefined ? sql : sql.replace(/^SELECT /, `SELECT /*+ MAX_EXECUTION_TIME(${seconds * 1000}) */ `);
  return settings.length === 0 ? hinted : `/*M!100102 SET STATEMENT ${settings.join(', ')} FOR */ ${hinted}`;
}

// MariaDB's max_statement_time, MySQL's max_execution_time, and KILL QUERY on both.
const MYSQL_INTERRUPTED = new Set([1969, 3024, 1317]);

/** MySQL and MariaDB: a deadlock (`ER_LOCK_DEADLOCK`, 1213) rolls back a statement that may succeed when run again. */
function mysqlTransient(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { errno?: unknown }).errno === 1213;
}

/** MySQL's and MariaDB's row estimate: `EXPLAIN`'s rows × filtered of the one table the statement reads. */
const MYSQL_ROW_ESTIMATE: RowEstimate = Object.freeze({
  explain: (sql: string) => `EXPLAIN ${sql}`,
  plannedRows(rows: readonly Record<string, unknown>[]): number | undefined {
    const first = rows[0];
    if (first === undefined) return undefined;
    const filtered = first.filtered === undefined || first.filtered === null ? 100 : Number(first.filtered);
    const n = (Number(first.rows) * filtered) / 100;
    return Number.isFinite(n) && n >= 0 ? Math.round(n) : undefined;
  },
});

/**
 * The driver face of the MySQL dialect.
 *
 * @example
 * MYSQL_DRIVER.statement('SELECT 1', true, undefined); // MariaDB's SET STATEMENT max_sort_length=65536 FOR, then the SELECT
 */
export const MYSQL_DRIVER: DialectDriver = Object.freeze({
  statement: mysqlStatement,
  interrupted: (error: unknown) =>
    typeof error === 'object' && error !== null && MYSQL_INTERRUPTED.has((error as { errno?: number }).errno ?? 0),
  transient: mysqlTransient,
  // mysql2 keeps a leading U+FEFF, so strings are read as they are (and `||` is not concatenation there).
  ...epochValues(false),
  sourceConstructor: 'createMysqlDataSource',
  rowEstimate: MYSQL_ROW_ESTIMATE,
});
