#!/usr/bin/env node
/**
 * The `wepql` command line. Each subcommand lives in `commands/<name>.ts`,
 * exports its `definition` (options, examples: the source of its help) and
 * `run(argv): Promise<number>` returning the exit code: 0 success, 1 the
 * input has errors, 2 a usage error. Adding a command is one row in
 * `COMMANDS`; it is loaded only when used, so startup stays fast.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initializeResult } from '../lsp/capabilities.js';
import { earlyStreams } from '../lsp/early-answer.js';
import type { CommandDefinition } from './command.js';
import { definition as lspDefinition } from './commands/lsp-definition.js';
import { allowBatchV8Settings } from './batch-v8-settings.js';

// Of the package, only what `wepql lsp` needs to answer the editor's
// `initialize` is imported above (its capabilities, the early answer and its
// options, a few kilobytes): the answer then goes out before the command's
// own module loads, 7 ms sooner than behind a dynamic import. Everything
// else a run loads once the command line is read, so `wepql --version`
// loads this file, package-info and package.json. Help, suggestions and the
// error classes are loaded where they are used (the built CLI is one file
// per command plus the chunks they share, scripts/bundle.mjs).

/** `wepql lsp`'s switches: a command line of only these has nothing to check before the server answers. */
const LSP_SWITCHES: ReadonlySet<string> = new Set(lspDefinition.options.filter((o) => o.value === undefined).map((o) => o.flag));

interface CommandModule {
  readonly definition?: CommandDefinition;
  /** For a command with subcommands: the help for the rest of the command line. */
  readonly helpFor?: (argv: readonly string[]) => Promise<string>;
  run(argv: readonly string[]): Promise<number>;
}

interface CommandEntry {
  readonly summary: string;
  /** Usage line for a command module that declares no `definition`. */
  readonly usage?: string;
  readonly load: () => Promise<CommandModule>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  parse: { summary: 'print the syntax tree of a filter (or sort) as JSON', load: () => import('./commands/parse.js') },
  fmt: { summary: 'print the canonical form, or check or rewrite files of saved filters', load: () => import('./commands/fmt.js') },
  lint: { summary: 'check saved filters and sorts against a schema (and the schema before it)', load: () => import('./commands/lint.js') },
  query: { summary: 'run a filter and sort over a JSON or NDJSON file of records', load: () => import('./commands/query.js') },
  explain: { summary: 'say what a filter (or sort) means in plain English', load: () => import('./commands/explain.js') },
  schema: {
    summary: 'schema files: `diff OLD NEW`, from OpenAPI, TypeScript record types, OpenAPI of a list endpoint',
    load: () => import('./commands/schema.js'),
  },
  lsp: { summary: 'language server for editors over stdio (.wepql files of saved filters)', load: () => import('./commands/lsp.js') },
  'db-seed': {
    summary: 'create and fill the employees table of DATABASE_URL from the sample data or N generated rows',
    load: () => import('./commands/db-seed.js'),
  },
  conformance: {
    summary: 'run the conformance corpora (--self) or check a list server (--url)',
    load: () => import('./commands/conformance.js'),
  },
  'db-index': {
    summary: 'print (or create) the indexes that serve given sorts and filters on the employees table',
    load: () => import('./commands/db-index.js'),
  },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return [
    'wepql — the wepql filter and sort language toolkit',
    '',
    'usage: wepql <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'options: --version (-v), --help (-h), --color, --no-color',
    '',
    "Run `wepql help <command>` (or `wepql <command> --help`) for a command's options and examples.",
    'Exit codes: 0 ok, 1 input has errors, 2 usage error.',
  ].join('\n');
}

async function commandHelp(name: string, entry: CommandEntry, rest: readonly string[]): Promise<string> {
  const module = await entry.load();
  if (module.helpFor !== undefined) return module.helpFor(rest);
  if (module.definition !== undefined) return (await import('./command.js')).renderHelp(module.definition);
  return `usage: ${entry.usage ?? `wepql ${name} [options]`}\n\n${entry.summary}\n`;
}

/**
 * Names other tools use for a command: `format` (Prettier, `go fmt`),
 * `check` (Biome, `cargo check`). They are suggested, not aliases: `check`
 * could as well mean `fmt --check`, and one spelling per command keeps
 * scripts readable.
 */
const OTHER_NAMES: Readonly<Record<string, string>> = { format: 'fmt', prettier: 'fmt', check: 'lint', eslint: 'lint', validate: 'lint' };

async function unknownCommand(name: string): Promise<string> {
  const { didYouMean } = await import('../diagnostics/suggest.js');
  const near = Object.hasOwn(OTHER_NAMES, name.toLowerCase()) ? OTHER_NAMES[name.toLowerCase()] : didYouMean(name, Object.keys(COMMANDS));
  return `wepql: unknown command "${name}"${near === undefined ? '' : `; did you mean "${near}"?`}\nRun \`wepql --help\` for the list of commands.\n`;
}

