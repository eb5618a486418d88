/**
 * The index advisor: the `CREATE INDEX` statements that let a database
 * serve a list's sorts and filters from a b-tree, written with exactly the
 * expressions `toSql` emits (both take them from `orderKeys` and
 * `comparedExpression`), so an advised index always matches the query.
 */
import type { FilterAst, SortAst } from '../ast/nodes.js';
import { OPERATORS, type FilterOperator } from '../ast/operators.js';
import { conditionsOf } from '../ast/fold.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import type { TypedFilter, TypedSort } from '../ast/typed-tree.js';
import { fieldExpression } from './columns.js';
import { comparedExpression, orderKeys, type CompileContext } from './compile.js';
import type { Dialect } from './dialects/dialect.js';
import { counterTableDdl, type CounterTableDdl } from './counts.js';
import { sqlError } from './errors.js';
import { compileContext, typedFilterOf, typedSortOf, type ToSqlOptions } from './to-sql.js';

/**
 * Options of `indexesFor`: those of `toSql` that shape expressions, plus
 * the table, the list's scope and the sorts and filters to serve.
 *
 * @example
 * const options: IndexAdvisorOptions = { dialect: 'postgres', table: 'employees', clientField: 'ClientId', tieBreaker: 'Id',
 *   foldCollation: 'wepql_fold', sorts: ['LastName=Asc'], filters: ['LastName.StartsWith(Sm)', 'Gender.Equal(1)'],
 *   include: ['RowStatus'], trigram: true };
 */
export interface IndexAdvisorOptions extends Pick<
  ToSqlOptions,
  'dialect' | 'columns' | 'caseSensitive' | 'foldCollation' | 'foldedColumns' | 'tieBreaker' | 'limits'
> {
  /** The table, optionally schema-qualified as `['payroll', 'employees']`. */
  readonly table: string | readonly string[];
  /** Sorts the list is read in (each served by one index on its keys and the tie-breaker; the default order, by the tie-breaker alone, always gets one too when `clientField` and `tieBreaker` are given). */
  readonly sorts?: readonly (string | SortAst | TypedSort)[];
  /** Filters the list is read with (each indexable condition gets an index, or joins a sort's). */
  readonly filters?: readonly (string | FilterAst | TypedFilter)[];
  /** The field every query is scoped by (for employees, `ClientId`); it leads every index. */
  readonly clientField?: string;
  /**
   * PostgreSQL: fields every query tests besides the client field — the
   * soft-delete marker (for employees, `RowStatus`). Stored in every b-tree
   * with `INCLUDE`, together with the columns the sort keys fold, so that
   * `COUNT(*)` and the key-only subquery of a page jump are index-only
   * scans (after `VACUUM`). Fields stored in JSON columns cannot be included.
   */
  readonly include?: readonly string[];
  /**
   * PostgreSQL: serve `Contains` and `EndsWith` (which no b-tree can) with a
   * GIN trigram index on the compared expression; the `pg_trgm` extension
   * (a contrib module shipped with PostgreSQL) is created first.
   */
  readonly trigram?: boolean;
  /** PostgreSQL: `CREATE INDEX CONCURRENTLY`, which does not block writes (and cannot run inside a transaction). */
  readonly concurrently?: boolean;
  /**
   * Also advise the per-client counter table and its triggers (`IndexAdvice.counter`, see
   * `counterTableDdl`): the unfiltered first page's total is then read from a few rows. Needs
   * `clientField`; give `deleted` as the data source has it.
   */
  readonly counts?: boolean;
  /** The soft-delete marker the data source hides (for employees, `RowStatus` = 3); the counter counts deleted rows apart. */
  readonly deleted?: { readonly field: string; readonly value: string | number | boolean };
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
  /** A statement to run once before `sql` (`CREATE EXTENSION IF NOT EXISTS pg_trgm` for trigram indexes). */
  readonly prerequisite?: string;
}

/**
 * A filter condition no advised index serves, and why.
 *
 * @example
 * const skipped: SkippedCondition = { condition: 'LastName.Contains', reason: 'a b-tree cannot find a substring; …' };
 */
export interface SkippedCondition {
  readonly condition: string;
  readonly reason: string;
}

/**
 * What `adviseIndexes` returns: the indexes, and the conditions left unserved.
 *
 * @example
 * const { indexes, skipped }: IndexAdvice = adviseIndexes(employeeSchema, options);
 */
