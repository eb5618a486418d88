/**
 * The data-source port of the list contract: the handler asks a source for
 * a count (once per browsing session) and for windows of rows, and the
 * source answers from memory, PostgreSQL, or whatever a user plugs in.
 */
import type { ListNode, ComparisonNode, FilterAst, SortAst, SortItemNode } from '../ast/nodes.js';
import { NO_SPAN } from '../ast/nodes.js';
import { operatorFor } from '../ast/operator-facts.js';
import type { ListOperator, SingleValueOperator } from '../ast/operators.js';
import { WepqlError } from '../diagnostics/error.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { convertValueText } from '../validate/convert-value.js';
import type { TypedFilter, TypedFilterNode, TypedScalar, TypedSort } from '../ast/typed-tree.js';
import type { SeekKey } from '../sql/seek.js';

/**
 * What a data source is asked for.
 *
 * @example
 * await source.count({ filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 } satisfies DataQuery);
 */
export interface DataQuery {
  /** The validated filter; undefined for none. */
  readonly filter: TypedFilter | undefined;
  /** The validated sort; undefined for none (the source's own order, then its tie-breaker). */
  readonly sort: TypedSort | undefined;
  /** Whether soft-deleted rows are included. */
  readonly includeDeleted: boolean;
  /** The client (company) the list belongs to, from the route; undefined for a list that is not per client. */
  readonly clientId?: string | number;
  /**
   * Names the (filter, sort) pair in text form, such as the handler's
   * `JSON.stringify([filterText, sortText])`: queries with equal keys (and
   * equal `clientId` and `includeDeleted`) match the same rows, so a source
   * may reuse work across requests. Absent: nothing is reused.
   */
  readonly cacheKey?: string;
  /**
   * Aborted when the request no longer wants the answer: its client went
   * away, or its deadline passed (the reason is then a `BusyError`). A source
   * stops the query's work (cancels its statement, leaves the lane) and rejects.
   */
  readonly signal?: AbortSignal;
  /** Epoch milliseconds at which the request's time is up; a source gives each statement what is left as its timeout. */
  readonly deadline?: number;
}

/**
 * A window of the ordered result.
 *
 * @example
 * await source.page(q, { offset: 50, limit: 25 } satisfies PageWindow); // records 51–75
 */
export interface PageWindow {
  readonly offset: number;
  readonly limit: number;
}

/**
 * A window that may seek: with `after`, the `limit` records just after
 * that sort key; with `before`, the `limit` records just before it (in the
 * query's order); `offset` is then only the page's nominal position.
 *
 * @example
 * await source.keyedPage!(q, { offset: 50, limit: 25, after: ['Smith', 1042] } satisfies SeekWindow);
 */
export interface SeekWindow extends PageWindow {
  readonly after?: SeekKey;
  readonly before?: SeekKey;
}

/**
 * A page with the sort keys (tie-breaker last) of its first and last records; no keys when it is empty.
 *
 * @example
 * const { rows, keys } = await source.keyedPage!(q, { offset: 0, limit: 25 });
 */
export interface KeyedPage {
  readonly rows: readonly unknown[];
  readonly keys?: { readonly first: SeekKey; readonly last: SeekKey };
}

/**
 * A total and whether it is exact: `estimated` when it is a guess (the
 * planner's row estimate), which the list marks with `x-wepql-total: estimated`.
 *
 * @example
 * const answer: CountAnswer = await source.estimateCount!(q, 10_000); // { total: 969_897, estimated: true }
 */
export interface CountAnswer {
  readonly total: number;
  readonly estimated: boolean;
}

/**
 * Where a list's records come from. A source that implements `keyedPage`
 * is paged by seek (keyset) in token mode; one that does not, by offset.
 *
 * @example
 * const source: DataSource = { count: async () => rows.length, page: async (q, w) => rows.slice(w.offset, w.offset + w.limit) };
 */
export interface DataSource {
  /** How many records match. */
  count(q: DataQuery): Promise<number>;
  /**
   * The total exactly when at most `exactUpTo` records match, else a cheap
   * estimate above `exactUpTo` (a SQL source's planner estimate); asked only
   * when the server's count strategy is `{ estimateAbove }`. Absent: `count`
   * is asked, and the total is exact.
   */
  estimateCount?(q: DataQuery, exactUpTo: number): Promise<CountAnswer>;
  /** The records of one window, in the query's order. */
  page(q: DataQuery, window: PageWindow): Promise<readonly unknown[]>;
  /** The records of a window that may seek, with the keys of its first and last record. */
  keyedPage?(q: DataQuery, window: SeekWindow): Promise<KeyedPage>;
  /**
   * Whether the source serves one client's rows per query (it was created with
   * `clientField`, so every query needs a `clientId`) or a list that is not
   * per client (queries carry none). The framework adapters and the reference
   * server compare it with the route when they are created, so a route and a
   * source that disagree fail at start-up. Undefined (a hand-written source):
   * the route decides.
   */
  readonly clientScoped?: boolean;
  /**
   * How many statements the source runs well at once (a pool's size, less
   * one when its cancels need a pooled connection): the default `concurrency` of the admission queue a
   * server puts in front of it. Undefined: 8.
   */
  readonly concurrency?: number;
}

/**
 * How a source limits rows to one client and hides soft-deleted ones.
 *
 * @example
 * const scope: ScopeOptions = { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } };
 */
