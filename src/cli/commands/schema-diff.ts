/**
 * `wepql schema diff OLD NEW`: prints what changed between two schema files
 * (fields removed, added, renamed, retyped, nullability, filterable or
 * sortable, deprecated), one line each. Exit 0 when nothing that can break a
 * saved filter changed, 1 when something can, 2 for a usage error.
 */
import { describeChange, diffSchemas, isBreaking } from '../../schema/diff.js';
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { paint } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';
import { loadSchemaFile } from '../io.js';

/** `wepql schema diff`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'schema diff',
  summary: 'print what changed between two schema files, and whether saved filters can break',
  operands: 'OLD.json NEW.json',
  details: [
    'A field of OLD is matched in NEW by its name or by a `renamedFrom` entry. Exit 0 when no change can break a saved filter, 1 when one can (a field removed, a type change that refuses values, a field no longer filterable or sortable), 2 for a usage error. Run `wepql lint --schema NEW --previous-schema OLD` to see which saved filters are affected.',
  ],
  options: [{ flag: '--format', value: 'text|json', description: 'text (default) or a JSON object with every change' }],
  examples: ['wepql schema diff examples/lint-project/schemas/employee-v1.json examples/lint-project/schemas/employee-v2.json'],
};

/**
 * Runs `wepql schema diff`.
 *
 * @example
 * await run(['old.json', 'new.json']); // prints "renamed    Surname → LastName", returns 0
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  const format = args.values.get('--format') ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got ${JSON.stringify(format)}`);
  if (args.positionals.length !== 2)
    throw new UsageError(
      `expected OLD and NEW schema files, got ${args.positionals.length} argument${args.positionals.length === 1 ? '' : 's'}`,
    );
  const [oldPath, newPath] = args.positionals as [string, string];
  if (oldPath === '-' && newPath === '-') throw new UsageError('OLD and NEW cannot both read standard input');
  const previous = await loadSchemaFile(oldPath);
  const next = await loadSchemaFile(newPath);
  const diff = diffSchemas(previous, next);
  const breaking = isBreaking(diff);
  if (format === 'json') {
    const changes = diff.changes.map((c) => {
      const { previous: _p, next: _n, ...rest } = c as typeof c & { previous?: unknown; next?: unknown };
      return rest;
    });
    process.stdout.write(
      JSON.stringify(
        {
          ...(diff.previousVersion === undefined ? {} : { previousVersion: diff.previousVersion }),
          ...(diff.nextVersion === undefined ? {} : { nextVersion: diff.nextVersion }),
          breaking,
          changes,
        },
        null,
        2,
      ) + '\n',
    );
    return breaking ? 1 : 0;
  }
  const versions =
    diff.previousVersion === undefined && diff.nextVersion === undefined
      ? ''
      : ` (version ${diff.previousVersion ?? '?'} → ${diff.nextVersion ?? '?'})`;
  process.stdout.write(`${paint.bold(`${oldPath} → ${newPath}`)}${versions}\n`);
  if (diff.changes.length === 0) {
    process.stdout.write('no changes\n');
    return 0;
  }
  for (const c of diff.changes) {
    const line = describeChange(c);
    const colored =
      c.kind === 'removed' || (c.kind === 'retyped' && c.impact === 'may-break')
        ? paint.red(line)
        : c.kind === 'added'
          ? paint.green(line)
          : paint.yellow(line);
    process.stdout.write(`  ${colored}\n`);
  }
  const n = diff.changes.length;
  process.stdout.write(
    `${n} change${n === 1 ? '' : 's'}; ${breaking ? 'saved filters can break: run `wepql lint --previous-schema` to find them' : 'no change breaks a saved filter'}\n`,
  );
  return breaking ? 1 : 0;
}
