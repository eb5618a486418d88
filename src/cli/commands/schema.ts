/**
 * `wepql schema …`: tools around schema files. A thin dispatcher: each mode
 * lives in its own module, so new modes are added here in one line.
 *
 * - `diff OLD NEW`: schema-diff.ts
 * - `--from-openapi FILE [--component NAME]`, `--types`, `--openapi`: schema-openapi.ts
 */
import { UsageError } from '../../workspace/usage-error.js';
import { didYouMean } from '../../diagnostics/suggest.js';
import { renderHelp, type CommandDefinition } from '../command.js';

interface SubcommandModule {
  readonly definition: CommandDefinition;
  run(argv: readonly string[]): Promise<number>;
}

const SUBCOMMANDS: Readonly<Record<string, { readonly summary: string; readonly load: () => Promise<SubcommandModule> }>> = {
  diff: { summary: 'print what changed between two schema files', load: () => import('./schema-diff.js') },
};

const OPENAPI_FLAGS = ['--from-openapi', '--types', '--openapi'];

/** `wepql schema`: its modes and their options, the source of its help. */
export const definition: CommandDefinition = {
  name: 'schema',
  summary: 'work with schema files: compare two versions, or convert from and to OpenAPI and TypeScript',
  operands: 'diff OLD NEW | --from-openapi FILE | --types | --openapi --path PATH',
  details: [
    `subcommands:\n${Object.entries(SUBCOMMANDS)
      .map(([name, s]) => `  ${name.padEnd(6)}  ${s.summary} (see \`wepql schema ${name} --help\`)`)
      .join('\n')}`,
    'Without --schema, the OpenAPI modes use the employee schema (named Employee).',
  ],
  options: [
    { flag: '--from-openapi', value: 'FILE', description: 'print a wepql schema file made from an OpenAPI component (YAML or JSON)' },
    { flag: '--component', value: 'NAME', description: 'the component of --from-openapi (default: the file is a JSON Schema itself)' },
    { flag: '--types', description: 'print the TypeScript record type of the schema, for where<T>()' },
    { flag: '--openapi', description: 'print the OpenAPI 3.1 document of a list endpoint' },
    { flag: '--path', value: 'PATH', description: 'the endpoint path of --openapi' },
    { flag: '--schema', value: 'FILE', description: 'the schema file for --types and --openapi' },
    { flag: '--policy', value: 'FILE', description: "the endpoint's policy file for --openapi" },
    { flag: '--name', value: 'NAME', description: 'the record type name for --types and --openapi' },
    { flag: '--format', value: 'yaml|json', description: 'the output format of --openapi (default yaml)' },
  ],
  examples: [
    'wepql schema diff examples/lint-project/schemas/employee-v1.json examples/lint-project/schemas/employee-v2.json',
    'wepql schema --openapi --path /employees > employees-openapi.yaml',
    'wepql schema --from-openapi employees-openapi.yaml --component Employee > employee-schema.json',
    'wepql schema --types --schema schemas/employee.json --name Employee',
  ],
};

/**
 * Runs `wepql schema ...`.
 *
 * @example
 * await run(['diff', 'old.json', 'new.json']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  if (argv.some((a) => OPENAPI_FLAGS.some((f) => a === f || a.startsWith(`${f}=`)))) {
    return (await import('./schema-openapi.js')).run(argv);
  }
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    throw new UsageError('say what to do: diff OLD NEW, --from-openapi FILE --component NAME, --types or --openapi --path PATH');
  }
  if (!Object.hasOwn(SUBCOMMANDS, name)) {
    const near = didYouMean(name, Object.keys(SUBCOMMANDS));
    throw new UsageError(`unknown subcommand "${name}"${near === undefined ? '' : `; did you mean "${near}"?`}`);
  }
  const sub = await SUBCOMMANDS[name]!.load();
  return sub.run(rest);
}

/**
 * The help for `wepql schema [subcommand] --help`: the subcommand's own
 * when one is named, else the command's.
 *
 * @example
 * await helpFor(['diff', '--help']); // 'usage: wepql schema diff [options] OLD.json NEW.json …'
 */
export async function helpFor(argv: readonly string[]): Promise<string> {
  const name = argv[0];
  if (name !== undefined && Object.hasOwn(SUBCOMMANDS, name)) return renderHelp((await SUBCOMMANDS[name]!.load()).definition);
  return renderHelp(definition);
}
