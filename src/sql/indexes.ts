/**
 * The index advisor: the `CREATE INDEX` statements that let a database
 * serve a list's sorts and filters from a b-tree, written with exactly the
 * expressions `toSql` emits (both take them from `orderKeys` and
 * `comparedExpression`), so an advised index always matches the query.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import type { ConditionFacts } from '../ast/operator-facts.js';
import { operatorFacts } from '../ast/operator-facts.js';
import type { FilterOperator } from '../ast/operators.js';
import { baseOperatorOfInFields } from '../ast/operators.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import type { TypedFilter, TypedFilterNode, TypedSort } from '../validate/typed-tree.js';
import { comparedExpression, orderKeys, type CompileContext } from './compile.js';
import { quoteIdentifier } from './dialect.js';
import { sqlError } from './errors.js';
import { compileContext, typedFilterOf, typedSortOf, type ToSqlOptions } from './to-sql.js';

/**
 * Options of `indexesFor`: those of `toSql` that shape expressions, plus
 * the table, the list's scope and the sorts and filters to serve.
 *
 * @example
 * const options: IndexAdvisorOptions = { dialect: 'postgres', table: 'employees', clientField: 'ClientId', tieBreaker: 'Id',
 *   foldCollation: 'wepql_fold', sorts: ['LastName=Asc'], filters: ['LastName.StartsWith(Sm)', 'Gender.Equal(1)'] };
 */
export interface IndexAdvisorOptions
  extends Pick<ToSqlOptions, 'dialect' | 'columns' | 'caseSensitive' | 'foldCollation' | 'tieBreaker' | 'limits'> {
  /** The table, optionally schema-qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  /** Sorts the list is read in (each served by one index on its keys and the tie-breaker). */
  readonly sorts?: readonly (string | SortAst | TypedSort)[];
  /** Filters the list is read with (each indexable condition gets an index). */
  readonly filters?: readonly (string | FilterAst | TypedFilter)[];
  /** The field every query is scoped by (for employees, `ClientId`); it leads every index. */
  readonly clientField?: string;
  /** PostgreSQL: `CREATE INDEX CONCURRENTLY`, which does not block writes (and cannot run inside a transaction). */
  readonly concurrently?: boolean;
}

/**
 * One advised index.
 *
 * @example
 * const index: AdvisedIndex = { name: 'employees_wepql_1a2b3c4d', sql: 'CREATE INDEX …', serves: 'sort LastName=Asc' };
 */
export interface AdvisedIndex {
  readonly name: string;
  /** The `CREATE INDEX IF NOT EXISTS` statement. */
  readonly sql: string;
  /** What it is for: the sort, or the filter condition. */
  readonly serves: string;
}

/** One column of an index: expression, then order and operator class. */
interface IndexColumn {
  readonly expr: string;
  readonly suffix: string;
}

/**
 * Advises indexes: for each sort, one on (client field, the sort's keys with
 * their directions and NULLS placement, tie-breaker), which serves the
 * sorted first page, every seek page in both directions and a filter on the
 * leading key; for each condition of each filter that a b-tree can serve
 * (Equal, ranges, InArray, IsNull, and on PostgreSQL StartsWith through
 * `text_pattern_ops`), one on (client field, the compared expression).
 * Contains and EndsWith get none (no b-tree helps). Duplicates are merged.
 * Throws `WepqlError` for invalid options, sorts or filters, like `toSql`.
 *
 * @example
 * indexesFor(employeeSchema, { dialect: 'postgres', table: 'employees', clientField: 'ClientId', tieBreaker: 'Id',
 *   sorts: ['LastName=Asc'], filters: ['LastName.StartsWith(Sm)'] }).map((i) => i.sql);
 * // CREATE INDEX IF NOT EXISTS "employees_wepql_…" ON "employees" ("ClientId", lower("LastName" COLLATE "pg_unicode_fast") ASC NULLS FIRST, "Id" ASC)
 * // CREATE INDEX IF NOT EXISTS "employees_wepql_…" ON "employees" ("ClientId", lower("LastName" COLLATE "pg_unicode_fast") text_pattern_ops)
 */
