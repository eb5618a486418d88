/**
 * Runs the list-contract corpus (grammar/corpus/list-http.json) against a
 * list endpoint over HTTP: each case's steps in order, data tokens passed
 * on from earlier answers (opaque, or tampered with as the case says),
 * each answer compared with what the case expects. A case stops at its
 * first step that differs; the result names the step, what was sent and
 * what differed.
 */
import type { HttpCase, HttpCorpus, HttpExpect, HttpStep, HttpValue } from './http-corpus.js';
import type { CaseResult } from './results.js';

/**
 * Where and how to run the HTTP cases.
 *
 * @example
 * const target: HttpTarget = { url: 'http://127.0.0.1:8080/api/public/clients/1/employees', token: 'demo', tokenTtlSeconds: 2 };
 */
export interface HttpTarget {
  /** The list URL serving client 1's employees of the dataset. */
  readonly url: string;
  /** The bearer token to send; without it, no `Authorization` header is sent and `auth` cases are excluded. */
  readonly token?: string;
  /** The server's data token lifetime; without it, `expiry` cases are excluded (they would wait that long). */
  readonly tokenTtlSeconds?: number;
  /** Tags of cases not to run; the report lists each as excluded. */
  readonly excludeTags?: readonly string[];
  /** Per-request timeout, default 10 s. */
  readonly timeoutMs?: number;
}

interface Answer {
  readonly status: number;
  readonly text: string;
  readonly body: unknown;
}

/** What one step sent, for the report. */
interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
}

const SUITE = 'list-http';

/** The routes of the corpus as URLs, when the list URL ends with the corpus's list route. */
function routeUrls(corpus: HttpCorpus, url: string): Record<string, string> | undefined {
  const bare = url.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const list = `/${corpus.routes.list}`;
  if (!bare.endsWith(list)) return undefined;
  const base = bare.slice(0, -list.length);
  return { 'other-client': `${base}/${corpus.routes['other-client']}`, 'unknown-client': `${base}/${corpus.routes['unknown-client']}` };
}

/** Why a case does not run against this target, or undefined when it does. */
function exclusion(c: HttpCase, target: HttpTarget, routes: Record<string, string> | undefined, corpus: HttpCorpus): string | undefined {
  const excluded = c.tags.filter((t) => target.excludeTags?.includes(t));
  if (excluded.length > 0) return `excluded by tag ${excluded.join(', ')}`;
  if (c.tags.includes('expiry') && target.tokenTtlSeconds === undefined) {
    return "tag expiry: needs --token-ttl S, the server's data token lifetime (start the server with a short one)";
  }
  if (c.tags.includes('auth') && target.token === undefined) return 'tag auth: needs --token, the bearer token the server requires';
  if (routes === undefined && c.steps.some((s) => s.request.route !== undefined)) {
    return `needs the ${c.steps.find((s) => s.request.route)!.request.route} route, and the URL does not end with ${corpus.routes.list}`;
  }
  return undefined;
}

/** A token value of an earlier step, tampered with when the case says so. */
function tokenValue(value: HttpValue, tokens: readonly (string | undefined)[]): string {
  if (typeof value === 'string') return value;
  const token = tokens[value.dataTokenOf - 1];
  if (token === undefined) throw new StepProblem(`step ${value.dataTokenOf} issued no Pagination.DataToken to send`);
  if (value.tamper === undefined) return token;
  const at = Math.floor(token.length / 2);
  return `${token.slice(0, at)}${token[at] === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`;
}

class StepProblem extends Error {}

async function send(
  step: HttpStep,
  target: HttpTarget,
  routes: Record<string, string> | undefined,
  tokens: readonly (string | undefined)[],
) {
  const base = step.request.route === undefined ? target.url : routes![step.request.route]!;
  const url = new URL(base);
  for (const [name, value] of Object.entries(step.request.query ?? {})) url.searchParams.append(name, tokenValue(value, tokens));
  const headers: Record<string, string> = {};
  if (step.request.auth !== false && target.token !== undefined) headers['authorization'] = `Bearer ${target.token}`;
  for (const [name, value] of Object.entries(step.request.headers ?? {})) headers[name] = tokenValue(value, tokens);
  const sent: Sent = { url: url.toString(), headers };
  const response = await fetch(sent.url, { headers, redirect: 'manual', signal: AbortSignal.timeout(target.timeoutMs ?? 10_000) });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { sent, answer: { status: response.status, text, body } satisfies Answer };
}

