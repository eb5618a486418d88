import { describe, expect, it } from 'vitest';
import { WepqlError, parseFilter } from '../../../src/index.js';
import { encodeListRequest, orderBy, where, type Employee, type ListRequestParams } from '../../../src/sdk/index.js';

describe('encodeListRequest: query style', () => {
  it.each<[string, ListRequestParams, string]>([
    ['{ limit: 25 }', { limit: 25 }, 'limit=25'],
    ['{ limit: 10, skip: 0 }', { limit: 10, skip: 0 }, 'limit=10&skip=0'],
    [
      "{ filter: 'LastName.StartsWith(Sm)', sort: 'LastName=Asc', limit: 5 }",
      { filter: 'LastName.StartsWith(Sm)', sort: 'LastName=Asc', limit: 5 },
      'limit=5&filter=LastName.StartsWith%28Sm%29&sort=LastName%3DAsc',
    ],
    ["{ filter: '', sort: '' }", { filter: '', sort: '' }, ''],
    ['{ includeDeleted: true }', { includeDeleted: true }, 'include-deleted=true'],
    ['{ includeDeleted: false }', { includeDeleted: false }, 'include-deleted=false'],
    ["{ dataToken: 'abc', page: 'next' }", { dataToken: 'abc', page: 'next' }, 'next-page=true&data-token=abc'],
    ["{ dataToken: 'abc', page: 'prev' }", { dataToken: 'abc', page: 'prev' }, 'prev-page=true&data-token=abc'],
    ["{ dataToken: 'abc', page: 3 }", { dataToken: 'abc', page: 3 }, 'page=3&data-token=abc'],
  ])('%s', (_title, request, expected) => {
    const { search, headers } = encodeListRequest(request);
    expect(search.toString()).toBe(expected);
    expect(headers).toEqual({});
  });

  it('encodes builders and trees as their canonical text', () => {
    const filter = where<Employee>().field('LastName').equal("O'Brien, Jr. (Sr)");
    const sort = orderBy<Employee>('LastName').thenBy('CreatedOn', 'desc');
    const { search } = encodeListRequest({ filter, sort });
    expect(search.get('filter')).toBe("LastName.Equal('O''Brien, Jr. (Sr)')");
    expect(search.get('sort')).toBe('LastName=Asc;CreatedOn=Desc');
    expect(encodeListRequest({ filter: parseFilter('a.equal( 1 )').ast }).search.get('filter')).toBe('a.Equal(1)');
    expect(encodeListRequest({ filter: where<Employee>() }).search.has('filter')).toBe(false);
  });
});

describe('encodeListRequest: header style', () => {
  it.each<[string, ListRequestParams, Record<string, string>, string]>([
    [
      "{ limit: 25, filter: 'Gender.Equal(1)' }",
      { limit: 25, filter: 'Gender.Equal(1)' },
      { 'x-api-limit': '25', 'x-api-filter': 'Gender.Equal(1)' },
      '',
    ],
    ["{ dataToken: 't', page: 'next' }", { dataToken: 't', page: 'next' }, { 'x-api-next-page': 'true', 'x-api-data-token': 't' }, ''],
    ["{ page: 2, dataToken: 't' }", { page: 2, dataToken: 't' }, { 'x-api-page': '2', 'x-api-data-token': 't' }, ''],
    ['{ skip: 20, includeDeleted: true }', { skip: 20, includeDeleted: true }, { 'x-api-skip': '20', 'x-api-include-deleted': 'true' }, ''],
    // Values no header can carry unchanged fall back to the query string.
    ["{ filter: 'Name.Equal(Müller)' }", { filter: 'Name.Equal(Müller)' }, {}, 'filter=Name.Equal%28M%C3%BCller%29'],
    ['{ filter: "Name.Equal(\'a\\nb\')" }', { filter: "Name.Equal('a\nb')" }, {}, 'filter=Name.Equal%28%27a%0Ab%27%29'],
    ["{ filter: ' Name.Equal(x)' }", { filter: ' Name.Equal(x)' }, {}, 'filter=+Name.Equal%28x%29'],
  ])('%s', (_title, request, headers, search) => {
    const encoded = encodeListRequest(request, { style: 'headers' });
    expect(encoded.headers).toEqual(headers);
    expect(encoded.search.toString()).toBe(search);
  });
});

describe('encodeListRequest refuses values that are not parameters', () => {
  it.each<[string, ListRequestParams, RegExp]>([
    ['{ limit: 0 }', { limit: 0 }, /limit must be a whole number of at least 1, got 0/],
    ['{ limit: 2.5 }', { limit: 2.5 }, /limit must be a whole number/],
    ['{ limit: NaN }', { limit: NaN }, /got NaN/],
    ['{ skip: -1 }', { skip: -1 }, /skip must be a whole number of at least 0/],
    ['{ page: 0 }', { page: 0, dataToken: 't' }, /page must be a whole number of at least 1/],
    ["{ dataToken: '' }", { dataToken: '', page: 'next' }, /dataToken must be a non-empty string/],
    ['{ filter: 42 }', { filter: 42 as never }, /filter must be a string, a filter tree or a where\(\) builder/],
    ['{ sort: {} }', { sort: {} as never }, /sort must be a string, a sort tree or an orderBy\(\) builder/],
  ])('%s', (_title, request, message) => {
    expect(() => encodeListRequest(request)).toThrow(WepqlError);
    expect(() => encodeListRequest(request)).toThrow(message);
  });

  it('refuses an unknown style', () => {
    expect(() => encodeListRequest({}, { style: 'body' as never })).toThrow(/style must be 'query' or 'headers'/);
  });
});