export interface ScopeOptions {
  /** The field that must equal `DataQuery.clientId` (for employees, `ClientId`). Required to serve a query with a client id. */
  readonly clientField?: string;
  /** The field and value that mark a soft-deleted row (for the sample employees, `RowStatus` = 3). */
  readonly deleted?: { readonly field: string; readonly value: string | number | boolean };
}

/**
 * The conditions a source adds to every query, as typed clauses: the client
 * id must equal `clientField`, and unless `includeDeleted`, the deleted
 * marker must differ (null counts as not deleted). Built as a typed tree so
 * that the evaluator and the SQL compiler apply them exactly like user
 * filters. `none: true` means no row can match (a client id that does not
 * read as the field's type).
 *
 * @example
 * const scope = scopeClauses(employeeSchema, { clientField: 'ClientId', deleted: { field: 'RowStatus', value: 3 } },
 *   { filter: undefined, sort: undefined, includeDeleted: false, clientId: 1 });
 * scope.clauses.length; // 2
 */
export function scopeClauses(
  schema: Schema,
  options: ScopeOptions,
  q: DataQuery,
): { readonly clauses: readonly TypedFilterNode[]; readonly none: boolean } {
  const clauses: TypedFilterNode[] = [];
  if (q.clientId !== undefined) {
    if (options.clientField === undefined) {
      throw new WepqlError('the query has a clientId but the data source was created without clientField', []);
    }
    const field = scalarField(schema, options.clientField, 'clientField');
    const converted = convertValueText(String(q.clientId), field.type);
    if (!converted.ok) return { clauses: [], none: true };
    clauses.push(equalTo(field, converted.value));
  }
  if (!q.includeDeleted && options.deleted !== undefined) {
    const field = scalarField(schema, options.deleted.field, 'deleted.field');
    const converted = convertValueText(String(options.deleted.value), field.type);
    if (!converted.ok) {
      throw new WepqlError(
        `deleted.value ${JSON.stringify(options.deleted.value)} does not read as ${field.name}'s type ${field.type}`,
        [],
      );
    }
    clauses.push(notDeleted(field, converted.value));
  }
  return { clauses, none: false };
}

/**
 * A filter that is the user's filter ANDed with extra clauses (which come first).
 *
 * @example
 * withClauses(userFilter, scope.clauses).clauses.length; // scope + user clauses
 */
export function withClauses(filter: TypedFilter | undefined, extra: readonly TypedFilterNode[]): TypedFilter | undefined {
  if (extra.length === 0) return filter;
  return {
    kind: 'typed-filter',
    clauses: [...extra, ...(filter?.clauses ?? [])],
    source: filter?.source ?? EMPTY_FILTER,
  };
}

/**
 * A one-key ascending sort on a field, for tie-breakers.
 *
 * @example
 * ascendingSort(employeeSchema, 'Id').keys[0].field.name; // 'Id'
 */
export function ascendingSort(schema: Schema, name: string): TypedSort {
  const field = scalarField(schema, name, 'tieBreaker');
  const fieldNode = { kind: 'field', path: field.path, name: field.name, span: NO_SPAN } as const;
  const item: SortItemNode = { kind: 'sort-item', field: fieldNode, direction: 'Asc', explicitDirection: true, span: NO_SPAN };
  const source: SortAst = { kind: 'sort', items: [item], span: NO_SPAN };
  return { kind: 'typed-sort', keys: [{ field, direction: 'Asc', source: item }], source };
}

/**
 * Looks up a scalar field for a source option; throws `WepqlError` naming
 * the option when the schema has no such field.
 *
 * @example
 * scalarField(employeeSchema, 'ClientId', 'clientField').type; // 'integer'
 */
export function scalarField(schema: Schema, name: string, option: string): ResolvedField {
  const hit = schema.lookup(name);
  if (hit.found !== 'field') throw new WepqlError(`${option}: the schema has no scalar field ${JSON.stringify(name)}`, []);
  return hit.field;
}

const EMPTY_FILTER: FilterAst = { kind: 'filter', clauses: [], span: NO_SPAN };

function fieldNode(field: ResolvedField) {
  return { kind: 'field', path: field.path, name: field.name, span: NO_SPAN } as const;
}

function valueNode(value: TypedScalar) {
  const text = value instanceof Date ? value.toISOString() : String(value);
  return { kind: 'value', value: text, quoted: false, raw: text, span: NO_SPAN } as const;
}

// The scope's operators, named by their facts; `values` pins the argument
// shape, so each is an operator of that shape.
const EQUAL = operatorFor({ test: { kind: 'compare', relation: '=' }, values: 'single-value' }) as SingleValueOperator;
// Not in the list, and true on null: a row whose marker is null is not deleted.
const NOT_IN_OR_NULL = operatorFor({ test: { kind: 'member' }, negated: true, nullMatches: true, values: 'list' }) as ListOperator;

function equalTo(field: ResolvedField, value: TypedScalar): TypedFilterNode {
  const source: ComparisonNode = {
    kind: 'comparison',
    field: fieldNode(field),
    operator: EQUAL,
    operatorSpan: NO_SPAN,
    value: valueNode(value),
    span: NO_SPAN,
  };
  return { kind: 'comparison', operator: EQUAL, field, value, source };
}

function notDeleted(field: ResolvedField, value: TypedScalar): TypedFilterNode {
  const source: ListNode = {
    kind: 'list',
    field: fieldNode(field),
    operator: NOT_IN_OR_NULL,
    operatorSpan: NO_SPAN,
    values: [valueNode(value)],
    span: NO_SPAN,
  };
  return { kind: 'list', operator: NOT_IN_OR_NULL, field, values: [value], source };
}
