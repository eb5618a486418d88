/**
 * A least-recently-used map bounded in entries and in bytes, for caches that
 * a client's requests fill: the analysed filter and sort texts of the list
 * handler, the filtered and sorted results of the memory source. Every entry
 * counts, an empty result too, and so does its key: a client sending
 * distinct texts fills the cache only up to its budget.
 */

/**
 * Options of `createBoundedCache`.
 *
 * @example
 * const options: BoundedCacheOptions = { maxEntries: 1000, maxBytes: 4 << 20 };
 */
export interface BoundedCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
}

/**
 * A least-recently-used map bounded in entries and in bytes.
 *
 * @example
 * const cache = createBoundedCache<number>({ maxEntries: 2, maxBytes: 100 }); cache.set('a', 1, 10); cache.get('a'); // 1
 */
export interface BoundedCache<V> {
  get(key: string): V | undefined;
  /** The value under `key` without counting it as used. */
  peek(key: string): V | undefined;
  /** Keeps `value` under `key`, counted as `bytes` plus the key's own size; a value larger than the budget is not kept. */
  set(key: string, value: V, bytes: number): void;
  readonly size: number;
  readonly bytes: number;
}

/**
 * Creates a bounded LRU map.
 *
 * @example
 * const cache = createBoundedCache<string>({ maxEntries: 100, maxBytes: 1 << 20 });
 */
export function createBoundedCache<V>(options: BoundedCacheOptions): BoundedCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: V; bytes: number }>();
  let held = 0;
  const drop = (key: string) => {
    const old = entries.get(key);
    if (old === undefined) return;
    entries.delete(key);
    held -= old.bytes;
  };
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit === undefined) return undefined;
      entries.delete(key);
      entries.set(key, hit);
      return hit.value;
    },
    peek(key) {
      return entries.get(key)?.value;
    },
    set(key, value, bytes) {
      drop(key);
      // UTF-16 code units are two bytes each.
      const size = bytes + key.length * 2;
      if (size > options.maxBytes || options.maxEntries < 1) return;
      entries.set(key, { value, bytes: size });
      held += size;
      for (const oldest of entries.keys()) {
        if (held <= options.maxBytes && entries.size <= options.maxEntries) break;
        drop(oldest);
      }
    },
    get size() {
      return entries.size;
    },
    get bytes() {
      return held;
    },
  };
}

const ids = new WeakMap<object, number>();
let nextId = 1;

/**
 * A small number naming an object for the life of the process, for cache keys
 * that must tell schemas or policies apart without holding on to them.
 *
 * @example
 * identityOf(employeeSchema) === identityOf(employeeSchema); // true
 */
export function identityOf(object: object): number {
  let id = ids.get(object);
  if (id === undefined) ids.set(object, (id = nextId++));
  return id;
}

/**
 * The bytes an object graph holds on Node's V8 heap (64-bit, no pointer
 * compression), by a size model that never counts less than the engine
 * keeps, so a cache bounded by it stays within its budget. The constants
 * cover the dearest layout V8 picks for the shape, measured on Node 20 with
 * 100,000 copies each: a literal `{ start, end }` takes 40 bytes, an empty
 * literal 56 (slack for four properties), a five-property object built
 * with a spread 295 (dictionary properties), an array of one element made
 * by `push` 184 (room for 17):
 *
 * - an object: 64 bytes and 48 per own property;
 * - an array: 64 bytes and 8 per element, for at least 17 elements;
 * - a string: 24 bytes and 2 per UTF-16 code unit, for every occurrence
 *   (two-byte text, a copy for each: a one-byte, shared or sliced string
 *   costs less, never more);
 * - a number that is not a small integer: 16 bytes (a heap number); a
 *   bigint: 16 and 8 per 64 bits; booleans, null and undefined: nothing.
 *
 * Each object is counted once however often it is reached; objects for
 * which `shared` answers true (owned by something that outlives the cache
 * entry, such as a schema's fields) cost only the pointer to them. The walk
 * uses its own stack, so a deep graph cannot overflow the call stack.
 *
 * @example
 * retainedSize({ kind: 'x', values: [1, 2.5] }); // 64 + 96 (two properties) + 26 ('x') + 64 + 136 (17 slots) + 16 (2.5) = 402
 */
export function retainedSize(root: unknown, shared?: (object: object) => boolean): number {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  let bytes = 0;
  while (stack.length > 0) {
    const value = stack.pop();
    switch (typeof value) {
      case 'string':
        bytes += STRING_HEADER + value.length * 2;
        continue;
      case 'number':
        if (!(Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31 && !Object.is(value, -0))) bytes += HEAP_NUMBER;
        continue;
      case 'bigint':
        bytes += HEAP_NUMBER + 8 * Math.ceil((value < 0n ? -value : value).toString(16).length / 16);
        continue;
      case 'object':
      case 'function':
        break;
      default:
        continue;
    }
    if (value === null || seen.has(value) || shared?.(value) === true) continue;
    seen.add(value);
    if (Array.isArray(value)) {
      bytes += ARRAY_HEADER + POINTER * Math.max(value.length, ARRAY_MIN_SLOTS);
      for (const item of value as readonly unknown[]) stack.push(item);
      continue;
    }
    const keys = Object.keys(value);
    bytes += OBJECT_HEADER + PROPERTY * keys.length;
    for (const key of keys) stack.push((value as Record<string, unknown>)[key]);
  }
  return bytes;
}

const POINTER = 8;
const PROPERTY = 48;
const OBJECT_HEADER = 64;
const ARRAY_HEADER = 64;
const ARRAY_MIN_SLOTS = 17;
const STRING_HEADER = 24;
const HEAP_NUMBER = 16;
