/**
 * `wepql lsp [--schema FILE] [--case-sensitive] [--stdio]`: the language
 * server for editors, over standard input and output. `--stdio` is accepted
 * because editors pass it; stdio is the only transport.
 *
 * Exit codes: 0 after the client's `exit`, 2 usage error (unknown flag,
 * unreadable or invalid schema file).
 */
import { startLanguageServer } from '../../lsp/start.js';
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { specOf } from '../command.js';
import { definition } from './lsp-definition.js';

export { definition };

/**
 * Runs `wepql lsp` until the client ends the session.
 *
 * @example
 * await run(['--schema', 'schemas/employee.json']); // serves LSP on stdin/stdout
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}; the server talks over stdin/stdout`);
  const schemaFile = args.values.get('--schema');
  // A broken schema file is a usage error now, not a silent server without types.
  if (schemaFile !== undefined) await (await import('../io.js')).loadSchemaFile(schemaFile);
  await startLanguageServer({
    ...(schemaFile === undefined ? {} : { schemaFile }),
    caseSensitive: args.switches.has('--case-sensitive'),
  });
  return 0;
}
