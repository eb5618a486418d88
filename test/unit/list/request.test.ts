import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { employeeSchema } from '../../../src/schema/employee-schema.js';
import { errorResponse, parseListRequest } from '../../../src/list/index.js';
import type { ListRequestInput, ParsedListRequest } from '../../../src/list/index.js';

const schema = employeeSchema;
const parse = (input: ListRequestInput, maxLimit?: number): ParsedListRequest =>
  parseListRequest(input, { schema, ...(maxLimit === undefined ? {} : { maxLimit }) });

function request(input: ListRequestInput) {
  const r = parse(input);
  if (!r.ok) throw new Error(`expected ok, got ${JSON.stringify(r.error)}`);
  return r.request;
}

function validation(input: ListRequestInput, maxLimit?: number) {
  const r = parse(input, maxLimit);
  if (r.ok || r.error.kind !== 'validation') throw new Error(`expected a validation error, got ${JSON.stringify(r)}`);
  return r.error.errors.map((e) => [e.param, e.code, e.message]);
}

describe('parseListRequest: modes', () => {
  it('reads a first page', () => {
    const r = request({ query: { limit: '25', filter: 'Gender.Equal(1)', sort: 'LastName=Desc', 'include-deleted': 'TRUE' } });
    expect(r.mode).toBe('first');
    if (r.mode !== 'first') return;
    expect(r.limit).toBe(25);
    expect(r.includeDeleted).toBe(true);
    expect(r.filterText).toBe('Gender.Equal(1)');
    expect(r.filter?.clauses[0]).toMatchObject({ kind: 'comparison', operator: 'Equal', value: 1 });
    expect(r.sort?.keys.map((k) => [k.field.name, k.direction])).toEqual([['LastName', 'Desc']]);
  });

  it('treats empty filter and sort as none', () => {
    const r = request({ query: { limit: '5', filter: '', sort: '' } });
    expect(r).toMatchObject({ mode: 'first', filter: undefined, sort: undefined, filterText: '', sortText: '', includeDeleted: false });
  });

  it.each([['0'], ['40']])('skip=%s selects skip mode', (skip) => {
    expect(request({ query: { limit: '10', skip } })).toMatchObject({ mode: 'skip', limit: 10, skip: Number(skip) });
  });

  it.each([
    [{ 'data-token': 't', 'next-page': '' }, { kind: 'next' }],
    [{ 'data-token': 't', 'next-page': 'true' }, { kind: 'next' }],
    [{ 'data-token': 't', 'prev-page': 'True' }, { kind: 'prev' }],
    [
      { 'data-token': 't', page: '7' },
      { kind: 'page', page: 7 },
    ],
    [
      { 'data-token': 't', page: '0' },
      { kind: 'page', page: 0 },
    ],
    [
      { 'data-token': 't', 'next-page': 'false', page: '2' },
      { kind: 'page', page: 2 },
    ],
  ])('reads the token move of %j', (query, move) => {
    expect(request({ query })).toEqual({ mode: 'token', dataToken: 't', move, resent: {} });
  });

  it('keeps resent token parameters as text for the handler to compare', () => {
    const r = request({ query: { 'data-token': 't', 'next-page': 'true', filter: 'x', sort: 'y', limit: '3', 'include-deleted': 'true' } });
    expect(r).toMatchObject({ mode: 'token', resent: { filter: 'x', sort: 'y', limit: '3', includeDeleted: 'true' } });
  });
});

