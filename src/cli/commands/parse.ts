/**
 * `wepql parse [--sort] [--compact] TEXT`: prints the syntax tree of a filter
 * (or, with --sort, a sort) as JSON on stdout and its diagnostics as code
 * frames on stderr. `-` as TEXT reads standard input. Exit 0 when there is no
 * error diagnostic, 1 when there is one, 2 for a usage error.
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import { hasErrors } from '../../diagnostics/diagnostic.js';
import { parseFilter } from '../../syntax/parse-filter.js';
import { parseSort } from '../../syntax/parse-sort.js';
import { parseArgs, UsageError } from '../args.js';

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs `wepql parse`.
 *
 * @example
 * await run(['--sort', 'LastName=Asc']); // prints the sort tree, returns 0
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { switches: ['--sort', '--compact'] });
  if (args.positionals.length !== 1) {
    throw new UsageError(args.positionals.length === 0 ? 'missing TEXT (use - to read standard input)' : `expected one TEXT, got ${args.positionals.length}; quote the filter`);
  }
  const source = args.positionals[0]!;
  const text = source === '-' ? await readStdin() : source;
  const result = args.switches.has('--sort') ? parseSort(text) : parseFilter(text);
  process.stdout.write(JSON.stringify(result.ast, null, args.switches.has('--compact') ? undefined : 2) + '\n');
  const location = source === '-' ? { location: '<stdin>' } : {};
  for (const d of result.diagnostics) process.stderr.write(renderCodeFrame(text, d, location) + '\n');
  return hasErrors(result.diagnostics) ? 1 : 0;
}
