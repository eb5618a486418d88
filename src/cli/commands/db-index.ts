/**
 * `wepql db-index`: the `CREATE INDEX` statements that serve the employee
 * list's sorts and filters (`indexesFor`), printed, or created with
 * `--apply`. The fold collation is the one the server will use, read from
 * the database when a URL is given. With `--shards URL,URL` (a table laid
 * out by `wepql db-seed --shards`), the indexes go on each shard's own
 * table, over the stored folded columns, and the coordinator then analyses
 * the foreign partitions.
 */
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { specOf, type CommandDefinition } from '../command.js';
import { loadYaml, needsYaml, readSavedFilters } from '../../workspace/saved-filters.js';
import { readInput } from '../io.js';
import { adviseIndexes, type IndexAdvice } from '../../sql/indexes.js';
import { POSTGRES_DIALECT } from '../../sql/dialects/postgres/dialect.js';
import { employeeSchema } from '../../schema/employee-schema.js';
import { chooseFoldCollation, EMPLOYEE_SCOPE, EMPLOYEE_TABLE } from '../../sample/employees.js';
import { shardTableName } from '../../sample/employee-shards.js';
import { splitShards } from '../shard-urls.js';

/** `wepql db-index`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'db-index',
  summary: 'print (or create, with --apply) the indexes that serve given sorts and filters on the employees table',
  options: [
    {
      flag: '--database-url',
      value: 'URL',
      description: 'the database (default: DATABASE_URL); without one, statements are printed for --fold-collation',
    },
    { flag: '--sort', value: 'TEXT', repeatable: true, description: 'a sort the list is read in' },
    {
      flag: '--filters',
      value: 'FILE',
      description: 'saved filters (and sorts) the list is read with: .txt one per line, .json, .ndjson, - for stdin',
    },
    {
      flag: '--fold-collation',
      value: 'NAME',
      description: "the collation case is folded with (default: the server's, as the list server picks it)",
    },
    { flag: '--trigram', description: 'serve Contains and EndsWith with pg_trgm GIN indexes (creates the extension)' },
    { flag: '--concurrently', description: 'CREATE INDEX CONCURRENTLY (does not block writes)' },
    {
      flag: '--counts',
      description:
        'also a per-client counter table kept by triggers, so unfiltered totals are read, not counted (backfilled, writes wait meanwhile)',
    },
    {
      flag: '--shards',
      value: 'URL,URL',
      description:
        "the table is sharded (db-seed --shards): index each shard's own employees_p<i> table over its folded columns, " +
        'then ANALYZE the coordinator (--database-url)',
    },
    { flag: '--apply', description: 'create the indexes instead of printing them' },
  ],
  examples: [
    'wepql db-index --sort LastName=Asc --filters examples/saved-filters.txt',
    'wepql db-index --filters examples/saved-filters.txt --trigram',
    'wepql db-index --database-url "$DATABASE_URL" --sort LastName=Asc --apply',
    'wepql db-index --database-url "$DATABASE_URL" --counts --apply',
    'wepql db-index --shards "$SHARD0_URL,$SHARD1_URL" --sort LastName=Asc --filters examples/saved-filters.txt --apply',
  ],
};

/**
 * Runs `wepql db-index [--database-url URL] [--sort S]… [--filters FILE] [--fold-collation NAME] [--concurrently] [--apply]`.
 * Without a URL (nor `DATABASE_URL`) it prints for `--fold-collation` (default PostgreSQL 18's).
 *
 * @example
 * // wepql db-index --database-url postgres://postgres@127.0.0.1:5432/postgres --sort LastName=Asc --filters saved.txt --apply
 * await run(['--sort', 'LastName=Asc', '--fold-collation', 'wepql_fold']); // 0, prints the statements
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  const apply = args.switches.has('--apply');
  if (apply && (url === undefined || url === '')) throw new UsageError('--apply needs --database-url URL or DATABASE_URL');
  const { sorts, filters } = await queriesOf(args.repeated.get('--sort') ?? [], args.values.get('--filters'));

  const shardUrls = splitShards(args.values.get('--shards'));
  if (shardUrls !== undefined && args.switches.has('--counts')) {
    throw new UsageError(
      '--counts cannot go with --shards: the counter triggers would have to run on every shard (count on the shards instead)',
    );
  }

  const advise = (foldCollation: string | undefined, table = EMPLOYEE_TABLE) =>
    adviseIndexes(employeeSchema, {
      dialect: POSTGRES_DIALECT,
      table,
      clientField: EMPLOYEE_SCOPE.clientField,
      // Every list query tests the soft-delete marker; in the indexes, counts are index-only scans.
      include: [EMPLOYEE_SCOPE.deleted.field],
      tieBreaker: 'Id',
      sorts,
      filters,
      trigram: args.switches.has('--trigram'),
      counts: args.switches.has('--counts'),
      deleted: EMPLOYEE_SCOPE.deleted,
      concurrently: args.switches.has('--concurrently'),
      ...(foldCollation === undefined ? {} : { foldCollation }),
      // A shard's table compares strings through their stored folded twins, as the sharded sources do.
      ...(table === EMPLOYEE_TABLE ? {} : { foldedColumns: true }),
    });

  if ((url === undefined || url === '') && shardUrls === undefined) {
    return print(advise(args.values.get('--fold-collation')));
  }
  let pg: typeof import('pg');
  try {
    pg = (await import('pg')).default as unknown as typeof import('pg');
  } catch {
    process.stderr.write('wepql db-index: the "pg" package is needed (npm install pg)\n');
    return 1;
  }
  if (shardUrls !== undefined) return runOnShards(pg, shardUrls, url, apply, args.values.get('--fold-collation'), advise);
  return runOnServer(new pg.Client({ connectionString: url }), apply, args.values.get('--fold-collation'), advise);
}

/** One server: the advice for its table, printed or (with `--apply`) created. */
async function runOnServer(
  client: import('pg').Client,
  apply: boolean,
  foldCollation: string | undefined,
  advise: (foldCollation: string | undefined) => IndexAdvice,
): Promise<number> {
  try {
    await client.connect();
    const query = (sql: string, params: unknown[]) => client.query(sql, params);
    const advice = advise(foldCollation ?? (await chooseFoldCollation(query)).foldCollation);
    if (!apply) return print(advice);
    await createIndexes(advice, query);
    printSkipped(advice);
    return 0;
  } catch (error) {
    process.stderr.write(`wepql db-index: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await client.end().catch(() => {});
  }
}

type Runner = (sql: string, params: unknown[]) => Promise<{ rows: unknown[] }>;

/** The sorts and filters to advise for: the `--sort` options, then the saved sorts and filters of `--filters FILE`. */
async function queriesOf(sortOptions: readonly string[], file: string | undefined) {
  const sorts = [...sortOptions];
  const filters: string[] = [];
  if (file !== undefined) {
    const content = await readInput(file);
    if (needsYaml([file])) await loadYaml();
    for (const entry of readSavedFilters(file, content).entries) (entry.kind === 'sort' ? sorts : filters).push(entry.text);
  }
  return { sorts, filters };
}

/**
 * `--shards`: on each shard, the advice for every `employees_p<i>` table it
 * holds, printed or created (and the table analysed); with `--apply`, then
 * `ANALYZE employees` on the coordinator so its plans see the shards' statistics.
 */
async function runOnShards(
  pg: typeof import('pg'),
  shardUrls: readonly string[],
  url: string | undefined,
  apply: boolean,
  foldCollation: string | undefined,
  advise: (foldCollation: string | undefined, table: string) => IndexAdvice,
): Promise<number> {
  const clients = shardUrls.map((connectionString) => new pg.Client({ connectionString }));
  const coordinator = apply ? new pg.Client({ connectionString: url }) : undefined;
  try {
    for (const [n, client] of clients.entries()) {
      await client.connect();
      const query: Runner = (sql, params) => client.query(sql, params);
      const tables = await shardTables(query);
      const where = `${client.host}:${client.port}/${client.database ?? ''}`;
      if (tables.length === 0)
        throw new Error(`shard ${n} (${where}) holds no "${EMPLOYEE_TABLE}_p<i>" table: run wepql db-seed --shards first`);
      const chosen = foldCollation ?? (await chooseFoldCollation(query)).foldCollation;
      for (const table of tables) {
        process.stdout.write(`-- shard ${n} (${where}): table "${table}"\n`);
        const advice = advise(chosen, table);
        if (!apply) print(advice);
        else {
          await createIndexes(advice, query, table);
          printSkipped(advice);
        }
      }
    }
    if (coordinator !== undefined) {
      await coordinator.connect();
      await coordinator.query(`ANALYZE "${EMPLOYEE_TABLE}"`);
      process.stdout.write(`ANALYZE "${EMPLOYEE_TABLE}";  -- on the coordinator: the foreign partitions' statistics\n`);
    }
    return 0;
  } catch (error) {
    process.stderr.write(`wepql db-index: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    for (const client of clients) await client.end().catch(() => {});
    await coordinator?.end().catch(() => {});
  }
}

/** The shard tables `wepql db-seed --shards` made on one shard (`employees_p<i>`), in partition order. */
async function shardTables(query: Runner): Promise<string[]> {
  const { rows } = await query(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname ~ $1`,
    [`^${EMPLOYEE_TABLE}_p[0-9]+$`],
  );
  const names = rows.map((r) => String((r as { name: unknown }).name));
  const index = (name: string) => Number(name.slice(name.lastIndexOf('_p') + 2));
  return names.filter((name) => shardTableName(EMPLOYEE_TABLE, index(name)) === name).sort((a, b) => index(a) - index(b));
}

/** Creates each index (after its prerequisite, such as an extension, once), timing each, then analyses the table. */
async function createIndexes(
  advice: IndexAdvice,
  query: (sql: string, params: unknown[]) => Promise<unknown>,
  table = EMPLOYEE_TABLE,
): Promise<void> {
  const prepared = new Set<string>();
  for (const index of advice.indexes) {
    if (index.prerequisite !== undefined && !prepared.has(index.prerequisite)) {
      await query(index.prerequisite, []);
      process.stdout.write(`${index.prerequisite};\n`);
      prepared.add(index.prerequisite);
    }
    const started = Date.now();
    await query(index.sql, []);
    process.stdout.write(`${index.sql};  -- ${index.serves}; ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  if (advice.counter !== undefined) {
    const started = Date.now();
    // One transaction: writers wait while the triggers go in and the counts are backfilled, so none is missed or counted twice.
    await query('BEGIN', []);
    try {
      for (const statement of advice.counter.statements) await query(statement, []);
      await query('COMMIT', []);
    } catch (error) {
      await query('ROLLBACK', []).catch(() => {});
      throw error;
    }
    const table = advice.counter.table.join('.');
    process.stdout.write(`-- counter table "${table}" with its triggers, backfilled in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  await query(`ANALYZE "${table}"`, []);
}

function print(advice: IndexAdvice): number {
  const prepared = new Set<string>();
  for (const index of advice.indexes) {
    if (index.prerequisite !== undefined && !prepared.has(index.prerequisite)) {
      process.stdout.write(`${index.prerequisite};\n`);
      prepared.add(index.prerequisite);
    }
    process.stdout.write(`-- serves ${index.serves}\n${index.sql};\n`);
  }
  if (advice.counter !== undefined) {
    process.stdout.write(`-- counter table "${advice.counter.table.join('.')}": unfiltered totals without COUNT(*)\nBEGIN;\n`);
    for (const statement of advice.counter.statements) process.stdout.write(`${statement};\n`);
    process.stdout.write('COMMIT;\n');
  }
  printSkipped(advice);
  return 0;
}

/** Conditions no index serves, as SQL comments on stdout (the output stays a runnable script). */
function printSkipped(advice: IndexAdvice): void {
  for (const { condition, reason } of advice.skipped) process.stdout.write(`-- not indexed: ${condition}: ${reason}\n`);
}
