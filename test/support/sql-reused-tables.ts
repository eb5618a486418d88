/**
 * An engine whose tables outlive a case: `loadTable` (sql-engines.ts) drops
 * and creates its table before every load, and a property that loads a
 * fresh table for each of hundreds of cases spent most of its time in that
 * DDL — catalog work in PGlite and sql.js, a tablespace file created and
 * deleted per case on MariaDB. Through `reusingTables(engine)`, a
 * `DROP TABLE IF EXISTS t` followed by a `CREATE TABLE t (…)` the same as
 * the one that made `t` becomes `DELETE FROM t`: the same empty table with
 * the same columns, the rows then inserted as before. Any other statement
 * passes through unchanged (a pending drop first), so a different
 * definition still drops and recreates.
 *
 * `startCaseEngine` adds the same for SQLite's rollback journal: sql.js
 * keeps its database in Emscripten's in-memory file system, and each
 * statement's transaction created, wrote and deleted a journal file there
 * (300 cases of drop, create, insert and select: 251 ms of CPU with the
 * file, 125 ms with the journal in memory). The journal in memory
 * (`journal_mode = MEMORY`) rolls back as the file did; queries answer the
 * same.
 */
import type { SqlEngine } from './sql-engines.js';

const DROP = /^DROP TABLE IF EXISTS (\S+)$/;
const CREATE = /^CREATE TABLE (\S+) \(/;

/**
 * Wraps `engine` so that loading a table of the same definition again
 * empties it instead of dropping and creating it.
 *
 * @example
 * const engine = reusingTables(await startPglite());
 * await loadTable(engine, schema, rowsA, { table: 'cases' }); // CREATE TABLE
 * await loadTable(engine, schema, rowsB, { table: 'cases' }); // DELETE FROM, then the INSERT
 */
function reusingTables<E extends SqlEngine>(engine: E): E {
  /** The CREATE statement that made each table this wrapper knows. */
  const made = new Map<string, string>();
  let pendingDrop: { readonly table: string; readonly sql: string } | undefined;
  const flush = async (): Promise<void> => {
    if (pendingDrop === undefined) return;
    const { table, sql } = pendingDrop;
    pendingDrop = undefined;
    made.delete(table);
    await engine.run(sql);
  };
  const run = async (sql: string, params: readonly unknown[] = []): Promise<void> => {
    const drop = params.length === 0 ? DROP.exec(sql) : null;
    if (drop !== null) {
      await flush();
      pendingDrop = { table: drop[1]!, sql };
      return;
    }
    const create = params.length === 0 ? CREATE.exec(sql) : null;
    if (create !== null && pendingDrop?.table === create[1] && made.get(create[1]!) === sql) {
      pendingDrop = undefined;
      await engine.run(`DELETE FROM ${create[1]!}`);
      return;
    }
    await flush();
    if (create !== null) made.set(create[1]!, sql);
    await engine.run(sql, params);
  };
  return {
    ...engine,
    run,
    async rows(sql: string, params: readonly unknown[] = []) {
      await flush();
      return engine.rows(sql, params);
    },
  };
}

/**
 * Starts an engine for a file of many small cases: tables reused
 * (`reusingTables`), and on sql.js the rollback journal kept in memory.
 *
 * @example
 * const engine = await startCaseEngine(startSqlJs);
 */
export async function startCaseEngine<E extends SqlEngine>(start: () => Promise<E>): Promise<E> {
  const engine = await start();
  if (engine.dialect === 'sqlite') await engine.run('PRAGMA journal_mode = MEMORY');
  return reusingTables(engine);
}