describe('parseListRequest: where parameters come from', () => {
  it('lets a header win over the query parameter', () => {
    expect(request({ query: { limit: '5' }, headers: { 'x-api-limit': '10' } })).toMatchObject({ limit: 10 });
  });

  it('matches header names case-insensitively', () => {
    expect(request({ headers: { 'X-API-Limit': '7', 'X-Api-Skip': '3' } })).toMatchObject({ mode: 'skip', limit: 7, skip: 3 });
  });

  it('matches query names exactly', () => {
    expect(validation({ query: { Limit: '5' } })).toEqual([['limit', 'requiredError', 'limit is required unless data-token is sent']]);
  });

  it('mixes both: each parameter from wherever it was sent', () => {
    const r = request({ query: { limit: '5', filter: 'Gender.Equal(2)' }, headers: { 'x-api-sort': 'Id=Desc' } });
    expect(r).toMatchObject({ limit: 5, filterText: 'Gender.Equal(2)', sortText: 'Id=Desc' });
  });

  it('reads URLSearchParams and fetch Headers', () => {
    const r = request({ query: new URLSearchParams('limit=5&skip=2'), headers: new Headers({ 'X-Api-Limit': '9' }) });
    expect(r).toMatchObject({ mode: 'skip', limit: 9, skip: 2 });
  });

  it('reads a fetch Request', () => {
    const r = request(
      new Request('http://localhost/api/public/clients/1/employees?limit=4', { headers: { 'x-api-filter': 'Id.Equal(1)' } }),
    );
    expect(r).toMatchObject({ mode: 'first', limit: 4, filterText: 'Id.Equal(1)' });
  });

  it('accepts the same value repeated and refuses different ones', () => {
    expect(request({ query: { limit: ['5', '5'] } })).toMatchObject({ limit: 5 });
    expect(validation({ query: { limit: ['5', '6'] } })[0]).toEqual([
      'limit',
      'outOfRangeError',
      'limit was sent more than once with different values (query); send it once',
    ]);
  });

  it('does not read through the prototype chain', () => {
    const query = JSON.parse('{"__proto__": {"limit": "5"}, "constructor": "x"}') as Record<string, string>;
    expect(validation({ query })).toEqual([['limit', 'requiredError', 'limit is required unless data-token is sent']]);
    expect(request({ query: Object.assign(Object.create(null), { limit: '3' }) })).toMatchObject({ limit: 3 });
  });
});