export interface IndexAdvice {
  readonly indexes: readonly AdvisedIndex[];
  readonly skipped: readonly SkippedCondition[];
  /** With `counts`: the counter table and the statements that install it. */
  readonly counter?: CounterTableDdl;
}

/** One column of an index: expression, then order and operator class. */
interface IndexColumn {
  readonly expr: string;
  readonly suffix: string;
}

interface Planned {
  readonly columns: IndexColumn[];
  readonly serves: string[];
  readonly method: 'btree' | 'trigram';
  /** A sort's index, which also INCLUDEs the columns its keys fold. */
  readonly sort: boolean;
}

/**
 * Advises indexes: for the default order (no sort), one on (client field,
 * tie-breaker), always, since every list is read unsorted first; for each
 * sort, one on (client field, the sort's keys with
 * their directions and NULLS placement, tie-breaker), which serves the
 * sorted first page, every seek page in both directions, a page jump's
 * key-only subquery, and any Equal, range or StartsWith on the sort's first
 * key (`toSql` writes StartsWith as a range too); for each other condition
 * a b-tree can serve (Equal, ranges, InArray, IsNull, StartsWith), one on
 * (client field, the compared expression); with `trigram`, a GIN trigram
 * index for Contains and EndsWith (PostgreSQL). Conditions no index helps
 * (negations, substrings without `trigram`) are not silently dropped:
 * `indexesFor` returns only the indexes, `adviseIndexes` lists them too.
 * Duplicates are merged. Throws `WepqlError` for invalid options, sorts or
 * filters, like `toSql`.
 *
 * @example
 * indexesFor(employeeSchema, { dialect: 'postgres', table: 'employees', clientField: 'ClientId', tieBreaker: 'Id',
 *   sorts: ['LastName=Asc'], filters: ['LastName.StartsWith(Sm)'] }).map((i) => i.sql);
 * // CREATE INDEX IF NOT EXISTS "employees_wepql_…" ON "employees" ("ClientId", lower("LastName" COLLATE "pg_unicode_fast") ASC NULLS FIRST, "Id" ASC)
 */
export function indexesFor(schema: Schema, options: IndexAdvisorOptions): readonly AdvisedIndex[] {
  return adviseIndexes(schema, options).indexes;
}

/**
 * `indexesFor`, plus the filter conditions no advised index serves and why
 * (`wepql db-index` prints them).
 *
 * @example
 * adviseIndexes(employeeSchema, { dialect: 'postgres', table: 'employees', clientField: 'ClientId', tieBreaker: 'Id',
 *   filters: ['LastName.Contains(mit)'] }).skipped;
 * // [{ condition: 'LastName.Contains', reason: 'a b-tree cannot find a substring; trigram: true (wepql db-index --trigram) adds a pg_trgm index' }]
 */
export function adviseIndexes(schema: Schema, options: IndexAdvisorOptions): IndexAdvice {
  const context = compileContext({ ...options, schema });
  const dialect = context.dialect.rules;
  const tableParts = typeof options.table === 'string' ? [options.table] : options.table;
  if (!Array.isArray(tableParts) || tableParts.length === 0) sqlError('invalid-sql-option', 'table must be a name or a list of names');
  const table = tableParts.map((p) => dialect.quote(p)).join('.');
  const lead: IndexColumn[] = [];
  if (options.clientField !== undefined)
    lead.push({ expr: comparedExpression(field(schema, options.clientField, 'clientField'), context), suffix: '' });
  const plan = new IndexPlan(lead);
  const sorts = planSortIndexes(plan, schema, options, context);
  const skipped: SkippedCondition[] = [];
  planFilterIndexes(plan, sorts.leads, schema, options, context, skipped);
  const included = {
    scope: includedColumns(schema, options.include, options, context, skipped),
    sort: includedColumns(schema, [...(options.include ?? []), ...sorts.folded], options, context, skipped),
  };
  const tableName = tableParts[tableParts.length - 1]!;
  const indexes = [...plan.advised.values()].map((planned) =>
    indexStatement(planned, { table, tableName, included, dialect: context.dialect, options }),
  );
  if (options.counts !== true) return { indexes, skipped };
  if (options.clientField === undefined) sqlError('invalid-sql-option', 'counts needs clientField: the counter counts rows per client');
  if (context.dialect.storage.counterTable === undefined) {
    sqlError('invalid-sql-option', `counts: counter tables do not exist on ${context.dialect.name}`);
  }
  const counter = counterTableDdl(schema, {
    dialect: context.dialect,
    table: options.table,
    clientField: options.clientField,
    ...(options.deleted === undefined ? {} : { deleted: options.deleted }),
    ...(options.columns === undefined ? {} : { columns: options.columns }),
  });
  return { indexes, skipped, counter };
}

