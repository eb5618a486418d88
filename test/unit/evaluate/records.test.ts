import { afterEach, describe, expect, it } from 'vitest';
import type { SchemaDefinition } from '../../../src/index.js';
import { compileFilter, defineSchema, sortRecords } from '../../../src/index.js';
import { STRATEGIES, schema } from './fixtures.js';

const protoWith = <T extends object>(proto: object, own: T): T => Object.assign(Object.create(proto) as T, own);

describe.each(STRATEGIES)('fields are own properties only (%s)', (strategy) => {
  const matches = (filter: string, record: unknown): boolean => compileFilter(filter, { schema, strategy })(record);

  it.each([
    ['constructor.IsNull()', {}, true],
    ['constructor.IsNotNull()', {}, false],
    ['constructor.Equal(x)', { constructor: 'X' }, true],
    ['constructor.Equal(x)', JSON.parse('{"constructor":"x"}'), true],
    ['toString.IsNull()', {}, true],
    ['toString.Equal(3)', { toString: 3 }, true],
    ['S.IsNull()', protoWith({ S: 'inherited' }, {}), true],
    ['S.Equal(inherited)', protoWith({ S: 'inherited' }, {}), false],
    ['S.Equal(own)', protoWith({ S: 'inherited' }, { S: 'own' }), true],
    ['S.Equal(a)', Object.assign(Object.create(null) as object, { S: 'a' }), true],
    ['S.IsNull()', Object.create(null) as object, true],
    ['Obj.City.Equal(boston)', { Obj: { City: 'Boston' } }, true],
    ['Obj.City.IsNull()', { Obj: protoWith({ City: 'Boston' }, {}) }, true],
    ['Obj.City.IsNull()', protoWith({ Obj: { City: 'Boston' } }, {}), true],
    ['Obj.City.IsNull()', { Obj: 'Boston' }, true],
    ['Obj.City.IsNull()', { Obj: [{ City: 'Boston' }] }, true],
    ['Obj.City.IsNull()', { Obj: null }, true],
    ['Obj.City.IsNull()', {}, true],
    ['Obj.City.NotEqual(x)', { Obj: {} }, false],
  ] as const)('%s on %o is %s', (filter, record, expected) => {
    expect(matches(filter, record)).toBe(expected);
  });

  it.each([null, undefined, 42, 'S', true, [], [{ S: 'a' }]])('a record that is not an object (%o) has only null fields', (record) => {
    expect(matches('S.IsNull();N.IsNull();Obj.City.IsNull()', record)).toBe(true);
    expect(matches('S.IsNotNull()', record)).toBe(false);
    expect(matches('S.NotEqual(a)', record)).toBe(false);
  });

  it('a field named __proto__ reads the own property JSON.parse creates, never the prototype', () => {
    // JSON.parse makes "__proto__" an own key, as a schema file would.
    const s = defineSchema(JSON.parse('{"fields":{"__proto__":{"type":"string","nullable":true}}}') as SchemaDefinition);
    const own = JSON.parse('{"__proto__":"x"}') as unknown;
    expect(compileFilter('__proto__.Equal(x)', { schema: s, strategy })(own)).toBe(true);
    expect(compileFilter('__proto__.IsNull()', { schema: s, strategy })({})).toBe(true);
    expect(compileFilter('__proto__.IsNull()', { schema: s, strategy })(Object.create(null) as object)).toBe(true);
  });

  describe('with Object.prototype polluted', () => {
    afterEach(() => {
      delete (Object.prototype as Record<string, unknown>)['S'];
    });
    it('an inherited value is still absent and an own value still present', () => {
      const predicate = compileFilter('S.IsNull()', { schema, strategy });
      const equal = compileFilter('S.Equal(polluted)', { schema, strategy });
      (Object.prototype as Record<string, unknown>)['S'] = 'polluted';
      expect(predicate({})).toBe(true);
      expect(equal({})).toBe(false);
      expect(equal({ S: 'polluted' })).toBe(true);
      expect(predicate({ S: 'own' })).toBe(false);
    });
  });

  describe('with an accessor on Object.prototype that reads undefined on the prototype itself', () => {
    afterEach(() => {
      delete (Object.prototype as Record<string, unknown>)['S'];
    });
    it('the inherited accessor is never called for a plain record', () => {
      // `Object.prototype.S` reads undefined, yet a plain record inherits a
      // value through the same accessor: the shortcut must not trust a load.
      Object.defineProperty(Object.prototype, 'S', {
        configurable: true,
        get(this: unknown) {
          return this === Object.prototype ? undefined : 'inherited';
        },
      });
      expect(compileFilter('S.IsNull()', { schema, strategy })({})).toBe(true);
      expect(compileFilter('S.Equal(inherited)', { schema, strategy })({})).toBe(false);
      expect(compileFilter('S.Equal(own)', { schema, strategy })(JSON.parse('{"S":"own"}'))).toBe(true);
      expect(sortRecords([{ S: 'b' }, {}], 'S=Asc', { schema })).toEqual([{}, { S: 'b' }]);
    });
  });

  class WithPrototypeValue {}
  (WithPrototypeValue.prototype as unknown as Record<string, unknown>)['S'] = 'x';
  it.each([
    ['a plain object', true, { S: 'x' }],
    ['a null-prototype object', true, Object.assign(Object.create(null) as object, { S: 'x' })],
    ['an object whose prototype has S', false, protoWith({ S: 'x' }, {})],
    ['an object whose grandparent prototype has S', false, protoWith(protoWith({ S: 'x' }, {}), {})],
    [
      'a class instance with S as an own field',
      true,
      new (class {
        S = 'x';
      })(),
    ],
    ['a class instance whose prototype has S', false, new WithPrototypeValue()],
    ['an array with an own S', false, Object.assign(['x'], { S: 'x' })],
  ] as const)('%s: S.Equal(x) is %s', (_, expected, record) => {
    expect(matches('S.Equal(x)', record)).toBe(expected);
    expect(sortRecords([{ S: 'a' }, record], 'S=Desc', { schema })[0] === record).toBe(expected);
  });

  it('getters that are own properties are read; inherited getters are not', () => {
    const own = Object.defineProperty({}, 'S', { get: () => 'got', enumerable: true });
    class WithGetter {
      get S(): string {
        return 'got';
      }
    }
    expect(matches('S.Equal(got)', own)).toBe(true);
    expect(matches('S.IsNull()', new WithGetter())).toBe(true);
  });

  it('does not change the record', () => {
    const record = { S: 'Smith', D: '2024-01-01T00:00:00+02:00', Obj: { City: 'Boston' } };
    const copy = structuredClone(record);
    matches("S.StartsWith(sm);D.LessThan(2025-01-01);Obj.City.InArray(boston,'new york')", record);
    expect(record).toEqual(copy);
  });
});

describe('sort keys are own properties only', () => {
  it('an inherited key sorts as null', () => {
    const inherited = protoWith({ S: 'a' }, { I: 1 });
    const own = { S: 'b', I: 2 };
    expect(sortRecords([own, inherited], 'S=Asc', { schema })).toEqual([inherited, own]);
  });
});
