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
