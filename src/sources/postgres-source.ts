/**
 * A data source over a PostgreSQL table: the SQL data source
 * (`./sql-source.ts`) with the `postgres` dialect. It needs only a
 * `query(sql, params)` function, so it works with a `pg` Pool or Client and
 * with PGlite alike, and imports neither.
 */
import type { Schema } from '../schema/schema.js';
import type { ColumnMap } from '../sql/columns.js';
import { POSTGRES_DIALECT } from '../sql/dialects/postgres/dialect.js';
import type { SqlRunner } from '../sql/dialects/postgres/table.js';
import type { DataSource, ScopeOptions } from '../list/data-source.js';
import { createSqlDataSource, type PartitionName } from './sql-source.js';
import type { PostgresPool } from '../sql/dialects/postgres/pool.js';
import { postgresPoolRunner } from '../sql/dialects/postgres/pool.js';

export type { SqlRunner } from '../sql/dialects/postgres/table.js';

/**
 * Options of `createPostgresDataSource`.
 *
 * @example
 * const options: PostgresDataSourceOptions = { query, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', clientField: 'ClientId' };
 */
export interface PostgresDataSourceOptions extends ScopeOptions {
  /** Runs a statement, such as `(sql, params) => pool.query(sql, params)`. Give this or `pool`. */
  readonly query?: SqlRunner;
  /**
   * A `pg` Pool to run statements on, instead of `query`: each statement of
   * a request with a deadline then carries the time left and is cancelled
   * when its request is cut or its client goes away. On a connection to the
   * server itself it runs alone (one round trip) and is stopped by a
   * protocol cancel request; through a pooler such as pgbouncer it runs in a
   * read-only transaction with `SET LOCAL statement_timeout` and is stopped
   * with `pg_cancel_backend` (docs/server.md, "Under load").
   */
  readonly pool?: PostgresPool;
  /** Statements run at once behind a server's admission queue; default the pool's `max` (cancels need no pooled connection), else 8. */
  readonly concurrency?: number;
  /**
   * Runs the first page's count and rows on the primary while `query` or
   * `pool` reads from replicas, so a list opened after a write shows it; the
   * token pages after it read from the replicas (docs/server.md, "Read replicas").
   */
  readonly primary?: SqlRunner;
  /** The table, optionally schema-qualified as `['payroll', 'employees']`; quoted, never spliced raw. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** Where fields are stored when not in same-named columns (see `toSql`). */
  readonly columns?: ColumnMap;
  /** A unique column appended to every ORDER BY so that pages never overlap or skip rows (for employees, `Id`). */
  readonly tieBreaker: string;
  /**
   * A `json` column holding each whole record, returned as the row. Without
   * it, rows are rebuilt from the schema's fields: nulls omitted, datetimes
   * as ISO text (read as text, so every year survives the driver; `infinity`
   * stays `'infinity'`), 64-bit integers as numbers.
   */
  readonly recordColumn?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /** The collation `toSql` folds case with (its `foldCollation`; default `pg_unicode_fast`, PostgreSQL 18). */
  readonly foldCollation?: string;
  /**
   * Compare strings through stored folded columns (`toSql`'s
   * `foldedColumns`; `createPostgresTable` makes them): what a table whose
   * partitions are `postgres_fdw` foreign tables needs for every statement
   * to be shipped to its shard whole.
   */
  readonly foldedColumns?: boolean;
  /** The per-client counter table (`counterTableDdl`) that totals an unfiltered first page; see `createSqlDataSource`. */
  readonly counterTable?: string | readonly string[];
  /**
   * The partition holding one client's rows, when `table` is partitioned by
   * `clientField` alone: each statement of that client then reads the
   * partition itself, so a `postgres_fdw` foreign partition receives the
   * whole statement, `LIMIT` and `OFFSET` included (over the partitioned
   * table PostgreSQL keeps them on the coordinator); see `createSqlDataSource`
   * and docs/server.md, "Scaling out".
   */
  readonly partitionOf?: (clientId: string | number) => PartitionName | PromiseLike<PartitionName>;
}

/**
 * Serves a list from PostgreSQL (or PGlite). The table follows `toSql`'s
 * storage convention (docs/sql.md); `wepql db-seed` creates one for the
 * sample employees.
 *
 * @example
 * import pg from 'pg';
 * const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL });
 * const source = createPostgresDataSource({
 *   query: (sql, params) => pool.query(sql, params), table: 'employees', schema: employeeSchema,
 *   tieBreaker: 'Id', clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 }, recordColumn: 'Record',
 * });
 */
export function createPostgresDataSource(options: PostgresDataSourceOptions): DataSource {
  const { query, pool, concurrency, primary, ...shared } = options;
  if ((query === undefined) === (pool === undefined)) throw new TypeError('createPostgresDataSource: give either query or pool');
  // A plain runner is called with the statement and its parameters only: `pool.query`'s third argument is a callback.
  const run = pool !== undefined ? postgresPoolRunner(pool) : (sql: string, params: unknown[]) => query!(sql, params);
  const poolSize = pool?.options?.max ?? 10;
  return createSqlDataSource({
    ...shared,
    dialect: POSTGRES_DIALECT,
    run,
    ...(primary === undefined ? {} : { primary: (sql: string, params: unknown[]) => primary(sql, params) }),
    concurrency: concurrency ?? (pool === undefined ? 8 : Math.max(1, poolSize)),
  });
}
