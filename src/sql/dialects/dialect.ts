/**
 * What a SQL dialect is: one object with three faces. The compiler rules say
 * how the engine spells what `toSql` writes; the driver side says how rows
 * and seek keys come back from it; the storage side says how a table in the
 * storage convention is created and filled, and which index DDL the engine
 * has. Each engine is one folder beside this file exporting one such object;
 * everything else takes the object and never asks for an engine by name.
 * Types only: the engines import it, and it imports none of them.
 */
import type { ScalarType } from '../../schema/values.js';

/**
 * One value of a seek key, as JSON can carry it: text, a number (datetimes
 * as epoch milliseconds), a boolean, or null. The tie-breaker's value may be
 * text for a 64-bit key beyond 2^53. On PostgreSQL a datetime may also be
 * the exact UTC text the SQL data source reads (`2026-11-24 11:55:50.123456+00 AD`,
 * `infinity`) and a number `NaN`, `Infinity` or `-Infinity`, so keys keep
 * the column's full precision.
 *
 * @example
 * const value: SeekValue = 1704067200000; // a datetime key
 */
export type SeekValue = string | number | boolean | null;

/**
 * How one engine spells what wepql writes: the compiler face of a `Dialect`
 * (`sqlDialect(name)` returns it). Every method writes fixed text around
 * identifiers or placeholders and never a user value.
 *
 * @example
 * const d: SqlDialectRules = sqlDialect('sqlite');
 * d.placeholder(3);                 // '?'
 * d.orderSuffix('Asc');             // 'ASC NULLS FIRST'
 */
export interface SqlDialectRules {
  /** The dialect's name (`Dialect.name`). */
  readonly name: string;
  /** Quotes an identifier, refusing names the engine would reject or alter (see `quoteIdentifier`). */
  quote(name: string): string;
  /** The placeholder of the `n`-th parameter of a statement (1-based): `$n` or `?`. */
  placeholder(n: number): string;
  /**
   * The expression a string is compared and ordered by, around `raw`:
   * folded with the fold collation, or pinned to a byte-wise one. Both
   * order by code point on every dialect (the `prefixRange` relies on it).
   */
  compared(raw: string, caseSensitive: boolean, foldCollation: string, binaryCollation: string): string;
  /** The fold collation unless `foldCollation` names another (unused by SQLite, whose fold is `wepql_lower`). */
  readonly defaultFoldCollation: string;
  /** Quotes a collation name (SQLite checks it as PostgreSQL would, so a bad name fails on every dialect alike). */
  quoteCollation(name: string): string;
  /** The byte-wise collation unless `binaryCollation` names another (MySQL's `utf8mb4_nopad_bin`; unused elsewhere). */
  readonly defaultBinaryCollation: string;
  /** Quotes the binary collation's name (every dialect checks it as MySQL would, so a bad name fails on every dialect alike). */
  quoteBinaryCollation(name: string): string;
  /** The escape character of every LIKE (declared with `ESCAPE '…'`). */
  readonly likeEscape: string;
  /** Case-sensitive substring tests: `LIKE`, or SQLite's `GLOB` (its LIKE ignores ASCII case). */
  readonly caseSensitiveMatch: 'like' | 'glob';
  /** The ORDER BY suffix of a nullable key: NULL first under Asc, last under Desc. */
  orderSuffix(direction: 'Asc' | 'Desc'): string;
  /** What follows a text seek key's placeholder before it is folded (`::text` where an unknown type must be named). */
  readonly textParameterCast: string;
  /** What follows a datetime parameter's placeholder (`::timestamptz`, or nothing). */
  readonly datetimeParameterCast: string;
  /**
   * `expr` (not) among one bound list: the text before and after the single
   * placeholder, and the value bound to it (an array, or JSON text).
   */
  listMembership(expr: string, negated: boolean, type: ScalarType, values: readonly unknown[]): ListBinding;
  /** The expression reading a key path of a JSON column as a field of `type` (NULL when it does not fit). */
  jsonValue(column: string, path: readonly string[], type: ScalarType): string;
  /**
   * The cast reading a seek key given as the engine's own exact text back
   * as the column's type, or undefined when `text` is not such text: on
   * PostgreSQL a `timestamptz` at microseconds (or ±infinity) as the SQL
   * data source reads it back, and non-finite doubles, which no JSON number holds.
   */
  exactTextCast(type: ScalarType, text: string): string | undefined;
  /** A LIMIT or OFFSET count as bound: a number, or text where drivers would send a DOUBLE the server refuses there (MySQL 8.0.22+). */
  limitValue(count: number): number | string;
  /** Whether strings may be compared through stored (generated) folded columns (`toSql`'s `foldedColumns`). */
  readonly storedFoldedColumns: boolean;
}

