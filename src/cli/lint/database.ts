/**
 * `wepql lint` over a database table: which table the run may read (the
 * flags, or the config's `database` only with `--allow-database`), and its
 * rows as items to lint. The driver loads only when a table is read.
 */
import { CONFIG_FILE, type DatabaseSource, type LintConfig } from '../../workspace/config.js';
import type { SavedEntry } from '../../workspace/saved-filters.js';
import { UsageError } from '../../workspace/usage-error.js';
import type { ParsedArgs } from '../args.js';
import type { Item } from './items.js';

/**
 * The table a run reads: from `--table`/`--column`/… (with `--database-url`
 * or `DATABASE_URL`), else the config's `database` when no operands are given.
 *
 * @example
 * databaseSource(args, config); // { url, table: 'employee_views', column: 'filter' }
 */
export function databaseSource(args: ParsedArgs, config: LintConfig): DatabaseSource | undefined {
  const flags = ['--database-url', '--table', '--column', '--sort-column', '--id-column'].filter((f) => args.values.has(f));
  if (flags.length === 0) return args.positionals.length === 0 ? configDatabase(args, config) : undefined;
  const table = args.values.get('--table');
  if (table === undefined) throw new UsageError(`${flags[0]} needs --table, the table holding saved filters`);
  const column = args.values.get('--column');
  const sortColumn = args.values.get('--sort-column');
  if (column === undefined && sortColumn === undefined) throw new UsageError('--table needs --column (and/or --sort-column)');
  const url = args.values.get('--database-url') ?? process.env.DATABASE_URL;
  if (url === undefined || url === '') throw new UsageError('give --database-url URL or set DATABASE_URL');
  const idColumn = args.values.get('--id-column');
  return {
    url,
    table,
    ...(column === undefined ? {} : { column }),
    ...(sortColumn === undefined ? {} : { sortColumn }),
    ...(idColumn === undefined ? {} : { idColumn }),
  };
}

/**
 * The config's `database`, only when the command line says `--allow-database`:
 * a config comes with the repository, and a cloned repository's config must
 * not read (and print) any table of the environment's database, nor send its
 * credentials to a host of the config's choosing.
 */
function configDatabase(args: ParsedArgs, config: LintConfig): DatabaseSource | undefined {
  const db = config.database;
  if (db === undefined || args.switches.has('--allow-database')) return db;
  throw new UsageError(
    `config ${config.file ?? CONFIG_FILE}: "database" asks to read table ${JSON.stringify(db.table)} of ${databaseHost(db.url)}; ` +
      'a config alone never reads a database: pass --allow-database to read it (and to write fixes with --fix), ' +
      'or name the table yourself with --table/--column',
  );
}

/** Where a URL points, without its credentials, for messages. */
function databaseHost(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return hostname === '' ? 'the database named by the URL' : `the database at ${hostname}${port === '' ? '' : `:${port}`}`;
  } catch {
    return 'the database named by the URL';
  }
}

/**
 * Reads the table's rows into `items`, each labelled `table#id.column`;
 * resolves to the number of rows.
 *
 * @example
 * const rows = await readRows(database, items);
 */
export async function readRows(database: DatabaseSource, items: Item[]): Promise<number> {
  const { readDatabaseEntries } = await import('../../workspace/db-source.js');
  const entries = await readDatabaseEntries(database);
  for (const e of entries) {
    const entry: SavedEntry = { kind: e.kind, text: e.text, line: 1, column: 1, range: { start: 0, end: e.text.length }, encoding: 'raw' };
    items.push({ label: `${database.table}#${e.id}.${e.column}`, entry, row: { id: e.id, column: e.column } });
  }
  return new Set(entries.map((e) => e.id)).size;
}

/**
 * Writes `--fix`'s rewrites of table rows back to the table.
 *
 * @example
 * await writeRowFixes(database, outcome.rowFixes);
 */
export async function writeRowFixes(database: DatabaseSource, fixes: readonly RowFix[]): Promise<void> {
  if (fixes.length === 0) return;
  const { writeDatabaseFixes } = await import('../../workspace/db-source.js');
  await writeDatabaseFixes(database, fixes);
}

/**
 * A row's text and what `--fix` makes of it.
 *
 * @example
 * const fix: RowFix = { entry: { id: '7', kind: 'filter', column: 'filter', text: 'gender.equal(1)' }, text: 'Gender.Equal(1)' };
 */
export interface RowFix {
  readonly entry: { readonly id: string; readonly kind: 'filter' | 'sort'; readonly column: string; readonly text: string };
  readonly text: string;
}
