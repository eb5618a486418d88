/**
 * A fake list endpoint for the paging client's unit tests: token and skip
 * paging over an array, answering as the API does, with hooks to
 * refuse tokens and to inject failures. Every call is recorded.
 */
export interface FakeCall {
  readonly url: URL;
  readonly headers: Record<string, string>;
  /** The list parameters, from query or `x-api-*` headers. */
  readonly params: Record<string, string>;
}

export interface FakeListOptions {
  /** Answer this status (and body) instead of serving, by call index (0-based). */
  readonly fail?: (call: number, c: FakeCall) => { status: number; body?: unknown; headers?: Record<string, string> } | undefined;
  /** Refuse the data token of this call (0-based), as the API's out-of-range 400. */
  readonly refuseToken?: (call: number, c: FakeCall) => boolean;
  /** Also say why in the reference server's header. */
  readonly tokenErrorHeader?: string;
}

const PARAMS = ['limit', 'skip', 'filter', 'sort', 'include-deleted', 'next-page', 'prev-page', 'page', 'data-token'];

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export function fakeList<T>(records: readonly T[], options: FakeListOptions = {}) {
  const calls: FakeCall[] = [];
  const fetch = async (input: string, init: { headers: Record<string, string> }): Promise<Response> => {
    const url = new URL(input);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(init.headers ?? {})) headers[k.toLowerCase()] = v;
    const params: Record<string, string> = {};
    for (const name of PARAMS) {
      const v = headers[`x-api-${name}`] ?? url.searchParams.get(name);
      if (v !== null && v !== undefined) params[name] = v;
    }
    const call: FakeCall = { url, headers, params };
    const index = calls.length;
    calls.push(call);
    const failure = options.fail?.(index, call);
    if (failure !== undefined) return json(failure.status, failure.body, failure.headers);

    const outOfRange = (first: number, last: number, header?: string) =>
      json(
        400,
        {
          Status: 3,
          Code: 'BadRequest',
          ErrorCode: 'InternalServerError',
          Message: `Page Number out of range. [${first}-${last}]`,
          StackTrace: '',
        },
        header === undefined ? {} : { 'x-wepql-token-error': header },
      );

    if (params['skip'] !== undefined) {
      const skip = Number(params['skip']);
      const limit = Number(params['limit']);
      return json(200, { Data: records.slice(skip, skip + limit), Status: 1, Code: '200', ErrorCode: '', Message: 'OK', StackTrace: '' });
    }
    let page: number;
    let limit: number;
    if (params['data-token'] !== undefined) {
      const [, tokenPage, tokenLimit] = params['data-token'].split(':');
      limit = Number(tokenLimit);
      const pages = Math.ceil(records.length / limit);
      if (options.refuseToken?.(index, call)) return outOfRange(1, pages, options.tokenErrorHeader);
      page = params['next-page'] === 'true' ? Number(tokenPage) + 1 : Number(params['page']);
      if (page < 1 || page > pages) return outOfRange(1, pages);
    } else {
      page = 1;
      limit = Number(params['limit']);
    }
    const totalPages = Math.ceil(records.length / limit);
    return json(200, {
      Data: records.slice((page - 1) * limit, page * limit),
      Status: 1,
      Code: '200',
      ErrorCode: '',
      Message: 'OK',
      StackTrace: '',
      Pagination: {
        PageNo: page,
        PageSize: limit,
        TotalRecords: records.length,
        TotalPages: totalPages,
        DataToken: `t:${page}:${limit}:${index}`,
      },
    });
  };
  return { fetch, calls };
}