/**
 * One list bound as one parameter, from `SqlDialectRules.listMembership`.
 *
 * @example
 * const b: ListBinding = { before: '"Id" = ANY(', param: [1, 2], after: '::bigint[])' };
 */
export interface ListBinding {
  readonly before: string;
  readonly param: unknown;
  readonly after: string;
}

/**
 * What a statement is run with besides its text: the time it may take and
 * the signal that cancels it. A runner passed to the SQL data source receives
 * it as its third argument; `postgresPoolRunner` and `mysqlPoolRunner`
 * apply both.
 *
 * @example
 * const run: SqlStatementRunner = (sql, params, context) => runWithTimeout(sql, params, context?.timeoutMs);
 */
export interface StatementContext {
  /** Milliseconds the statement may run (what is left of its request's deadline). */
  readonly timeoutMs?: number;
  /** Aborted when the statement's answer is no longer wanted: cancel it on the server. */
  readonly signal?: AbortSignal;
}

/**
 * Runs one parameterised statement and resolves to its rows in any of the
 * shapes drivers return: `{ rows }` (`pg`, PGlite), mysql2's `[rows, fields]`
 * pair, or the rows themselves. The optional context carries the statement's
 * time limit and cancel signal.
 *
 * @example
 * const run: SqlStatementRunner = (sql, params) => pool.query(sql, params);
 */
export type SqlStatementRunner = (sql: string, params: unknown[], context?: StatementContext) => Promise<unknown>;

/**
 * The driver face of a `Dialect`: how statements go to the engine and how
 * what comes back is read (the SQL data source's side of an engine).
 *
 * @example
 * dialectOf('sqlite').driver.readExpression('"LastName"', 'string'); // `('x' || "LastName")`
 */
export interface DialectDriver {
  /**
   * The statement as sent: the SQL with the per-statement settings the
   * engine takes in its text (a time limit, MariaDB's sort length), or as it is.
   */
  statement(sql: string, ordered: boolean, timeoutMs: number | undefined): string;
  /** Whether a driver error says the statement was stopped (its time ran out, or it was cancelled). */
  interrupted(error: unknown): boolean;
  /** Whether a statement's error is worth one more attempt: the database cancelled a read it would now run. */
  transient(error: unknown): boolean;
  /** The expression a record's field is read with. */
  readExpression(expr: string, type: ScalarType): string;
  /** The expression a sort key is read with for a seek key: the engine's exact value. */
  keyExpression(expr: string, type: ScalarType): string;
  /** A value read by `keyExpression` as a seek value (`'tie'` for the tie-breaker). */
  seekValue(value: unknown, type: ScalarType | 'tie'): SeekValue;
  /** A value read by `readExpression` as the record's value; null when absent. */
  recordValue(value: unknown, type: ScalarType): unknown;
  /** The function users create a data source for this engine with, named in configuration errors. */
  readonly sourceConstructor: string;
  /** How the planner's row estimate of a statement is asked for and read; absent where the engine has none. */
  readonly rowEstimate?: RowEstimate;
}

/**
 * The planner's row estimate of a statement, where an engine has one: the
 * `EXPLAIN` that asks for it and how its answer is read. Estimated totals
 * (docs/server.md, "Counting") use it.
 *
 * @example
 * const rows = await run(dialectOf('postgres').driver.rowEstimate!.explain('SELECT 1 FROM "employees"'), []);
 */
export interface RowEstimate {
  /** The statement that asks the planner for its estimate of `sql`. */
  explain(sql: string): string;
  /** The estimated row count from the rows the `explain` statement returned; undefined when they hold none. */
  plannedRows(rows: readonly Record<string, unknown>[]): number | undefined;
}

/**
 * The storage face of a `Dialect`: the storage convention's column types
 * and stored values, what a created table and a bulk insert need, and the
 * index DDL the engine has.
 *
 * @example
 * dialectOf('mysql').storage.columnType('datetime'); // 'BIGINT' (epoch milliseconds)
 */