const show = (value: unknown) => JSON.stringify(value) ?? 'undefined';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every way an answer differs from what the step expects. */
export function differences(expect: HttpExpect, answer: Answer, sentUrl: string): string[] {
  const out: string[] = [];
  if (answer.status !== expect.status) out.push(`status: expected ${expect.status}, got ${answer.status}`);
  const wantsBody = expect.keys ?? expect.fields ?? expect.pagination ?? expect.ids ?? expect.validationErrors;
  if (wantsBody === undefined) return out;
  const body = answer.body;
  if (!isRecord(body)) return [...out, `body: expected a JSON object, got ${show(answer.text.slice(0, 300))}`];
  if (expect.keys !== undefined) {
    const missing = expect.keys.filter((k) => !Object.hasOwn(body, k));
    const extra = Object.keys(body).filter((k) => !expect.keys!.includes(k));
    if (missing.length > 0) out.push(`keys: missing ${missing.join(', ')}`);
    if (extra.length > 0) out.push(`keys: unexpected ${extra.join(', ')}`);
  }
  for (const [name, value] of Object.entries(expect.fields ?? {})) {
    const want = typeof value === 'string' ? value.replaceAll('{url}', sentUrl) : value;
    if (body[name] !== want) out.push(`${name}: expected ${show(want)}, got ${show(body[name])}`);
  }
  if (expect.pagination === null && Object.hasOwn(body, 'Pagination'))
    out.push(`Pagination: expected none, got ${show(body['Pagination'])}`);
  if (expect.pagination !== undefined && expect.pagination !== null) {
    const p = body['Pagination'];
    if (!isRecord(p)) out.push(`Pagination: expected an object, got ${show(p)}`);
    else {
      for (const [name, value] of Object.entries(expect.pagination)) {
        if (p[name] !== value) out.push(`Pagination.${name}: expected ${value}, got ${show(p[name])}`);
      }
      if (typeof p['DataToken'] !== 'string' || p['DataToken'] === '')
        out.push(`Pagination.DataToken: expected a token, got ${show(p['DataToken'])}`);
    }
  }
  if (expect.ids !== undefined) {
    const data = body['Data'];
    const ids = Array.isArray(data) ? data.map((r: unknown) => (isRecord(r) ? r['Id'] : r)) : undefined;
    if (show(ids) !== show(expect.ids))
      out.push(`Data ids: expected ${show(expect.ids)}, got ${ids === undefined ? show(data) : show(ids)}`);
  }
  if (expect.validationErrors !== undefined) {
    const v = body['ValidationErrors'];
    const got = isRecord(v)
      ? Object.fromEntries(
          Object.entries(v).map(([k, pairs]) => [
            k,
            Array.isArray(pairs) ? pairs.map((p: unknown) => (Array.isArray(p) ? p[0] : p)) : pairs,
          ]),
        )
      : v;
    if (show(got) !== show(expect.validationErrors))
      out.push(`ValidationErrors codes: expected ${show(expect.validationErrors)}, got ${show(got)}`);
  }
  return out;
}

function describeSent(index: number, sent: Sent): string {
  const headers = Object.entries(sent.headers)
    .filter(([k]) => k !== 'authorization')
    .map(([k, v]) => `${k}: ${v}`);
  return `step ${index + 1}: GET ${sent.url}${headers.length > 0 ? `\n  headers: ${headers.join(' | ')}` : ''}`;
}

async function runCase(c: HttpCase, target: HttpTarget, routes: Record<string, string> | undefined): Promise<CaseResult> {
  const started = performance.now();
  const tokens: (string | undefined)[] = [];
  const result = (outcome: CaseResult['outcome'], details: string[]): CaseResult => ({
    suite: SUITE,
    name: c.name,
    family: c.family,
    outcome,
    details,
    ms: performance.now() - started,
  });
  for (const [i, step] of c.steps.entries()) {
    if (step.wait === 'token-ttl') await new Promise((r) => setTimeout(r, target.tokenTtlSeconds! * 1000 + 1000));
    let exchange: Awaited<ReturnType<typeof send>>;
    try {
      exchange = await send(step, target, routes, tokens);
    } catch (error) {
      return result('fail', [`step ${i + 1}: ${error instanceof StepProblem ? error.message : `request failed: ${String(error)}`}`]);
    }
    const diff = differences(step.expect, exchange.answer, exchange.sent.url);
    if (diff.length > 0) return result('fail', [describeSent(i, exchange.sent), ...diff.map((d) => `  ${d}`)]);
    const p = isRecord(exchange.answer.body) ? exchange.answer.body['Pagination'] : undefined;
    tokens.push(isRecord(p) && typeof p['DataToken'] === 'string' ? p['DataToken'] : undefined);
  }
  return result('pass', []);
}

/**
 * Runs every case of the corpus against the target, one after another
 * (a case's steps depend on each other; cases do not).
 *
 * @example
 * const results = await runHttpCorpus(readCorpusFile('list-http.json'), { url, token: 'demo', tokenTtlSeconds: 1 });
 */
export async function runHttpCorpus(corpus: HttpCorpus, target: HttpTarget): Promise<CaseResult[]> {
  const routes = routeUrls(corpus, target.url);
  const out: CaseResult[] = [];
  for (const c of corpus.cases) {
    const why = exclusion(c, target, routes, corpus);
    out.push(
      why === undefined
        ? await runCase(c, target, routes)
        : { suite: SUITE, name: c.name, family: c.family, outcome: 'excluded', details: [why], ms: 0 },
    );
  }
  return out;
}
