/**
 * The employees table spread over shard servers, as `wepql db-seed --shards`
 * lays it out: on the coordinator a table `PARTITION BY HASH ("ClientId")`
 * whose partition `i` is a `postgres_fdw` foreign table on shard `i`, every
 * string column with a stored folded twin (so each statement of a list
 * request ships to one shard whole; see docs/server.md "Scaling out").
 */
import type { SqlRunner } from '../sources/postgres-source.js';
import type { PostgresShard, PostgresTableCreation } from '../sql/dialects/postgres/table.js';
import { DEFAULT_FOLD_COLLATION, POSTGRES_DIALECT } from '../sql/dialects/postgres/dialect.js';
import { defaultColumnName } from '../sql/columns.js';
import { foldedColumnName } from '../sql/compile.js';
import type { Schema } from '../schema/schema.js';

/**
 * How the employees table is laid out: `partitions` hash partitions on one
 * server, or `shards` (then one partition per shard server).
 *
 * @example
 * const layout: EmployeeLayout = { shards: { servers: [shard0, shard1], foldCollation: 'wepql_fold' } };
 */
export interface EmployeeLayout {
  readonly partitions?: number;
  readonly shards?: EmployeeShards;
}

/**
 * The shard servers, partition `i` on `servers[i]`, and the collation the
 * folded twins are computed with (it must exist on every shard).
 *
 * @example
 * const shards: EmployeeShards = { servers: [shard0, shard1], foldCollation: 'wepql_fold' };
 */
export interface EmployeeShards {
  readonly servers: readonly PostgresShard[];
  readonly foldCollation: string;
}

/**
 * The collation `chooseFoldCollation` picked, or the one `toSql` folds with
 * when it picked none (PostgreSQL 18's `pg_unicode_fast`): the folded twins
 * need a name.
 *
 * @example
 * foldCollationOrDefault(undefined); // 'pg_unicode_fast'
 */
export function foldCollationOrDefault(chosen: string | undefined): string {
  return chosen ?? DEFAULT_FOLD_COLLATION;
}

/**
 * The `createPostgresTable` creation of a layout (always replacing the table).
 *
 * @example
 * employeeTableCreation({ partitions: 4 }); // { replace: true, partitions: { field: 'ClientId', count: 4 } }
 */
export function employeeTableCreation(layout: EmployeeLayout): PostgresTableCreation {
  const { shards } = layout;
  if (shards === undefined) {
    return { replace: true, ...(layout.partitions === undefined ? {} : { partitions: { field: 'ClientId', count: layout.partitions } }) };
  }
  return {
    replace: true,
    partitions: { field: 'ClientId', count: shards.servers.length },
    foldedColumns: { foldCollation: shards.foldCollation },
    shards: shards.servers,
  };
}

/**
 * The table partition `i` is kept in on its shard (`createPostgresTable`'s naming).
 *
 * @example
 * shardTableName('employees', 1); // 'employees_p1'
 */
export function shardTableName(table: string, i: number): string {
  return `${table}_p${i}`;
}

/**
 * After a sharded table is filled through the coordinator: each shard's
 * table gets its `ClientId` index and `VACUUM ANALYZE` (index-only counts
 * from the first request), the coordinator `ANALYZE`s the foreign
 * partitions (it reads the shards' statistics), and the coordinator's
 * database is set to `enable_partitionwise_aggregate` so a client's count
 * is computed on its shard and one row crosses. Returns what it did, one
 * line per step, for the command to print.
 *
 * @example
 * const done = await finishShardedTable(query, 'employees', shards); // ['shard 0: index on "ClientId", VACUUM ANALYZE "employees_p0"', …]
 */
export async function finishShardedTable(query: SqlRunner, table: string, shards: EmployeeShards): Promise<string[]> {
  const done: string[] = [];
  for (const [i, shard] of shards.servers.entries()) {
    const local = POSTGRES_DIALECT.rules.quote(shardTableName(table, i));
    await shard.query(`CREATE INDEX ON ${local} ("ClientId")`, []);
    await shard.query(`VACUUM ANALYZE ${local}`, []);
    done.push(`shard ${i} (${shard.host}:${shard.port}/${shard.dbname}): table ${local}, index on "ClientId", VACUUM ANALYZE`);
  }
  await query(`ANALYZE ${POSTGRES_DIALECT.rules.quote(table)}`, []);
  const { rows } = await query('SELECT current_database() AS name', []);
  const database = POSTGRES_DIALECT.rules.quote(String((rows[0] as { name: unknown }).name));
  // A setting of the database, not of a session: it holds for every connection, through a pooler in transaction mode too.
  await query(`ALTER DATABASE ${database} SET enable_partitionwise_aggregate = on`, []);
  done.push(
    `coordinator: ANALYZE ${POSTGRES_DIALECT.rules.quote(table)}; ALTER DATABASE ${database} SET enable_partitionwise_aggregate = on`,
  );
  return done;
}

/** The stored folded twins a table must have for `foldedColumns`: `"<column>_folded"` of every string column. */
function foldedTwinsOf(schema: Schema): { readonly column: string; readonly folded: string }[] {
  return schema.fields
    .filter((f) => f.type === 'string')
    .map((f) => {
      const column = defaultColumnName(f);
      return { column, folded: foldedColumnName(column) };
    });
}

/**
 * Whether the table has the folded twins `createPostgresTable` makes with
 * `foldedColumns` (as `wepql db-seed --shards` lays it out): for every
 * string column of the schema a `"<column>_folded"` column of type `text`,
 * collation `"C"`, `GENERATED ALWAYS AS (lower(<column> …)) STORED`. Only
 * then may a source read it with `foldedColumns: true`: a twin missing,
 * computed from something else or kept by hand would give other results
 * than the column it stands for, so the answer is then false and the
 * server folds the columns in each statement instead.
 *
 * @example
 * const foldedColumns = await findFoldedColumns((sql, params) => pool.query(sql, params), 'employees', employeeSchema); // true
 */
export async function findFoldedColumns(query: SqlRunner, table: string, schema: Schema): Promise<boolean> {
  const twins = foldedTwinsOf(schema);
  if (twins.length === 0) return false;
  // PostgreSQL prints a generation expression back as lower(("<column>")::text COLLATE <collation>): a lower() of the
  // column, named as quote_ident names it.
  const { rows } = await query(
    'SELECT count(*) AS "found" FROM unnest($2::text[], $3::text[]) AS t("folded", "source") ' +
      'JOIN pg_attribute a ON a.attrelid = to_regclass($1) AND a.attname = t."folded" ' +
      'JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum ' +
      "WHERE NOT a.attisdropped AND a.attgenerated = 's' AND a.atttypid = 'text'::regtype " +
      "AND a.attcollation = (SELECT oid FROM pg_collation WHERE collname = 'C' AND collnamespace = 'pg_catalog'::regnamespace) " +
      'AND left(pg_get_expr(d.adbin, d.adrelid), 6) = \'lower(\' AND strpos(pg_get_expr(d.adbin, d.adrelid), quote_ident(t."source")) > 0',
    [POSTGRES_DIALECT.rules.quote(table), twins.map((t) => t.folded), twins.map((t) => t.column)],
  );
  return Number((rows[0] as { found: string | number }).found) === twins.length;
}
