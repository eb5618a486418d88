/**
 * `wepql query --data FILE [--schema FILE] [--filter TEXT] [--sort TEXT] [--skip N] [--limit N] [--case-sensitive]`
 *
 * Runs a filter and a sort over a JSON array or NDJSON file of records (`-`
 * reads standard input) and prints the matching records, in sort order, as
 * a JSON array. Exit 0 on success; 1 when the filter or sort has errors
 * (shown on standard error with the offending range underlined); 2 on a
 * usage error (unknown flag, missing --data, unreadable or invalid data or
 * schema file).
 */
import { renderCodeFrame } from '../../diagnostics/code-frame.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { query } from '../../evaluate/query.js';
import { inferSchema } from '../../schema/infer.js';
import type { Schema } from '../../schema/schema.js';
import { analyzeFilter, analyzeSort } from '../../validate/analyze.js';
import type { TypedFilter, TypedSort } from '../../ast/typed-tree.js';
import { integerFlag, parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { loadSchemaFile, readInput } from '../io.js';
import { STDIN_LABEL } from '../color.js';
import { specOf, type CommandDefinition } from '../command.js';

/** `wepql query`: options and examples, the source of its help. */
export const definition: CommandDefinition = {
  name: 'query',
  summary: 'run a filter and a sort over a JSON array or NDJSON file of records and print the matches as JSON',
  details: [
    'Without --schema the schema is inferred from the records. Exit 0 on success, 1 when the filter or sort has errors, 2 for a usage error (unreadable data, records nested too deep).',
  ],
  options: [
    {
      flag: '--data',
      value: 'FILE',
      description: 'the records: a JSON array, one JSON object, or NDJSON (- reads standard input); required',
    },
    { flag: '--schema', value: 'FILE', description: 'a schema file (default: inferred from the records)' },
    { flag: '--filter', value: 'TEXT', description: 'keep the records the filter matches' },
    { flag: '--sort', value: 'TEXT', description: 'order the matches (`LastName=Asc;CreatedOn=Desc`)' },
    { flag: '--skip', value: 'N', description: 'leave out the first N matches' },
    { flag: '--limit', value: 'N', description: 'print at most N matches' },
    { flag: '--case-sensitive', description: 'compare strings case-sensitively (default: case-insensitively)' },
  ],
  examples: ["wepql query --data examples/employees.json --filter 'Gender.Equal(1)' --sort 'LastName=Asc' --limit 5"],
};

/**
 * Reads records from a JSON array, a single JSON object, or NDJSON (one
 * JSON value a line, blank lines ignored). Throws `UsageError` naming the
 * file (and line, for NDJSON) when the text is none of these.
 *
 * @example
 * parseRecords('{"a":1}\n{"a":2}\n', 'data.ndjson'); // [{ a: 1 }, { a: 2 }]
 */
export function parseRecords(text: string, path: string): unknown[] {
  const records = readRecords(text, path);
  records.forEach((record, i) => {
    if (tooDeep(record)) {
      const where = typeof record === 'object' && record !== null ? lineOf.get(record) : undefined;
      throw new UsageError(
        `invalid data file ${path}: record ${i + 1}${where === undefined ? '' : ` (line ${where})`} nests deeper than ${MAX_RECORD_DEPTH} levels; records may nest at most ${MAX_RECORD_DEPTH} deep`,
      );
    }
  });
  return records;
}

/** How deep a record may nest: far beyond any real record, well within what printing and inference can walk. */
const MAX_RECORD_DEPTH = 256;
/** NDJSON line of each record object, for messages. */
const lineOf = new WeakMap<object, number>();

/** Whether a value nests deeper than MAX_RECORD_DEPTH; iterative, so a hostile record cannot exhaust the stack here. */
function tooDeep(value: unknown): boolean {
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_RECORD_DEPTH) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

function readRecords(text: string, path: string): unknown[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') return [];
  let whole: unknown;
  let wholeError: Error | undefined;
  try {
    whole = JSON.parse(body);
  } catch (e) {
    wholeError = e as Error;
  }
  if (wholeError === undefined) {
    if (Array.isArray(whole)) return whole;
    if (typeof whole === 'object' && whole !== null) return [whole];
    throw new UsageError(`invalid data file ${path}: expected a JSON array of records or NDJSON, got ${JSON.stringify(whole)}`);
  }
  if (body.trimStart().startsWith('[')) {
    throw new UsageError(`invalid data file ${path}: not valid JSON (${wholeError.message})`);
  }
  const records: unknown[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record === 'object' && record !== null) lineOf.set(record, i + 1);
      records.push(record);
    } catch (e) {
      throw new UsageError(
        `invalid data file ${path}: line ${i + 1} is not JSON (${(e as Error).message}); expected a JSON array or NDJSON`,
      );
    }
  }
  return records;
}

function report(text: string, diagnostics: readonly Diagnostic[], flag: string): void {
  for (const d of diagnostics) process.stderr.write(renderCodeFrame(text, d, { location: flag }) + '\n');
}

/**
 * Runs `wepql query` and returns the exit code.
 *
 * @example
 * await run(['--data', 'examples/employees.json', '--filter', 'ClientId.Equal(1)', '--limit', '5']); // 0
 */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, specOf(definition));
  if (args.positionals.length > 0) {
    throw new UsageError(
      `unexpected argument ${JSON.stringify(args.positionals[0])}; pass the filter with --filter and the records with --data`,
    );
  }
  const dataPath = args.values.get('--data');
  if (dataPath === undefined) throw new UsageError('--data FILE is required (a JSON array or NDJSON of records; - reads standard input)');
  const skip = integerFlag(args, '--skip');
  const limit = integerFlag(args, '--limit');
  const schemaPath = args.values.get('--schema');
  if (schemaPath === '-' && dataPath === '-') throw new UsageError('--schema and --data cannot both read standard input');

  const schemaFromFile: Schema | undefined = schemaPath === undefined ? undefined : await loadSchemaFile(schemaPath);
  const records = parseRecords(await readInput(dataPath), dataPath === '-' ? STDIN_LABEL : dataPath);
  const schema = schemaFromFile ?? inferSchema(records);

  const filterText = args.values.get('--filter');
  const sortText = args.values.get('--sort');
  let failed = false;
  let filter: TypedFilter | undefined;
  let sort: TypedSort | undefined;
  if (filterText !== undefined) {
    const result = analyzeFilter(filterText, { schema });
    report(filterText, result.diagnostics, '--filter');
    if (result.value === undefined) failed = true;
    else filter = result.value;
  }
  if (sortText !== undefined) {
    const result = analyzeSort(sortText, { schema });
    report(sortText, result.diagnostics, '--sort');
    if (result.value === undefined) failed = true;
    else sort = result.value;
  }
  if (failed) return 1;

  const rows = query(records, {
    schema,
    caseSensitive: args.switches.has('--case-sensitive'),
    ...(filter === undefined ? {} : { filter }),
    ...(sort === undefined ? {} : { sort }),
    ...(skip === undefined ? {} : { skip }),
    ...(limit === undefined ? {} : { limit }),
  });
  process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
  return 0;
}
