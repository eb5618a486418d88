/**
 * `wepql schema …`: tools around schema files. A thin dispatcher: each mode
 * lives in its own module, so new modes are added here in one line.
 *
 * - `--from-openapi FILE [--component NAME]`, `--types`, `--openapi`: schema-openapi.ts
 */
import { UsageError } from '../args.js';

const OPENAPI_FLAGS = ['--from-openapi', '--types', '--openapi'];

/** Runs `wepql schema`. */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.some((a) => OPENAPI_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)))) {
    return (await import('./schema-openapi.js')).run(argv);
  }
  throw new UsageError('say what to do: --from-openapi FILE --component NAME, --types or --openapi --path PATH');
}
