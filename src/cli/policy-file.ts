/**
 * Reading a policy file (`--policy policy.json`) for the CLI: JSON of a
 * `PolicyDefinition`, checked against the schema; any problem is a usage error.
 */
import type { Policy } from '../policy/policy.js';
import { definePolicy, PolicyDefinitionError } from '../policy/policy.js';
import type { Schema } from '../schema/schema.js';
import { UsageError } from '../workspace/usage-error.js';
import { readInput } from './io.js';

/**
 * Loads and checks a policy file against a schema.
 *
 * @example
 * const policy = await loadPolicyFile('policy.json', schema); // UsageError when the file is not a valid policy
 */
export async function loadPolicyFile(path: string, schema: Schema | undefined): Promise<Policy> {
  if (schema === undefined) throw new UsageError('--policy needs --schema: a policy names fields of a schema');
  const text = await readInput(path);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UsageError(`invalid policy file ${path}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  try {
    return definePolicy(json as never, schema);
  } catch (e) {
    if (e instanceof PolicyDefinitionError) throw new UsageError(`invalid policy file ${path}: ${e.message}`);
    throw e;
  }
}
