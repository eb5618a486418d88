/**
 * Compiles typed filters and sorts to SQL parts: text and bound parameters,
 * in order. Rendering the parts with placeholders (`$n` or `?`) is the last
 * step, so query builders can take the parts as they are.
 *
 * Semantics are docs/reference.md §"Filter semantics" and §"Sort semantics" exactly:
 * every operator but IsNull and the OrNull
 * forms is false on NULL, strings compare case-insensitively by folding with
 * `String.prototype.toLowerCase` (the parameter is folded here, the column
 * by the database), strings order by code point, NULL first under Asc.
 */
import type { ListOperator, OperatorInfo, SingleValueOperator } from '../ast/operators.js';
import { baseOperatorOfInFields, OPERATORS } from '../ast/operators.js';
import { LIMIT_CODES, limitMessage, type Limits } from '../diagnostics/limits.js';
import type { ResolvedField, Schema } from '../schema/schema.js';
import { comparableValue, hasInvalidCharacter } from '../schema/values.js';
import { checkTypedFilter } from '../validate/check-typed.js';
import type { TypedFilter, TypedFilterNode, TypedInFields, TypedScalar, TypedSort } from '../ast/typed-tree.js';
import { matchFilterNode, type MatchHandlers } from '../ast/fold.js';
import { defaultColumnName, fieldExpression, type ResolvedColumn } from './columns.js';
import type { Dialect } from './dialects/dialect.js';
import { sqlError } from './errors.js';
import { globPattern, likePattern, prefixSuccessor } from './patterns.js';

/**
 * A piece of compiled SQL: fixed text, or one bound parameter.
 *
 * @example
 * const parts: SqlPart[] = [{ sql: '"Id" = ' }, { param: 5 }];
 */
export type SqlPart = { readonly sql: string } | { readonly param: unknown };

/**
 * What the compiler needs besides the tree.
 *
 * @example
 * const context: CompileContext = {
 *   dialect: dialectOf('postgres'), schema, columns: new Map(), caseSensitive: false, foldCollation: '"pg_unicode_fast"', limits: DEFAULT_LIMITS,
 * };
 */
export interface CompileContext {
  readonly dialect: Dialect;
  readonly schema: Schema;
  readonly columns: ReadonlyMap<string, ResolvedColumn>;
  readonly caseSensitive: boolean;
  /** PostgreSQL and MySQL: the collation `lower()` folds with, already quoted (`"pg_unicode_fast"`). */
  readonly foldCollation: string;
  /** MySQL: the code-point collation strings are compared with, already quoted (`` `utf8mb4_nopad_bin` ``). */
  readonly binaryCollation?: string;
  /** Case-insensitive strings are compared through their stored folded columns (`toSql`'s `foldedColumns`). */
  readonly foldedColumns?: boolean;
  readonly limits: Limits;
}

/**
 * Builds SQL parts: adjacent text is merged into one part, each value is a
 * parameter part of its own. Shared by the filter compiler and the seek predicate.
 *
 * @example
 * new PartWriter().sql('"Age" > ').param(30).parts; // [{ sql: '"Age" > ' }, { param: 30 }]
 */
export class PartWriter {
  readonly parts: SqlPart[] = [];
  sql(text: string): this {
    const last = this.parts[this.parts.length - 1];
    if (last !== undefined && 'sql' in last) this.parts[this.parts.length - 1] = { sql: last.sql + text };
    else this.parts.push({ sql: text });
    return this;
  }
  param(value: unknown): this {
    this.parts.push({ param: value });
    return this;
  }
}

/**
 * Compiles a typed filter to the parts of a WHERE condition (without the
 * keyword; no parts for an empty filter). Trees built by code go through
 * `checkTypedFilter` first, the check the evaluator runs too: fields must
 * belong to the schema with the same type, operators must apply to them,
 * values must have their field's type, and the limits hold
 * (`nesting-too-deep`, `too-many-conditions`, `too-many-list-values`,
 * `too-many-in-fields`); anything else throws `WepqlError`.
 *
 * @example
 * compileFilterParts(typed, context); // [{ sql: 'lower("LastName" COLLATE "pg_unicode_fast") LIKE ' }, { param: 'sm%' }, { sql: " ESCAPE '\\'" }]
 */
export function compileFilterParts(filter: TypedFilter, context: CompileContext): readonly SqlPart[] {
  const checked = checkTypedFilter(filter, { limits: context.limits, schema: context.schema });
  const compiler = new FilterCompiler(context);
  compiler.clauses(checked.clauses, ' AND ', false);
  return compiler.out.parts;
}

