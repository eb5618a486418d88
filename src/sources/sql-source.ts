/**
 * One data source over a SQL table, for every dialect `toSql` writes: it
 * takes the dialect and a function that runs one parameterised statement.
 * `COUNT(*)` for the first page, a seek (keyset) predicate for the next and
 * previous pages, `LIMIT/OFFSET` for jumps, every user value a bound
 * parameter. `createPostgresDataSource` and `createMysqlDataSource` are thin
 * constructors over it; what differs between engines lives in
 * `./sql-engine.ts`.
 */
import { setAtPath } from './record-path.js';
import { WepqlError } from '../diagnostics/error.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { fieldExpression, resolveColumnMap } from '../sql/columns.js';
import type { Dialect } from '../sql/dialects/dialect.js';
import { dialectOf, type SqlDialect } from '../sql/dialects/registry.js';
import type { Seek, SeekKey } from '../sql/seek.js';
import { comparedExpression, usesFoldedColumn, type CompileContext } from '../sql/compile.js';
import { compileContext, toSql, toSqlParts, type ColumnMap, type DeferredJoin, type SqlPart, type ToSqlOptions } from '../sql/to-sql.js';
import { renderParts } from '../sql/compile.js';
import type { CountAnswer, DataQuery, DataSource, KeyedPage, PageWindow, ScopeOptions, SeekWindow } from '../list/data-source.js';
import { scalarField, scopeClauses, withClauses } from '../list/data-source.js';
import { remainingMs } from '../list/admission.js';
import { BusyError } from '../list/busy.js';
import { sqlEngine, type SqlEngine, type SqlStatementRunner, type StatementContext } from './sql-engine.js';
import { convertValueText } from '../validate/convert-value.js';
import { estimateSqlCount } from './sql-estimate.js';

export type { SqlStatementRunner } from './sql-engine.js';

/**
 * Options of `createSqlDataSource`: the options every SQL source shares, plus the dialect and the runner.
 *
 * @example
 * const options: SqlDataSourceOptions = { dialect: 'postgres', run, table: 'employees', schema: employeeSchema, tieBreaker: 'Id' };
 */
export interface SqlDataSourceOptions extends ScopeOptions {
  /** The engine: a shipped dialect's name, or a `Dialect` object (an engine of your own). */
  readonly dialect: SqlDialect | Dialect;
  /**
   * Runs a statement with the dialect's placeholders (`$1` on PostgreSQL,
   * `?` elsewhere). Its third argument, when the request has a deadline or
   * can be abandoned, holds the statement's time limit and cancel signal.
   */
  readonly run: SqlStatementRunner;
  /**
   * Runs the first page's statements (its count and its rows) where `run`
   * reads from replicas: a list opened after a write shows it, and the
   * token pages after it read from `run` (docs/server.md, "Read replicas").
   */
  readonly primary?: SqlStatementRunner;
  /** Statements the source runs well at once (`DataSource.concurrency`); default 8. */
  readonly concurrency?: number;
  /** The table, optionally schema-qualified as `['payroll', 'employees']`; quoted, never spliced raw. */
  readonly table: string | readonly string[];
  readonly schema: Schema;
  /** Where fields are stored when not in same-named columns (see `toSql`). */
  readonly columns?: ColumnMap;
  /** A unique column appended to every ORDER BY so that pages never overlap or skip rows (for employees, `Id`). */
  readonly tieBreaker: string;
  /** A JSON column holding each whole record, returned as the row; without it, rows are rebuilt from the schema's fields. */
  readonly recordColumn?: string;
  /** Compare strings exactly instead of case-insensitively. */
  readonly caseSensitive?: boolean;
  /** `toSql`'s `foldCollation`. */
  readonly foldCollation?: string;
  /** `toSql`'s `binaryCollation` (MySQL/MariaDB). */
  readonly binaryCollation?: string;
  /**
   * The per-client counter table kept by triggers (`counterTableDdl`, `wepql db-index --counts`),
   * such as `counterTableOf('employees')`: the total of a query without a filter is then read from
   * it (a sum of a few rows) instead of `COUNT(*)`; a filtered query still counts. Needs `clientField`,
   * and the counter must have been created with the same `deleted` marker.
   */
  readonly counterTable?: string | readonly string[];
  /** `toSql`'s `foldedColumns` (PostgreSQL): strings compared through stored folded columns, seek keys read from them. */
  readonly foldedColumns?: boolean;
  /**
   * The partition holding one client's rows, when `table` is partitioned by
   * `clientField` alone (one client, one partition): every statement of a
   * query with that client id then reads the partition instead of `table`,
   * quoted like `table`. On PostgreSQL a `postgres_fdw` foreign partition so
   * addressed receives the whole statement, `LIMIT` and `OFFSET` included,
   * which a statement over the partitioned parent does not ship.
   * The reference server builds one from the catalogue (docs/server.md,
   * "Scaling out"). Undefined (or no function) reads `table`. A function that
   * names a partition that does not hold all of the client's rows loses rows.
   */
  readonly partitionOf?: (clientId: string | number) => PartitionName | PromiseLike<PartitionName>;
}

