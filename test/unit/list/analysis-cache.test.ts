/**
 * The analysed-query cache of the list handler: bounded by the bytes its
 * entries really hold (a size model that never counts less than the heap
 * keeps, checked here against heap measurements), and keyed so that two
 * sets of limits never share an entry.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { defineSchema } from '../../../src/index.js';
import { analyzeListQuery } from '../../../src/list/request.js';
import { retainedSize } from '../../../src/list/bounded-cache.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapUsed(): number {
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

const schema = defineSchema({ fields: { Id: { type: 'integer' }, Name: { type: 'string', nullable: true } } });

/** A filter nested 31 groups deep around one condition: few characters, many nodes. */
const nested = (i: number) => `${'Or('.repeat(31)}Id.Equal(${i})${')'.repeat(31)}`;

const MB = 1 << 20;

describe('analysis-cache-exceeds-16mb', () => {
  // First in the file: the cache is empty when it starts.
  it('4,000 nested filters keep the cache within 16 MB of heap', () => {
    const base = heapUsed();
    for (let i = 0; i < 4000; i++) analyzeListQuery(nested(i), '', { schema });
    const grown = heapUsed() - base;
    // 16 MB of entries, and the map that holds them.
    expect(grown).toBeLessThan(17 * MB);
    // The cache still serves: the latest analysis comes back as the same object.
    expect(analyzeListQuery(nested(3999), '', { schema })).toBe(analyzeListQuery(nested(3999), '', { schema }));
  });

  it('the size model counts at least what the heap keeps for an analysis', () => {
    // Held in an array, not the cache: the heap growth is the analyses' own.
    const base = heapUsed();
    const kept = Array.from({ length: 1500 }, (_, i) =>
      analyzeListQuery(nested(1_000_000 + i), 'Name=Asc', { schema, limits: { maxErrors: 7 } }),
    );
    const grown = heapUsed() - base;
    const fields = new Set<object>(schema.fields);
    const modelled = kept.reduce((sum, a) => sum + retainedSize(a, (o) => fields.has(o)), 0);
    expect(modelled).toBeGreaterThanOrEqual(grown);
    expect(kept).toHaveLength(1500);
  });
});

describe('analysis-cache-limits-key-collision', () => {
  // 300 conditions: within maxConditions: Infinity, past the default 256 that NaN (ignored) leaves.
  const filter = Array.from({ length: 300 }, (_, i) => `Id.NotEqual(${i})`).join(';');

  it.each([
    ['Infinity then NaN', Infinity, Number.NaN],
    ['NaN then Infinity', Number.NaN, Infinity],
    ['Infinity then -Infinity', Infinity, -Infinity],
  ])('%s: each limit gets its own analysis', (_title, first, second) => {
    const expected = (limit: number) => (limit === Infinity ? 0 : 1);
    const a = analyzeListQuery(filter, '', { schema, limits: { maxConditions: first } });
    const b = analyzeListQuery(filter, '', { schema, limits: { maxConditions: second } });
    expect(a.errors.length).toBe(expected(first));
    expect(b.errors.length).toBe(expected(second));
  });
});
