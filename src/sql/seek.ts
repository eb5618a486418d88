/**
 * The seek (keyset) predicate: the rows strictly after, or strictly before,
 * one row's sort key in the order `compileSortParts` writes (docs/reference.md §"Sort
 * semantics": mixed
 * directions, NULL first under ASC and last under DESC, the tie-breaker
 * last). Paging by it costs the same on page 10,000 as on page 2, where
 * OFFSET walks past every earlier row.
 */
import type { ScalarType } from '../schema/values.js';
import type { TypedScalar, TypedSort } from '../ast/typed-tree.js';
import {
  PartWriter,
  compared,
  orderKeys,
  sqlParameter,
  usesFoldedColumn,
  type CompileContext,
  type OrderKey,
  type SqlPart,
} from './compile.js';
import type { SeekValue } from './dialects/dialect.js';
import { sqlError } from './errors.js';

export type { SeekValue } from './dialects/dialect.js';

/**
 * A row's sort key: one value per sort key, then the tie-breaker's.
 *
 * @example
 * const key: SeekKey = ['Smith', 1042]; // sort LastName=Asc, tie-breaker Id
 */
export type SeekKey = readonly SeekValue[];

/**
 * Where to seek: the rows after `after` in sort order, or the rows before
 * `before` (which `toSql` then orders backwards, nearest first; reverse the
 * rows you read).
 *
 * @example
 * const next: Seek = { after: ['Smith', 1042] };
 * const prev: Seek = { before: ['Adams', 17] };
 */
export type Seek = ({ readonly after: SeekKey } | { readonly before: SeekKey }) & {
  /**
   * Only the rows whose first sort key is (`'null'`) or is not (`'not-null'`)
   * NULL. A walk towards smaller values of the first key (a `Desc` sort
   * going forward, an `Asc` one going back) meets NULLs last; asking for the
   * non-NULL rows first gives the index a range to start from, and the NULL
   * rows (`IS NULL`, also an index range) are read only when the page is not
   * yet full.
   */
  readonly firstKey?: 'null' | 'not-null';
};

/**
 * Compiles the seek predicate (without WHERE; joined with AND to the
 * filter). When every key walks towards larger values (all `Asc` going
 * forward, or all `Desc` going back) from non-NULL values, it is one
 * row-value comparison an index seeks to; otherwise a leading range on the
 * first key that an index on the ORDER BY can serve, then the exact
 * lexicographic comparison. Every value is a
 * bound parameter. Throws `WepqlError` (`invalid-value`) when the key does
 * not have one value of the right type per ORDER BY key.
 *
 * @example
 * compileSeekParts(typedSort, context, 'Id', { after: ['Smith', 1042] });
 * // lower("LastName" …) >= $1 AND (lower("LastName" …) > $2 OR (lower("LastName" …) = $3 AND "Id" > $4))
 */
export function compileSeekParts(
  sort: TypedSort | undefined,
  context: CompileContext,
  tieBreaker: string | undefined,
  seek: Seek,
): readonly SqlPart[] {
  const keys = orderKeys(sort, context, tieBreaker);
  const forward = 'after' in seek;
  const values = forward ? seek.after : seek.before;
  if (keys.length === 0) sqlError('invalid-sql-option', 'seeking needs a sort or a tieBreaker');
  if (!Array.isArray(values) || values.length !== keys.length) {
    sqlError('invalid-value', `a seek key needs ${keys.length} values (one per sort key and the tie-breaker)`);
  }
  const out = new Writer();
  // postgres_fdw ships no row-value comparison: with folded columns (written for it), the lexicographic form.
  const rowValue = context.foldedColumns === true ? undefined : rowValueRelation(keys, values, forward, seek);
  writeFirstKeyScope(out, { keys, values, forward, context }, seek, rowValue);
  if (rowValue !== undefined) {
    // One row-value comparison, which a b-tree on the ORDER BY seeks to directly. Walking upward,
    // NULLs (the smallest) are all behind the cursor, and a row comparison meeting a NULL is not
    // true, so they stay out as they should.
    out.sql(`(${keys.map((k) => k.expr).join(', ')}) ${rowValue} (`);
    keys.forEach((k, i) => {
      if (i > 0) out.sql(', ');
      out.keyValue(k, values[i]!, context);
    });
    return out.sql(')').parts;
  }
  writeLexicographic(out, { keys, values, forward, context });
  return out.parts;
}