class FilterCompiler {
  readonly out = new PartWriter();

  /**
   * What each kind of node writes. A Record keyed by kind, so a new node
   * kind does not compile until the SQL for it is written.
   */
  private readonly write: MatchHandlers<TypedFilterNode, void> = {
    group: (node) => this.clauses(node.children, node.operator === 'And' ? ' AND ' : ' OR ', true),
    comparison: (node) => this.single(node.field, node.operator, node.value),
    'null-check': (node) => {
      this.out.sql(`${this.raw(node.field)} ${OPERATORS[node.operator].nullMatches ? 'IS NULL' : 'IS NOT NULL'}`);
    },
    list: (node) => this.list(node.operator, node.field, node.values),
    'in-fields': (node) => this.inFields(node),
  };

  constructor(private readonly cx: CompileContext) {}

  /** Writes `nodes` joined by `glue`. */
  clauses(nodes: readonly TypedFilterNode[], glue: string, wrap: boolean): void {
    const parenthesize = wrap && nodes.length > 1;
    if (parenthesize) this.out.sql('(');
    nodes.forEach((node, i) => {
      if (i > 0) this.out.sql(glue);
      matchFilterNode(node, this.write);
    });
    if (parenthesize) this.out.sql(')');
  }

  /** `v.OpInFields(F1,F2)` is `F1.Op(v) OR F2.Op(v)` (docs/reference.md §"Filter semantics"). */
  private inFields(node: TypedInFields): void {
    const base = baseOperatorOfInFields(node.operator);
    const wrap = node.fields.length > 1;
    if (wrap) this.out.sql('(');
    node.fields.forEach((f, i) => {
      if (i > 0) this.out.sql(' OR ');
      this.single(f, base, node.values[i]!);
    });
    if (wrap) this.out.sql(')');
  }

  private raw(field: ResolvedField): string {
    return fieldExpression(field, this.cx.columns, this.cx.dialect);
  }

  /** Writes one `field op value` test. */
  private single(field: ResolvedField, operator: SingleValueOperator, value: TypedScalar): void {
    const info: OperatorInfo = OPERATORS[operator];
    // The table's relations are spelled as SQL spells them.
    if (info.relation !== undefined) {
      this.out.sql(`${comparedExpression(field, this.cx)} ${info.relation} `);
      this.param(field, value);
      return;
    }
    // checkTypedFilter let through only text operators on strings here.
    const position = info.position!;
    if (value === '') {
      // Every string contains, starts and ends with '' (docs/reference.md §"Filter semantics": Contains('')
      // matches every non-null string), so the negated forms match nothing.
      this.out.sql(info.negative ? 'FALSE' : `${this.raw(field)} IS NOT NULL`);
      return;
    }
    const expr = comparedExpression(field, this.cx);
    const not = info.negative ? 'NOT ' : '';
    const text = comparableValue(value, 'string', !this.cx.caseSensitive) as string;
    const dialect = this.cx.dialect.rules;
    if (dialect.caseSensitiveMatch === 'glob' && this.cx.caseSensitive) {
      // SQLite's LIKE ignores ASCII case whatever the collation; GLOB does not.
      this.out.sql(`${expr} ${not}GLOB `).param(globPattern(text, position));
    } else {
      // Folded text never holds an upper-case ASCII letter, so SQLite's ASCII
      // case-insensitive LIKE is exact on it.
      const escape = dialect.likeEscape;
      this.out
        .sql(`${expr} ${not}LIKE `)
        .param(likePattern(text, position, escape))
        .sql(` ESCAPE '${escape}'`);
    }
    if (position === 'starts' && !info.negative) this.prefixRange(expr, text);
  }

  /**
   * The range of every text starting with `prefix` in code-point order, the
   * order `compared` expressions have on every dialect: a b-tree on the
   * expression (the sort index's leading key included) reads just that
   * range, where no engine derives one from a LIKE on a folded expression.
   * The LIKE stays for exactness; the range never changes the result.
   */
  private prefixRange(expr: string, prefix: string): void {
    this.out.sql(` AND ${expr} >= `).param(prefix);
    const successor = prefixSuccessor(prefix);
    if (successor !== undefined) this.out.sql(` AND ${expr} < `).param(successor);
  }

