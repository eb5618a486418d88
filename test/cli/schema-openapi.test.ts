/**
 * `wepql schema --openapi / --from-openapi / --types`, run in the test's
 * process (test/support/cli-in-process.ts); `--openapi` once more through the
 * built binary: the OpenAPI document it writes validates, reading it back gives the
 * schema it was written from, and the record type is the generator's.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { employeeSchema } from '../../src/schema/employee-schema.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const PATH = '/api/public/clients/{client_id}/employees';
const dir = tempDirs('wepql-schema-')();

describe('wepql schema', () => {
  it('--openapi writes a valid OpenAPI 3.1 document in YAML (JSON with --format json), the policy in x-wepql', async () => {
    const yaml = runCli([
      'schema',
      '--openapi',
      '--path',
      PATH,
      '--schema',
      'schemas/employee.json',
      '--name',
      'Employee',
      '--policy',
      'examples/employee-policy.json',
    ]);
    expect(yaml.stderr).toBe('');
    expect(yaml.code).toBe(0);
    const json = await runCliInProcess([
      'schema',
      '--openapi',
      '--path',
      PATH,
      '--name',
      'Employee',
      '--policy',
      'examples/employee-policy.json',
      '--format',
      'json',
      '--schema',
      'schemas/employee.json',
    ]);
    const doc = JSON.parse(json.stdout);
    expect(parseYaml(yaml.stdout)).toEqual(doc);
    const result = await new Validator().validate(doc);
    expect(result.valid).toBe(true);
    const ssn = doc.paths[PATH].get['x-wepql'].fields.find((f: { name: string }) => f.name === 'Ssn');
    expect(ssn).toMatchObject({ operators: ['Equal'], sortable: false });
    writeFileSync(join(dir, 'api.yaml'), yaml.stdout);
  });

  it('--from-openapi reads the component back into the schema it came from', async () => {
    const r = await runCliInProcess(['schema', '--from-openapi', join(dir, 'api.yaml'), '--component', 'Employee']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const fields = JSON.parse(r.stdout).fields as Record<string, { type: string; nullable?: boolean }>;
    for (const f of employeeSchema.fields) {
      expect([f.name, fields[f.name]?.type, fields[f.name]?.nullable === true]).toEqual([f.name, f.type, f.nullable]);
    }
    expect(Object.keys(fields)).toHaveLength(employeeSchema.fields.length);
    writeFileSync(join(dir, 'employee.schema.json'), r.stdout);
    const saved = join(dir, 'saved.txt');
    writeFileSync(saved, 'BirthOn.LessThan(1990-01-01);LastName.StartsWith(Sm)\n');
    expect((await runCliInProcess(['lint', '--schema', join(dir, 'employee.schema.json'), saved])).code).toBe(0);
  });

  it('--from-openapi lists skipped properties on standard error', async () => {
    const file = join(dir, 'pets.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.1.0',
        components: {
          schemas: { Pet: { type: 'object', required: ['Id'], properties: { Id: { type: 'integer' }, Tags: { type: 'array' } } } },
        },
      }),
    );
    const r = await runCliInProcess(['schema', '--from-openapi', file, '--component', 'Pet']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ fields: { Id: { type: 'integer' } } });
    expect(r.stderr).toBe('skipped $.Tags: no scalar or object type wepql can filter (type "array")\n');
  });

  it('--from-openapi answers a 2 KB document whose $refs multiply with a usage error, not minutes of work (issue 19 #9)', async () => {
    const schemas: Record<string, unknown> = {};
    for (let level = 0; level < 9; level++) {
      const properties: Record<string, unknown> = { Id: { type: 'integer' } };
      if (level < 8) for (let i = 0; i < 8; i++) properties[`P${i}`] = { $ref: `#/components/schemas/L${level + 1}` };
      schemas[`L${level}`] = { type: 'object', properties };
    }
    const file = join(dir, 'dag.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.1.0', components: { schemas } }));
    const r = await runCliInProcess(['schema', '--from-openapi', file, '--component', 'L0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('reading stopped: the schema expands to more than 10000 fields');
    expect(r.stderr).toContain('L0 expands to too many fields to be one record');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--from-openapi reads JSON with the JSON parser: a .json file that is not JSON says so with its position', async () => {
    const file = join(dir, 'broken.json');
    // Valid YAML (a flow mapping), not JSON: a .json file is read as JSON only.
    writeFileSync(file, '{openapi: 3.1.0, components: {schemas: {Pet: {type: object}}}}');
    const r = await runCliInProcess(['schema', '--from-openapi', file, '--component', 'Pet']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/broken\.json is not JSON: .*position 1/);
    const yamlFile = join(dir, 'flow.yaml');
    writeFileSync(yamlFile, '{openapi: 3.1.0, components: {schemas: {Pet: {type: object, properties: {Id: {type: integer}}}}}}');
    const y = await runCliInProcess(['schema', '--from-openapi', yamlFile, '--component', 'Pet']);
    expect(y.code).toBe(0);
    expect(JSON.parse(y.stdout)).toEqual({ fields: { Id: { type: 'integer', nullable: true } } });
  });

  it('--from-openapi answers a $ref with a malformed % escape with a note (issue 19 #12)', async () => {
    const file = join(dir, 'escape.json');
    writeFileSync(
      file,
      JSON.stringify({
        openapi: '3.1.0',
        components: {
          schemas: { Pet: { type: 'object', properties: { Id: { type: 'integer' }, Owner: { $ref: '#/components/schemas/%' } } } },
        },
      }),
    );
    const r = await runCliInProcess(['schema', '--from-openapi', file, '--component', 'Pet']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('skipped $.Owner: $ref #/components/schemas/% cannot be resolved: "%" has a malformed % escape\n');
  });

  it('--types prints the record type for where<T>()', async () => {
    const r = await runCliInProcess(['schema', '--types', '--name', 'GeneratedEmployee']);
    expect(r.code).toBe(0);
    const committed = readFileSync(new URL('../types/generated-employee.ts', import.meta.url), 'utf8');
    expect(r.stdout).toBe(committed.replace("'../../src/sdk/index.js'", "'wepql/sdk'"));
  });

  it.each([
    [['schema'], 'say what to do'],
    [['schema', '--types', '--openapi'], 'use one of'],
    [['schema', '--openapi'], '--openapi needs --path'],
    [['schema', '--from-openapi', 'schemas/employee.json', '--component', 'Nope'], 'has no components.schemas.Nope'],
    [['schema', '--types', '--name', 'not valid'], 'is not a TypeScript identifier'],
  ])('%j is a usage error', async (args, message) => {
    const r = await runCliInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });
});