/** What the parts of a seek predicate are written from. */
interface SeekWalk {
  readonly keys: readonly OrderKey[];
  readonly values: SeekKey;
  /** Whether the rows after the key are wanted (else those before it). */
  readonly forward: boolean;
  readonly context: CompileContext;
}

/**
 * The relation of a single row-value comparison equivalent to the seek, or
 * undefined when NULLs could lie ahead and it would drop them: `>` when
 * every key walks towards larger values from non-NULL values; `<` when
 * every key walks towards smaller ones and only the first key (its NULLs
 * excluded by `firstKey: 'not-null'`) and the never-NULL tie-breaker are keyed.
 */
function rowValueRelation(keys: readonly OrderKey[], values: SeekKey, forward: boolean, seek: Seek): '>' | '<' | undefined {
  if (keys.length <= 1 || values.some((v) => v === null)) return undefined;
  const upward = (k: OrderKey) => (k.direction === 'Asc') === forward;
  if (keys.every(upward)) return '>';
  const downwardFirstOnly =
    seek.firstKey === 'not-null' && keys.every((k) => !upward(k)) && keys.slice(1).every((k) => k.field === undefined);
  return downwardFirstOnly ? '<' : undefined;
}

/** The `firstKey` scope (`IS NULL`, `IS NOT NULL` or a `<=` start), followed by `AND`. */
function writeFirstKeyScope(out: Writer, { keys, values, forward, context }: SeekWalk, seek: Seek, rowValue: string | undefined): void {
  const first = keys[0]!;
  if (seek.firstKey === 'null') out.sql(`${first.expr} IS NULL AND `);
  // A row comparison already keeps NULL first keys out, and a second bound would give the index two starts to choose from.
  else if (seek.firstKey === 'not-null' && rowValue === undefined) {
    // Towards smaller values past a non-NULL: `<=` is the index's start and keeps NULLs out; otherwise IS NOT NULL.
    if (values[0] !== null && (first.direction === 'Asc') !== forward)
      out.sql(`${first.expr} <= `).keyValue(first, values[0]!, context).sql(' AND ');
    else out.sql(`${first.expr} IS NOT NULL AND `);
  }
}

/**
 * The exact lexicographic test, after a leading range on the first key an
 * index can start from: OR over i of (k1 = v1 AND … AND k(i-1) = v(i-1) AND
 * ki beyond vi); a term beyond a NULL that nothing follows is dropped.
 */
function writeLexicographic(out: Writer, { keys, values, forward, context }: SeekWalk): void {
  // With one key the exact test is itself a plain range.
  const bound = keys.length > 1 ? leadingBound(keys[0]!, values[0]!, forward) : undefined;
  if (bound === 'nulls') out.sql(`${keys[0]!.expr} IS NULL AND `);
  else if (bound !== undefined) out.sql(`${keys[0]!.expr} ${bound} `).keyValue(keys[0]!, values[0]!, context).sql(' AND ');
  const terms: Array<(w: Writer) => void> = [];
  for (let i = 0; i < keys.length; i++) {
    const beyond = beyondTest(keys[i]!, values[i]!, forward);
    if (beyond === undefined) continue;
    terms.push((w) => {
      const tests = [...keys.slice(0, i).map((k, j) => equalTest(k, values[j]!)), beyond];
      if (tests.length > 1) w.sql('(');
      tests.forEach((test, j) => {
        if (j > 0) w.sql(' AND ');
        test(w, context);
      });
      if (tests.length > 1) w.sql(')');
    });
  }
  if (terms.length === 0) {
    out.sql('FALSE');
    return;
  }
  if (terms.length > 1) out.sql('(');
  terms.forEach((term, i) => {
    if (i > 0) out.sql(' OR ');
    term(out);
  });
  if (terms.length > 1) out.sql(')');
}

