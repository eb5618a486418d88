/**
 * `wepql db-seed`: creates the `employees` table of a PostgreSQL database
 * (replacing it) and fills it with examples/employees.json, or with N
 * generated employees (`--rows N`, made inside the server by
 * generate_series), so that `DATABASE_URL=… npm start` serves the list from
 * the database; `--partitions N` hash-partitions it on `ClientId`. It ends
 * with `VACUUM ANALYZE`, so counts are index-only scans from the first request.
 */
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { specOf, type CommandDefinition } from '../command.js';
import { chooseFoldCollation, EMPLOYEE_TABLE, loadSampleEmployees, seedEmployeeTable } from '../../sample/employees.js';
import { seedGeneratedEmployees } from '../../sample/generate-employees.js';
import { conformanceEmployees } from '../../conformance/corpus.js';

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
  ],
  examples: ['wepql db-seed --database-url "$DATABASE_URL"', 'wepql db-seed --rows 20000', 'wepql db-seed --rows 20000 --partitions 8'],
};

/**
 * Runs `wepql db-seed [--database-url URL] [--rows N] [--partitions N]` (default: `DATABASE_URL`, the 1,200 sample employees, no partitions).
 *
 * @example
 * // wepql db-seed --database-url postgres://postgres@127.0.0.1:5432/postgres --rows 1000000
 * await run(['--database-url', url, '--rows', '1000000']); // 0
 */
export async function run(argv: readonly string[]): Promise<number> {
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
  const how = partitions === undefined ? {} : { partitions };
  const conformance = args.switches.has('--conformance');
  if (conformance && rows !== undefined) throw new UsageError('give --rows N or --conformance, not both');
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  if (url === undefined || url === '') throw new UsageError('give --database-url URL or set DATABASE_URL');
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    process.stderr.write('wepql db-seed: the "pg" package is needed (npm install pg)\n');
    return 1;
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const query = (sql: string, params: unknown[]) => client.query(sql, params);
    // The closing VACUUM marks a page all-visible only once the commits of its rows are flushed; under
    // an asynchronous-commit default they may not be yet, and counts would visit the table until autovacuum.
    await query('SET synchronous_commit = on', []);
    // Creates the fallback collation the server will fold case with on PostgreSQL 15–16.
    const { note } = await chooseFoldCollation(query);
    if (note !== undefined) process.stderr.write(`wepql db-seed: ${note}\n`);
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
    const parts = partitions === undefined ? '' : ` in ${partitions} hash partitions on "ClientId"`;
    process.stdout.write(`wepql db-seed: created table "${EMPLOYEE_TABLE}"${parts} with ${count} employees in ${seconds} s\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`wepql db-seed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.end().catch(() => {});
  }
}
