/**
 * Skip paging: `skip` from 0 in steps of `limit` until a short page. A page
 * that repeats the one before it means the server ignores `skip`, and one
 * that repeats an earlier page means it goes round in circles; either way
 * paging stops with `PagingError` instead of running forever.
 */
import { envelopeOf } from './page-answer.js';
import type { PageSession } from './page-session.js';
import { fingerprint } from './page-session.js';
import type { ListPage } from './paginate.js';

/**
 * The pages of a skip-paging session.
 *
 * @example
 * for await (const page of skipPages<Employee>(new PageSession(config))) console.log(page.skip);
 */
export async function* skipPages<T>(session: PageSession): AsyncGenerator<ListPage<T>, void, undefined> {
  const { query, limit } = session.config;
  let previous: string | undefined;
  for (let skip = 0; ; skip += limit) {
    const request = { ...query, skip };
    const records = envelopeOf(await session.get(request)).Data as readonly T[];
    if (records.length === 0) return;
    const print = fingerprint(records);
    if (print === previous) {
      session.fail(
        'skip-ignored',
        request,
        `the page at skip ${skip} repeats the page before it: the server ignores skip; use token paging (mode: 'token')`,
      );
    }
    session.see(print, request, Math.floor(skip / limit) + 1);
    previous = print;
    yield { records, pageNo: Math.floor(skip / limit) + 1, pageSize: limit, skip, restarted: false };
    session.yieldRecords(records.length);
    if (records.length < limit) return;
  }
}
