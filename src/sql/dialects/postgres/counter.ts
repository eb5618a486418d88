/**
 * The per-client counter table on PostgreSQL: statement triggers count inserts and deletes
 * once per statement from their transition tables, a row trigger counts
 * scope changes, and the whole is installed in one transaction.
 */
import type { CounterSql, CounterTableDdl } from '../dialect.js';

/**
 * PostgreSQL: statement triggers on transition tables for inserts and deletes, a row trigger for scope changes, all in one transaction.
 *
 * @example
 * postgresCounterDdl(pieces).statements[0]; // the CREATE TABLE of the counter
 */
export function postgresCounterDdl(sql: CounterSql): CounterTableDdl {
  const { quote, table, counterParts, counter, base, qualified, client, deleted, isDeleted, c } = sql;
  const triggerName = (what: string) => quote(`${base}_${what}`);
  const fn = qualified(`${base}_count`);
  const slot = `pg_backend_pid() % ${sql.slots}`;
  const upsert = (select: string) =>
    `INSERT INTO ${counter} AS wepql_c (${c}, "deleted", "slot", "n") ${select} ` +
    `ON CONFLICT (${c}, "deleted", "slot") DO UPDATE SET "n" = wepql_c."n" + EXCLUDED."n";`;
  const grouped = (rows: string, sign: string) =>
    upsert(
      `SELECT ${client}, ${isDeleted('')}, ${slot}, ${sign}COUNT(*) FROM ${rows} WHERE ${client} IS NOT NULL GROUP BY ${client}, ${isDeleted('')}`,
    );
  const one = (row: 'OLD' | 'NEW', n: string) =>
    `IF ${row}.${client} IS NOT NULL THEN ${upsert(`VALUES (${row}.${client}, ${isDeleted(`${row}.`)}, ${slot}, ${n})`)} END IF;`;
  const body = [
    `IF TG_OP = 'INSERT' THEN ${grouped('wepql_new', '')}`,
    `ELSIF TG_OP = 'DELETE' THEN ${grouped('wepql_old', '-')}`,
    `ELSIF TG_OP = 'UPDATE' THEN ${one('OLD', '-1')} ${one('NEW', '1')}`,
    `ELSE DELETE FROM ${counter};`,
    'END IF; RETURN NULL;',
  ].join(' ');
  const scopeChanged =
    `OLD.${client} IS DISTINCT FROM NEW.${client}` +
    (deleted === undefined ? '' : ` OR ${isDeleted('OLD.')} IS DISTINCT FROM ${isDeleted('NEW.')}`);
  const columns = [client, ...(deleted === undefined ? [] : [deleted.column])].join(', ');
  return {
    table: counterParts,
    transaction: true,
    triggers: ['insert', 'delete', 'update', 'truncate'].map((what) => `${base}_${what}`),
    statements: [
      sql.create,
      // Writers wait from here to COMMIT: the triggers and the backfill see the same rows.
      `LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`,
      `CREATE OR REPLACE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $wepql$ BEGIN ${body} END $wepql$`,
      ...['insert', 'delete', 'update', 'truncate'].map((what) => `DROP TRIGGER IF EXISTS ${triggerName(what)} ON ${table}`),
      `CREATE TRIGGER ${triggerName('insert')} AFTER INSERT ON ${table} REFERENCING NEW TABLE AS wepql_new FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('delete')} AFTER DELETE ON ${table} REFERENCING OLD TABLE AS wepql_old FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('update')} AFTER UPDATE OF ${columns} ON ${table} FOR EACH ROW WHEN (${scopeChanged}) EXECUTE FUNCTION ${fn}()`,
      `CREATE TRIGGER ${triggerName('truncate')} AFTER TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      `DELETE FROM ${counter}`,
      sql.backfill,
    ],
  };
}
