import { describe, expect, it } from 'vitest';
import { compileFilter } from '../../../src/index.js';
import { STRATEGIES, schema } from './fixtures.js';

type Row = readonly [filter: string, record: Record<string, unknown>, expected: boolean];

// SPEC §6: every operator is false on a null field (missing, undefined, null, or a
// value that does not convert), except IsNull, InArrayOrNull and NotInArrayOrNull.
const NULLS: readonly Record<string, unknown>[] = [{}, { S: null, N: null, I: null, D: null, B: null }, { S: undefined, N: undefined, I: undefined, D: undefined, B: undefined }];

const string: Row[] = [
  ['S.Equal(smith)', { S: 'SMITH' }, true],
  ['S.Equal(SMITH)', { S: 'smith' }, true],
  ['S.Equal(smith)', { S: 'Smithy' }, false],
  ['S.Equal(1)', { S: 1 }, false],
  ["S.Equal('')", { S: '' }, true],
  ['S.Equal(zoë)', { S: 'ZOË' }, true],
  ['S.Equal(ß)', { S: 'SS' }, false],
  ['S.NotEqual(smith)', { S: 'jones' }, true],
  ['S.NotEqual(smith)', { S: 'Smith' }, false],
  ['S.NotEqual(smith)', { S: 7 }, false],
  ['S.Contains(MIT)', { S: 'Smith' }, true],
  ['S.Contains(xyz)', { S: 'Smith' }, false],
  ["S.Contains('')", { S: '' }, true],
  ["S.Contains('')", { S: 'anything' }, true],
  ['S.Contains(%)', { S: '100%' }, true],
  ['S.Contains(%)', { S: '100' }, false],
  ['S.Contains(a_c)', { S: 'abc' }, false],
  ['S.Contains(a_c)', { S: 'xa_cx' }, true],
  ['S.Contains(.*)', { S: 'abc' }, false],
  ['S.Contains(\\)', { S: 'a\\b' }, true],
  ["S.Contains('''')", { S: "O'Brien" }, true],
  ['S.Contains(i)', { S: 'İ' }, true],
  ['S.StartsWith(o)', { S: "O'Brien" }, true],
  ['S.StartsWith(b)', { S: "O'Brien" }, false],
  ["S.StartsWith('')", { S: 'x' }, true],
  ['S.EndsWith(EN)', { S: "O'Brien" }, true],
  ['S.EndsWith(bri)', { S: "O'Brien" }, false],
  ["S.EndsWith('')", { S: 'x' }, true],
  ['S.NotContains(x)', { S: 'abc' }, true],
  ['S.NotContains(B)', { S: 'abc' }, false],
  ["S.NotContains('')", { S: 'abc' }, false],
  ['S.NotStartsWith(x)', { S: 'abc' }, true],
  ['S.NotStartsWith(A)', { S: 'abc' }, false],
  ['S.NotEndsWith(x)', { S: 'abc' }, true],
  ['S.NotEndsWith(C)', { S: 'abc' }, false],
  ['S.IsNull()', { S: 'a' }, false],
  ['S.IsNull()', { S: 5 }, true],
  ['S.IsNotNull()', { S: '' }, true],
  ['S.IsNotNull()', { S: false }, false],
  ['S.InArray(a,B,c)', { S: 'b' }, true],
  ['S.InArray(a,B,c)', { S: 'd' }, false],
  ['S.InArrayOrNull(a,b)', { S: 'A' }, true],
  ['S.InArrayOrNull(a,b)', { S: 'z' }, false],
  ['S.NotInArray(a,b)', { S: 'z' }, true],
  ['S.NotInArray(a,b)', { S: 'B' }, false],
  ['S.NotInArrayOrNull(a,b)', { S: 'z' }, true],
  ['S.NotInArrayOrNull(a,b)', { S: 'a' }, false],
  ['S.InArray(a,b,c,d,e,f,g,h,i,j,k)', { S: 'K' }, true],
  ['S.InArray(a,b,c,d,e,f,g,h,i,j,k)', { S: 'l' }, false],
  ['S.NotInArray(a,b,c,d,e,f,g,h,i,j,k)', { S: 'l' }, true],
];

