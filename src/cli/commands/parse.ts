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
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { STDIN_LABEL } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';

/** `wepql parse`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'parse',
  summary: 'print the syntax tree of a filter (or, with --sort, a sort) as JSON; diagnostics go to standard error',
  operands: 'TEXT',
  details: ['TEXT - reads standard input. Exit 0 without errors, 1 with errors, 2 for a usage error.'],
  options: [
    { flag: '--sort', description: 'TEXT is a sort (`LastName=Asc;CreatedOn=Desc`), not a filter' },
    { flag: '--compact', description: 'print the tree on one line' },
  ],
  examples: ["wepql parse 'LastName.StartsWith(Sm);Gender.Equal(1)'", "wepql parse --sort --compact 'LastName=Asc'"],
};

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
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0
        ? 'missing TEXT (use - to read standard input)'
        : `expected one TEXT, got ${args.positionals.length}; quote the filter`,
    );
  }
  const source = args.positionals[0]!;
  const text = source === '-' ? await readStdin() : source;
  const result = args.switches.has('--sort') ? parseSort(text) : parseFilter(text);
  process.stdout.write(JSON.stringify(result.ast, null, args.switches.has('--compact') ? undefined : 2) + '\n');
  const location = source === '-' ? { location: STDIN_LABEL } : {};
  for (const d of result.diagnostics) process.stderr.write(renderCodeFrame(text, d, location) + '\n');
  return hasErrors(result.diagnostics) ? 1 : 0;
}
