/**
 * What a subcommand declares about itself: its options (each with a
 * description), what it takes besides them, and examples. `wepql <cmd>
 * --help`, `wepql help <cmd>`, the argument parser and "did you mean" all
 * read this one definition, so a new command gets them by declaring it.
 */
import type { ArgSpec } from './args.js';

/**
 * One option of a command.
 *
 * @example
 * const quiet: OptionDefinition = { flag: '--quiet', description: 'report errors only' };
 */
export interface OptionDefinition {
  readonly flag: string;
  /** A short alias such as `-q`. */
  readonly alias?: string;
  /** The value's placeholder (`FILE`, `N`); absent for an on/off switch. */
  readonly value?: string;
  /** The option may be given more than once; values are collected in order. */
  readonly repeatable?: boolean;
  readonly description: string;
}

/**
 * A subcommand's definition.
 *
 * @example
 * const definition: CommandDefinition = {
 *   name: 'explain', summary: 'say what a filter means', operands: 'TEXT',
 *   options: [{ flag: '--sort', description: 'TEXT is a sort' }], examples: ["wepql explain 'Gender.Equal(1)'"],
 * };
 */
export interface CommandDefinition {
  readonly name: string;
  readonly summary: string;
  /** What follows the options in the usage line, such as `FILE...` or `TEXT`. */
  readonly operands?: string;
  /** Paragraphs printed after the summary. */
  readonly details?: readonly string[];
  readonly options: readonly OptionDefinition[];
  /** At least one runnable example. */
  readonly examples: readonly string[];
}

/** Options every command takes; main.ts handles them before the command runs. */
export const GLOBAL_OPTIONS: readonly OptionDefinition[] = [
  { flag: '--color', description: 'force coloured output (default: only when writing to a terminal; FORCE_COLOR=1 also forces it)' },
  { flag: '--no-color', description: 'never colour output (NO_COLOR=1 does the same)' },
  { flag: '--help', alias: '-h', description: 'print this help' },
];

/** Printed in every command's help: how to pass a TEXT or FILE that begins with `-`. */
export const END_OF_OPTIONS =
  'Everything after -- is TEXT or FILE, even when it begins with - (wepql fmt -- -x.Equal(1)); an argument that begins with - but is no option is read as text too.';

/**
 * The argument-parser spec of a definition (aliases map to their flags).
 *
 * @example
 * parseArgs(argv, specOf(definition));
 */
export function specOf(definition: CommandDefinition): ArgSpec {
  const values: string[] = [];
  const switches: string[] = [];
  const repeatable: string[] = [];
  const aliases: Record<string, string> = {};
  for (const o of definition.options) {
    (o.value === undefined ? switches : o.repeatable === true ? repeatable : values).push(o.flag);
    if (o.alias !== undefined) aliases[o.alias] = o.flag;
  }
  return { values, switches, repeatable, aliases };
}

/**
 * The usage line: `wepql NAME [options] OPERANDS`.
 *
 * @example
 * usageLine(definition); // 'wepql explain [options] TEXT'
 */
export function usageLine(definition: CommandDefinition): string {
  return `wepql ${definition.name}${definition.options.length > 0 ? ' [options]' : ''}${definition.operands === undefined ? '' : ` ${definition.operands}`}`;
}

/**
 * The full help of a command: usage, summary, details, every option with
 * its description, and the examples.
 *
 * @example
 * process.stdout.write(renderHelp(definition));
 */
export function renderHelp(definition: CommandDefinition): string {
  const all = [...definition.options, ...GLOBAL_OPTIONS];
  const label = (o: OptionDefinition) =>
    `${o.alias === undefined ? '' : `${o.alias}, `}${o.flag}${o.value === undefined ? '' : ` ${o.value}`}${o.repeatable === true ? ' (repeatable)' : ''}`;
  const width = Math.min(34, Math.max(...all.map((o) => label(o).length)));
  const option = (o: OptionDefinition) => {
    const l = label(o);
    return l.length > width ? `  ${l}\n  ${' '.repeat(width)}  ${o.description}` : `  ${l.padEnd(width)}  ${o.description}`;
  };
  return [
    `usage: ${usageLine(definition)}`,
    '',
    `${definition.summary[0]!.toUpperCase()}${definition.summary.slice(1)}.`,
    ...(definition.details ?? []).flatMap((p) => ['', p]),
    '',
    'options:',
    ...all.map(option),
    '',
    END_OF_OPTIONS,
    '',
    definition.examples.length === 1 ? 'example:' : 'examples:',
    ...definition.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}
