/**
 * Reading a field path from a record without touching the prototype chain
 * (SPEC §6): `__proto__`, `constructor` and `toString` are ordinary names
 * that are absent unless the record has them as own properties.
 */

const hasOwn = Object.hasOwn;
const isArray = Array.isArray;
const getPrototypeOf = Object.getPrototypeOf;
const OBJECT_PROTOTYPE = Object.prototype as Record<string, unknown>;

/**
 * True when `record.key` can only find an own property: the record's
 * prototype is `Object.prototype` (or none) and `Object.prototype` has no
 * `key` (it has `constructor`, `toString`, `__proto__`, … and whatever
 * prototype pollution added). This costs a load where `Object.hasOwn` costs a
 * call, which matters at millions of records a second. It trusts
 * `Object.prototype` not to carry getters that answer differently for
 * different receivers — a getter there is code already running in the
 * process, not hostile data (JSON.parse never creates one).
 *
 * @example
 * plainRead({ a: 1 }, 'a');           // true
 * plainRead({ a: 1 }, 'constructor'); // false: use Object.hasOwn
 */
export function plainRead(record: object, key: string): boolean {
  const proto: unknown = getPrototypeOf(record);
  return (proto === OBJECT_PROTOTYPE || proto === null) && OBJECT_PROTOTYPE[key] === undefined;
}

/**
 * True for a value whose own properties may hold fields: a non-null,
 * non-array object. Records and nested objects alike.
 *
 * @example
 * isFieldHolder({ a: 1 }); // true
 * isFieldHolder([1]);      // false
 */
export function isFieldHolder(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !isArray(value);
}

/**
 * The value at a path of own properties, or `undefined` when any step is
 * missing, inherited, or not an object to step into.
 *
 * @example
 * readField({ Address: { Zip: '02134' } }, ['Address', 'Zip']); // '02134'
 * readField({}, ['constructor']);                                // undefined
 */
export function readField(record: unknown, path: readonly string[]): unknown {
  let at: unknown = record;
  for (let i = 0; i < path.length; i++) {
    if (!isFieldHolder(at)) return undefined;
    const key = path[i]!;
    if (!hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/**
 * A reader specialised for one path: the same answer as `readField`, with
 * the one-segment case (most fields) kept short for the engine.
 *
 * @example
 * const readZip = fieldReader(['Address', 'Zip']);
 * readZip({ Address: { Zip: '02134' } }); // '02134'
 */
export function fieldReader(path: readonly string[]): (record: unknown) => unknown {
  if (path.length === 1) {
    const key = path[0]!;
    return (record) =>
      isFieldHolder(record) && (plainRead(record, key) || hasOwn(record, key)) ? (record as Record<string, unknown>)[key] : undefined;
  }
  const steps = [...path];
  return (record) => readField(record, steps);
}
