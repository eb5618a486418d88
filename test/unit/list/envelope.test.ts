import { describe, expect, it } from 'vitest';
import { errorResponse, listResponse, TOKEN_ERROR_HEADER } from '../../../src/list/index.js';

describe('listResponse', () => {
  it("builds the success envelope with Pagination, keys in the API's order", () => {
    const r = listResponse({
      data: [{ Id: 1 }],
      pagination: { pageNo: 2, pageSize: 25, totalRecords: 30, totalPages: 2, dataToken: 'tok' },
    });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.stringify(r.body)).toBe(
      '{"Data":[{"Id":1}],"Status":1,"Code":"200","ErrorCode":"","Message":"OK","StackTrace":"",' +
        '"Pagination":{"PageNo":2,"PageSize":25,"TotalRecords":30,"TotalPages":2,"DataToken":"tok"}}',
    );
  });

  it('has no Pagination key at all without pagination (skip paging)', () => {
    const r = listResponse({ data: [] });
    expect(JSON.stringify(r.body)).toBe('{"Data":[],"Status":1,"Code":"200","ErrorCode":"","Message":"OK","StackTrace":""}');
  });
});

describe('errorResponse', () => {
  it('renders validation errors exactly as docs/reference.md §"The list contract"', () => {
    const r = errorResponse({
      kind: 'validation',
      errors: [
        { param: 'limit', code: 'outOfRangeError', message: 'limit must be between 1 and 1000, got 0' },
        { param: 'filter', code: 'regularExpressionError', message: 'a' },
        { param: 'filter', code: 'regularExpressionError', message: 'b' },
      ],
    });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toBe(
      '{"Status":3,"Code":"DataValidationError","ErrorCode":"","Message":"limit: [limit must be between 1 and 1000, got 0]\\nfilter: [a]\\nfilter: [b]",' +
        '"StackTrace":"","ValidationErrors":{"limit":[["outOfRangeError","limit must be between 1 and 1000, got 0"]],' +
        '"filter":[["regularExpressionError","a"],["regularExpressionError","b"]]}}',
    );
  });

  it("renders the API's page-out-of-range body and says why in a header", () => {
    const r = errorResponse({ kind: 'page-out-of-range', first: 1, last: 4, token: { reason: 'expired', message: 'expired at … ✓' } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toBe(
      '{"Status":3,"Code":"BadRequest","ErrorCode":"InternalServerError","Message":"Page Number out of range. [1-4]","StackTrace":""}',
    );
    expect(r.headers[TOKEN_ERROR_HEADER]).toBe('expired: expired at ? ?');
    expect(errorResponse({ kind: 'page-out-of-range', first: 1, last: 4 }).headers).not.toHaveProperty(TOKEN_ERROR_HEADER);
  });

  it('renders an unsupported version naming the address and the version', () => {
    const r = errorResponse({
      kind: 'unsupported-version',
      address: 'http://127.0.0.1:8080/api/public/clients/1/employees',
      version: '2.0',
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      Status: 3,
      Code: 'UnsupportedApiVersion',
      ErrorCode: '',
      Message:
        "The HTTP resource that matches the request URI 'http://127.0.0.1:8080/api/public/clients/1/employees' does not support the API version '2.0'.",
      StackTrace: '',
    });
  });

  it.each([
    ['not-found', 404, '404'],
    ['internal', 500, '500'],
  ] as const)('renders %s with Status 0 and a null ErrorCode', (kind, status, code) => {
    const r = errorResponse({ kind, message: 'm' });
    expect(r.status).toBe(status);
    expect(JSON.stringify(r.body)).toBe(`{"Status":0,"Code":"${code}","ErrorCode":null,"Message":"m","StackTrace":""}`);
  });
});
