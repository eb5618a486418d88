/**
 * The SQL source compiles a filter with its scope once per filter object and scope, then joins each
 * statement's seek and order to it: every statement it sends must be the one a single `toSql` call
 * over the whole query writes (the uncached path), text and parameters, whatever filters, scopes,
 * sorts and seek keys come in which order, on PostgreSQL and MySQL.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { createSqlDataSource } from '../../src/sources/sql-source.js';
import type { DataQuery } from '../../src/list/data-source.js';
import { scopeClauses, withClauses } from '../../src/list/data-source.js';
import { analyzeListQuery } from '../../src/list/request.js';
import { toSql } from '../../src/sql/to-sql.js';
import type { Seek } from '../../src/sql/seek.js';

const SCOPE = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } } as const;
const FILTERS = [
  '',
  'LastName.StartsWith(sm)',
  'Gender.Equal(1)',
  'Gender.In(1,2)',
  'CreatedOn.GreaterThan(2000-01-01)',
  '(FirstName.Contains(an)|LastName.EndsWith(son)),EmployeeNumber.LessThan(100)',
];
const SORTS = ['', 'LastName=Asc', 'CreatedOn=Desc', 'LastName=Desc,FirstName=Asc'];

describe.each(['postgres', 'mysql'] as const)('SQL source statements on %s', (dialect) => {
  it('equal the statement one toSql call writes for the whole query', async () => {
    const sent: { sql: string; params: unknown[] }[] = [];
    const options = { dialect, table: 'employees', schema: employeeSchema, tieBreaker: 'Id', recordColumn: 'Record', ...SCOPE };
    // One long-lived source: its compiled filters are reused across the runs, in any order.
    const source = createSqlDataSource({ ...options, run: async (sql, params) => (sent.push({ sql, params }), { rows: [] }) });
    // A value per key of either type (text, epoch milliseconds), or NULL; each sort key takes the one its field reads.
    const key = fc.tuple(fc.option(fc.string({ maxLength: 6 })), fc.option(fc.integer({ min: -5, max: 5 })));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...FILTERS),
        fc.constantFrom(...SORTS),
        fc.constantFrom<string | number>(1, 2, '7', 'x'),
        fc.boolean(),
        fc.constantFrom('after', 'before', 'none'),
        fc.array(key, { minLength: 3, maxLength: 3 }),
        fc.integer({ min: 1, max: 50 }),
        async (filterText, sortText, clientId, includeDeleted, direction, values, limit) => {
          const analyzed = analyzeListQuery(filterText, sortText, { schema: employeeSchema });
          const q: DataQuery = { filter: analyzed.filter, sort: analyzed.sort, includeDeleted, clientId, cacheKey: '' };
          const sortKeys = analyzed.sort?.keys ?? [];
          const seekKey = [...sortKeys.map((k, i) => values[i]![k.field.type === 'string' ? 0 : 1]), 5];
          const seek: Seek | undefined =
            direction === 'after' ? { after: seekKey } : direction === 'before' ? { before: seekKey } : undefined;
          sent.length = 0;
          await source.keyedPage!(q, { offset: 0, limit, ...(seek ?? {}) });
          const scope = scopeClauses(employeeSchema, SCOPE, q);
          if (scope.none) {
            expect(sent).toEqual([]);
            return;
          }
          // Only the first statement: a walk towards NULL first keys may read a second one (its NULL rows).
          const firstKey = seek !== undefined && sent.length > 1 ? { firstKey: 'not-null' as const } : {};
          const filter = withClauses(q.filter, scope.clauses);
          const whole = toSql(
            {
              ...(filter === undefined ? {} : { filter }),
              ...(q.sort === undefined ? {} : { sort: q.sort }),
              ...(seek === undefined ? {} : { seek: { ...seek, ...firstKey } }),
            },
            { ...options, dialect },
          );
          const statement = sent[0]!;
          const tail = statement.sql.slice(statement.sql.indexOf(' FROM '));
          const placeholder = (n: number) => (dialect === 'postgres' ? `$${whole.params.length + n}` : '?');
          // A first page (no seek) has an OFFSET too.
          const offset = seek === undefined ? ` OFFSET ${placeholder(2)}` : '';
          const expected = ` FROM \`employees\` WHERE ${whole.where}${whole.orderBy ? ` ORDER BY ${whole.orderBy}` : ''} LIMIT ${placeholder(1)}${offset}`;
          expect(tail).toBe(dialect === 'postgres' ? expected.replace('`employees`', '"employees"') : expected);
          expect(statement.params.slice(0, whole.params.length)).toEqual(whole.params);
          // The count: the scoped filter without order, compiled once and reused.
          sent.length = 0;
          await source.count(q);
          const counted = toSql(filter === undefined ? {} : { filter }, { ...options, dialect });
          expect(sent.map((s) => [s.sql.slice(s.sql.indexOf(' WHERE ') + 7), s.params])).toEqual([[counted.where, counted.params]]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
