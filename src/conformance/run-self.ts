/**
 * `wepql conformance --self`: every corpus against this package, in
 * process — the syntax corpora through the parser and printer, the
 * semantic corpus through `query()`, and the list-contract corpus over
 * real HTTP on 127.0.0.1 against the reference server loaded with the
 * dataset (data tokens living one second, so the expiry case runs too).
 */
import { randomBytes } from 'node:crypto';
import { formatFilter, formatSort } from '../print/format.js';
import { createListServer } from '../reference-server/server.js';
import { conformanceEmployees, readCorpusFile, SYNTAX_CORPUS_FILES, type SemanticCorpus, type SyntaxCase } from './corpus.js';
import type { HttpCorpus } from './http-corpus.js';
import { runHttpCorpus } from './http.js';
import type { CaseResult } from './results.js';
import { runSemanticCase, runSyntaxCase } from './semantic.js';

const show = (value: unknown) => JSON.stringify(value);

function timed(suite: string, name: string, family: string, check: () => string[]): CaseResult {
  const started = performance.now();
  let details: string[];
  try {
    details = check();
  } catch (error) {
    details = [`threw ${error instanceof Error ? error.message : String(error)}`];
  }
  return { suite, name, family, outcome: details.length === 0 ? 'pass' : 'fail', details, ms: performance.now() - started };
}

function syntaxDifferences(c: SyntaxCase): string[] {
  const got = runSyntaxCase(c);
  const out: string[] = [];
  if (show(got.diagnostics) !== show(c.diagnostics)) out.push(`diagnostics: expected ${show(c.diagnostics)}, got ${show(got.diagnostics)}`);
  if (c.ast !== undefined && show(got.ast) !== show(c.ast)) out.push(`ast: expected ${show(c.ast)}, got ${show(got.ast)}`);
  if (c.canonical !== undefined) {
    const printed = c.kind === 'filter' ? formatFilter(c.input) : formatSort(c.input);
    if (printed !== c.canonical) out.push(`canonical: expected ${show(c.canonical)}, got ${show(printed)}`);
  }
  return out.length === 0 ? [] : [`${c.kind}: ${show(c.input)}`, ...out];
}

/**
 * The syntax corpora's results.
 *
 * @example
 * runSyntaxCorpora().filter((r) => r.outcome === 'fail'); // []
 */
export function runSyntaxCorpora(): CaseResult[] {
  return SYNTAX_CORPUS_FILES.flatMap((file) => {
    const { cases } = readCorpusFile<{ cases: SyntaxCase[] }>(file);
    const suite = `syntax ${file}`;
    return cases.map((c) => timed(suite, c.name, c.kind, () => syntaxDifferences(c)));
  });
}

/**
 * The semantic corpus's results through `query()`.
 *
 * @example
 * runSemanticCorpus().length; // one result per case of semantics.json
 */
export function runSemanticCorpus(): CaseResult[] {
  const corpus = readCorpusFile<SemanticCorpus>('semantics.json');
  const records = conformanceEmployees();
  return corpus.cases.map((c) =>
    timed('semantics', c.name, c.family, () => {
      const got = runSemanticCase(c, records, corpus.deletedScope);
      const want = c.ids !== undefined ? { ids: c.ids } : { errors: c.errors };
      if (show(got) === show(want)) return [];
      return [
        `filter: ${show(c.filter)}  sort: ${show(c.sort)}${c.caseSensitive ? '  case-sensitive' : ''}${c.deleted === 'hide' ? '  deleted rows hidden' : ''}`,
        `expected ${show(want)}, got ${show(got)}`,
      ];
    }),
  );
}

/**
 * The list-contract corpus against the reference server, started in
 * process on a free loopback port with the dataset, and stopped after.
 *
 * @example
 * const results = await runHttpCorpusOnReferenceServer({ excludeTags: ['expiry'] });
 */
export async function runHttpCorpusOnReferenceServer(options: { readonly excludeTags?: readonly string[] } = {}): Promise<CaseResult[]> {
  const authToken = randomBytes(12).toString('base64url');
  const tokenTtlSeconds = 1;
  const app = createListServer({ records: conformanceEmployees(), authToken, ttlSeconds: tokenTtlSeconds, host: '127.0.0.1', port: 0 });
  const { url } = await app.listen();
  try {
    const corpus = readCorpusFile<HttpCorpus>('list-http.json');
    return await runHttpCorpus(corpus, {
      url: `${url}/api/public/${corpus.routes.list}`,
      token: authToken,
      tokenTtlSeconds,
      ...(options.excludeTags === undefined ? {} : { excludeTags: options.excludeTags }),
    });
  } finally {
    await app.close();
  }
}
