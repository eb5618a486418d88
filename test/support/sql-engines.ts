/**
 * Real SQL engines in WebAssembly, in process, for the SQL compiler's tests:
 * PostgreSQL through PGlite and SQLite through sql.js. Each helper creates a
 * table from a Schema following the storage convention (docs/sql.md),
 * inserts records in order with a `wepql_row` column holding each record's
 * index, and runs a `toSql` fragment, returning the row indexes in order.
 */
import initSqlJs from 'sql.js';
import type { ColumnMap, SqlDialect, SqlFragment } from '../../src/sql/index.js';
import type { Schema } from '../../src/index.js';
import { quoteIdentifier, registerSqliteFunctions, sqlColumnType, toStoredValue } from '../../src/sql/index.js';
import { createPglite } from './sql-pglite.js';

/** The column holding each record's index in the inserted array. */
export const ROW_COLUMN = 'wepql_row';

/** A running engine. */
export interface SqlEngine {
  readonly dialect: SqlDialect;
  /** Runs one statement with parameters. */
  run(sql: string, params?: readonly unknown[]): Promise<void>;
  /** Runs one query with parameters and returns its rows as objects. */
  rows(sql: string, params?: readonly unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
  /** The engine's own handle (the PGlite instance, the sql.js Database), for drivers such as Drizzle's. */
  readonly native?: unknown;
}

/**
 * Starts PostgreSQL (PGlite, in WebAssembly) in memory.
 *
 * @example
 * const pg = await startPglite();
 * await pg.rows('SELECT 1 AS x'); // [{ x: 1 }]
 */
export async function startPglite(): Promise<SqlEngine> {
  // From the run's fresh data directory: PGlite's initdb is paid once per run, not per engine (sql-pglite.ts).
  const db = await createPglite();
  return {
    dialect: 'postgres',
    native: db,
    async run(sql, params = []) {
      await db.query(sql, [...params]);
    },
    async rows(sql, params = []) {
      const result = await db.query<Record<string, unknown>>(sql, [...params]);
      return result.rows;
    },
    async close() {
      await db.close();
    },
  };
}

/**
 * Starts SQLite (sql.js, in WebAssembly) in memory, with wepql's functions registered.
 *
 * @example
 * const lite = await startSqlJs();
 * await lite.rows("SELECT wepql_lower('ÄB') AS x"); // [{ x: 'äb' }]
 */
export async function startSqlJs(): Promise<SqlEngine> {
  const SQL = await initSqlJs();
  const db = new SQL.Database();
  registerSqliteFunctions(db);
  return {
    dialect: 'sqlite',
    native: db,
    async run(sql, params = []) {
      db.run(sql, params as initSqlJs.BindParams);
    },
    async rows(sql, params = []) {
      const statement = db.prepare(sql);
      try {
        statement.bind(params as initSqlJs.BindParams);
        const out: Record<string, unknown>[] = [];
        while (statement.step()) out.push(statement.getAsObject());
        return out;
      } finally {
        statement.free();
      }
    },
    async close() {
      db.close();
    },
  };
}

/** Reads a path through own properties of plain objects only, as docs/reference.md §"Filter semantics" does. */
function ownPath(record: unknown, path: readonly string[]): unknown {
  let here = record;
  for (const key of path) {
    if (here === null || typeof here !== 'object' || Array.isArray(here) || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

interface TableColumn {
  readonly name: string;
  readonly type: string;
  /** The stored value for one record. */
  readonly value: (record: unknown) => unknown;
}

function tableColumns(schema: Schema, dialect: SqlDialect, columns: ColumnMap = {}): TableColumn[] {
  const out: TableColumn[] = [];
  const json = new Map<string, { path: readonly string[]; field: readonly string[] }[]>();
  for (const field of schema.fields) {
    const mapping = Object.hasOwn(columns, field.name) ? columns[field.name]! : field.path.join('_');
    if (typeof mapping === 'object' && 'json' in mapping) {
      const list = json.get(mapping.json) ?? [];
      list.push({ path: mapping.path, field: field.path });
      json.set(mapping.json, list);
      continue;
    }
    const name = typeof mapping === 'string' ? mapping : mapping.column;
    out.push({
      name,
      type: sqlColumnType(field.type, dialect),
      value: (record) => toStoredValue(ownPath(record, field.path), field.type, dialect),
    });
  }
  // A JSON column holds the raw record values (not converted), so that the
  // compiler's JSON type checks are what makes a wrong-typed value null.
  for (const [name, entries] of json) {
    out.push({
      name,
      type: dialect === 'postgres' ? 'jsonb' : 'TEXT',
      value: (record) => {
        const doc: Record<string, unknown> = {};
        for (const { path, field } of entries) {
          const value = ownPath(record, field);
          if (value === undefined) continue;
          let here = doc;
          path.slice(0, -1).forEach((key) => {
            if (!Object.hasOwn(here, key)) here[key] = {};
            here = here[key] as Record<string, unknown>;
          });
          here[path[path.length - 1]!] = value;
        }
        return JSON.stringify(doc);
      },
    });
  }
  return out;
}

/**
 * Drops and creates `table` for the schema (one column per field by the
 * storage convention, JSON columns for `{ json, path }` mappings, plus
 * `wepql_row`), then inserts the records in order.
 *
 * @example
 * await loadTable(pg, employeeSchema, employees, { table: 'employees' });
 */
export async function loadTable(
  engine: SqlEngine,
  schema: Schema,
  records: readonly unknown[],
  options: { readonly table: string; readonly columns?: ColumnMap },
): Promise<void> {
  const q = (name: string) => quoteIdentifier(name, engine.dialect);
  const table = q(options.table);
  const columns = tableColumns(schema, engine.dialect, options.columns);
  await engine.run(`DROP TABLE IF EXISTS ${table}`);
  const definitions = [`${q(ROW_COLUMN)} INTEGER PRIMARY KEY`, ...columns.map((c) => `${q(c.name)} ${c.type}`)];
  await engine.run(`CREATE TABLE ${table} (${definitions.join(', ')})`);
  // Batches keep every statement far below both engines' parameter limits.
  for (let start = 0; start < records.length; start += 100) {
    const batch = records.slice(start, start + 100);
    const params: unknown[] = [];
    const rows = batch.map((record, i) => {
      const values = [start + i, ...columns.map((c) => c.value(record))];
      return `(${values
        .map((v) => {
          params.push(v);
          return engine.dialect === 'postgres' ? `$${params.length}` : '?';
        })
        .join(', ')})`;
    });
    const names = [q(ROW_COLUMN), ...columns.map((c) => q(c.name))].join(', ');
    await engine.run(`INSERT INTO ${table} (${names}) VALUES ${rows.join(', ')}`, params);
  }
}

/**
 * The full SELECT a fragment makes, for running and for failure reports.
 *
 * @example
 * selectSql('t', { where: '"Id" = ?', orderBy: '', params: [1] }, 'sqlite'); // 'SELECT "wepql_row" FROM "t" WHERE "Id" = ?'
 */
export function selectSql(table: string, fragment: SqlFragment, dialect: SqlDialect): string {
  return (
    `SELECT ${quoteIdentifier(ROW_COLUMN, dialect)} FROM ${quoteIdentifier(table, dialect)}` +
    (fragment.where === '' ? '' : ` WHERE ${fragment.where}`) +
    (fragment.orderBy === '' ? '' : ` ORDER BY ${fragment.orderBy}`)
  );
}

/**
 * Runs a fragment against `table` and returns the `wepql_row` of each row, in order.
 *
 * @example
 * await selectRows(pg, 'employees', toSql({ filter: 'Id.Equal(1)' }, { dialect: 'postgres', schema }));
 */
export async function selectRows(engine: SqlEngine, table: string, fragment: SqlFragment): Promise<number[]> {
  const rows = await engine.rows(selectSql(table, fragment, engine.dialect), fragment.params);
  return rows.map((r) => Number(r[ROW_COLUMN]));
}
