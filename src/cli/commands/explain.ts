/**
 * `wepql explain [--sort] [--schema FILE] TEXT`: prints what a filter (or,
 * with `--sort`, a sort) means in plain English. With a schema the input is
 * validated too and the wording follows each field's type. `TEXT` may be
 * `-` to read standard input.
 *
 * Exit codes: 0 explained (warnings go to stderr), 1 the input has errors
 * (each printed as a code frame on stderr), 2 usage error.
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import { explain } from '../../language-service/explain.js';
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { loadSchemaFile, readInput } from '../io.js';
import { STDIN_LABEL } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';

/** `wepql explain`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'explain',
  summary: 'say what a filter (or, with --sort, a sort) means in plain English',
  operands: 'TEXT',
  details: ['TEXT - reads standard input. Exit 0 explained (warnings on standard error), 1 the input has errors, 2 usage error.'],
  options: [
    { flag: '--sort', description: 'TEXT is a sort, not a filter' },
    { flag: '--schema', value: 'FILE', description: 'validate against this schema file and word each field by its type' },
  ],
  examples: [
    "wepql explain --schema schemas/employee.json 'Or(Gender.Equal(1);OrigHireDate.GreaterThan(2020-01-01))'",
    "wepql explain --sort 'LastName=Asc;CreatedOn=Desc'",
  ],
};

/**
 * Runs `wepql explain` and resolves to the exit code.
 *
 * @example
 * await run(['--sort', 'LastName=Asc;CreatedOn=Desc']); // prints "by last name (ascending), then by created on (descending)"
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length !== 1) {
    throw new UsageError(
      args.positionals.length === 0
        ? 'missing the filter (or sort) TEXT to explain'
        : `expected one TEXT, got ${args.positionals.length}; quote the filter so the shell passes it as one argument`,
    );
  }
  const schemaPath = args.values.get('--schema');
  const schema = schemaPath === undefined ? undefined : await loadSchemaFile(schemaPath);
  const positional = args.positionals[0]!;
  // A trailing newline from a file or a pipe is not part of the filter.
  const text = positional === '-' ? (await readInput('-')).replace(/\r?\n$/, '') : positional;
  const kind = args.switches.has('--sort') ? 'sort' : 'filter';
  const result = explain(text, { kind, ...(schema === undefined ? {} : { schema }) });
  const order = { error: 0, warning: 1, info: 2 } as const;
  const shown = [...result.diagnostics]
    .filter((d) => d.severity !== 'info')
    .sort((a, b) => order[a.severity] - order[b.severity] || a.start - b.start);
  for (const d of shown) process.stderr.write(renderCodeFrame(text, d, positional === '-' ? { location: STDIN_LABEL } : {}) + '\n');
  if (result.value === undefined) return 1;
  process.stdout.write(result.value + '\n');
  return 0;
}