  private list(operator: ListOperator, field: ResolvedField, values: readonly TypedScalar[]): void {
    const { nullMatches: orNull, negative: negated } = OPERATORS[operator];
    const raw = this.raw(field);
    if (orNull) this.out.sql(`(${raw} IS NULL OR `);
    const expr = comparedExpression(field, this.cx);
    // One parameter per list on every dialect, so no list length meets an engine's placeholder limit.
    const binding = this.cx.dialect.rules.listMembership(
      expr,
      negated,
      field.type,
      values.map((v) => this.paramValue(field, v)),
    );
    this.out.sql(binding.before).param(binding.param).sql(binding.after);
    if (orNull) this.out.sql(')');
  }

  private param(field: ResolvedField, value: TypedScalar): void {
    const { value: bound, cast } = sqlParameter(field, value, this.cx);
    this.out.param(bound);
    if (cast !== '') this.out.sql(cast);
  }

  /** A checked value in the form the storage convention compares it with. */
  private paramValue(field: ResolvedField, value: TypedScalar): unknown {
    return sqlParameter(field, value, this.cx).value;
  }
}

/**
 * The expression a field is compared and ordered by, around `raw` (a column
 * or a placeholder). Strings are folded (case-insensitive) or pinned to a
 * byte-wise collation (case-sensitive), so `=`, LIKE and ORDER BY all work
 * on code points whatever collation the column was declared with.
 *
 * @example
 * compared(lastName, context, '"LastName"'); // 'lower("LastName" COLLATE "pg_unicode_fast")'
 */
export function compared(field: ResolvedField, cx: CompileContext, raw: string): string {
  if (field.type !== 'string') return raw;
  return cx.dialect.rules.compared(raw, cx.caseSensitive, cx.foldCollation, cx.binaryCollation ?? '');
}

/**
 * One key of an ORDER BY as written: the expression, its direction, and the
 * field it reads (undefined for the tie-breaker column, which is compared
 * as it is stored and never null).
 *
 * @example
 * const key: OrderKey = { expr: '"Id"', direction: 'Asc', field: undefined };
 */
export interface OrderKey {
  readonly expr: string;
  readonly direction: 'Asc' | 'Desc';
  readonly field: ResolvedField | undefined;
}

/**
 * The keys of a typed sort, then the tie-breaker ascending: the single
 * source of the ORDER BY expressions, shared by `compileSortParts`, the seek
 * predicate and the index advisor, so an advised index always matches the
 * emitted ORDER BY. Checks the sort like `compileSortParts`.
 *
 * @example
 * orderKeys(typed, context, 'Id').map((k) => k.expr); // ['lower("LastName" COLLATE "pg_unicode_fast")', '"Id"']
 */
export function orderKeys(sort: TypedSort | undefined, context: CompileContext, tieBreaker?: string): readonly OrderKey[] {
  const out: OrderKey[] = [];
  const keys = sort?.keys ?? [];
  if (keys.length > context.limits.maxSortKeys) {
    sqlError(LIMIT_CODES.maxSortKeys, limitMessage('maxSortKeys', context.limits.maxSortKeys));
  }
  for (const key of keys) {
    const hit = context.schema.lookup(key.field?.name);
    if (hit.found !== 'field' || !hit.exactCase || hit.field.type !== key.field.type) {
      sqlError('unknown-field', `sort field ${JSON.stringify(key.field?.name)} is not a ${key.field?.type} field of the schema`);
    }
    if (key.direction !== 'Asc' && key.direction !== 'Desc') {
      sqlError('invalid-direction', `sort direction ${JSON.stringify(key.direction)} is not Asc or Desc`);
    }
    out.push({ expr: comparedExpression(hit.field, context), direction: key.direction, field: hit.field });
  }
  if (tieBreaker !== undefined) out.push({ expr: context.dialect.rules.quote(tieBreaker), direction: 'Asc', field: undefined });
  return out;
}

/**
 * The expression a field is compared and ordered by in this context (folded
 * or byte-wise for strings, the stored column otherwise); the index advisor
 * indexes exactly this.
 *
 * @example
 * comparedExpression(lastName, context); // 'lower("LastName" COLLATE "pg_unicode_fast")'
 */
export function comparedExpression(field: ResolvedField, context: CompileContext): string {
  if (usesFoldedColumn(field, context)) return context.dialect.rules.quote(foldedColumnName(storedColumn(field, context)));
  return compared(field, context, fieldExpression(field, context.columns, context.dialect));
}