const numeric: Row[] = [
  ['N.Equal(1)', { N: 1.0 }, true],
  ['N.Equal(1.0)', { N: 1 }, true],
  ['N.Equal(1e3)', { N: 1000 }, true],
  ['N.Equal(-0)', { N: 0 }, true],
  ['N.Equal(1)', { N: '1' }, false],
  ['N.Equal(1)', { N: true }, false],
  ['N.NotEqual(1)', { N: 2 }, true],
  ['N.NotEqual(1)', { N: Number.NaN }, false],
  ['N.LessThan(1.5)', { N: 1.25 }, true],
  ['N.LessThan(1.5)', { N: 1.5 }, false],
  ['N.LessThan(5)', { N: Number.NEGATIVE_INFINITY }, false],
  ['N.LessThanOrEqual(1.5)', { N: 1.5 }, true],
  ['N.GreaterThan(-2)', { N: -1 }, true],
  ['N.GreaterThan(-2)', { N: -2 }, false],
  ['N.GreaterThan(5)', { N: Number.POSITIVE_INFINITY }, false],
  ['N.GreaterThanOrEqual(-2)', { N: -2 }, true],
  ['N.IsNull()', { N: Number.NaN }, true],
  ['N.IsNotNull()', { N: 0 }, true],
  ['N.InArray(1,2.5)', { N: 2.5 }, true],
  ['N.InArray(1,2.5)', { N: 3 }, false],
  ['N.NotInArray(1,2.5)', { N: 3 }, true],
  ['N.InArrayOrNull(1)', { N: '1' }, true],
  ['N.NotInArrayOrNull(1)', { N: 1 }, false],
  ['I.Equal(2)', { I: 2 }, true],
  ['I.Equal(2)', { I: 2.5 }, false],
  ['I.IsNull()', { I: 2.5 }, true],
  ['I.IsNull()', { I: 2 ** 53 }, true],
  ['I.GreaterThan(9007199254740990)', { I: 9007199254740991 }, true],
  ['I.LessThan(0)', { I: -1 }, true],
  ['I.InArray(1,2,3,4,5,6,7,8,9,10)', { I: 10 }, true],
  ['I.NotInArrayOrNull(1,2)', { I: 3 }, true],
];

const datetime: Row[] = [
  ['D.Equal(2024-01-01)', { D: '2024-01-01T00:00:00Z' }, true],
  ['D.Equal(2024-01-01)', { D: '2024-01-01T00:00:00.000Z' }, true],
  ['D.Equal(2024-01-01)', { D: '2024-01-01T02:00:00+02:00' }, true],
  ['D.Equal(2024-01-01)', { D: '2023-12-31T19:00-05:00' }, true],
  ['D.Equal(2024-01-01)', { D: '2024-01-01T00:00' }, true],
  ['D.Equal(2024-01-01)', { D: '2024-01-01' }, true],
  ['D.Equal(2024-01-01)', { D: new Date(Date.UTC(2024, 0, 1)) }, true],
  ['D.Equal(2024-01-01T00:00:00.001Z)', { D: '2024-01-01T00:00:00.0019Z' }, true],
  ['D.Equal(2024-01-01)', { D: '2024-01-01T00:00:00.001Z' }, false],
  ['D.Equal(2023-03-02)', { D: '2023-02-30T00:00:00Z' }, false],
  ['D.IsNull()', { D: '2023-02-30T00:00:00Z' }, true],
  ['D.IsNull()', { D: '2024-01-01T24:00:00Z' }, true],
  ['D.IsNull()', { D: 1704067200000 }, true],
  ['D.IsNull()', { D: new Date(Number.NaN) }, true],
  ['D.IsNull()', { D: '2024-01-01T00:00:00z' }, true],
  ['D.IsNotNull()', { D: '0001-01-01T00:00:00Z' }, true],
  ['D.NotEqual(2024-01-01)', { D: '2024-01-02' }, true],
  ['D.NotEqual(2024-01-01)', { D: 'soon' }, false],
  ['D.LessThan(2024-01-01T00:00:00Z)', { D: '2023-12-31T23:59:59.999Z' }, true],
  ['D.LessThan(2024-01-01T00:00:00Z)', { D: '2024-01-01T01:00:00+02:00' }, true],
  ['D.LessThan(2024-01-01T00:00:00Z)', { D: '2024-01-01T00:00:00Z' }, false],
  ['D.LessThanOrEqual(2024-01-01)', { D: '2024-01-01T00:00:00Z' }, true],
  ['D.GreaterThan(2024-01-01)', { D: '2024-01-01T00:00:00.001Z' }, true],
  ['D.GreaterThanOrEqual(2024-02-29)', { D: '2024-02-29T00:00:00Z' }, true],
  ['D.GreaterThanOrEqual(2024-02-29)', { D: '2024-02-28T23:59:59Z' }, false],
  ['D.InArray(2024-01-01,2024-06-01)', { D: '2024-06-01T00:00:00.000Z' }, true],
  ['D.InArray(2024-01-01,2024-06-01)', { D: '2024-06-02' }, false],
  ['D.NotInArray(2024-01-01)', { D: '2024-06-02' }, true],
  ['D.InArrayOrNull(2024-01-01)', { D: 'bad' }, true],
  ['D.NotInArrayOrNull(2024-01-01)', { D: '2024-01-01T00:00Z' }, false],
  ['D.GreaterThan(1999-12-31)', { D: '1900-02-29' }, false],
  ['D.LessThan(1950-01-01)', { D: '0099-06-01T00:00:00Z' }, true],
];

