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
