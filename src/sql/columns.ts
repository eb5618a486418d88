/**
 * Where each schema field lives in the table: a plain column (by default
 * the field name, nested paths joined with `_`) or a path inside a JSON
 * column. Also writes the SQL expression that reads a field as its type,
 * so that values which do not convert read as NULL (docs/reference.md §"Filter semantics").
 */
import type { ResolvedField, Schema } from '../schema/schema.js';
import { MAX_DATETIME_MS, MIN_DATETIME_MS, type ScalarType } from '../schema/values.js';
import { sqlDialect, type SqlDialect } from './dialect.js';
import { sqlError } from './errors.js';
import type { ColumnMap } from './to-sql.js';
import { IDENTIFIER_RULE, isIdentifier } from '../ast/lexical.js';

/**
 * A column mapping read and checked.
 *
 * @example
 * const column: ResolvedColumn = { kind: 'json', column: 'address', path: ['zip'] };
 */
export type ResolvedColumn =
  | { readonly kind: 'column'; readonly column: string }
  | { readonly kind: 'json'; readonly column: string; readonly path: readonly string[] };

// JSON keys are written into the SQL text as literals; restricting them to
// identifier characters means no quoting rule of either dialect can be hit.

/**
 * The default column of a field: its name, or for a nested field its path
 * joined with `_` (`Address.Zip` → `Address_Zip`).
 *
 * @example
 * defaultColumnName({ path: ['Address', 'Zip'] }); // 'Address_Zip'
 */
export function defaultColumnName(field: Pick<ResolvedField, 'path'>): string {
  return field.path.join('_');
}

/**
 * Checks a column map against a schema and returns a lookup by field name.
 * Every key must name a scalar field of the schema in its exact spelling
 * (`unknown-field` otherwise, so a typo cannot silently fall back to the
 * default column), and every value must be a column name or a JSON column
 * with a non-empty path of identifier keys (`invalid-sql-option`).
 *
 * @example
 * const columns = resolveColumnMap(schema, { LastName: 'last_name', 'Address.Zip': { json: 'address', path: ['zip'] } });
 * columns.get('LastName'); // { kind: 'column', column: 'last_name' }
 */
export function resolveColumnMap(schema: Schema, map: ColumnMap | undefined): ReadonlyMap<string, ResolvedColumn> {
  const out = new Map<string, ResolvedColumn>();
  if (map === undefined) return out;
  if (typeof map !== 'object' || map === null) sqlError('invalid-sql-option', 'columns must be an object');
  const known = new Set(schema.fields.map((f) => f.name));
  for (const key of Object.keys(map)) {
    if (!known.has(key)) {
      sqlError(
        'unknown-field',
        `columns names ${JSON.stringify(key)}, which is not a field of the schema (use the schema's exact spelling)`,
      );
    }
    out.set(key, readMapping(key, map[key]));
  }
  return out;
}

function readMapping(key: string, value: unknown): ResolvedColumn {
  const where = `columns[${JSON.stringify(key)}]`;
  if (typeof value === 'string') return { kind: 'column', column: value };
  if (typeof value === 'object' && value !== null) {
    if (Object.hasOwn(value, 'column') && typeof (value as { column: unknown }).column === 'string') {
      return { kind: 'column', column: (value as { column: string }).column };
    }
    if (Object.hasOwn(value, 'json') && typeof (value as { json: unknown }).json === 'string') {
      const path = (value as { path?: unknown }).path;
      if (!Array.isArray(path) || path.length === 0 || path.length > 32) {
        sqlError('invalid-sql-option', `${where}.path must be an array of 1 to 32 keys`);
      }
      for (const segment of path) {
        if (typeof segment !== 'string' || !isIdentifier(segment)) {
          sqlError('invalid-sql-option', `${where}.path has key ${JSON.stringify(segment)}; JSON keys must match ${IDENTIFIER_RULE}`);
        }
      }
      return { kind: 'json', column: (value as { json: string }).json, path: Object.freeze([...(path as string[])]) };
    }
  }
  return sqlError('invalid-sql-option', `${where} must be a column name, { column }, or { json, path }`);
}

/**
 * The SQL expression reading a field as its type (no parameters: only
 * identifiers and fixed text). A plain column is read as stored; a JSON
 * value is read only when its JSON type fits the field's type, so anything
 * else reads as NULL, as the evaluator treats it (docs/reference.md §"Filter semantics").
 *
 * @example
 * fieldExpression({ name: 'LastName', path: ['LastName'], type: 'string' }, new Map(), 'postgres'); // '"LastName"'
 */
export function fieldExpression(
  field: Pick<ResolvedField, 'name' | 'path' | 'type'>,
  columns: ReadonlyMap<string, ResolvedColumn>,
  dialect: SqlDialect,
): string {
  const mapping = columns.get(field.name) ?? { kind: 'column', column: defaultColumnName(field) };
  const rules = sqlDialect(dialect);
  const column = rules.quote(mapping.column);
  return mapping.kind === 'column' ? column : rules.jsonValue(column, mapping.path, field.type);
}