/**
 * A partition as `SqlDataSourceOptions.partitionOf` names it: a name, or
 * schema and name, quoted by the source; undefined for the partitioned table itself.
 *
 * @example
 * const partition: PartitionName = ['public', 'employees_p1'];
 */
export type PartitionName = string | readonly string[] | undefined;

/**
 * Serves a list from a SQL table in `toSql`'s storage convention
 * (docs/sql.md). Seek keys are read with the column's full precision
 * (PostgreSQL timestamps to the microsecond and non-finite doubles as the
 * engine's text), so a walk never repeats or skips a row; datetimes are
 * read as text, so no driver's date parser can shift them. Without
 * `clientField` the list is not per client, and a query that carries a
 * client id is refused with a configuration error.
 *
 * @example
 * const source = createSqlDataSource({
 *   dialect: 'postgres', run: (sql, params) => pool.query(sql, params),
 *   table: 'employees', schema: employeeSchema, tieBreaker: 'Id', clientField: 'ClientId', recordColumn: 'Record',
 * });
 */
export function createSqlDataSource(options: SqlDataSourceOptions): DataSource {
  const table = new SqlTable(options);
  const readWith =
    (engine: SqlEngine): Reader =>
    async (q, window, seek, keyed) => {
      const statement = table.select(await table.from(q), q, window, seek, keyed);
      if (statement === undefined) return [];
      const rows = await table.rows(q, statement, engine);
      // A `before` seek reads backwards from the key; the page is those rows in the query's order.
      return seek !== undefined && 'before' in seek ? [...rows].reverse() : rows;
    };
  const read = readWith(table.engine);
  const readFirst = readWith(table.primaryEngine);
  const count = async (q: DataQuery): Promise<number> => {
    const statement = table.counted(q) ?? table.count(await table.from(q), q);
    if (statement === undefined) return 0;
    // Only a first page counts: its total comes from where its rows come from.
    const rows = await table.rows(q, statement, table.primaryEngine);
    return Number(rows[0]?.n ?? 0);
  };
  return Object.freeze({
    // The handler checks at start-up that a route with a client id meets a source with a client field, and the reverse.
    clientScoped: options.clientField !== undefined,
    concurrency: options.concurrency ?? 8,
    async keyedPage(q: DataQuery, window: SeekWindow): Promise<KeyedPage> {
      const first = window.after === undefined && window.before === undefined && window.offset === 0;
      const rows = await readKeyed(q, window, first ? readFirst : read);
      if (rows.length === 0) return { rows: [] };
      return {
        rows: rows.map((r) => table.record(r)),
        keys: { first: table.keyOf(q, rows[0]!), last: table.keyOf(q, rows[rows.length - 1]!) },
      };
    },
    count,
    async estimateCount(q: DataQuery, exactUpTo: number): Promise<CountAnswer> {
      const matching = table.counted(q) === undefined ? table.matching(await table.from(q), q) : undefined;
      if (matching === undefined) return { total: await count(q), estimated: false };
      const run = (statement: Statement) => table.rows(q, statement, table.primaryEngine);
      return estimateSqlCount({ ...table.spelling, run, exact: () => count(q) }, matching, exactUpTo);
    },
    async page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]> {
      return (await read(q, window, undefined, false)).map((r) => table.record(r));
    },
  });
}

