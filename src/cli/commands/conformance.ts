/**
 * `wepql conformance`: runs the conformance corpora of grammar/corpus/
 * (grammar/README.md). `--self` runs every corpus in process against this
 * package; `--url …/clients/1/employees` runs the list-contract cases over
 * HTTP against a running server loaded with the conformance dataset
 * (`wepql db-seed --conformance`, then the reference server with
 * `DATABASE_URL`). Prints one line per case, or JUnit XML or TAP.
 *
 * Exit codes: 0 every case that ran passed, 1 a case failed (the report
 * names it, what was sent and what differed), 2 usage error.
 */
import { readCorpusFile } from '../../conformance/corpus.js';
import type { HttpCorpus } from '../../conformance/http-corpus.js';
import { runHttpCorpus } from '../../conformance/http.js';
import { REPORTERS, renderReport, tally, type CaseResult, type Reporter } from '../../conformance/results.js';
import { runHttpCorpusOnReferenceServer, runSemanticCorpus, runSyntaxCorpora } from '../../conformance/run-self.js';
import { UsageError } from '../../workspace/usage-error.js';
import { parseArgs } from '../args.js';
import { specOf, type CommandDefinition } from '../command.js';

/** `wepql conformance`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'conformance',
  summary: 'run the conformance corpora: in process against this package (--self), or the list contract against a server (--url)',
  details: [
    'The server under --url serves the conformance dataset (grammar/corpus/dataset/employees.json) with client 1 at the URL: load it with `wepql db-seed --conformance` and start the reference server with DATABASE_URL, or load employees.postgres.sql / employees.mysql.sql into your own.',
    'Exit 0 every case that ran passed, 1 a case failed, 2 usage error. Excluded cases are listed with the reason.',
  ],
  options: [
    {
      flag: '--self',
      description: 'run the syntax, semantic and HTTP corpora against this package (HTTP against an in-process reference server)',
    },
    {
      flag: '--url',
      value: 'URL',
      description: 'the list URL of client 1 on the server under test, such as http://127.0.0.1:8080/api/public/clients/1/employees',
    },
    { flag: '--token', value: 'T', description: 'the bearer token the server requires (sent as Authorization: Bearer T)' },
    {
      flag: '--token-ttl',
      value: 'S',
      description:
        "the server's data token lifetime in seconds; runs the expiry case, which waits that long (start the server with a short one)",
    },
    {
      flag: '--exclude-tag',
      value: 'TAG',
      repeatable: true,
      description: 'skip the cases with this tag (skip-paging, token-paging, api-version, expiry, cross-route, client-404, auth)',
    },
    { flag: '--reporter', value: 'NAME', description: 'text (default), junit (JUnit XML) or tap (TAP 14), on standard output' },
  ],
  examples: [
    'wepql conformance --self',
    'wepql conformance --url http://127.0.0.1:8080/api/public/clients/1/employees --token "$WEPQL_DEMO_TOKEN" --token-ttl 2',
    'wepql conformance --url http://127.0.0.1:8080/api/public/clients/1/employees --token "$WEPQL_DEMO_TOKEN" --exclude-tag skip-paging --reporter junit > conformance.xml',
  ],
};

function readReporter(value: string | undefined): Reporter {
  if (value === undefined) return 'text';
  if (!(REPORTERS as readonly string[]).includes(value))
    throw new UsageError(`--reporter must be one of ${REPORTERS.join(', ')}, got ${JSON.stringify(value)}`);
  return value as Reporter;
}

function readUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--url must be an absolute http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--url must be an http or https URL, got ${JSON.stringify(value)}`);
  if (url.search !== '' || url.hash !== '') throw new UsageError('--url must be the list URL without a query string or fragment');
  return url.toString();
}

function readTtl(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+(\.\d+)?$/.test(value) || !(n > 0) || n > 600)
    throw new UsageError(`--token-ttl must be a number of seconds above 0 and at most 600, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * Runs `wepql conformance` and resolves to the exit code.
 *
 * @example
 * await run(['--self']); // 0 when every case passes
 * await run(['--url', 'http://127.0.0.1:8080/api/public/clients/1/employees', '--token', 'demo', '--reporter', 'tap']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const reporter = readReporter(args.values.get('--reporter'));
  const self = args.switches.has('--self');
  const urlText = args.values.get('--url');
  if (self === (urlText !== undefined))
    throw new UsageError(self ? 'give --self or --url, not both' : 'give --self, or --url with the list URL of the server under test');
  const excludeTags = args.repeated.get('--exclude-tag') ?? [];
  const known = new Set(readCorpusFile<HttpCorpus>('list-http.json').cases.flatMap((c) => c.tags));
  const unknown = excludeTags.filter((t) => !known.has(t));
  if (unknown.length > 0) throw new UsageError(`unknown tag ${JSON.stringify(unknown[0])}; the tags are ${[...known].sort().join(', ')}`);
  let results: CaseResult[];
  if (self) {
    if (args.values.has('--token') || args.values.has('--token-ttl'))
      throw new UsageError('--token and --token-ttl go with --url; --self starts its own server');
    results = [...runSyntaxCorpora(), ...runSemanticCorpus(), ...(await runHttpCorpusOnReferenceServer({ excludeTags }))];
  } else {
    const url = readUrl(urlText!);
    const token = args.values.get('--token');
    const tokenTtlSeconds = readTtl(args.values.get('--token-ttl'));
    results = await runHttpCorpus(readCorpusFile<HttpCorpus>('list-http.json'), {
      url,
      excludeTags,
      ...(token === undefined ? {} : { token }),
      ...(tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds }),
    });
  }
  process.stdout.write(renderReport(reporter, results));
  return tally(results).fail > 0 ? 1 : 0;
}
