/**
 * `wepql schema <subcommand>`: a thin dispatcher over the schema tools,
 * each in its own module (`schema-diff.ts`, …), so that tools can be added
 * as rows of `SUBCOMMANDS`.
 */
import { didYouMean, UsageError } from '../args.js';
import { renderHelp, type CommandDefinition } from '../command.js';

interface SubcommandModule {
  readonly definition: CommandDefinition;
  run(argv: readonly string[]): Promise<number>;
}

const SUBCOMMANDS: Readonly<Record<string, { readonly summary: string; readonly load: () => Promise<SubcommandModule> }>> = {
  diff: { summary: 'print what changed between two schema files', load: () => import('./schema-diff.js') },
};

/** `wepql schema`: its subcommands, the source of its help. */
export const definition: CommandDefinition = {
  name: 'schema',
  summary: 'work with schema files',
  operands: '<subcommand> ...',
  details: [
    `subcommands:\n${Object.entries(SUBCOMMANDS)
      .map(([name, s]) => `  ${name.padEnd(6)}  ${s.summary}`)
      .join('\n')}\nRun \`wepql schema <subcommand> --help\` for its options.`,
  ],
  options: [],
  examples: ['wepql schema diff schemas/v1.json schemas/v2.json'],
};

/**
 * Runs `wepql schema <subcommand> ...`.
 *
 * @example
 * await run(['diff', 'old.json', 'new.json']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) throw new UsageError(`name a subcommand: ${Object.keys(SUBCOMMANDS).join(', ')}`);
  if (!Object.hasOwn(SUBCOMMANDS, name)) {
    const near = didYouMean(name, Object.keys(SUBCOMMANDS));
    throw new UsageError(`unknown subcommand "${name}"${near === undefined ? '' : `; did you mean "${near}"?`}`);
  }
  const sub = await SUBCOMMANDS[name]!.load();
  return sub.run(rest);
}

/**
 * The help for `wepql schema [subcommand] --help`: the subcommand's own
 * when one is named, else the list of subcommands.
 *
 * @example
 * await helpFor(['diff', '--help']); // 'usage: wepql schema diff [options] OLD.json NEW.json …'
 */
export async function helpFor(argv: readonly string[]): Promise<string> {
  const name = argv[0];
  if (name !== undefined && Object.hasOwn(SUBCOMMANDS, name)) return renderHelp((await SUBCOMMANDS[name]!.load()).definition);
  return renderHelp(definition);
}
