/**
 * Where each schema field lives in the table: a plain column (by default
 * the field name, nested paths joined with `_`) or a path inside a JSON
 * column. Also writes the SQL expression that reads a field as its type,
 * so that values which do not convert read as NULL (docs/reference.md §"Filter semantics").
 */
import type { ResolvedField, Schema } from '../schema/schema.js';
import type { Dialect } from './dialects/dialect.js';
import { sqlError } from './errors.js';
import { IDENTIFIER_RULE, isIdentifier } from '../ast/lexical.js';

/**
 * Where a field is stored: a column name, or a JSON column (`jsonb` in
 * PostgreSQL, JSON text in SQLite) and the key path inside it.
 *
 * @example
 * const zip: ColumnMapping = { json: 'address', path: ['zip'] };
 */
export type ColumnMapping = string | { readonly column: string } | { readonly json: string; readonly path: readonly string[] };

/**
 * Field name (schema spelling, `Address.Zip` for nested) → where it is stored.
 *
 * @example
 * const columns: ColumnMap = { LastName: 'last_name', 'Address.Zip': { json: 'address', path: ['zip'] } };
 */
export type ColumnMap = Readonly<Record<string, ColumnMapping>>;

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
 * fieldExpression({ name: 'LastName', path: ['LastName'], type: 'string' }, new Map(), dialectOf('postgres')); // '"LastName"'
 */
export function fieldExpression(
  field: Pick<ResolvedField, 'name' | 'path' | 'type'>,
  columns: ReadonlyMap<string, ResolvedColumn>,
  dialect: Dialect,
): string {
  const mapping = columns.get(field.name) ?? { kind: 'column', column: defaultColumnName(field) };
  const { rules } = dialect;
  const column = rules.quote(mapping.column);
  return mapping.kind === 'column' ? column : rules.jsonValue(column, mapping.path, field.type);
}
