import { describe, expect, it } from 'vitest';
import { setAtPath } from '../../../src/sources/record-path.js';

describe('setAtPath (rebuilding SQL rows into records)', () => {
  it('creates the objects on the way and keeps earlier siblings', () => {
    const record: Record<string, unknown> = {};
    setAtPath(record, ['Address', 'City'], 'Oslo');
    setAtPath(record, ['Address', 'Zip'], '0150');
    setAtPath(record, ['Id'], 7);
    expect(record).toEqual({ Address: { City: 'Oslo', Zip: '0150' }, Id: 7 });
  });

  it('makes __proto__ a plain own key, never a prototype', () => {
    const record: Record<string, unknown> = {};
    setAtPath(record, ['__proto__', 'polluted'], true);
    expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
    expect(Object.hasOwn(record, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