interface CompileOptions {
  readonly clientOnly?: boolean;
  readonly deferredJoin?: DeferredJoin;
  readonly paramStart?: number;
}

/** The table a statement reads: as written into the SQL, and as `toSql`'s `deferredJoin` takes it. */
interface From {
  readonly sql: string;
  readonly table: string | readonly string[];
}

interface Statement {
  readonly sql: string;
  readonly params: unknown[];
  readonly ordered: boolean;
}

/** One table as the source reads it: the statements it sends and how it reads their rows back. */
class SqlTable {
  readonly engine: SqlEngine;
  /** Where the first page's count and rows run: the `primary` runner's engine, else `engine`. */
  readonly primaryEngine: SqlEngine;
  private readonly dialect: Dialect;
  private readonly quote: (name: string) => string;
  private readonly whole: From;
  private readonly columns: ReturnType<typeof resolveColumnMap>;
  private readonly selected: string;
  private readonly context: CompileContext;
  /** `toSql`'s options for this table's statements, written once. */
  private readonly sqlOptions: ToSqlOptions;
  /**
   * The WHERE parts of a query's filter with its scope in front, per filter
   * object (the analysed trees are shared by the requests of one filter text)
   * and per scope: a token page compiles only its seek and sort. Undefined
   * when the scope matches no row. Bounded by `SCOPED_FILTERS_PER_FILTER` per
   * filter; the filters themselves are held weakly.
   */
  private readonly scopedFilters = new WeakMap<object, Map<string, ScopedFilter | undefined>>();

  constructor(private readonly options: SqlDataSourceOptions) {
    const { schema } = options;
    const dialect = dialectOf(options.dialect);
    this.engine = sqlEngine(dialect, options.run);
    this.primaryEngine = options.primary === undefined ? this.engine : sqlEngine(dialect, options.primary);
    this.dialect = dialect;
    this.quote = dialect.rules.quote;
    this.whole = this.fromTable(options.table);
    this.columns = resolveColumnMap(schema, options.columns);
    this.context = compileContext(options);
    this.sqlOptions = {
      dialect,
      schema,
      tieBreaker: options.tieBreaker,
      ...(options.columns === undefined ? {} : { columns: options.columns }),
      ...(options.caseSensitive === undefined ? {} : { caseSensitive: options.caseSensitive }),
      ...(options.foldCollation === undefined ? {} : { foldCollation: options.foldCollation }),
      ...(options.binaryCollation === undefined ? {} : { binaryCollation: options.binaryCollation }),
      ...(options.foldedColumns === undefined ? {} : { foldedColumns: options.foldedColumns }),
    };
    // Checked once here so a bad option fails at start-up, not on the first request.
    this.quote(options.tieBreaker);
    if (options.clientField !== undefined) scalarField(schema, options.clientField, 'clientField');
    if (options.counterTable !== undefined && options.clientField === undefined) {
      throw new WepqlError('counterTable needs clientField: the counter table counts rows per client', []);
    }
    this.selected =
      options.recordColumn !== undefined
        ? `${this.quote(options.recordColumn)} AS ${this.quote('record')}`
        : schema.fields.map((f, i) => `${this.engine.readExpression(this.expression(f), f.type)} AS ${this.quote(`f${i}`)}`).join(', ');
  }

