/**
 * Type-level tests of the SDK client, checked by `tsc --noEmit`: the global
 * `fetch` fits both entry points, records come out typed, and options
 * refuse wrong values.
 */
import { describe, expectTypeOf, it } from 'vitest';
import { paginate, where, withRetries, type Employee, type ListPage, type Paginated } from '../../src/sdk/index.js';

describe('paginate and withRetries accept the global fetch', () => {
  it('types records and pages', () => {
    const make = () => paginate<Employee>(fetch, { url: 'https://x.test/api/public/clients/1/employees' });
    expectTypeOf(make).returns.toEqualTypeOf<Paginated<Employee>>();
    expectTypeOf<Awaited<ReturnType<Paginated<Employee>['toArray']>>>().toEqualTypeOf<Employee[]>();
    expectTypeOf<ListPage<Employee>['records']>().toEqualTypeOf<readonly Employee[]>();
    expectTypeOf(withRetries(fetch)).returns.toEqualTypeOf<Promise<Response>>();
  });

  it('refuses wrong option values', () => {
    const url = 'https://x.test/l';
    const never = (): void => {
      // @ts-expect-error: not a paging mode
      paginate(fetch, { url, mode: 'cursor' });
      // @ts-expect-error: not an expiry policy
      paginate(fetch, { url, onExpired: 'ignore' });
      // @ts-expect-error: filter must be text, a tree or a builder
      paginate(fetch, { url, filter: 42 });
      // @ts-expect-error: reauthenticate must return a promise of credentials
      paginate(fetch, { url, reauthenticate: () => 'token' });
      paginate(fetch, { url, filter: where<Employee>().field('Gender').equal(1), style: 'headers' });
    };
    expectTypeOf(never).toBeFunction();
  });
});