describe('parseListRequest: errors', () => {
  it.each([
    [{ limit: 'abc' }, [['limit', 'intValueError', 'limit must be a whole number, got "abc"']]],
    [{ limit: '2.5' }, [['limit', 'intValueError', 'limit must be a whole number, got "2.5"']]],
    [{ limit: '0' }, [['limit', 'outOfRangeError', 'limit must be between 1 and 1000, got 0']]],
    [{ limit: '1001' }, [['limit', 'outOfRangeError', 'limit must be between 1 and 1000, got 1001']]],
    [{ limit: '99999999999999999999' }, [['limit', 'outOfRangeError', 'limit must be between 1 and 1000, got 99999999999999999999']]],
    [{ limit: '5', skip: '-1' }, [['skip', 'outOfRangeError', 'skip must be at least 0, got -1']]],
    [{ limit: '5', skip: 'x' }, [['skip', 'intValueError', 'skip must be a whole number, got "x"']]],
    [
      { limit: '5', 'include-deleted': 'yes' },
      [['include-deleted', 'regularExpressionError', 'include-deleted must be true or false, got "yes"']],
    ],
    [{ skip: '0' }, [['limit', 'requiredError', 'limit is required unless data-token is sent']]],
    [{ 'data-token': 't' }, [['data-token', 'requiredError', 'data-token needs exactly one of next-page, prev-page or page']]],
    [
      { 'data-token': 't', 'next-page': 'true', 'prev-page': 'true' },
      [['data-token', 'outOfRangeError', 'send exactly one of next-page, prev-page or page with data-token, not next-page, prev-page']],
    ],
    [
      { 'data-token': 't', 'next-page': 'true', skip: '0' },
      [['skip', 'outOfRangeError', 'skip cannot be combined with data-token: token paging and skip paging must not be mixed']],
    ],
    [{ 'data-token': 't', page: 'two' }, [['page', 'intValueError', 'page must be a whole number, got "two"']]],
    [
      { 'data-token': 't', 'next-page': 'yes' },
      [['next-page', 'regularExpressionError', 'next-page is a flag: send true (or leave it out), not "yes"']],
    ],
  ])('%j', (query, errors) => {
    expect(validation({ query })).toEqual(errors);
  });

  it('honours maxLimit', () => {
    expect(validation({ query: { limit: '51' } }, 50)).toEqual([['limit', 'outOfRangeError', 'limit must be between 1 and 50, got 51']]);
  });

  it('reports every problem of every parameter at once', () => {
    const errors = validation({ query: { limit: '0', filter: 'Nope.Equal(1);Gender.Equal(x)', sort: 'Id,LastName' } });
    expect(errors.map(([p, c]) => `${p}:${c}`)).toEqual([
      'limit:outOfRangeError',
      'filter:regularExpressionError',
      'filter:regularExpressionError',
      'sort:regularExpressionError',
    ]);
    expect(errors[1]![2]).toMatch(/^unknown field "Nope".* \(unknown-field at 0-4\)$/);
    expect(errors[2]![2]).toMatch(/\(invalid-value at 27-28\)$/);
  });

  it.each([
    ['8,193 characters', 'x'.repeat(8193), 'tooLongError'],
    ['InArray with 501 values', 'Id.InArray(' + Array.from({ length: 501 }, (_, i) => i).join(',') + ')', 'outOfRangeError'],
    ['Or( nested 40 deep', 'Or('.repeat(40) + 'Id.Equal(1)' + ')'.repeat(40), 'outOfRangeError'],
    ['Id.Equal(99999999999999999999)', 'Id.Equal(99999999999999999999)', 'outOfRangeError'],
    ['Id.Equals(1)', 'Id.Equals(1)', 'regularExpressionError'],
    ["LastName.Equal('O'Brien')", "LastName.Equal('O'Brien')", 'regularExpressionError'],
  ])('maps the filter diagnostics of %s to %s', (_title, filter, code) => {
    const errors = validation({ query: { limit: '5', filter } });
    expect(errors[0]![0]).toBe('filter');
    expect(errors[0]![1]).toBe(code);
    expect(errors[0]![2]).not.toContain('xxxxxxxxxx'.repeat(5));
  });

  it('renders a bad filter as the exact envelope of docs/reference.md §"The list contract"', () => {
    const r = parse({ query: { limit: '5', filter: 'Gender.Equals(1)' } });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const body = errorResponse(r.error).body as Record<string, unknown>;
    const message = (body.ValidationErrors as Record<string, [string, string][]>).filter![0]![1];
    expect(body).toEqual({
      Status: 3,
      Code: 'DataValidationError',
      ErrorCode: '',
      Message: `filter: [${message}]`,
      StackTrace: '',
      ValidationErrors: { filter: [['regularExpressionError', message]] },
    });
    expect(message).toMatch(/Equals.*Equal.*\(unknown-operator at 7-13\)/);
  });

  it.each([[{ 'next-page': 'true' }], [{ 'prev-page': '' }], [{ page: '2' }], [{ page: '2', limit: '5' }]])(
    "answers a move without data-token (%j) with the API's page-out-of-range error, range [0-0]",
    (query) => {
      const r = parse({ query });
      expect(r).toMatchObject({ ok: false, error: { kind: 'page-out-of-range', first: 0, last: 0 } });
      if (!r.ok) expect((errorResponse(r.error).body as { Message: string }).Message).toBe('Page Number out of range. [0-0]');
    },
  );

  it('never throws on any query and headers', () => {
    const names = fc.constantFrom(
      'limit',
      'skip',
      'filter',
      'sort',
      'include-deleted',
      'next-page',
      'prev-page',
      'page',
      'data-token',
      '__proto__',
      'x',
    );
    const values = fc.oneof(fc.string({ maxLength: 30 }), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }));
    fc.assert(
      fc.property(
        fc.dictionary(names, values),
        fc.dictionary(
          names.map((n) => `X-Api-${n}`),
          fc.string({ maxLength: 30 }),
        ),
        (query, headers) => {
          const r = parse({ query, headers });
          if (!r.ok) expect(() => JSON.stringify(errorResponse(r.error).body)).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });
});