/** The indexes advised so far, keyed by method and columns so that duplicates merge. */
class IndexPlan {
  readonly advised = new Map<string, Planned>();

  /** `lead`: the columns every b-tree starts with (the client field). */
  constructor(readonly lead: readonly IndexColumn[]) {}

  /** The key of a b-tree on `columns` after the lead. */
  btreeKey(columns: readonly IndexColumn[]): string {
    return `btree:${[...this.lead, ...columns].map((c) => c.expr + c.suffix).join(', ')}`;
  }

  add(columns: readonly IndexColumn[], serves: string, method: Planned['method'] = 'btree', sort = false): void {
    const all = method === 'btree' ? [...this.lead, ...columns] : [...columns];
    const key = `${method}:${all.map((c) => c.expr + c.suffix).join(', ')}`;
    const entry = this.advised.get(key);
    if (entry === undefined) this.advised.set(key, { columns: all, serves: [serves], method, sort });
    else if (!entry.serves.includes(serves)) entry.serves.push(serves);
  }
}

/**
 * One index per sort. Returns the first key of each sort, keyed by its
 * expression (the conditions its index already serves), and the string
 * fields the sorts fold (a sort index INCLUDEs their columns).
 */
function planSortIndexes(
  plan: IndexPlan,
  schema: Schema,
  options: IndexAdvisorOptions,
  context: CompileContext,
): { readonly leads: ReadonlyMap<string, string>; readonly folded: ReadonlySet<string> } {
  const { rules, storage } = context.dialect;
  const leads = new Map<string, string>();
  const folded = new Set<string>();
  for (const input of options.sorts ?? []) {
    const sort = typedSortOf(input, schema, context.limits);
    const keys = orderKeys(sort, context, options.tieBreaker);
    if (keys.length === 0) continue;
    const serves = `sort ${sort?.keys.map((k) => `${k.field.name}=${k.direction}`).join(';') || '(none)'}`;
    const columns = keys.map((k) => ({ expr: k.expr, suffix: ` ${storage.indexOrderSuffix(k.direction, k.field !== undefined)}` }));
    plan.add(columns, serves, 'btree', true);
    if (keys[0]!.field !== undefined) leads.set(keys[0]!.expr, plan.btreeKey(columns));
    for (const k of keys) if (k.field?.type === 'string' && !context.caseSensitive) folded.add(k.field.name);
  }
  if (options.tieBreaker !== undefined && plan.lead.length > 0) {
    // A request without a sort (every list's first view, and its page jumps) orders by the tie-breaker
    // alone, whatever sorts the list also offers: without this index a deep jump walks the primary key
    // and visits the table for every skipped row to test the scope.
    plan.add([{ expr: rules.quote(options.tieBreaker), suffix: '' }], 'default order (no sort)');
  }
  return { leads, folded };
}

/**
 * An index per field condition of the filters (groups and InFields
 * flattened), or the sort index whose first key serves it already; the
 * conditions no index serves go to `skipped`, once each.
 */
function planFilterIndexes(
  plan: IndexPlan,
  sortLeads: ReadonlyMap<string, string>,
  schema: Schema,
  options: IndexAdvisorOptions,
  context: CompileContext,
  skipped: SkippedCondition[],
): void {
  for (const input of options.filters ?? []) {
    const filter = typedFilterOf(input, schema, context.limits);
    for (const { field: f, base: operator } of conditionsOf(filter?.clauses ?? [])) {
      const condition = `${f.name}.${operator}`;
      if (options.clientField !== undefined && f.name === options.clientField) continue;
      const served = conditionIndex(f, operator, context, options.trigram === true);
      if ('reason' in served) {
        if (!skipped.some((s) => s.condition === condition)) skipped.push({ condition, reason: served.reason });
        continue;
      }
      const sortIndex = served.method === 'btree' ? sortLeads.get(served.column.expr) : undefined;
      if (sortIndex !== undefined) plan.advised.get(sortIndex)!.serves.push(condition);
      else plan.add([served.column], condition, served.method);
    }
  }
}

