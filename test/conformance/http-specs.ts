/**
 * The list-contract conformance cases (grammar/corpus/list-http.json) as
 * written by hand: request sequences and the contract's exact strings
 * (docs/reference.md §"The list contract"). The ids of each page are not
 * written here: `httpCorpus` computes them from the dataset with the
 * evaluator (`query`), client 1's records in the list's soft-delete scope,
 * so paging is checked against the semantics, not against the list code.
 */
import type { HttpCase, HttpCorpus, HttpExpect, HttpRequest, HttpValue } from '../../src/conformance/http-corpus.js';

/** The evaluator, bound to the employee schema. */
type Query = (records: readonly Record<string, unknown>[], options: { filter?: string; sort?: string }) => unknown[];

const OK = { Status: 1, Code: '200', ErrorCode: '', Message: 'OK', StackTrace: '' } as const;
const PAGE_KEYS = ['Data', 'Pagination', 'Status', 'Code', 'ErrorCode', 'Message', 'StackTrace'];
const SKIP_KEYS = ['Data', 'Status', 'Code', 'ErrorCode', 'Message', 'StackTrace'];
const ERROR_KEYS = ['Status', 'Code', 'ErrorCode', 'Message', 'StackTrace'];
const VALIDATION_KEYS = [...ERROR_KEYS, 'ValidationErrors'];

const token = (step: number, tamper?: 'change-middle-character'): HttpValue =>
  tamper === undefined ? { dataTokenOf: step } : { dataTokenOf: step, tamper };

function outOfRange(first: number, last: number): HttpExpect {
  return {
    status: 400,
    keys: ERROR_KEYS,
    fields: {
      Status: 3,
      Code: 'BadRequest',
      ErrorCode: 'InternalServerError',
      Message: `Page Number out of range. [${first}-${last}]`,
      StackTrace: '',
    },
  };
}

function invalid(validationErrors: Record<string, string[]>, Message?: string): HttpExpect {
  return {
    status: 400,
    keys: VALIDATION_KEYS,
    fields: { Status: 3, Code: 'DataValidationError', ErrorCode: '', ...(Message === undefined ? {} : { Message }), StackTrace: '' },
    validationErrors,
  };
}

const unsupportedVersion = (version: string): HttpExpect => ({
  status: 400,
  keys: ERROR_KEYS,
  fields: {
    Status: 3,
    Code: 'UnsupportedApiVersion',
    ErrorCode: '',
    Message: `The HTTP resource that matches the request URI '{url}' does not support the API version '${version}'.`,
    StackTrace: '',
  },
});

