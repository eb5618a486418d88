/**
 * `wepql db-seed`: creates the `employees` table of a PostgreSQL database
 * (replacing it) and fills it with examples/employees.json, or with N
 * generated employees (`--rows N`, made inside the server by
 * generate_series), so that `DATABASE_URL=… npm start` serves the list from
 * the database; `--partitions N` hash-partitions it on `ClientId`;
 * `--shards URL,URL` partitions it over shard servers with `postgres_fdw`
 * (docs/server.md "Scaling out"). It ends with `VACUUM ANALYZE`, so counts
 * are index-only scans from the first request.
 */
import { userInfo } from 'node:os';
import { parseArgs } from '../args.js';
import { splitShards } from '../shard-urls.js';
import { UsageError } from '../../workspace/usage-error.js';
import { specOf, type CommandDefinition } from '../command.js';
import { chooseFoldCollation, EMPLOYEE_TABLE, loadSampleEmployees, seedEmployeeTable } from '../../sample/employees.js';
import { seedGeneratedEmployees } from '../../sample/generate-employees.js';
import { conformanceEmployees } from '../../conformance/corpus.js';
import { foldCollationOrDefault, type EmployeeShards } from '../../sample/employee-shards.js';
import type { PostgresShard } from '../../sql/dialects/postgres/table.js';

/** `wepql db-seed`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'db-seed',
  summary: 'create (replacing it) and fill the employees table of a PostgreSQL database from the sample data or N generated rows',
  options: [
    { flag: '--database-url', value: 'URL', description: 'the database to fill (default: the DATABASE_URL environment variable)' },
    {
      flag: '--rows',
      value: 'N',
      description: 'N deterministic generated employees (Ids 1…N) instead of the 1,200 samples; made inside the server',
    },
    {
      flag: '--conformance',
      description:
        'the 30 employees of the conformance dataset (grammar/corpus/dataset/employees.json) instead, for `wepql conformance --url`',
    },
    {
      flag: '--partitions',
      value: 'N',
      description:
        'create the table PARTITION BY HASH ("ClientId") with N partitions (1–1024); indexes created later on it reach every partition',
    },
    {
      flag: '--shards',
      value: 'URL,URL',
      description:
        'partition the table over these PostgreSQL databases instead: partition i is a postgres_fdw foreign table on the i-th, ' +
        'strings get stored folded twins so every list statement ships to one shard whole (then: db-index --shards)',
    },
  ],
  examples: [
    'wepql db-seed --rows 2000 --shards "$SHARD0_URL,$SHARD1_URL"',
    'wepql db-seed --database-url "$DATABASE_URL"',
    'wepql db-seed --rows 20000',
    'wepql db-seed --rows 20000 --partitions 8',
  ],
};

/** The arguments of `wepql db-seed`, checked: a bad one is a usage error before anything connects. */
function seedArguments(argv: readonly string[]) {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const rowsText = args.values.get('--rows');
  const rows = rowsText === undefined ? undefined : Number(rowsText);
  if (rows !== undefined && !(/^\d+$/.test(rowsText!) && Number.isSafeInteger(rows) && rows <= 100_000_000)) {
    throw new UsageError(`--rows must be a whole number from 0 to 100000000, got ${JSON.stringify(rowsText)}`);
  }
  const partitionsText = args.values.get('--partitions');
  const partitions = partitionsText === undefined ? undefined : Number(partitionsText);
  if (partitions !== undefined && !(/^\d+$/.test(partitionsText!) && partitions >= 1 && partitions <= 1024)) {
    throw new UsageError(`--partitions must be a whole number from 1 to 1024, got ${JSON.stringify(partitionsText)}`);
  }
  const shardUrls = splitShards(args.values.get('--shards'));
  if (shardUrls !== undefined && partitions !== undefined) throw new UsageError('give --partitions N or --shards URL,URL, not both');
  const conformance = args.switches.has('--conformance');
  if (conformance && rows !== undefined) throw new UsageError('give --rows N or --conformance, not both');
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  if (url === undefined || url === '') throw new UsageError('give --database-url URL or set DATABASE_URL');
  return { rows, partitions, shardUrls, conformance, url };
}

/**
 * Runs `wepql db-seed [--database-url URL] [--rows N] [--partitions N | --shards URL,URL]` (default: `DATABASE_URL`, the 1,200 sample employees, no partitions).
 *
 * @example
 * // wepql db-seed --database-url postgres://postgres@127.0.0.1:5432/postgres --rows 1000000
 * await run(['--database-url', url, '--rows', '1000000']); // 0
 */