export interface DialectStorage {
  /** The column type of the storage convention (docs/sql.md). */
  columnType(type: ScalarType): string;
  /** A record's value (already read as its type) as stored: timestamps, 0/1 booleans. */
  storedValue(typed: string | number | boolean, type: ScalarType): string | number | boolean;
  /** The type of the column that keeps each whole record as JSON. */
  readonly recordColumnType: string;
  /** What follows a created table's column list (MySQL's `DEFAULT CHARACTER SET utf8mb4`), or `''`. */
  readonly tableSuffix: string;
  /** The parameters one INSERT of a bulk insert binds at most (below the engine's limit). */
  readonly maxInsertParameters: number;
  /** The suffix of an index column serving that order. */
  indexOrderSuffix(direction: 'Asc' | 'Desc', nullable: boolean): string;
  /** Whether `CREATE INDEX CONCURRENTLY` exists (an index built without blocking writes). */
  readonly concurrentIndexes: boolean;
  /** Whether a b-tree can store extra columns with `INCLUDE (…)` (covering indexes for index-only scans). */
  readonly coveringIndexes: boolean;
  /** Whether trigram (`pg_trgm` GIN) indexes exist, which serve substring tests. */
  readonly trigramIndexes: boolean;
  /** The per-client counter table's DDL from its shared pieces; absent where the engine has no counter table. */
  readonly counterTable?: (sql: CounterSql) => CounterTableDdl;
}

/**
 * One SQL engine: its name (what `toSql`'s `dialect` option may give instead
 * of the object) and its three faces. Adding an engine is adding one folder
 * that exports one of these, and naming it in the registry.
 *
 * @example
 * toSql({ filter: 'Id.Equal(5)' }, { dialect: dialectOf('sqlite'), schema }).where; // '"Id" = ?'
 */
export interface Dialect {
  /** The name `toSql`'s `dialect` option gives it (`'postgres'`), and errors show. */
  readonly name: string;
  /** The compiler face. */
  readonly rules: SqlDialectRules;
  /** The driver face. */
  readonly driver: DialectDriver;
  /** The storage face. */
  readonly storage: DialectStorage;
}

/**
 * The counter DDL: the counter table's name, and the statements that create
 * it, install the triggers and fill it from the table.
 *
 * @example
 * const { table, statements, transaction }: CounterTableDdl = counterTableDdl(employeeSchema, options);
 */
export interface CounterTableDdl {
  /** The counter table, qualified like the counted one: `['employees_wepql_counts']`. */
  readonly table: readonly string[];
  /**
   * The statements, in order. Run them on one connection, with the driver's
   * plain (text) query: MySQL cannot prepare `CREATE TRIGGER` or `LOCK TABLES`.
   * They lock the counted table against writes while the triggers are
   * installed and the counts backfilled, so no write is missed or counted twice;
   * running them again recounts from the table.
   */
  readonly statements: readonly string[];
  /** PostgreSQL: run the statements inside one transaction (`BEGIN` … `COMMIT`); MySQL locks with `LOCK TABLES` instead. */
  readonly transaction: boolean;
  /** The triggers' names (a server can check they are all there before trusting the counter). */
  readonly triggers: readonly string[];
}

/**
 * The pieces of counter SQL every engine shares (src/sql/counts.ts writes
 * them): quoted names, the counted columns, and the create and backfill statements.
 *
 * @example
 * const ddl = dialectOf('postgres').storage.counterTable?.(pieces);
 */
export interface CounterSql {
  /** Quotes an identifier by the dialect's rules. */
  readonly quote: (name: string) => string;
  /** Counter rows per client and deletedness (`COUNTER_SLOTS`). */
  readonly slots: number;
  /** The counted table, quoted and qualified. */
  readonly table: string;
  /** The counter table's name parts, and the same quoted and qualified. */
  readonly counterParts: readonly string[];
  /** The counter table, quoted and qualified. */
  readonly counter: string;
  /** The counter table's name without `_counts`: the prefix of its triggers and function. */
  readonly base: string;
  /** A name beside the counter table, quoted and qualified like it. */
  readonly qualified: (name: string) => string;
  /** The client column. */
  readonly client: string;
  /** The soft-delete marker's column and its value as a SQL literal, when the table has one. */
  readonly deleted: { readonly column: string; readonly literal: string } | undefined;
  /** SQL that is true when the row (`''`, `'OLD.'`, `'NEW.'`) is soft-deleted. */
  readonly isDeleted: (row: string) => string;
  /** The counter table's client column, quoted. */
  readonly c: string;
  /** The counter table's `CREATE TABLE IF NOT EXISTS`. */
  readonly create: string;
  /** The `INSERT … SELECT` that fills the counter from the counted table. */
  readonly backfill: string;
}