export function indexesFor(schema: Schema, options: IndexAdvisorOptions): readonly AdvisedIndex[] {
  const context = compileContext({ ...options, schema });
  const tableParts = typeof options.table === 'string' ? [options.table] : options.table;
  if (!Array.isArray(tableParts) || tableParts.length === 0) sqlError('invalid-sql-option', 'table must be a name or a list of names');
  const table = tableParts.map((p) => quoteIdentifier(p, context.dialect)).join('.');
  const lead: IndexColumn[] = [];
  if (options.clientField !== undefined) {
    const hit = schema.lookup(options.clientField);
    if (hit.found !== 'field') sqlError('unknown-field', `clientField: the schema has no scalar field ${JSON.stringify(options.clientField)}`);
    lead.push({ expr: comparedExpression(hit.field, context), suffix: '' });
  }
  const advised = new Map<string, { columns: IndexColumn[]; serves: string[] }>();
  const add = (columns: IndexColumn[], serves: string) => {
    const all = [...lead, ...columns];
    const key = all.map((c) => c.expr + c.suffix).join(', ');
    const entry = advised.get(key);
    if (entry === undefined) advised.set(key, { columns: all, serves: [serves] });
    else if (!entry.serves.includes(serves)) entry.serves.push(serves);
  };

  for (const input of options.sorts ?? []) {
    const sort = typedSortOf(input, schema, context.limits);
    const keys = orderKeys(sort, context, options.tieBreaker);
    if (keys.length === 0) continue;
    add(
      keys.map((k) => ({ expr: k.expr, suffix: orderSuffix(k.direction, k.field !== undefined, context) })),
      `sort ${sort?.keys.map((k) => `${k.field.name}=${k.direction}`).join(';') || '(none)'}`,
    );
  }
  if ((options.sorts ?? []).length === 0 && options.tieBreaker !== undefined && lead.length > 0) {
    // Unsorted lists order by the tie-breaker alone.
    add([{ expr: quoteIdentifier(options.tieBreaker, context.dialect), suffix: '' }], 'no sort');
  }
  for (const input of options.filters ?? []) {
    const filter = typedFilterOf(input, schema, context.limits);
    for (const { field, operator, facts } of conditions(filter?.clauses ?? [])) {
      const column = conditionColumn(field, facts, context);
      if (column !== undefined) add([column], `${field.name}.${operator}`);
    }
  }

  const tableName = tableParts[tableParts.length - 1]!;
  return [...advised.values()].map(({ columns, serves }) => {
    const list = columns.map((c) => c.expr + c.suffix).join(', ');
    const name = indexName(tableName, list);
    const concurrently = options.concurrently === true && context.dialect === 'postgres' ? 'CONCURRENTLY ' : '';
    return {
      name,
      sql: `CREATE INDEX ${concurrently}IF NOT EXISTS ${quoteIdentifier(name, context.dialect)} ON ${table} (${list})`,
      serves: serves.join(', '),
    };
  });
}

function orderSuffix(direction: 'Asc' | 'Desc', nullable: boolean, context: CompileContext): string {
  // SQLite and MySQL indexes have no NULLS clause; their NULLs are smallest, which is NULLS FIRST under ASC, LAST under DESC.
  if (!nullable || context.dialect !== 'postgres') return direction === 'Asc' ? ' ASC' : ' DESC';
  return direction === 'Asc' ? ' ASC NULLS FIRST' : ' DESC NULLS LAST';
}

/** Every field condition of a filter, groups and InFields flattened (an InFields operator's facts are its base's). */
function* conditions(nodes: readonly TypedFilterNode[]): Generator<{ field: ResolvedField; operator: FilterOperator; facts: ConditionFacts }> {
  for (const node of nodes) {
    if (node.kind === 'group') yield* conditions(node.children);
    else if (node.kind === 'in-fields') {
      const operator = baseOperatorOfInFields(node.operator);
      for (const field of node.fields) yield { field, operator, facts: operatorFacts(operator) };
    } else yield { field: node.field, operator: node.operator, facts: operatorFacts(node.operator) };
  }
}

/** What a b-tree on the column serves: comparisons, null checks and positive lists (a prefix only under a pattern opclass). */
function btreeServes(facts: ConditionFacts): 'plain' | 'prefix' | undefined {
  switch (facts.test.kind) {
    case 'compare':
    case 'present':
      return 'plain';
    case 'member':
      return facts.negated ? undefined : 'plain';
    case 'text':
      return facts.test.position === 'starts' && !facts.negated ? 'prefix' : undefined;
  }
}

function conditionColumn(field: ResolvedField, facts: ConditionFacts, context: CompileContext): IndexColumn | undefined {
  const hit = context.schema.lookup(field.name);
  if (hit.found !== 'field') return undefined;
  const expr = comparedExpression(hit.field, context);
  const serves = btreeServes(facts);
  if (serves === 'prefix') {
    // LIKE 'prefix%' uses a b-tree only under the "C" collation or with text_pattern_ops.
    if (context.dialect !== 'postgres') return undefined;
    return { expr, suffix: context.caseSensitive ? '' : ' text_pattern_ops' };
  }
  return serves === 'plain' ? { expr, suffix: '' } : undefined;
}

/** `<table>_wepql_<hash>`: stable for the same columns, within PostgreSQL's 63 bytes. */
function indexName(table: string, columns: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < columns.length; i++) h = Math.imul(h ^ columns.charCodeAt(i), 0x01000193);
  const hash = (h >>> 0).toString(16).padStart(8, '0');
  const prefix = Array.from(table.replace(/[^A-Za-z0-9_]/g, '_')).slice(0, 40).join('');
  return `${prefix}_wepql_${hash}`;
}