  /** The table a query's statements read: its client's partition (`partitionOf`), else the table. */
  async from(q: DataQuery): Promise<From> {
    const { partitionOf } = this.options;
    if (partitionOf === undefined || q.clientId === undefined) return this.whole;
    const partition = await partitionOf(q.clientId);
    return partition === undefined ? this.whole : this.fromTable(partition);
  }

  private fromTable(table: string | readonly string[]): From {
    return { sql: (typeof table === 'string' ? [table] : table).map(this.quote).join('.'), table };
  }

  /** The page statement: a seek, a first page, or a jump; undefined when no row can match. */
  select(from: From, q: DataQuery, window: PageWindow, seek: Seek | undefined, keyed: boolean): Statement | undefined {
    if (seek === undefined && window.offset > 0) return this.jump(from, q, window, keyed);
    const compiled = this.compile(q, true, seek);
    if (compiled === undefined) return undefined;
    const { where, orderBy, params } = compiled;
    const n = params.length;
    const sql =
      `SELECT ${this.selected}${keyed ? this.keyColumns(q) : ''} FROM ${from.sql}${where ? ` WHERE ${where}` : ''}` +
      `${orderBy ? ` ORDER BY ${orderBy}` : ''} LIMIT ${this.engine.placeholder(n + 1)}` +
      `${seek === undefined ? ` OFFSET ${this.engine.placeholder(n + 2)}` : ''}`;
    const limits = seek === undefined ? [window.limit, window.offset] : [window.limit];
    return { sql, params: [...params, ...limits.map(this.dialect.rules.limitValue)], ordered: orderBy !== '' };
  }

  /**
   * A page jump as a deferred join (`toSql`'s `deferredJoin`): the skipped
   * rows are walked in a subquery that reads only the sort index, and just
   * the page's rows are fetched from the table. The outer statement starts
   * with the client equality too, so on a table partitioned by client the
   * lookups stay in one partition.
   */
  private jump(from: From, q: DataQuery, window: PageWindow, keyed: boolean): Statement | undefined {
    const client = this.compile({ ...q, filter: undefined, sort: undefined }, false, undefined, { clientOnly: true });
    if (client === undefined) return undefined;
    const deferredJoin = { table: from.table, limit: window.limit, offset: window.offset };
    const page = this.compile(q, true, undefined, { deferredJoin, paramStart: client.params.length + 1 });
    if (page === undefined) return undefined;
    const sql =
      `SELECT ${this.selected}${keyed ? this.keyColumns(q) : ''} FROM ${from.sql} WHERE ${client.where ? `${client.where} AND ` : ''}${page.where}` +
      ` ORDER BY ${page.orderBy}`;
    return { sql, params: [...client.params, ...page.params], ordered: true };
  }

  /**
   * The counter table's sum for a query whose filter is empty (its scope only), or undefined
   * when there is no counter table or the query has a filter (then `count` is the statement).
   */
  counted(q: DataQuery): Statement | undefined {
    const { counterTable, clientField, schema } = this.options;
    if (counterTable === undefined || (q.filter?.clauses.length ?? 0) > 0 || q.clientId === undefined || clientField === undefined) {
      return undefined;
    }
    const client = convertValueText(String(q.clientId), scalarField(schema, clientField, 'clientField').type);
    // A client id that does not read as the field's type has no rows: the ordinary count says 0 without a statement.
    if (!client.ok) return undefined;
    const name = (typeof counterTable === 'string' ? [counterTable] : counterTable).map(this.quote).join('.');
    const deleted = q.includeDeleted ? '' : ` AND ${this.quote('deleted')} = FALSE`;
    return {
      sql: `SELECT COALESCE(SUM(${this.quote('n')}), 0) AS ${this.quote('n')} FROM ${name} WHERE ${this.quote('ClientId')} = ${this.engine.placeholder(1)}${deleted}`,
      params: [client.value],
      ordered: false,
    };
  }

  /** The dialect's spelling, for statements written outside this class (`estimateSqlCount`). */
  get spelling() {
    const { dialect, quote } = this;
    return { rowEstimate: dialect.driver.rowEstimate, quote, placeholder: this.engine.placeholder, limitValue: dialect.rules.limitValue };
  }

