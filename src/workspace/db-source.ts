/**
 * Saved filters that live in a PostgreSQL table: `wepql lint --database-url
 * URL --table saved_views --column filter [--id-column id]` reads every row,
 * and `--fix` writes fixed texts back, one row at a time, only where the row
 * still holds the text that was read. Identifiers are quoted, values bound.
 */
import type { DatabaseSource } from './config.js';
import { UsageError } from './usage-error.js';

/**
 * One saved filter or sort read from a row.
 *
 * @example
 * const row: DatabaseEntry = { id: '17', kind: 'filter', column: 'filter', text: 'Gender.Equal(1)' };
 */
export interface DatabaseEntry {
  readonly id: string;
  readonly kind: 'filter' | 'sort';
  readonly column: string;
  readonly text: string;
}

/** `a.b` → `"a"."b"`, doubling quotes: the table and columns are identifiers, never spliced as text. */
function quoteIdentifier(name: string): string {
  return name
    .split('.')
    .map((part) => `"${part.replace(/"/g, '""')}"`)
    .join('.');
}

type Client = {
  connect(): Promise<unknown>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number | null }>;
  end(): Promise<void>;
};

async function connect(url: string): Promise<Client> {
  let pg: { Client: new (options: { connectionString: string }) => Client };
  try {
    pg = (await import('pg')).default as unknown as typeof pg;
  } catch {
    throw new UsageError('reading saved filters from a database needs the "pg" package (npm install pg)');
  }
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
  } catch (e) {
    throw new UsageError(`cannot connect to the database: ${(e as Error).message}`);
  }
  return client;
}

/**
 * Reads every non-null filter (and sort) of the table, ordered by id.
 * Throws `UsageError` when the database, table or columns cannot be read.
 *
 * @example
 * await readDatabaseEntries({ url, table: 'saved_views', column: 'filter' });
 */
export async function readDatabaseEntries(source: DatabaseSource): Promise<DatabaseEntry[]> {
  const client = await connect(source.url);
  const id = source.idColumn ?? 'id';
  const columns = [
    ...(source.column === undefined ? [] : [{ kind: 'filter' as const, column: source.column }]),
    ...(source.sortColumn === undefined ? [] : [{ kind: 'sort' as const, column: source.sortColumn }]),
  ];
  try {
    const select = columns.map((c, i) => `${quoteIdentifier(c.column)}::text AS c${i}`).join(', ');
    const result = await client.query(
      `SELECT ${quoteIdentifier(id)}::text AS id, ${select} FROM ${quoteIdentifier(source.table)} ORDER BY ${quoteIdentifier(id)}`,
    );
    const out: DatabaseEntry[] = [];
    for (const row of result.rows) {
      columns.forEach((c, i) => {
        const text = row[`c${i}`];
        if (typeof text === 'string') out.push({ id: String(row.id), kind: c.kind, column: c.column, text });
      });
    }
    return out;
  } catch (e) {
    throw new UsageError(`cannot read ${source.table}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Writes fixed texts back; a row whose text changed since it was read is
 * left alone. Resolves to the number of rows updated.
 *
 * @example
 * await writeDatabaseFixes(source, [{ entry, text: 'LastName.Equal(Smith)' }]);
 */
export async function writeDatabaseFixes(
  source: DatabaseSource,
  fixes: readonly { readonly entry: DatabaseEntry; readonly text: string }[],
): Promise<number> {
  if (fixes.length === 0) return 0;
  const client = await connect(source.url);
  const id = quoteIdentifier(source.idColumn ?? 'id');
  let updated = 0;
  try {
    for (const { entry, text } of fixes) {
      const column = quoteIdentifier(entry.column);
      const r = await client.query(
        `UPDATE ${quoteIdentifier(source.table)} SET ${column} = $1 WHERE ${id}::text = $2 AND ${column}::text = $3`,
        [text, entry.id, entry.text],
      );
      updated += r.rowCount ?? 0;
    }
    return updated;
  } catch (e) {
    throw new UsageError(`cannot write to ${source.table}: ${(e as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
