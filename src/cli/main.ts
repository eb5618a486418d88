#!/usr/bin/env node
/**
 * The `wepql` command line. Each subcommand lives in `commands/<name>.ts`
 * and exports `run(argv): Promise<number>` returning the exit code:
 * 0 success, 1 the input has errors, 2 a usage error.
 */
import { UsageError } from './args.js';

interface CommandEntry {
  readonly summary: string;
  readonly usage: string;
  readonly load: () => Promise<{ run(argv: readonly string[]): Promise<number> }>;
}

const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  parse: {
    summary: 'print the syntax tree of a filter (or sort) as JSON',
    usage: 'wepql parse [--sort] TEXT',
    load: () => import('./commands/parse.js'),
  },
  fmt: {
    summary: 'print the canonical form, or check files with --check',
    usage:
      'wepql fmt [--sort] [--pretty] [--width N] [--indent N] [--quote-all] [--schema FILE] TEXT | wepql fmt --check [--schema FILE] FILE...',
    load: () => import('./commands/fmt.js'),
  },
  lint: {
    summary: 'check saved filters and sorts against a schema',
    usage: 'wepql lint [--schema FILE] [--policy FILE] [--format pretty|json|sarif] [--fix] [--case-sensitive] FILE...',
    load: () => import('./commands/lint.js'),
  },
  query: {
    summary: 'run a filter and sort over a JSON or NDJSON file of records',
    usage:
      'wepql query --data FILE [--schema FILE] [--filter TEXT] [--sort TEXT] [--skip N] [--limit N] [--case-sensitive]',
    load: () => import('./commands/query.js'),
  },
  explain: {
    summary: 'say what a filter (or sort) means in plain English',
    usage: 'wepql explain [--sort] [--schema FILE] TEXT',
    load: () => import('./commands/explain.js'),
  },
  schema: {
    summary: 'schema files from OpenAPI, TypeScript record types, OpenAPI of a list endpoint',
    usage:
      'wepql schema --from-openapi FILE [--component NAME] | wepql schema --types [--schema FILE] [--name NAME] | wepql schema --openapi --path PATH [--schema FILE] [--policy FILE] [--name NAME] [--format yaml|json]',
    load: () => import('./commands/schema.js'),
  },
  'db-seed': {
    summary: 'create and fill the employees table of DATABASE_URL from the sample data',
    usage: 'wepql db-seed [--database-url URL]',
    load: () => import('./commands/db-seed.js'),
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
    'Run `wepql <command> --help` for a command\'s options. Exit codes: 0 ok, 1 input has errors, 2 usage error.',
  ].join('\n');
}

async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help() + '\n');
    return name === undefined ? 2 : 0;
  }
  if (name === '--version') {
    process.stdout.write('wepql 0.1.0\n');
    return 0;
  }
  const entry = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (entry === undefined) {
    process.stderr.write(`wepql: unknown command "${name}"\n\n${help()}\n`);
    return 2;
  }
  // After `--` everything is TEXT or FILE, even `--help` (a filter may begin with `-`).
  const end = rest.indexOf('--');
  const flags = end < 0 ? rest : rest.slice(0, end);
  if (flags.includes('--help') || flags.includes('-h')) {
    process.stdout.write(`usage: ${entry.usage}\n\n${entry.summary}\n`);
    return 0;
  }
  try {
    const command = await entry.load();
    return await command.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`wepql ${name}: ${error.message}\nusage: ${entry.usage}\n`);
      return 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`wepql: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 70;
  },
);