  /** `SELECT 1 FROM … WHERE …`: the rows a query matches, unordered; undefined when no row can match. */
  matching(from: From, q: DataQuery): Statement | undefined {
    const compiled = this.compile(q, false);
    if (compiled === undefined) return undefined;
    return {
      sql: `SELECT 1 FROM ${from.sql}${compiled.where ? ` WHERE ${compiled.where}` : ''}`,
      params: [...compiled.params],
      ordered: false,
    };
  }

  /** The `COUNT(*)` statement; undefined when no row can match. */
  count(from: From, q: DataQuery): Statement | undefined {
    const compiled = this.compile(q, false);
    if (compiled === undefined) return undefined;
    const { where, params } = compiled;
    // Grouped by the client column (one group, or none when nothing matches): on a table partitioned by client
    // over postgres_fdw, a partition-wise aggregate the shard computes whole instead of sending every row.
    const client = this.options.foldedColumns === true && this.options.clientField !== undefined ? this.clientColumn() : undefined;
    return {
      sql: `SELECT COUNT(*) AS ${this.quote('n')} FROM ${from.sql}${where ? ` WHERE ${where}` : ''}${client ? ` GROUP BY ${client}` : ''}`,
      params: [...params],
      ordered: false,
    };
  }

  /**
   * Runs a statement with what is left of its request's time as its limit
   * and its request's signal to cancel it. A statement stopped because the
   * time ran out is a `BusyError` (the request is answered 503); one whose
   * request went away rejects with the request's abort reason.
   */
  async rows(q: DataQuery, statement: Statement, engine: SqlEngine = this.engine): Promise<readonly Record<string, unknown>[]> {
    q.signal?.throwIfAborted();
    const context: StatementContext | undefined =
      q.deadline === undefined && q.signal === undefined
        ? undefined
        : {
            ...(q.deadline === undefined ? {} : { timeoutMs: remainingMs(q.deadline) }),
            ...(q.signal === undefined ? {} : { signal: q.signal }),
          };
    const attempt = async (): Promise<readonly Record<string, unknown>[]> => {
      try {
        return await engine.rows(statement.sql, statement.params, statement.ordered, context);
      } catch (error) {
        if (q.signal?.aborted === true) throw q.signal.reason;
        if (engine.interrupted(error)) throw new BusyError('a statement ran out of its time', 1);
        throw error;
      }
    };
    // A read the engine calls transient (a hot standby cancelling it for a conflict with replay) runs once more;
    // cancelled twice, it is a BusyError with the engine's error as its cause (503 with Retry-After, and reported). Every statement only reads.
    try {
      return await attempt();
    } catch (first) {
      if (!engine.transient(first)) throw first;
      try {
        return await attempt();
      } catch (second) {
        if (!engine.transient(second)) throw second;
        throw new BusyError('the database cancelled the read twice; retry in a moment', TRANSIENT_RETRY_AFTER_SECONDS, { cause: second });
      }
    }
  }

  /** A row read by `select` as the record the list returns. */
  record(row: Record<string, unknown>): unknown {
    if (this.options.recordColumn !== undefined) return typeof row.record === 'string' ? JSON.parse(row.record) : row.record;
    const out: Record<string, unknown> = {};
    this.options.schema.fields.forEach((field, i) => {
      const value = this.engine.recordValue(row[`f${i}`], field.type);
      if (value !== null) setAtPath(out, field.path, value);
    });
    return out;
  }

  /** The seek key of a row read by a keyed `select`: each sort key as the engine holds it, then the tie-breaker. */
  keyOf(q: DataQuery, row: Record<string, unknown>): SeekKey {
    const types = [...(q.sort?.keys ?? []).map((k) => k.field.type), 'tie' as const];
    return types.map((type, i) => this.engine.seekValue(row[`wepql_k${i}`], type));
  }

  private clientColumn(): string {
    return this.expression(scalarField(this.options.schema, this.options.clientField!, 'clientField'));
  }

