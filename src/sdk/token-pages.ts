/**
 * Token paging: the first page with the query, then `next-page` with each
 * page's `DataToken` until `PageNo` reaches `TotalPages`. A refused token
 * restarts from page one and jumps to the page holding the first record not
 * yet yielded. Each step is a small function of the session and the answer.
 */
import { DataTokenExpiredError } from './errors.js';
import type { Answer, ReceivedEnvelope } from './page-answer.js';
import { detailsOf, envelopeOf, finiteNumber, requestError, stringValue, tokenRefusal } from './page-answer.js';
import type { PageSession } from './page-session.js';
import { fingerprint } from './page-session.js';
import type { ListPage } from './paginate.js';
import type { ListRequestParams } from './request.js';

/** The next request: the first page (again, after a restart), the jump back after a restart, or the next page. */
type Move =
  | { readonly kind: 'first'; readonly restarted: boolean }
  | { readonly kind: 'jump'; readonly token: string; readonly page: number }
  | { readonly kind: 'next'; readonly token: string; readonly page: number };

/** A page as answered, before records already yielded are dropped. */
interface Arrived {
  readonly request: ListRequestParams;
  readonly answer: Answer;
  readonly envelope: ReceivedEnvelope;
  readonly pageNo: number;
  readonly pageSize: number;
  readonly totalPages?: number;
  readonly totalRecords?: number;
  /** The server marked the total as an estimate: `totalPages` does not end the walk. */
  readonly totalEstimated: boolean;
  readonly token?: string;
}

function requestFor(session: PageSession, move: Move): ListRequestParams {
  if (move.kind === 'first') return session.config.query;
  return { dataToken: move.token, page: move.kind === 'next' ? 'next' : move.page };
}

// Throws when the caller chose 'throw' or the restarts are used up; else counts the restart.
function restartOrThrow(session: PageSession, answer: Answer, page: number, reason: string | undefined): void {
  const { onExpired, maxRestarts, endpoint } = session.config;
  if (onExpired === 'throw' || session.restarts >= maxRestarts) {
    const after = onExpired === 'throw' ? '' : ` after ${session.restarts} restart${session.restarts === 1 ? '' : 's'}`;
    throw new DataTokenExpiredError(
      `the data token was refused${reason === undefined ? '' : ` (${reason})`} asking for page ${page} of ${endpoint}${after}; ${session.yielded} records had been yielded`,
      { ...detailsOf(answer), recordsYielded: session.yielded, pageNo: page, ...(reason === undefined ? {} : { reason }) },
    );
  }
  session.restart();
}

function arrive(session: PageSession, move: Move, request: ListRequestParams, answer: Answer): Arrived {
  const envelope = envelopeOf(answer);
  const p = envelope.Pagination;
  const requested = move.kind === 'first' ? 1 : move.page;
  const pageNo = finiteNumber(p?.PageNo) ?? requested;
  if (pageNo !== requested) throw requestError(answer, `GET ${answer.url} answered page ${pageNo} when page ${requested} was asked for`);
  const pageSize = finiteNumber(p?.PageSize) ?? session.config.limit;
  const totalPages = finiteNumber(p?.TotalPages);
  const totalRecords = finiteNumber(p?.TotalRecords);
  const token = stringValue(p?.DataToken);
  return {
    request,
    answer,
    envelope,
    pageNo,
    pageSize,
    ...(totalPages === undefined ? {} : { totalPages }),
    ...(totalRecords === undefined ? {} : { totalRecords }),
    totalEstimated: answer.totalEstimated,
    ...(token === undefined || token === '' ? {} : { token }),
  };
}

// After a restart, page one tells where the first record not yet yielded is:
// jump there when it is further on, rather than walking every page before it.
function resumeFrom(session: PageSession, page: Arrived): Move | 'done' | 'here' {
  const target = Math.floor(session.yielded / page.pageSize) + 1;
  if (target === 1) return 'here';
  // The list shrank below what was yielded (known only when the total is exact).
  if (page.totalPages !== undefined && !page.totalEstimated && target > page.totalPages) return 'done';
  if (page.token === undefined) return 'here';
  return { kind: 'jump', token: page.token, page: target };
}

// What follows a page: the end, or the next page. An explicit end needs an
// exact TotalPages; without one (or with an estimate), a full page asks for
// more and a short one ends: an estimate never ends a walk early, nor makes it endless.
function nextMove(session: PageSession, page: Arrived): Move | 'done' {
  const size = page.envelope.Data.length;
  if (size === 0) return 'done';
  const more = page.totalPages !== undefined && !page.totalEstimated ? page.pageNo < page.totalPages : size >= page.pageSize;
  if (!more) return 'done';
  if (page.token === undefined) {
    const why = page.envelope.Pagination === undefined ? "without Pagination (use skip paging, mode: 'skip')" : 'without a DataToken';
    session.fail('no-next-page', page.request, `page ${page.pageNo} of ${session.config.endpoint} is not the last but came ${why}`);
  }
  session.follow(page.token, page.request);
  return { kind: 'next', token: page.token, page: page.pageNo + 1 };
}

function toListPage<T>(page: Arrived, skipFirst: number, restarted: boolean): ListPage<T> {
  const data = page.envelope.Data as readonly T[];
  return {
    records: skipFirst > 0 ? data.slice(skipFirst) : data,
    pageNo: page.pageNo,
    pageSize: page.pageSize,
    ...(page.totalRecords === undefined ? {} : { totalRecords: page.totalRecords }),
    ...(page.totalPages === undefined ? {} : { totalPages: page.totalPages }),
    ...(page.totalEstimated ? { totalEstimated: true } : {}),
    restarted,
  };
}

/**
 * The pages of a token-paging session.
 *
 * @example
 * for await (const page of tokenPages<Employee>(new PageSession(config))) console.log(page.pageNo, page.totalPages);
 */
export async function* tokenPages<T>(session: PageSession): AsyncGenerator<ListPage<T>, void, undefined> {
  let move: Move | 'done' = { kind: 'first', restarted: false };
  let restarted = false;
  while (move !== 'done') {
    const request = requestFor(session, move);
    const answer = await session.get(request);
    if (move.kind !== 'first') {
      const refusal = tokenRefusal(answer);
      if (refusal.refused) {
        restartOrThrow(session, answer, move.page, refusal.reason);
        move = { kind: 'first', restarted: true };
        continue;
      }
    }
    const page = arrive(session, move, request, answer);
    let skipFirst = 0;
    if (move.kind === 'first' && move.restarted) {
      restarted = true;
      const resume = resumeFrom(session, page);
      if (resume === 'done') return;
      if (resume !== 'here') {
        move = resume;
        continue;
      }
      skipFirst = session.yielded;
    } else if (move.kind === 'jump') {
      skipFirst = session.yielded - (move.page - 1) * page.pageSize;
    }
    if (page.envelope.Data.length > 0) session.see(fingerprint(page.envelope.Data), request, page.pageNo);
    const listPage = toListPage<T>(page, skipFirst, restarted);
    restarted = false;
    if (listPage.records.length > 0) {
      yield listPage;
      session.yieldRecords(listPage.records.length);
    }
    move = nextMove(session, page);
  }
}
