/**
 * The per-client counter table on MySQL and MariaDB: row triggers only (the engine has no statement
 * triggers), installed under `LOCK TABLES` instead of a transaction.
 */
import type { CounterSql, CounterTableDdl } from '../dialect.js';

/**
 * MySQL/MariaDB: row triggers only (it has no statement triggers), installed under `LOCK TABLES` instead of a transaction.
 *
 * @example
 * mysqlCounterDdl(pieces).statements[0]; // the CREATE TABLE of the counter
 */
export function mysqlCounterDdl(sql: CounterSql): CounterTableDdl {
  const { table, counterParts, counter, base, qualified, client, deleted, isDeleted, c } = sql;
  const trigger = (what: string) => qualified(`${base}_${what}`);
  const slot = `CONNECTION_ID() % ${sql.slots}`;
  const add = (row: 'OLD' | 'NEW', n: string) =>
    `IF ${row}.${client} IS NOT NULL THEN INSERT INTO ${counter} (${c}, \`deleted\`, \`slot\`, \`n\`) ` +
    `VALUES (${row}.${client}, ${isDeleted(`${row}.`)}, ${slot}, ${n}) ON DUPLICATE KEY UPDATE \`n\` = \`n\` + (${n}); END IF;`;
  const scopeChanged =
    `NOT (OLD.${client} <=> NEW.${client})` + (deleted === undefined ? '' : ` OR ${isDeleted('OLD.')} <> ${isDeleted('NEW.')}`);
  return {
    table: counterParts,
    transaction: false,
    triggers: ['insert', 'delete', 'update'].map((what) => `${base}_${what}`),
    statements: [
      sql.create,
      // Writers wait from here to UNLOCK TABLES: the triggers and the backfill see the same rows.
      `LOCK TABLES ${table} WRITE, ${counter} WRITE`,
      ...['insert', 'delete', 'update'].map((what) => `DROP TRIGGER IF EXISTS ${trigger(what)}`),
      `CREATE TRIGGER ${trigger('insert')} AFTER INSERT ON ${table} FOR EACH ROW BEGIN ${add('NEW', '1')} END`,
      `CREATE TRIGGER ${trigger('delete')} AFTER DELETE ON ${table} FOR EACH ROW BEGIN ${add('OLD', '-1')} END`,
      `CREATE TRIGGER ${trigger('update')} AFTER UPDATE ON ${table} FOR EACH ROW BEGIN IF ${scopeChanged} THEN ${add('OLD', '-1')} ${add('NEW', '1')} END IF; END`,
      `DELETE FROM ${counter}`,
      sql.backfill,
      'UNLOCK TABLES',
    ],
  };
}