function lookup(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

async function main(argv: readonly string[]): Promise<number> {
  // --color / --no-color apply to every command; after `--` they are text.
  const end = argv.indexOf('--');
  let colorFlag: '--color' | '--no-color' | undefined;
  const args = argv.filter((a, i) => {
    if ((end < 0 || i < end) && (a === '--color' || a === '--no-color')) {
      colorFlag = a;
      return false;
    }
    return true;
  });
  const [name, ...rest] = args;
  // The language server writes no colour (its output is the protocol's), only its help may.
  if (name !== 'lsp' || rest.includes('--help') || rest.includes('-h')) {
    const { decideColor, setColor } = await import('./color.js');
    setColor(decideColor(colorFlag, process.env, process.stdout.isTTY === true));
  }
  if (name === undefined || name === '--help' || name === '-h') {
    process.stdout.write(help() + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    const { packageVersion } = await import('./package-info.js');
    process.stdout.write(`wepql ${packageVersion()}\n`);
    return 0;
  }
  if (name === 'help') return helpCommand(rest);
  const entry = lookup(name);
  if (entry === undefined) {
    process.stderr.write(await unknownCommand(name));
    return 2;
  }
  // After `--` everything is TEXT or FILE, even `--help` (a filter may begin with `-`).
  const stop = rest.indexOf('--');
  const flags = stop < 0 ? rest : rest.slice(0, stop);
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stdout.write(await commandHelp(name, entry, flags));
    return 0;
  }
  if (name === 'lsp') answerInitializeEarly(rest);
  const command = await entry.load();
  try {
    return await command.run(rest);
  } catch (error) {
    return await reportInputError(name, entry, command, error);
  }
}

/** `wepql help [COMMAND [SUBCOMMAND]]`: the list of commands, or one command's help. */
async function helpCommand(rest: readonly string[]): Promise<number> {
  const topic = rest[0];
  if (topic === undefined) {
    process.stdout.write(help() + '\n');
    return 0;
  }
  const entry = lookup(topic);
  if (entry === undefined) {
    process.stderr.write(await unknownCommand(topic));
    return 2;
  }
  process.stdout.write(await commandHelp(topic, entry, rest.slice(1)));
  return 0;
}

/**
 * `wepql lsp` with only switches after it: its answer to `initialize` is
 * written now, while the command loads (src/lsp/early-answer.ts). A
 * `--schema` file, or an option it does not know, is checked first, as a
 * usage error before any answer.
 */
function answerInitializeEarly(rest: readonly string[]): void {
  if (rest.every((a) => LSP_SWITCHES.has(a))) void earlyStreams(initializeResult);
}

/**
 * A user-input error as a message and its exit code — 2 for the command
 * line and its files (`UsageError`, a file that is not saved filters), 1
 * for a filter or sort the command was given (`WepqlError`) — never
 * "internal error" with a stack. Anything else is rethrown: a real bug.
 */
async function reportInputError(name: string, entry: CommandEntry, command: CommandModule, error: unknown): Promise<number> {
  const [{ UsageError }, { SavedFileError }, { WepqlError }] = await Promise.all([
    import('../workspace/usage-error.js'),
    import('../workspace/saved-filters.js'),
    import('../diagnostics/error.js'),
  ]);
  if (error instanceof UsageError || error instanceof SavedFileError) {
    const usage =
      command.definition === undefined
        ? (entry.usage ?? `wepql ${name} [options]`)
        : (await import('./command.js')).usageLine(command.definition);
    process.stderr.write(`wepql ${name}: ${error.message}\nusage: ${usage}\nRun \`wepql help ${name}\` for every option.\n`);
    return 2;
  }
  if (error instanceof WepqlError) {
    process.stderr.write(`wepql ${name}: ${error.message}\n`);
    return 1;
  }
  throw error;
}

/**
 * Runs `wepql` with `argv` (the words after `wepql`) in this process, writing
 * to `process.stdout` and `process.stderr`: the exit code, 70 after an
 * internal error (its stack on stderr). The program below is this call; the
 * test suite makes it too, to run a command without starting a process.
 *
 * @example
 * process.exitCode = await runWepql(['fmt', 'a.equal(1)']);
 */
export async function runWepql(argv: readonly string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    process.stderr.write(`wepql: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 70;
  }
}

/** Whether this file is the program Node started (`wepql`, `npx wepql`, `node dist/cli/main.js`), not a module imported. */
function isProgram(): boolean {
  const started = process.argv[1];
  if (started === undefined) return false;
  const self = fileURLToPath(import.meta.url);
  try {
    // Through npm's bin link Node runs the file the link points to (unless --preserve-symlinks-main).
    return started === self || realpathSync(started) === self;
  } catch {
    return false;
  }
}

if (isProgram()) {
  // Process-wide settings are the program's to make, never a command's run inside another program (runWepql imported).
  allowBatchV8Settings();
  // A reader that stops early (`wepql query … | head`) closes the pipe: that is
  // not a failure of the command, so end quietly with success.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') process.exit(0);
      throw error;
    });
  }
  void runWepql(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