// Exactly the forms `parseDatetimeText` accepts; impossible dates are
// caught by `pg_input_is_valid` below. `[0-9]`, never `\d`: under an ICU
// collation `\d` matches every Unicode digit (`٢`), which the evaluator
// refuses and the `::interval` cast below would fail the whole query on.
const DATETIME_REGEX =
  "'^[0-9]{4}-[0-9]{2}-[0-9]{2}(T([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]+)?)?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?)?$'";

const POSTGRES_MIN_INSTANT = `'${new Date(MIN_DATETIME_MS).toISOString()}'::timestamptz`;
const POSTGRES_MAX_INSTANT = `'${new Date(MAX_DATETIME_MS).toISOString()}'::timestamptz`;

/**
 * The PostgreSQL expression reading a key path of a `jsonb` column as a
 * field of `type`, NULL when the JSON value's type does not fit.
 *
 * @example
 * postgresJsonValue('"doc"', ['Age'], 'boolean');
 * // `(CASE WHEN jsonb_typeof(("doc" -> 'Age')) = 'boolean' THEN (("doc" -> 'Age') #>> '{}')::boolean END)`
 */
export function postgresJsonValue(column: string, path: readonly string[], type: ScalarType): string {
  // Keys are identifier-shaped (checked above), so a plain literal is safe.
  const node = `(${column} -> ${path.map((k) => `'${k}'`).join(' -> ')})`;
  const text = `(${node} #>> '{}')`;
  switch (type) {
    case 'string':
      return `(CASE WHEN jsonb_typeof(${node}) = 'string' THEN ${text} END)`;
    case 'number':
      return `(CASE WHEN jsonb_typeof(${node}) = 'number' THEN ${text}::double precision END)`;
    case 'integer':
      // Nested CASE: PostgreSQL does not promise to evaluate AND left to
      // right, and the numeric cast must not see a non-number.
      return (
        `(CASE WHEN jsonb_typeof(${node}) = 'number' THEN CASE WHEN ${text}::numeric % 1 = 0` +
        ` AND abs(${text}::numeric) <= 9007199254740991 THEN ${text}::numeric::bigint END END)`
      );
    case 'boolean':
      return `(CASE WHEN jsonb_typeof(${node}) = 'boolean' THEN ${text}::boolean END)`;
    case 'datetime': {
      // Read like parseDatetimeText, not like PostgreSQL's own input: the
      // fraction is cut (not rounded) to milliseconds, no zone means UTC
      // whatever the session's TimeZone, and the offset is subtracted as an
      // interval, since timestamptz input refuses offsets beyond ±15:59.
      const local = `regexp_replace(regexp_replace(${text}, '(Z|[+-][0-9]{2}:[0-9]{2})$', ''), '(\\.[0-9]{3})[0-9]+$', '\\1')`;
      const offset = `COALESCE(substring(${text} from '[+-][0-9]{2}:[0-9]{2}$')::interval, interval '0')`;
      // An offset can carry 0001-01-01 into year 0000 or 9999-12-31 into
      // 10000: out of range, so null, as in memory (parseDatetimeText).
      const instant = `((${local}::timestamp AT TIME ZONE 'UTC') - ${offset})`;
      return (
        `(CASE WHEN jsonb_typeof(${node}) = 'string' AND ${text} ~ ${DATETIME_REGEX}` +
        ` AND pg_input_is_valid(${local}, 'timestamp')` +
        ` THEN CASE WHEN ${instant} BETWEEN ${POSTGRES_MIN_INSTANT} AND ${POSTGRES_MAX_INSTANT} THEN ${instant} END END)`
      );
    }
  }
}

/**
 * The SQLite expression reading a key path of a JSON text column as a field
 * of `type`, NULL when the JSON value's type does not fit.
 *
 * @example
 * sqliteJsonValue('"doc"', ['Age'], 'boolean');
 * // `(CASE json_type("doc", '$.Age') WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`
 */
export function sqliteJsonValue(column: string, path: readonly string[], type: ScalarType): string {
  const p = `'$.${path.join('.')}'`;
  const value = `json_extract(${column}, ${p})`;
  const jsonType = `json_type(${column}, ${p})`;
  switch (type) {
    case 'string':
      return `(CASE WHEN ${jsonType} = 'text' THEN ${value} END)`;
    case 'number':
      return `(CASE WHEN ${jsonType} IN ('integer', 'real') THEN ${value} END)`;
    case 'integer':
      return (
        `(CASE WHEN ${jsonType} IN ('integer', 'real') AND ${value} = CAST(${value} AS INTEGER)` +
        ` AND abs(${value}) <= 9007199254740991 THEN CAST(${value} AS INTEGER) END)`
      );
    case 'boolean':
      return `(CASE ${jsonType} WHEN 'true' THEN 1 WHEN 'false' THEN 0 END)`;
    case 'datetime':
      return `(CASE WHEN ${jsonType} = 'text' THEN wepql_datetime(${value}) END)`;
  }
}
