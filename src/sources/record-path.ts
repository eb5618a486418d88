/**
 * Rebuilding a record from the columns of a SQL row: each schema field's value
 * is put back at its path. Shared by the PostgreSQL and MySQL data sources.
 */

/**
 * Sets `value` at `path` inside `record`, creating the objects on the way.
 * Every property is defined as the record's own, so a path segment such as
 * `__proto__` makes a plain key and never reaches a prototype.
 *
 * @example
 * const record = {};
 * setAtPath(record, ['Address', 'City'], 'Oslo'); // record is { Address: { City: 'Oslo' } }
 */
export function setAtPath(record: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let target = record;
  for (const segment of path.slice(0, -1)) {
    const next = Object.hasOwn(target, segment) ? target[segment] : undefined;
    target = (typeof next === 'object' && next !== null ? next : defineOwn(target, segment, {})) as Record<string, unknown>;
  }
  defineOwn(target, path[path.length - 1]!, value);
}

function defineOwn(target: Record<string, unknown>, key: string, value: unknown): unknown {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return value;
}
