/**
 * The API-document modes of `wepql schema`:
 *
 * - `wepql schema --from-openapi FILE [--component NAME]`: a wepql schema file
 *   from an OpenAPI component (or, without `--component`, from a file that is
 *   a JSON Schema itself), YAML or JSON. Properties wepql cannot filter on are
 *   listed on standard error.
 * - `wepql schema --types [--schema FILE] [--name NAME]`: the TypeScript record
 *   type for `where<T>()`.
 * - `wepql schema --openapi --path PATH [--schema FILE] [--policy FILE] [--name NAME] [--format yaml|json]`:
 *   the OpenAPI 3.1 document of a list endpoint.
 *
 * Without `--schema`, the employee schema is used (named `Employee`).
 */
import { stringify as toYaml, parse as parseYaml } from 'yaml';
import { defineSchema, SchemaDefinitionError } from '../../schema/schema.js';
import type { Schema } from '../../schema/schema.js';
import { employeeSchema } from '../../schema/employee-schema.js';
import { schemaFromJsonSchema } from '../../openapi/json-schema.js';
import { openApiFor } from '../../openapi/openapi.js';
import { recordTypeFor } from '../../openapi/record-type.js';
import { parseArgs } from '../args.js';
import { UsageError } from '../../workspace/usage-error.js';
import { loadSchemaFile, readInput } from '../io.js';
import { loadPolicyFile } from '../policy-file.js';

/** Runs the API-document modes of `wepql schema`. */
export async function run(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, {
    values: ['--from-openapi', '--component', '--schema', '--policy', '--name', '--path', '--format'],
    switches: ['--types', '--openapi'],
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args.positionals[0])}`);
  const modes = [args.values.has('--from-openapi'), args.switches.has('--types'), args.switches.has('--openapi')].filter(Boolean).length;
  if (modes !== 1) throw new UsageError('use one of --from-openapi FILE, --types or --openapi');

  const from = args.values.get('--from-openapi');
  if (from !== undefined) return fromOpenApi(from, args.values.get('--component'));

  const schemaPath = args.values.get('--schema');
  const schema: Schema = schemaPath === undefined ? employeeSchema : await loadSchemaFile(schemaPath);
  const name = args.values.get('--name') ?? (schemaPath === undefined ? 'Employee' : 'Record');
  if (args.switches.has('--types')) {
    try {
      process.stdout.write(recordTypeFor(schema, { name }));
    } catch (e) {
      if (e instanceof TypeError) throw new UsageError(`--name: ${e.message}`);
      throw e;
    }
    return 0;
  }

  const path = args.values.get('--path');
  if (path === undefined || !path.startsWith('/'))
    throw new UsageError('--openapi needs --path, the route such as /api/public/clients/{client_id}/employees');
  const format = args.values.get('--format') ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format must be yaml or json, got ${JSON.stringify(format)}`);
  const policyPath = args.values.get('--policy');
  const policy = policyPath === undefined ? undefined : await loadPolicyFile(policyPath, schema);
  let doc;
  try {
    // The employee sample is served by the reference server: bearer tokens and soft-deleted rows.
    const served = schemaPath === undefined ? { bearerAuth: true, includeDeleted: true } : {};
    doc = openApiFor(schema, { path, recordName: name, ...served, ...(policy === undefined ? {} : { policy }) });
  } catch (e) {
    if (e instanceof TypeError) throw new UsageError(`--name: ${e.message}`);
    throw e;
  }
  process.stdout.write(format === 'json' ? `${JSON.stringify(doc, null, 2)}\n` : toYaml(doc, { aliasDuplicateObjects: false }));
  return 0;
}

async function fromOpenApi(file: string, component: string | undefined): Promise<number> {
  const document = parseApiDocument(await readInput(file), file);
  let target: unknown = document;
  if (component !== undefined) {
    const schemas = at(at(document, 'components'), 'schemas');
    target = at(schemas, component);
    if (target === undefined) {
      const known = schemas !== undefined && typeof schemas === 'object' ? Object.keys(schemas as object) : [];
      throw new UsageError(
        `${file} has no components.schemas.${component}${known.length > 0 ? ` (it has ${known.slice(0, 20).join(', ')})` : ''}`,
      );
    }
  } else if (at(document, 'openapi') !== undefined || at(document, 'swagger') !== undefined) {
    throw new UsageError(`${file} is an API document: name the record's schema with --component NAME`);
  }
  const { definition, skipped, truncated } = schemaFromJsonSchema(target, { document });
  for (const line of skipped) process.stderr.write(`skipped ${line}\n`);
  if (truncated)
    throw new UsageError(
      `${component ?? file} expands to too many fields to be one record's schema (its $refs are shared along many paths); name a smaller component`,
    );
  if (Object.keys(definition.fields).length === 0) throw new UsageError(`${component ?? file} has no property wepql can filter on`);
  try {
    defineSchema(definition);
  } catch (e) {
    if (e instanceof SchemaDefinitionError) throw new UsageError(`the schema read from ${file} is not usable: ${e.message}`);
    throw e;
  }
  process.stdout.write(`${JSON.stringify(definition, null, 2)}\n`);
  return 0;
}

/**
 * The document's text read as JSON when it is JSON (a `.json` file, or text
 * that opens with `{` or `[`), else as YAML. YAML 1.2 reads JSON too, but a
 * JSON parser does it in a fraction of the time and memory on big documents.
 */
function parseApiDocument(text: string, file: string): unknown {
  const json = /\.json$/i.test(file) || (!/\.ya?ml$/i.test(file) && /^\s*[[{]/.test(text));
  if (json) {
    try {
      return JSON.parse(text);
    } catch (e) {
      // A .json file must be JSON; sniffed text that is not may still be YAML in flow style.
      if (/\.json$/i.test(file)) throw new UsageError(`${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  try {
    return parseYaml(text, { maxAliasCount: 100 });
  } catch (e) {
    throw new UsageError(`${file} is not YAML or JSON: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
  }
}

function at(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