const boolean: Row[] = [
  ['B.Equal(true)', { B: true }, true],
  ['B.Equal(TRUE)', { B: true }, true],
  ['B.Equal(true)', { B: false }, false],
  ['B.Equal(true)', { B: 'true' }, false],
  ['B.Equal(false)', { B: 0 }, false],
  ['B.NotEqual(true)', { B: false }, true],
  ['B.NotEqual(true)', { B: 'false' }, false],
  ['B.IsNull()', { B: 1 }, true],
  ['B.IsNotNull()', { B: false }, true],
  ['B.InArray(true)', { B: true }, true],
  ['B.InArray(true,false)', { B: false }, true],
  ['B.NotInArray(true)', { B: false }, true],
  ['B.InArrayOrNull(true)', { B: false }, false],
  ['B.NotInArrayOrNull(true)', { B: false }, true],
];

const inFields: Row[] = [
  ["'sm'.StartsWithInFields(S,T)", { S: 'Jones', T: 'Smith' }, true],
  ["'sm'.StartsWithInFields(S,T)", { S: 'Jones', T: 'Brown' }, false],
  ["'sm'.StartsWithInFields(S,T)", { T: 'SMALL' }, true],
  ['x.ContainsInFields(S,T)', {}, false],
  ['NES.EndsWithInFields(S,T)', { S: 'Jones' }, true],
  ['a.EqualInFields(S,T)', { S: 'b', T: 'A' }, true],
  ['5.LessThanInFields(N,I)', { N: 7, I: 4 }, true],
  ['5.LessThanInFields(N,I)', { N: 7, I: 5 }, false],
  ['5.LessThanOrEqualInFields(N,I)', { N: 7, I: 5 }, true],
  ['5.GreaterThanInFields(N,I)', { N: 4, I: 6 }, true],
  ['5.GreaterThanOrEqualInFields(N,I)', { N: 4, I: null }, false],
  ['5.5.GreaterThanInFields(N)', { N: 6 }, true],
  ['2024-01-01.LessThanInFields(D,E)', { D: '2024-02-01', E: '2023-12-31T23:00:00Z' }, true],
  ['2024-01-01.LessThanInFields(D,E)', { D: '2024-02-01' }, false],
  ['2024-01-01T00:00:00.000Z.EqualInFields(D,E)', { E: '2024-01-01T01:00+01:00' }, true],
  ['true.EqualInFields(B)', { B: true }, true],
];

const groups: Row[] = [
  ['', {}, true],
  ['', { S: 'x' }, true],
  ['S.Equal(a);N.Equal(1)', { S: 'a', N: 1 }, true],
  ['S.Equal(a);N.Equal(1)', { S: 'a', N: 2 }, false],
  ['Or(S.Equal(a);N.Equal(1))', { S: 'b', N: 1 }, true],
  ['Or(S.Equal(a);N.Equal(1))', { S: 'b', N: 2 }, false],
  ['And(S.Equal(a);N.Equal(1))', { S: 'a', N: 1 }, true],
  ['Or(S.Equal(x);And(N.GreaterThan(0);N.LessThan(100)))', { N: 50 }, true],
  ['Or(S.Equal(x);And(N.GreaterThan(0);N.LessThan(100)))', { N: 150 }, false],
  ['Or(S.NotEqual(a);S.Equal(a))', {}, false],
  ['Or(S.IsNull();S.NotEqual(a))', {}, true],
  ['N.GreaterThan(0);Or(N.Equal(1);N.Equal(3))', { N: 3 }, true],
];

