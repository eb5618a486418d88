/**
 * A small typed SDK for the employee list, built on wepql's builder and
 * paging client — the example of docs/sdk.md. In your own package, import
 * from 'wepql/sdk' instead of '../../src/sdk/index.js'.
 */
import { orderBy, paginate, where } from '../../src/sdk/index.js';
import type { Employee, FetchLike, Filter, ListPage, Paginated, RetryOptions, Sort } from '../../src/sdk/index.js';

/**
 * How to reach and authenticate against the API.
 *
 * @example
 * createEmployeesClient({ baseUrl: 'https://api.example.com', getAccessToken: login } satisfies EmployeesClientOptions);
 */
export interface EmployeesClientOptions {
  /** e.g. `https://api.example.com` */
  readonly baseUrl: string;
  /** Obtains a fresh access token (from `/connect/token` in production). */
  readonly getAccessToken: () => Promise<string>;
  /** Default: the global `fetch`. */
  readonly fetch?: FetchLike;
  readonly retry?: RetryOptions;
}

/**
 * What to list.
 *
 * @example
 * api.employees(42, { filter: exampleFilter, sort: exampleSort, pageSize: 50 } satisfies EmployeeQuery);
 */
export interface EmployeeQuery {
  readonly filter?: Filter<Employee>;
  readonly sort?: Sort<Employee>;
  readonly pageSize?: number;
  readonly includeDeleted?: boolean;
  /** `token` (default) or `skip` paging. */
  readonly mode?: 'token' | 'skip';
}

/**
 * The client: `employees(clientId, query)` iterates over records, `.pages()` over pages.
 *
 * @example
 * const api: EmployeesClient = createEmployeesClient({ baseUrl, getAccessToken: login }); await api.employees(42).toArray();
 */
export interface EmployeesClient {
  employees(clientId: number, query?: EmployeeQuery): Paginated<Employee>;
}

/**
 * Creates the client. Access tokens are fetched lazily, shared between
 * calls, and renewed once when the API answers 401; 500 answers are retried
 * with exponential backoff; expired data tokens restart transparently.
 *
 * @example
 * const api = createEmployeesClient({ baseUrl: 'https://api.example.com', getAccessToken: login });
 * const recent = where<Employee>().field('CreatedOn').greaterThan(new Date('2024-01-01'));
 * for await (const e of api.employees(42, { filter: recent, sort: orderBy<Employee>('LastName') })) console.log(e.LastName);
 */
export function createEmployeesClient(options: EmployeesClientOptions): EmployeesClient {
  const fetchFn: FetchLike = options.fetch ?? ((url, init) => fetch(url, init));
  let token: Promise<string> | undefined;
  const currentToken = (): Promise<string> => (token ??= options.getAccessToken());
  const renewToken = (): Promise<string> => (token = options.getAccessToken());

  return {
    employees(clientId, query = {}) {
      // The access token is async, so each iteration first awaits it, then pages.
      const pagesOf = async function* (): AsyncGenerator<ListPage<Employee>> {
        yield* paginate<Employee>(fetchFn, {
          url: `${options.baseUrl}/api/public/clients/${clientId}/employees`,
          accessToken: await currentToken(),
          reauthenticate: renewToken, // 401 → new token, repeat once
          retry: options.retry, // 500 → up to 3 attempts, exponential backoff
          limit: query.pageSize ?? 100,
          mode: query.mode ?? 'token',
          filter: query.filter,
          sort: query.sort,
          includeDeleted: query.includeDeleted,
        }).pages();
      };
      return {
        pages: () => ({ [Symbol.asyncIterator]: () => pagesOf() }),
        async *[Symbol.asyncIterator]() {
          for await (const page of pagesOf()) yield* page.records;
        },
        async toArray() {
          const all: Employee[] = [];
          for await (const page of pagesOf()) all.push(...page.records);
          return all;
        },
      };
    },
  };
}

/**
 * The filter of the docs' example: Smiths and Smithsons hired since 2020, or anyone without a gender on file.
 *
 * @example
 * exampleFilter.toString(); // 'Or(And(LastName.StartsWith(Sm);OrigHireDate.GreaterThanOrEqual(2020-01-01T00:00:00.000Z));Gender.IsNull())'
 */
export const exampleFilter = where<Employee>().or(
  (b) => b.field('LastName').startsWith('Sm').field('OrigHireDate').greaterThanOrEqual(new Date('2020-01-01')),
  (b) => b.field('Gender').isNull(),
);

/**
 * Sorted by last name, newest first within a name.
 *
 * @example
 * exampleSort.toString(); // 'LastName=Asc;CreatedOn=Desc'
 */
export const exampleSort = orderBy<Employee>('LastName', 'asc').thenBy('CreatedOn', 'desc');