  private expression(field: Pick<ResolvedField, 'name' | 'path' | 'type'>): string {
    return fieldExpression(field, this.columns, this.dialect);
  }

  // Every ORDER BY key, read back exactly (see `SqlEngine.keyExpression`) so a token can seek from the page's first and last row.
  private keyColumns(q: DataQuery): string {
    const schema = this.options.schema;
    return [
      ...(q.sort?.keys ?? []).map((k) => {
        const field = scalarField(schema, k.field.name, 'sort');
        // A folded column is compared as stored, so its key is its own text.
        const expr = usesFoldedColumn(field, this.context) ? comparedExpression(field, this.context) : this.expression(field);
        return this.engine.keyExpression(expr, k.field.type);
      }),
      this.quote(this.options.tieBreaker),
    ]
      .map((expr, i) => `, ${expr} AS ${this.quote(`wepql_k${i}`)}`)
      .join('');
  }

  /**
   * WHERE and ORDER BY with the scope's clauses first (only the client's with
   * `clientOnly`); undefined when no row can match. The filter's part, scope
   * included, is compiled once per filter and scope (`scopedFilters`); the
   * seek and the order are compiled per statement and joined to it as
   * `toSql` joins them, so the text and parameters are `toSql`'s.
   */
  private compile(q: DataQuery, withSort: boolean, seek?: Seek, more: CompileOptions = {}) {
    const { options } = this;
    if (q.clientId !== undefined && options.clientField === undefined) throw unscopedSourceError(this.dialect);
    if (more.deferredJoin !== undefined || more.paramStart !== undefined) return this.compileWhole(q, withSort, seek, more);
    const scoped = this.scopedFilter(q, more.clientOnly === true);
    if (scoped === undefined) return undefined;
    // A count's, or a jump's client condition: the whole statement part, compiled once.
    if (!withSort && seek === undefined) return (scoped.unsorted ??= this.render(scoped.where, toSqlParts({}, this.sqlOptions).orderBy));
    const where = scoped.where;
    const rest = toSqlParts(
      { ...(withSort && q.sort !== undefined ? { sort: q.sort } : {}), ...(seek === undefined ? {} : { seek }) },
      this.sqlOptions,
    );
    // Top-level filter clauses are joined by AND and groups are parenthesized, so appending keeps precedence.
    const parts = seek === undefined ? where : where.length === 0 ? rest.where : [...where, { sql: ' AND ' }, ...rest.where];
    return this.render(parts, rest.orderBy);
  }

  /** WHERE and ORDER BY parts as `toSql` renders them: placeholders from 1, the WHERE's parameters first. */
  private render(whereParts: readonly SqlPart[], orderByParts: readonly SqlPart[]): Compiled {
    const where = renderParts(whereParts, this.dialect, 1);
    const orderBy = renderParts(orderByParts, this.dialect, 1 + where.params.length);
    return { where: where.sql, orderBy: orderBy.sql, params: [...where.params, ...orderBy.params] };
  }

  /** The WHERE parts of the query's filter after its scope's clauses, from `scopedFilters` or compiled now; undefined when the scope matches no row. */
  private scopedFilter(q: DataQuery, clientOnly: boolean): ScopedFilter | undefined {
    const filterKey: object = q.filter ?? NO_FILTER;
    const scopeKey = `${clientOnly ? 1 : 0}${q.includeDeleted ? 1 : 0}${typeof q.clientId}:${String(q.clientId)}`;
    let perScope = this.scopedFilters.get(filterKey);
    if (perScope?.has(scopeKey) === true) return perScope.get(scopeKey);
    const { options } = this;
    const scope = scopeClauses(options.schema, clientOnly ? { ...options, deleted: undefined } : options, q);
    const filter = scope.none ? undefined : withClauses(q.filter, scope.clauses);
    const parts: ScopedFilter | undefined = scope.none
      ? undefined
      : { where: filter === undefined ? [] : toSqlParts({ filter }, this.sqlOptions).where };
    if (perScope === undefined) this.scopedFilters.set(filterKey, (perScope = new Map()));
    // Many clients with one filter: start the filter's entries again rather than grow without bound.
    if (perScope.size >= SCOPED_FILTERS_PER_FILTER) perScope.clear();
    perScope.set(scopeKey, parts);
    return parts;
  }