type Test = (w: Writer, cx: CompileContext) => void;

/** The compiler's part writer, plus a seek key's value written the way its column compares. */
class Writer extends PartWriter {
  keyValue(key: OrderKey, value: SeekValue, cx: CompileContext): this {
    if (key.field === undefined) {
      // The tie-breaker: compared as stored, never NULL.
      if (typeof value !== 'number' && typeof value !== 'string')
        sqlError('invalid-value', 'the tie-breaker value of a seek key must be a number or text');
      return this.param(value);
    }
    if (key.field.type === 'string') {
      // The key's text is folded by the database, exactly as the column is: where its case mapping
      // differs from toLowerCase (older servers' İ and final Σ) the seek still lands between the right rows.
      if (typeof value !== 'string') sqlError('invalid-value', `a seek value for ${key.field.name} must be text or null`);
      // A folded column's key is that column's own stored text (the SQL data source reads it back as the key).
      if (usesFoldedColumn(key.field, cx)) return this.param(value);
      const [before, after] = compared(key.field, cx, `\u0000${cx.dialect.rules.textParameterCast}`).split('\u0000') as [string, string];
      this.sql(before);
      this.param(value);
      return this.sql(after);
    }
    const exact = exactEngineValue(key.field.type, value, cx);
    if (exact !== undefined) return this.param(value).sql(exact);
    const bound = sqlParameter(key.field, typed(key, value), cx);
    this.param(bound.value);
    return bound.cast === '' ? this : this.sql(bound.cast);
  }
}

/**
 * The cast that reads a seek value given as the engine's exact text back as
 * the column's type (PostgreSQL: a timestamptz at microseconds, non-finite
 * doubles), or undefined when the value is not such text (it then goes
 * through `sqlParameter` like any value).
 */
function exactEngineValue(type: ScalarType, value: SeekValue, cx: CompileContext): string | undefined {
  return typeof value === 'string' ? cx.dialect.rules.exactTextCast(type, value) : undefined;
}

/** A seek value read back as the typed value its field compares with. */
function typed(key: OrderKey, value: SeekValue): TypedScalar {
  if (key.field?.type === 'datetime') {
    if (typeof value !== 'number') sqlError('invalid-value', `a seek value for ${key.field.name} must be epoch milliseconds`);
    return new Date(value);
  }
  return value as TypedScalar;
}

function equalTest(key: OrderKey, value: SeekValue): Test {
  if (value === null) return (w) => w.sql(`${key.expr} IS NULL`);
  return (w, cx) => w.sql(`${key.expr} = `).keyValue(key, value, cx);
}

/**
 * `key` strictly beyond `value` in the walking direction; undefined when no
 * row can be (after a NULL under DESC, before a NULL under ASC).
 */
function beyondTest(key: OrderKey, value: SeekValue, forward: boolean): Test | undefined {
  const ascending = (key.direction === 'Asc') === forward;
  if (key.field === undefined) return (w, cx) => w.sql(`${key.expr} ${ascending ? '>' : '<'} `).keyValue(key, value, cx);
  // Walking towards larger values: NULL (the smallest) is behind; towards smaller ones, NULL is always ahead.
  if (ascending) {
    if (value === null) return (w) => w.sql(`${key.expr} IS NOT NULL`);
    return (w, cx) => w.sql(`${key.expr} > `).keyValue(key, value, cx);
  }
  if (value === null) return undefined;
  return (w, cx) => w.sql(`(${key.expr} < `).keyValue(key, value, cx).sql(` OR ${key.expr} IS NULL)`);
}

/**
 * A range on the first key implied by the seek that a b-tree index can use
 * as its start: `>=`/`<=` towards larger values past a non-NULL, or `IS NULL`
 * when only NULLs can follow. Redundant with the exact test, never wrong.
 */
function leadingBound(key: OrderKey, value: SeekValue, forward: boolean): '>=' | 'nulls' | undefined {
  const ascending = (key.direction === 'Asc') === forward;
  if (key.field === undefined) return ascending ? '>=' : undefined;
  if (ascending) return value === null ? undefined : '>=';
  return value === null ? 'nulls' : undefined;
}