describe.each(STRATEGIES)('compileFilter (%s)', (strategy) => {
  describe.each([
    ['string', string],
    ['number and integer', numeric],
    ['datetime', datetime],
    ['boolean', boolean],
    ['InFields', inFields],
    ['And, Or and ;', groups],
  ] as const)('%s', (_, rows) => {
    it.each(rows)('%s on %o is %s', (filter, record, expected) => {
      expect(compileFilter(filter, { schema, strategy })(record)).toBe(expected);
    });
  });

  const nullRows: [string, boolean][] = [
    ['S.Equal(a)', false], ['S.NotEqual(a)', false], ['S.Contains(a)', false], ["S.Contains('')", false],
    ['S.StartsWith(a)', false], ['S.EndsWith(a)', false], ['S.NotContains(a)', false],
    ['S.NotStartsWith(a)', false], ['S.NotEndsWith(a)', false], ['S.IsNull()', true], ['S.IsNotNull()', false],
    ['S.InArray(a)', false], ['S.InArrayOrNull(a)', true], ['S.NotInArray(a)', false], ['S.NotInArrayOrNull(a)', true],
    ['N.Equal(1)', false], ['N.NotEqual(1)', false], ['N.LessThan(1)', false], ['N.LessThanOrEqual(1)', false],
    ['N.GreaterThan(1)', false], ['N.GreaterThanOrEqual(1)', false], ['N.IsNull()', true], ['N.IsNotNull()', false],
    ['N.InArray(1)', false], ['N.InArrayOrNull(1)', true], ['N.NotInArray(1)', false], ['N.NotInArrayOrNull(1)', true],
    ['I.Equal(1)', false], ['I.NotEqual(1)', false], ['I.LessThan(1)', false], ['I.IsNull()', true], ['I.NotInArrayOrNull(1)', true],
    ['D.Equal(2024-01-01)', false], ['D.NotEqual(2024-01-01)', false], ['D.LessThan(2024-01-01)', false],
    ['D.GreaterThanOrEqual(2024-01-01)', false], ['D.IsNull()', true], ['D.IsNotNull()', false],
    ['D.InArray(2024-01-01)', false], ['D.InArrayOrNull(2024-01-01)', true], ['D.NotInArray(2024-01-01)', false],
    ['D.NotInArrayOrNull(2024-01-01)', true],
    ['B.Equal(true)', false], ['B.NotEqual(true)', false], ['B.IsNull()', true], ['B.IsNotNull()', false],
    ['B.InArray(false)', false], ['B.InArrayOrNull(false)', true], ['B.NotInArray(false)', false], ['B.NotInArrayOrNull(false)', true],
    ['a.EqualInFields(S,T)', false], ["''.ContainsInFields(S,T)", false], ['1.LessThanInFields(N,I)', false],
  ];
  describe.each(NULLS)('on a null field %o', (record) => {
    it.each(nullRows)('%s is %s', (filter, expected) => {
      expect(compileFilter(filter, { schema, strategy })(record)).toBe(expected);
    });
  });

  describe('case-sensitive', () => {
    it.each([
      ['S.Equal(smith)', { S: 'Smith' }, false],
      ['S.Equal(Smith)', { S: 'Smith' }, true],
      ['S.Contains(MIT)', { S: 'Smith' }, false],
      ['S.StartsWith(S)', { S: 'Smith' }, true],
      ['S.InArray(smith)', { S: 'Smith' }, false],
      ['S.NotInArray(smith)', { S: 'Smith' }, true],
      ["'SM'.StartsWithInFields(S,T)", { T: 'Smith' }, false],
    ] as const)('%s on %o is %s', (filter, record, expected) => {
      expect(compileFilter(filter, { schema, strategy, caseSensitive: true })(record)).toBe(expected);
    });
  });
});