function field(schema: Schema, name: string, option: string): ResolvedField {
  const hit = schema.lookup(name);
  if (hit.found !== 'field') sqlError('unknown-field', `${option}: the schema has no scalar field ${JSON.stringify(name)}`);
  return hit.field;
}

/**
 * The plain columns of `names` a b-tree INCLUDEs (nothing unless `include` is given). A sort index
 * also INCLUDEs the columns its keys fold: the planner reads an expression such as
 * `lower("LastName")` from an index-only scan only when the column under it is in the index too.
 */
function includedColumns(
  schema: Schema,
  names: readonly string[] | undefined,
  options: IndexAdvisorOptions,
  context: CompileContext,
  skipped: SkippedCondition[],
): readonly string[] {
  const { dialect } = context;
  if (!dialect.storage.coveringIndexes || options.include === undefined || names === undefined) return [];
  if (!Array.isArray(options.include)) sqlError('invalid-sql-option', 'include must be a list of field names');
  const out: string[] = [];
  for (const name of names) {
    const f = field(schema, name, 'include');
    const column = fieldExpression(f, context.columns, context.dialect);
    if (!column.startsWith(dialect.rules.quote('x').charAt(0))) {
      const condition = `include ${name}`;
      if (!skipped.some((s) => s.condition === condition)) {
        skipped.push({ condition, reason: 'a field stored in a JSON column is an expression, which INCLUDE cannot hold' });
      }
      continue;
    }
    if (!out.includes(column)) out.push(column);
  }
  return out;
}

interface StatementContext {
  readonly table: string;
  readonly tableName: string;
  readonly included: { readonly scope: readonly string[]; readonly sort: readonly string[] };
  readonly dialect: Dialect;
  readonly options: IndexAdvisorOptions;
}

function indexStatement(planned: Planned, { table, tableName, included, dialect, options }: StatementContext): AdvisedIndex {
  const list = planned.columns.map((c) => c.expr + c.suffix).join(', ');
  const trigram = planned.method === 'trigram';
  const columns = planned.sort ? included.sort : included.scope;
  const include = !trigram && columns.length > 0 ? ` INCLUDE (${columns.join(', ')})` : '';
  const name = indexName(tableName, `${planned.method}:${list}${include}`);
  const concurrently = options.concurrently === true && dialect.storage.concurrentIndexes ? 'CONCURRENTLY ' : '';
  return {
    name,
    sql: `CREATE INDEX ${concurrently}IF NOT EXISTS ${dialect.rules.quote(name)} ON ${table}${trigram ? ' USING gin' : ''} (${list})${include}`,
    serves: planned.serves.join(', '),
    ...(trigram ? { prerequisite: 'CREATE EXTENSION IF NOT EXISTS pg_trgm' } : {}),
  };
}

type ConditionIndex = { readonly column: IndexColumn; readonly method: Planned['method'] } | { readonly reason: string };

/** The index column serving one condition, from the operator's properties in OPERATORS. */
function conditionIndex(f: ResolvedField, operator: FilterOperator, context: CompileContext, trigram: boolean): ConditionIndex {
  const info = OPERATORS[operator];
  const expr = comparedExpression(f, context);
  if (info.negative) return { reason: 'a negation matches all but a few values; no index narrows it' };
  if (info.family !== 'text' || info.position === 'starts') {
    // StartsWith is compiled with a range on the compared expression, which any b-tree on it serves.
    return { column: { expr, suffix: '' }, method: 'btree' };
  }
  if (!trigram) return { reason: 'a b-tree cannot find a substring; trigram: true (wepql db-index --trigram) adds a pg_trgm index' };
  if (!context.dialect.storage.trigramIndexes) return { reason: 'trigram indexes (pg_trgm) exist only on PostgreSQL' };
  return { column: { expr, suffix: ' gin_trgm_ops' }, method: 'trigram' };
}

/** `<table>_wepql_<hash>`: stable for the same columns, within PostgreSQL's 63 bytes. */
function indexName(table: string, columns: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < columns.length; i++) h = Math.imul(h ^ columns.charCodeAt(i), 0x01000193);
  const hash = (h >>> 0).toString(16).padStart(8, '0');
  const prefix = Array.from(table.replace(/[^A-Za-z0-9_]/g, '_'))
    .slice(0, 40)
    .join('');
  return `${prefix}_wepql_${hash}`;
}
