/**
 * `wepql lint --policy FILE`: saved filters checked against an endpoint's
 * policy (examples/employee-policy.json), run in the test's process
 * (test/support/cli-in-process.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const lintPolicyDir = tempDirs('wepql-lint-policy-');

const SCHEMA = 'schemas/employee.json';
const POLICY = 'examples/employee-policy.json';

function tempFile(name: string, content: string): string {
  const path = join(lintPolicyDir(), name);
  writeFileSync(path, content);
  return path;
}

describe('wepql lint --policy', () => {
  it('reports what the policy refuses, at the refused operator, exit 1', async () => {
    const file = tempFile('saved.txt', 'Ssn.Equal(123456789)\nLastName.Equal(Smith);Ssn.StartsWith(12)\n');
    const r = await runCliInProcess(['lint', '--schema', SCHEMA, '--policy', POLICY, file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}:2:27: error operator-not-allowed: this endpoint does not allow StartsWith on Ssn; allowed: Equal`);
    expect(r.stdout).toContain('suggestion: Equal');
    expect(r.stdout).toMatch(/1 file, 2 filters checked: 1 error, 0 warnings\n$/);
  });

  it('passes the same files without the policy', async () => {
    const file = tempFile('saved.txt', 'LastName.Equal(Smith);Ssn.StartsWith(12)\n');
    expect((await runCliInProcess(['lint', '--schema', SCHEMA, file])).code).toBe(0);
  });

  it('refuses a policy that names an unknown field, and --policy without --schema, as usage errors', async () => {
    const file = tempFile('saved.txt', 'Ssn.Equal(1)\n');
    const policy = tempFile('policy.json', '{"fields":{"Sn":{"sort":false}}}');
    const bad = await runCliInProcess(['lint', '--schema', SCHEMA, '--policy', policy, file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('fields.Sn: is not a field of the schema');
    const noSchema = await runCliInProcess(['lint', '--policy', POLICY, file]);
    expect(noSchema.code).toBe(2);
    expect(noSchema.stderr).toContain('--policy needs --schema');
  });
});
