/**
 * `wepql lint [options] [FILE|DIR|GLOB...]`
 *
 * Checks saved filters and sorts like a compiler checks code: in files,
 * directories and globs (JSON, YAML, NDJSON, text), inside documents at a
 * selector, or in a database table; against a schema and, with the schema
 * they were written for, against what changed since. Settings come from
 * `wepql.config.json` (found upward) and flags. Exit 0 when there are no
 * errors (and no more warnings than `--max-warnings`), 1 otherwise, 2 on a
 * usage error.
 */
import { parseArgs } from '../args.js';
import { specOf, type CommandDefinition } from '../command.js';
import { saveCache } from '../lint/cache.js';
import { writeFixes } from '../lint/fixes.js';
import { readInputs, type Inputs } from '../lint/items.js';
import { writeMachineReport } from '../lint/machine.js';
import { partsOf, severityTotals, type Outcome } from '../lint/outcome.js';
import { lintItemsOnThreads, threadsFor } from '../lint/parallel.js';
import { fixableLine, summaryLine, writePretty } from '../lint/pretty.js';
import { readSettings, type Settings } from '../lint/settings.js';
import { WORKSPACE_OPTIONS } from '../workspace-flags.js';

/** `wepql lint`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'lint',
  summary: 'check saved filters and sorts against a schema, and against the schema they were written for',
  operands: '[FILE|DIR|GLOB...]',
  details: [
    'Reads .wepql and text files (one filter a line), and JSON, YAML and NDJSON files that hold saved filters (a list of {name, filter, sort} objects, or where --filter-path/--sort-path point). A directory is walked for .wepql files and for JSON/YAML/NDJSON files that hold filters, minus .gitignore, .wepqlignore and "ignorePatterns"; package.json, wepql.config.json, the schema files and JSON Schemas are never read as saved filters. Quote globs for the shell. - reads standard input. Without operands, the "paths" of wepql.config.json are linted.',
    'A file that was asked for but holds no filter or sort is reported (no-filters-found): a warning, an error with --strict. Settings come from wepql.config.json (JSON with comments), found in the working directory or above it (or --config FILE); flags override it. Exit 0 when there is no error, 1 when there is one or more warnings than --max-warnings, 2 for a usage error.',
  ],
  options: [
    { flag: '--schema', value: 'FILE', description: 'the schema the filters must satisfy (without one, only syntax is checked)' },
    {
      flag: '--previous-schema',
      value: 'FILE',
      description: 'the schema the filters were written for: report removed, renamed, retyped and nullability-changed fields',
    },
    {
      flag: '--policy',
      value: 'FILE',
      description: "an endpoint's policy file: report the fields and operators it refuses (needs --schema)",
    },
    { flag: '--fix', description: 'rewrite fixable findings in place (renamed fields, then safe fixes); every other byte stays as it was' },
    { flag: '--fix-dry-run', description: 'report as --fix would leave things, and list what it would rewrite, without writing anything' },
    { flag: '--format', value: 'pretty|json|sarif', description: 'pretty code frames (default), a JSON array of findings, or SARIF 2.1.0' },
    { flag: '--quiet', alias: '-q', description: 'report errors only' },
    { flag: '--max-warnings', value: 'N', description: 'exit 1 when there are more than N warnings (-1: no limit)' },
    {
      flag: '--cache',
      description: 'remember what each file held and its findings; files unchanged since are neither parsed nor linted again',
    },
    {
      flag: '--cache-location',
      value: 'PATH',
      description: 'the cache file, or a directory for it (default: .wepqlcache in the working directory)',
    },
    {
      flag: '--cache-strategy',
      value: 'metadata|content',
      description: "how an unchanged file is told: by its status, else its text's hash (metadata, default), or by the hash alone",
    },
    ...WORKSPACE_OPTIONS,
    { flag: '--database-url', value: 'URL', description: 'lint saved filters stored in PostgreSQL (default: DATABASE_URL); needs --table' },
    {
      flag: '--allow-database',
      description: 'let the config\'s "database" be read (and written by --fix); a config alone never reads a database',
    },
    { flag: '--table', value: 'NAME', description: 'the table holding saved filters (schema.table allowed)' },
    { flag: '--column', value: 'NAME', description: 'the column of filter texts' },
    { flag: '--sort-column', value: 'NAME', description: 'the column of sort texts' },
    { flag: '--id-column', value: 'NAME', description: 'the column naming each row in reports (default id)' },
    { flag: '--case-sensitive', description: 'judge string conditions as case-sensitive (default: case-insensitive, as in evaluation)' },
  ],
  examples: [
    "wepql lint --schema schemas/employee.json 'examples/*.{json,txt}'",
    'wepql lint --no-config --schema examples/lint-project/schemas/employee-v2.json --previous-schema examples/lint-project/schemas/employee-v1.json examples/lint-project/views/hr',
    "wepql lint --no-config --schema schemas/employee.json --filter-path '$.views[*].filter' examples/lint-project/views/dashboards.yaml",
    'wepql lint --schema schemas/employee.json --database-url "$DATABASE_URL" --table employee_views --column filter --id-column id',
  ],
};

/**
 * Runs `wepql lint`: settings (lint/settings.ts), then the files and rows
 * they name (lint/items.ts, lint/database.ts), the findings
 * (lint/outcome.ts), the rewrites of `--fix` (lint/fixes.ts) and the report
 * (lint/pretty.ts, lint/machine.ts).
 *
 * @example
 * process.exitCode = await run(['--schema', 'schemas/employee.json', 'views/']);
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  const settings = await readSettings(args);
  const inputs = await readInputs(args, settings);
  const outcome = await lintItemsOnThreads(inputs, settings, args, threadsFor(toLintCount(inputs), settings, process.env));
  if (!settings.dryRun) await writeFixes(outcome.fixes, settings.database);
  if (inputs.cache !== undefined) {
    const problem = saveCache(inputs.cache, inputs.items, outcome.raw, partsOf(outcome, inputs));
    // The findings stand without it: the next run lints again.
    if (problem !== undefined) process.stderr.write(`wepql lint: the cache was not written (${problem}); the next run lints every file\n`);
  }
  return report(outcome, inputs, settings);
}

/** The items whose texts are still to lint: with `--cache`, those of the texts it does not hold (threads are for them). */
function toLintCount(inputs: Inputs): number {
  const known = inputs.cache?.findings;
  if (known === undefined) return inputs.items.length;
  let count = 0;
  for (const item of inputs.items) if (!known[item.entry.kind].has(item.entry.text)) count++;
  return count;
}

/** Writes the report in the run's format and returns the exit code. */
function report(outcome: Outcome, inputs: Inputs, settings: Settings): number {
  const { findings, fixes } = outcome;
  const totals = severityTotals(outcome);
  const errors = totals.error;
  const warnings = totals.warning;
  const summary = summaryLine(totals, fixes, inputs, settings);
  if (settings.format === 'pretty') writePretty(outcome.frames, fixes, summary, { errors, warnings }, settings);
  else {
    const shown = settings.quiet ? findings.filter((f) => f.severity === 'error') : findings;
    writeMachineReport(settings.format, shown, summary + '\n' + fixableLine(fixes));
  }
  const tooManyWarnings = settings.maxWarnings !== undefined && warnings > settings.maxWarnings;
  if (tooManyWarnings) process.stderr.write(`wepql lint: too many warnings (${warnings}; --max-warnings allows ${settings.maxWarnings})\n`);
  return errors > 0 || tooManyWarnings ? 1 : 0;
}
