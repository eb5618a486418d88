/**
 * `wepql db-index`: the `CREATE INDEX` statements that serve the employee
 * list's sorts and filters (`indexesFor`), printed, or created with
 * `--apply`. The fold collation is the one the server will use, read from
 * the database when a URL is given.
 */
import { readFileSync } from 'node:fs';
import { parseArgs, UsageError } from '../args.js';
import { readSavedFilters } from '../saved-filters.js';
import { indexesFor } from '../../sql/indexes.js';
import { employeeSchema } from '../../schemas/employee.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, EMPLOYEE_TABLE } from '../../server/employees.js';

/**
 * Runs `wepql db-index [--database-url URL] [--sort S]… [--filters FILE] [--fold-collation NAME] [--concurrently] [--apply]`.
 * Without a URL (nor `DATABASE_URL`) it prints for `--fold-collation` (default PostgreSQL 18's).
 *
 * @example
 * // wepql db-index --database-url postgres://postgres@127.0.0.1:5432/postgres --sort LastName=Asc --filters saved.txt --apply
 * await run(['--sort', 'LastName=Asc', '--fold-collation', 'wepql_fold']); // 0, prints the statements
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    values: ['--database-url', '--filters', '--fold-collation'],
    repeatable: ['--sort'],
    switches: ['--apply', '--concurrently'],
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  const apply = args.switches.has('--apply');
  if (apply && (url === undefined || url === '')) throw new UsageError('--apply needs --database-url URL or DATABASE_URL');
  const sorts = [...(args.repeated.get('--sort') ?? [])];
  const filters: string[] = [];
  const file = args.values.get('--filters');
  if (file !== undefined) {
    let content: string;
    try {
      content = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (error) {
      process.stderr.write(`wepql db-index: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}\n`);
      return 1;
    }
    for (const entry of readSavedFilters(file, content).entries) (entry.kind === 'sort' ? sorts : filters).push(entry.text);
  }

  const advise = (foldCollation: string | undefined) =>
    indexesFor(employeeSchema, {
      dialect: 'postgres',
      table: EMPLOYEE_TABLE,
      clientField: EMPLOYEE_SCOPE.clientField,
      tieBreaker: 'Id',
      sorts,
      filters,
      concurrently: args.switches.has('--concurrently'),
      ...(foldCollation === undefined ? {} : { foldCollation }),
    });

  if (url === undefined || url === '') {
    return print(advise(args.values.get('--fold-collation')));
  }
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    process.stderr.write('wepql db-index: the "pg" package is needed (npm install pg)\n');
    return 1;
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    const query = (sql: string, params: unknown[]) => client.query(sql, params);
    const chosen = args.values.get('--fold-collation') ?? (await chooseFoldCollation(query)).foldCollation;
    const indexes = advise(chosen);
    if (!apply) return print(indexes);
    for (const index of indexes) {
      const started = Date.now();
      await query(index.sql, []);
      process.stdout.write(`${index.sql};  -- ${index.serves}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    }
    await query(`ANALYZE "${EMPLOYEE_TABLE}"`, []);
    return 0;
  } catch (error) {
    process.stderr.write(`wepql db-index: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.end().catch(() => {});
  }
}

function print(indexes: ReturnType<typeof indexesFor>): number {
  for (const index of indexes) process.stdout.write(`-- serves ${index.serves}\n${index.sql};\n`);
  return 0;
}