  /** `compile` in one `toSql` call: for a deferred join, whose filter sits inside its subquery. */
  private compileWhole(q: DataQuery, withSort: boolean, seek: Seek | undefined, more: CompileOptions) {
    const { options } = this;
    const scope = scopeClauses(options.schema, more.clientOnly === true ? { ...options, deleted: undefined } : options, q);
    if (scope.none) return undefined;
    const filter = withClauses(q.filter, scope.clauses);
    return toSql(
      {
        ...(filter === undefined ? {} : { filter }),
        ...(withSort && q.sort !== undefined ? { sort: q.sort } : {}),
        ...(seek === undefined ? {} : { seek }),
      },
      {
        ...this.sqlOptions,
        ...(more.deferredJoin === undefined ? {} : { deferredJoin: more.deferredJoin }),
        ...(more.paramStart === undefined ? {} : { paramStart: more.paramStart }),
      },
    );
  }
}

/** A filter with its scope in front, compiled: its WHERE parts, and once asked for, the whole unsorted condition. */
interface ScopedFilter {
  readonly where: readonly SqlPart[];
  unsorted?: Compiled;
}

/** WHERE and ORDER BY as rendered text, with their parameters. */
interface Compiled {
  readonly where: string;
  readonly orderBy: string;
  readonly params: readonly unknown[];
}

/** The `scopedFilters` key of a query without a filter. */
const NO_FILTER: object = Object.freeze({});
/** Scopes (client, soft-delete choice) remembered per filter: past this, that filter's entries start again. */
const SCOPED_FILTERS_PER_FILTER = 256;

/** What a client is told to wait before retrying a read the database cancelled twice. */
const TRANSIENT_RETRY_AFTER_SECONDS = 1;

type Reader = (q: DataQuery, window: PageWindow, seek: Seek | undefined, keyed: boolean) => Promise<readonly Record<string, unknown>[]>;

/**
 * The rows of a window that may seek. A walk towards smaller first keys (a
 * `Desc` sort going forward, an `Asc` one going back) meets NULL first keys
 * last: it reads the non-NULL rows from an index range first and, only when
 * the page is not full, the NULL ones (also an index range) — one OR over
 * both would leave the index no single start.
 */
async function readKeyed(q: DataQuery, window: SeekWindow, read: Reader): Promise<readonly Record<string, unknown>[]> {
  const seek: Seek | undefined =
    window.after !== undefined ? { after: window.after } : window.before !== undefined ? { before: window.before } : undefined;
  const key = window.after ?? window.before;
  const direction = q.sort?.keys[0]?.direction;
  if (seek === undefined || key === undefined || direction === undefined || key[0] === null || (direction === 'Asc') === 'after' in seek) {
    return read(q, window, seek, true);
  }
  const rows = await read(q, window, { ...seek, firstKey: 'not-null' }, true);
  if (rows.length >= window.limit) return rows;
  const rest = await read(q, { offset: 0, limit: window.limit - rows.length }, { ...seek, firstKey: 'null' }, true);
  return 'before' in seek ? [...rest, ...rows] : [...rows, ...rest];
}

function unscopedSourceError(dialect: Dialect): WepqlError {
  const constructor = dialect.driver.sourceConstructor;
  return new WepqlError(
    `configuration error: the list has a client id (its route has :client_id, or the handler was given clientId) ` +
      `but the data source was created without clientField, so it cannot limit rows to that client. ` +
      `Pass clientField (the field holding the client id, such as 'ClientId') to ${constructor}, ` +
      `or serve the list on a route without a client id.`,
    [],
  );
}