/** Builds the cases over the dataset; `query` is the evaluator the pages' ids come from. */
export function httpCorpus(records: readonly Record<string, unknown>[], query: Query): HttpCorpus {
  const ids = (filter: string, sort = '', includeDeleted = false): number[] => {
    const scope = includeDeleted ? 'ClientId.Equal(1)' : 'ClientId.Equal(1);RowStatus.NotInArrayOrNull(3)';
    const all = query(records, { filter: filter === '' ? scope : `${scope};${filter}`, ...(sort === '' ? {} : { sort }) }) as Record<
      string,
      unknown
    >[];
    return all.map((r) => r['Id'] as number);
  };
  const visible = ids('');
  const pageOf = (list: number[], limit: number, page: number): HttpExpect => ({
    status: 200,
    keys: PAGE_KEYS,
    fields: OK,
    pagination: { PageNo: page, PageSize: limit, TotalRecords: list.length, TotalPages: Math.ceil(list.length / limit) },
    ids: list.slice((page - 1) * limit, page * limit),
  });
  const skipPage = (list: number[], limit: number, skip: number): HttpExpect => ({
    status: 200,
    keys: SKIP_KEYS,
    fields: OK,
    pagination: null,
    ids: list.slice(skip, skip + limit),
  });
  const get = (query: Record<string, HttpValue>, more: Omit<HttpRequest, 'query'> = {}): HttpRequest => ({ query, ...more });
  const next = (step: number): HttpRequest => get({ 'data-token': token(step), 'next-page': 'true' });
  const prev = (step: number): HttpRequest => get({ 'data-token': token(step), 'prev-page': 'true' });

  const gender2 = ids('Gender.Equal(2)', 'LastName=Asc');
  const withDeleted = ids('', '', true);
  const desc = ids('', 'Id=Desc');

  const cases: HttpCase[] = [
    // token paging
    {
      name: 'first page',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [{ request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) }],
    },
    {
      name: 'next-page walks to the last page',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '10' }), expect: pageOf(visible, 10, 1) },
        { request: next(1), expect: pageOf(visible, 10, 2) },
        { request: next(2), expect: pageOf(visible, 10, 3) },
      ],
    },
    {
      name: 'prev-page walks back to the first page',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '10' }), expect: pageOf(visible, 10, 1) },
        { request: next(1), expect: pageOf(visible, 10, 2) },
        { request: next(2), expect: pageOf(visible, 10, 3) },
        { request: prev(3), expect: pageOf(visible, 10, 2) },
        { request: prev(4), expect: pageOf(visible, 10, 1) },
      ],
    },
    {
      name: 'page=N jumps, then next-page and prev-page continue from it',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '7' }), expect: pageOf(visible, 7, 1) },
        { request: get({ 'data-token': token(1), page: '3' }), expect: pageOf(visible, 7, 3) },
        { request: next(2), expect: pageOf(visible, 7, 4) },
        { request: get({ 'data-token': token(3), page: '1' }), expect: pageOf(visible, 7, 1) },
        { request: next(4), expect: pageOf(visible, 7, 2) },
      ],
    },
    {
      name: 'filter and sort are carried in the token',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '3', filter: 'Gender.Equal(2)', sort: 'LastName=Asc' }), expect: pageOf(gender2, 3, 1) },
        { request: next(1), expect: pageOf(gender2, 3, 2) },
        { request: next(2), expect: pageOf(gender2, 3, 3) },
        { request: prev(3), expect: pageOf(gender2, 3, 2) },
      ],
    },
    {
      name: 'include-deleted is carried in the token',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '20', 'include-deleted': 'true' }), expect: pageOf(withDeleted, 20, 1) },
        { request: next(1), expect: pageOf(withDeleted, 20, 2) },
      ],
    },
    {
      name: 'an empty filter result is one empty page',
      family: 'token-paging',
      tags: ['token-paging'],
      steps: [
        {
          request: get({ limit: '5', filter: 'LastName.Equal(nobody)' }),
          expect: {
            status: 200,
            keys: PAGE_KEYS,
            fields: OK,
            pagination: { PageNo: 1, PageSize: 5, TotalRecords: 0, TotalPages: 0 },
            ids: [],
          },
        },
      ],
    },
    // parameters as headers
    {
      name: 'x-api-* headers instead of query parameters, for the first page and the moves',
      family: 'headers',
      tags: ['token-paging'],
      steps: [
        { request: { headers: { 'x-api-limit': '4', 'x-api-sort': 'Id=Desc' } }, expect: pageOf(desc, 4, 1) },
        { request: { headers: { 'x-api-data-token': token(1), 'x-api-next-page': 'true' } }, expect: pageOf(desc, 4, 2) },
        { request: { headers: { 'X-API-Data-Token': token(2), 'X-Api-Prev-Page': 'true' } }, expect: pageOf(desc, 4, 1) },
      ],
    },
    {
      name: 'a header wins over the query parameter of the same name',
      family: 'headers',
      tags: ['token-paging'],
      steps: [
        {
          request: get({ limit: '5', sort: 'Id=Asc' }, { headers: { 'x-api-limit': '6', 'x-api-sort': 'Id=Desc' } }),
          expect: pageOf(desc, 6, 1),
        },
      ],
    },
    {
      name: 'an empty x-api-* header counts as not sent',
      family: 'headers',
      tags: ['token-paging'],
      steps: [{ request: get({ limit: '5' }, { headers: { 'x-api-filter': '' } }), expect: pageOf(visible, 5, 1) }],
    },
    {
      name: 'next-page with an empty value is true',
      family: 'headers',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) },
        { request: get({ 'data-token': token(1), 'next-page': '' }), expect: pageOf(visible, 5, 2) },
      ],
    },
    // parameters sent again with a token
    {
      name: 'a resent parameter equal to the token is accepted',
      family: 'resent',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '3', filter: 'Gender.Equal(2)', sort: 'LastName=Asc' }), expect: pageOf(gender2, 3, 1) },
        {
          request: get({ 'data-token': token(1), 'next-page': 'true', filter: 'Gender.Equal(2)', sort: 'LastName=Asc', limit: '3' }),
          expect: pageOf(gender2, 3, 2),
        },
      ],
    },
    {
      name: 'a resent filter that differs from the token is refused',
      family: 'resent',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '3', filter: 'Gender.Equal(2)' }), expect: pageOf(ids('Gender.Equal(2)'), 3, 1) },
        {
          request: get({ 'data-token': token(1), 'next-page': 'true', filter: 'Gender.Equal(1)' }),
          expect: invalid({ filter: ['outOfRangeError'] }),
        },
      ],
    },
    {
      name: 'a resent limit that differs from the token is refused',
      family: 'resent',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '3' }), expect: pageOf(visible, 3, 1) },
        { request: get({ 'data-token': token(1), 'next-page': 'true', limit: '4' }), expect: invalid({ limit: ['outOfRangeError'] }) },
      ],
    },
    // skip paging
    {
      name: 'skip paging: no Pagination, not even for skip=0',
      family: 'skip-paging',
      tags: ['skip-paging'],
      steps: [
        { request: get({ limit: '10', skip: '0' }), expect: skipPage(visible, 10, 0) },
        { request: get({ limit: '10', skip: '10' }), expect: skipPage(visible, 10, 10) },
        { request: get({ limit: '10', skip: '20' }), expect: skipPage(visible, 10, 20) },
        { request: get({ limit: '10', skip: '30' }), expect: skipPage(visible, 10, 30) },
      ],
    },
    {
      name: 'skip paging with a filter and sort, as headers',
      family: 'skip-paging',
      tags: ['skip-paging'],
      steps: [
        {
          request: { headers: { 'x-api-limit': '2', 'x-api-skip': '1', 'x-api-filter': 'Gender.Equal(2)', 'x-api-sort': 'LastName=Asc' } },
          expect: skipPage(gender2, 2, 1),
        },
      ],
    },
    {
      name: 'skip cannot be combined with data-token',
      family: 'skip-paging',
      tags: ['skip-paging', 'token-paging'],
      steps: [
        { request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) },
        { request: get({ 'data-token': token(1), 'next-page': 'true', skip: '5' }), expect: invalid({ skip: ['outOfRangeError'] }) },
      ],
    },
    // api-version
    {
      name: 'api-version 1.0 is served',
      family: 'api-version',
      tags: ['api-version'],
      steps: [
        { request: get({ limit: '5' }, { headers: { 'api-version': '1.0' } }), expect: pageOf(visible, 5, 1) },
        { request: get({ limit: '5' }, { headers: { 'x-api-version': '1.0' } }), expect: pageOf(visible, 5, 1) },
      ],
    },
    {
      name: 'api-version 2.0 is refused, naming the address and the version',
      family: 'api-version',
      tags: ['api-version'],
      steps: [{ request: get({ limit: '5' }, { headers: { 'api-version': '2.0' } }), expect: unsupportedVersion('2.0') }],
    },
    {
      name: 'x-api-version banana is refused',
      family: 'api-version',
      tags: ['api-version'],
      steps: [{ request: get({ limit: '5' }, { headers: { 'x-api-version': 'banana' } }), expect: unsupportedVersion('banana') }],
    },
    // bad parameters
    {
      name: 'a bad filter',
      family: 'bad-parameters',
      tags: [],
      steps: [{ request: get({ limit: '5', filter: 'LastName.Equalz(Smith)' }), expect: invalid({ filter: ['regularExpressionError'] }) }],
    },
    {
      name: 'a filter on an unknown field and a wrong value: one error each',
      family: 'bad-parameters',
      tags: [],
      steps: [
        {
          request: get({ limit: '5', filter: 'Nope.IsNull();Gender.Equal(abc)' }),
          expect: invalid({ filter: ['regularExpressionError', 'regularExpressionError'] }),
        },
      ],
    },
    {
      name: 'a bad sort',
      family: 'bad-parameters',
      tags: [],
      steps: [{ request: get({ limit: '5', sort: 'Nope=Asc' }), expect: invalid({ sort: ['regularExpressionError'] }) }],
    },
    {
      name: 'limit 0',
      family: 'bad-parameters',
      tags: [],
      steps: [
        {
          request: get({ limit: '0' }),
          expect: invalid({ limit: ['outOfRangeError'] }, 'limit: [limit must be between 1 and 1000, got 0]'),
        },
      ],
    },
    {
      name: 'limit above 1000',
      family: 'bad-parameters',
      tags: [],
      steps: [
        {
          request: get({ limit: '1001' }),
          expect: invalid({ limit: ['outOfRangeError'] }, 'limit: [limit must be between 1 and 1000, got 1001]'),
        },
      ],
    },
    {
      name: 'limit not a number',
      family: 'bad-parameters',
      tags: [],
      steps: [{ request: get({ limit: 'ten' }), expect: invalid({ limit: ['intValueError'] }) }],
    },
    {
      name: 'limit missing on a first page',
      family: 'bad-parameters',
      tags: [],
      steps: [{ request: get({}), expect: invalid({ limit: ['requiredError'] }) }],
    },
    {
      name: 'a negative skip',
      family: 'bad-parameters',
      tags: ['skip-paging'],
      steps: [{ request: get({ limit: '5', skip: '-1' }), expect: invalid({ skip: ['outOfRangeError'] }) }],
    },
    {
      name: 'errors of several parameters together, limit first',
      family: 'bad-parameters',
      tags: [],
      steps: [
        {
          request: get({ limit: '0', filter: 'LastName.Equalz(Smith)' }),
          expect: invalid({ limit: ['outOfRangeError'], filter: ['regularExpressionError'] }),
        },
      ],
    },
    {
      name: 'include-deleted not a boolean',
      family: 'bad-parameters',
      tags: [],
      steps: [
        { request: get({ limit: '5', 'include-deleted': 'yes' }), expect: invalid({ 'include-deleted': ['regularExpressionError'] }) },
      ],
    },
    {
      name: 'data-token without a move',
      family: 'bad-parameters',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) },
        { request: get({ 'data-token': token(1) }), expect: invalid({ 'data-token': ['requiredError'] }) },
      ],
    },
    // tokens refused
    {
      name: 'next-page without a token',
      family: 'tokens',
      tags: ['token-paging'],
      steps: [{ request: get({ 'next-page': 'true' }), expect: outOfRange(0, 0) }],
    },
    {
      name: 'a tampered token',
      family: 'tokens',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) },
        { request: get({ 'data-token': token(1, 'change-middle-character'), 'next-page': 'true' }), expect: outOfRange(0, 0) },
      ],
    },
    {
      name: 'a token that is not a token',
      family: 'tokens',
      tags: ['token-paging'],
      steps: [{ request: get({ 'data-token': 'not-a-token', 'next-page': 'true' }), expect: outOfRange(0, 0) }],
    },
    {
      name: 'an expired token',
      family: 'tokens',
      tags: ['token-paging', 'expiry'],
      steps: [
        { request: get({ limit: '5' }), expect: pageOf(visible, 5, 1) },
        { wait: 'token-ttl', request: next(1), expect: outOfRange(0, 0) },
      ],
    },
    {
      name: "a token from another client's list",
      family: 'tokens',
      tags: ['token-paging', 'cross-route'],
      steps: [
        { request: get({ limit: '5' }, { route: 'other-client' }), expect: pageOf([29, 30], 5, 1) },
        { request: next(1), expect: outOfRange(0, 0) },
      ],
    },
    // pages out of range
    {
      name: 'page=N past the last page',
      family: 'out-of-range',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '10' }), expect: pageOf(visible, 10, 1) },
        { request: get({ 'data-token': token(1), page: '4' }), expect: outOfRange(1, 3) },
      ],
    },
    {
      name: 'page=0',
      family: 'out-of-range',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '10' }), expect: pageOf(visible, 10, 1) },
        { request: get({ 'data-token': token(1), page: '0' }), expect: outOfRange(1, 3) },
      ],
    },
    {
      name: 'prev-page from the first page',
      family: 'out-of-range',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '10' }), expect: pageOf(visible, 10, 1) },
        { request: prev(1), expect: outOfRange(1, 3) },
      ],
    },
    {
      name: 'next-page from the last page',
      family: 'out-of-range',
      tags: ['token-paging'],
      steps: [
        { request: get({ limit: '20' }), expect: pageOf(visible, 20, 1) },
        { request: next(1), expect: pageOf(visible, 20, 2) },
        { request: next(2), expect: outOfRange(1, 2) },
      ],
    },
    {
      name: 'next-page of an empty list',
      family: 'out-of-range',
      tags: ['token-paging'],
      steps: [
        {
          request: get({ limit: '5', filter: 'LastName.Equal(nobody)' }),
          expect: {
            status: 200,
            keys: PAGE_KEYS,
            fields: OK,
            pagination: { PageNo: 1, PageSize: 5, TotalRecords: 0, TotalPages: 0 },
            ids: [],
          },
        },
        { request: next(1), expect: outOfRange(1, 1) },
      ],
    },
    // the application around the list
    {
      name: 'no bearer token',
      family: 'application',
      tags: ['auth'],
      steps: [{ request: get({ limit: '5' }, { auth: false }), expect: { status: 401 } }],
    },
    {
      name: 'an unknown client',
      family: 'application',
      tags: ['client-404'],
      steps: [
        {
          request: get({ limit: '5' }, { route: 'unknown-client' }),
          expect: {
            status: 404,
            keys: ERROR_KEYS,
            fields: { Status: 0, Code: '404', ErrorCode: null, Message: 'Client 99 was not found.', StackTrace: '' },
          },
        },
      ],
    },
  ];
  return {
    description:
      'The list contract over HTTP (docs/reference.md §"Parameters" and §"The list contract"): request sequences against GET …/clients/1/employees of a server loaded with dataset/employees.json, with the expected status, envelope and ids of each step. Generated by scripts/conformance-generate.mjs; do not edit by hand.',
    dataset: 'dataset/employees.json',
    routes: { list: 'clients/1/employees', 'other-client': 'clients/2/employees', 'unknown-client': 'clients/99/employees' },
    cases,
  };
}