export async function run(argv: readonly string[]): Promise<number> {
  const { rows, partitions, shardUrls, conformance, url } = seedArguments(argv);
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    process.stderr.write('wepql db-seed: the "pg" package is needed (npm install pg)\n');
    return 1;
  }
  const client = new pg.Client({ connectionString: url });
  const shardClients = (shardUrls ?? []).map((connectionString) => new pg.Client({ connectionString }));
  try {
    await client.connect();
    const query = (sql: string, params: unknown[]) => client.query(sql, params);
    // The closing VACUUM marks a page all-visible only once the commits of its rows are flushed; under
    // an asynchronous-commit default they may not be yet, and counts would visit the table until autovacuum.
    await query('SET synchronous_commit = on', []);
    // Creates the fallback collation the server will fold case with on PostgreSQL 15–16.
    const { foldCollation, note } = await chooseFoldCollation(query);
    if (note !== undefined) process.stderr.write(`wepql db-seed: ${note}\n`);
    const shards = shardUrls === undefined ? undefined : await openShards(query, shardClients, foldCollation);
    const onStep = (line: string) => process.stdout.write(`wepql db-seed: ${line}\n`);
    const how = shards !== undefined ? { shards, onStep } : partitions === undefined ? {} : { partitions };
    const started = Date.now();
    const count =
      rows === undefined
        ? await seedEmployeeTable(query, conformance ? conformanceEmployees() : loadSampleEmployees(), how)
        : await seedGeneratedEmployees(
            query,
            rows,
            (done) => {
              if (rows >= 1_000_000) process.stderr.write(`wepql db-seed: ${done} of ${rows} rows\n`);
            },
            how,
          );
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const parts = layoutText(shards, partitions);
    process.stdout.write(`wepql db-seed: created table "${EMPLOYEE_TABLE}"${parts} with ${count} employees in ${seconds} s\n`);
    if (shards !== undefined) {
      process.stdout.write(
        'wepql db-seed: next, the indexes on each shard: wepql db-index --shards URL,URL --apply; ' +
          'and read it with foldedColumns: true (docs/server.md "Scaling out")\n',
      );
    }
    return 0;
  } catch (error) {
    process.stderr.write(`wepql db-seed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.end().catch(() => {});
    for (const shard of shardClients) await shard.end().catch(() => {});
  }
}

/** How the table is laid out, for the closing line: shards, hash partitions, or one table (''). */
function layoutText(shards: EmployeeShards | undefined, partitions: number | undefined): string {
  if (shards !== undefined) {
    return (
      ` in ${shards.servers.length} hash partitions on "ClientId", partition i a postgres_fdw foreign table on shard i ` +
      `(servers ${shards.servers.map((_, i) => `"${EMPLOYEE_TABLE}_shard${i}"`).join(', ')}), ` +
      `strings with stored folded twins (COLLATE "${shards.foldCollation}")`
    );
  }
  return partitions === undefined ? '' : ` in ${partitions} hash partitions on "ClientId"`;
}

type Client = import('pg').Client;

/**
 * Connects to each shard, checks it folds case with the coordinator's
 * collation (creating the fallback one where needed), and creates
 * `postgres_fdw` on the coordinator. The coordinator reaches each shard at
 * the host, port, database, user and password the command connected with.
 */
async function openShards(
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  clients: readonly Client[],
  coordinatorFold: string | undefined,
): Promise<EmployeeShards> {
  const foldCollation = foldCollationOrDefault(coordinatorFold);
  const servers: PostgresShard[] = [];
  for (const [i, client] of clients.entries()) {
    await client.connect();
    const run = (sql: string, params: unknown[]) => client.query(sql, params);
    const own = foldCollationOrDefault((await chooseFoldCollation(run)).foldCollation);
    if (own !== foldCollation) {
      throw new Error(
        `shard ${i} folds case with "${own}", the coordinator with "${foldCollation}": give servers of the same major version`,
      );
    }
    const password = typeof client.password === 'string' && client.password !== '' ? { password: client.password } : {};
    // libpq's defaults when the URL names neither: the operating-system user, and a database named after the role.
    const user = client.user ?? userInfo().username;
    servers.push({ query: run, host: client.host, port: client.port, dbname: client.database ?? user, user, ...password });
  }
  await query('CREATE EXTENSION IF NOT EXISTS postgres_fdw', []);
  return { servers, foldCollation };
}
