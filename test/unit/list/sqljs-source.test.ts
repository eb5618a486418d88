/**
 * The list contract against SQLite (sql.js, in WebAssembly) through the SQL
 * data source with the `sqlite` dialect: the same source as PostgreSQL and
 * MariaDB, a third dialect and driver shape (rows returned directly).
 */
import { createSqlDataSource } from '../../../src/sources/sql-source.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { loadTable, startSqlJs } from '../../support/sql-engines.js';
import { describeListContract, employees, SCOPE } from './list-contract.js';

describeListContract(
  'sql.js through the SQL data source, records rebuilt from the columns',
  async () => {
    const engine = await startSqlJs();
    await loadTable(engine, employeeSchema, employees, { table: 'employees' });
    const source = createSqlDataSource({
      dialect: 'sqlite',
      run: (sql, params) => engine.rows(sql, params),
      table: 'employees',
      schema: employeeSchema,
      tieBreaker: 'Id',
      ...SCOPE,
    });
    return { source, close: () => engine.close() };
  },
  { rebuilt: true },
);