/**
 * Whether a field is compared through its stored folded column in this
 * context: a string, compared case-insensitively, with `foldedColumns` on.
 *
 * @example
 * usesFoldedColumn(lastName, { ...context, foldedColumns: true }); // true
 */
export function usesFoldedColumn(field: Pick<ResolvedField, 'type'>, context: CompileContext): boolean {
  return context.foldedColumns === true && field.type === 'string' && !context.caseSensitive;
}

/**
 * The stored folded twin of a string column: `<column>_folded`, holding
 * `lower(<column> COLLATE <fold>)` in the byte-wise collation `"C"`, so it
 * orders by code point as the folded expression does.
 *
 * @example
 * foldedColumnName('LastName'); // 'LastName_folded'
 */
export function foldedColumnName(column: string): string {
  return `${column}_folded`;
}

/** The column a field is stored in; a field kept in a JSON document has no folded twin. */
function storedColumn(field: Pick<ResolvedField, 'name' | 'path'>, context: CompileContext): string {
  const mapping = context.columns.get(field.name);
  if (mapping === undefined) return defaultColumnName(field);
  if (mapping.kind === 'column') return mapping.column;
  return sqlError(
    'invalid-sql-option',
    `foldedColumns needs ${field.name} in a column of its own, not in the JSON column ${mapping.column}`,
  );
}

/**
 * A typed value as the parameter it is compared with (folded text, a
 * timestamp text or epoch ms, 0/1 booleans on SQLite) and the cast that
 * follows its placeholder (`::timestamptz` for PostgreSQL datetimes, else '').
 *
 * @example
 * sqlParameter(lastName, 'Smith', context); // { value: 'smith', cast: '' }
 */
export function sqlParameter(field: ResolvedField, value: TypedScalar, context: CompileContext): { value: unknown; cast: string } {
  // Seek keys reach here without checkTypedFilter: check them the same way.
  const comparable = comparableValue(value, field.type, !context.caseSensitive);
  if (comparable === undefined) sqlError('invalid-value', `a value for ${field.name} is not a ${field.type}`);
  if (typeof value === 'string' && hasInvalidCharacter(value)) {
    sqlError('invalid-character', `a value for ${field.name} contains U+0000 or an unpaired surrogate, which databases reject`);
  }
  const { rules, storage } = context.dialect;
  return {
    value: storage.storedValue(comparable as string | number | boolean, field.type),
    cast: field.type === 'datetime' ? rules.datetimeParameterCast : '',
  };
}

/**
 * Compiles a typed sort to the parts of an ORDER BY list (without the
 * keyword): each key with `NULLS FIRST` under `ASC` and `NULLS LAST` under
 * `DESC`, then the tie-breaker column ascending. No parts when there is
 * neither. `reverse` writes the exact opposite order (for reading a page
 * backwards from a seek key).
 *
 * @example
 * compileSortParts(typed, context, 'Id'); // [{ sql: 'lower("LastName" COLLATE "pg_unicode_fast") ASC NULLS FIRST, "Id" ASC' }]
 */
export function compileSortParts(
  sort: TypedSort | undefined,
  context: CompileContext,
  tieBreaker?: string,
  reverse = false,
): readonly SqlPart[] {
  const items = orderKeys(sort, context, tieBreaker).map((key) => {
    const asc = (key.direction === 'Asc') !== reverse;
    if (key.field === undefined) return `${key.expr} ${asc ? 'ASC' : 'DESC'}`;
    return `${key.expr} ${context.dialect.rules.orderSuffix(asc ? 'Asc' : 'Desc')}`;
  });
  return items.length === 0 ? [] : [{ sql: items.join(', ') }];
}

/**
 * Writes parts as SQL text with the dialect's placeholders: `$n` counting
 * from `paramStart` in PostgreSQL, `?` in SQLite and MySQL. Returns the text and the
 * parameters in placeholder order.
 *
 * @example
 * renderParts([{ sql: '"Id" = ' }, { param: 5 }], dialectOf('postgres'), 3); // { sql: '"Id" = $3', params: [5] }
 */
export function renderParts(
  parts: readonly SqlPart[],
  dialect: Dialect,
  paramStart = 1,
): { readonly sql: string; readonly params: readonly unknown[] } {
  const { rules } = dialect;
  let sql = '';
  const params: unknown[] = [];
  for (const part of parts) {
    if ('sql' in part) sql += part.sql;
    else {
      sql += rules.placeholder(paramStart + params.length);
      params.push(part.param);
    }
  }
  return { sql, params };
}
