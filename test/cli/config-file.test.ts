/**
 * wepql.config.json is JSON with comments and trailing commas, described by
 * the JSON Schema the package ships (schemas/wepql-config.schema.json): the
 * reader and the schema accept and refuse the same things.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { CONFIG_KEYS, loadConfig, readJsonc } from '../../src/workspace/config.js';
import { ROOT } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDirs } from '../support/temp-dirs.js';

const configDir = tempDirs('wepql-config-');

const schema = JSON.parse(readFileSync(join(ROOT, 'schemas/wepql-config.schema.json'), 'utf8')) as {
  properties: Record<string, unknown> & { rules: { propertyNames: { enum: string[] } } };
};
const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);

function configFile(text: string): string {
  const dir = configDir();
  writeFileSync(join(dir, 'wepql.config.json'), text);
  return join(dir, 'wepql.config.json');
}

describe('wepql.config.json as JSONC', () => {
  it('reads comments and trailing commas', async () => {
    const file = configFile(
      '// lint settings\n{\n  "schema": "s.json", /* the current one */\n  "paths": ["views",],\n  "maxWarnings": -1,\n}\n',
    );
    expect(loadConfig(file)).toMatchObject({ paths: ['views'], maxWarnings: -1 });
  });

  it('names the line and column of a syntax error, as a usage error of the CLI', async () => {
    expect(() => readJsonc('{\n  "schema": "s.json"\n  "paths": []\n}', 'c.json')).toThrow(/CommaExpected at line 3, column 3/);
    const file = configFile('{ "schema": }');
    const r = await runCliInProcess(['lint', '--config', file, 'x.wepql']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not valid JSON (ValueExpected at line 1, column 13)');
  });

  it('keeps "__proto__" a plain key (an unknown one), never a prototype', async () => {
    expect(() => loadConfig(configFile('{ "__proto__": { "schema": "x" } }'))).toThrow(/__proto__: unknown key/);
    expect(({} as Record<string, unknown>).schema).toBeUndefined();
  });

  it('refuses a config nested too deeply to read with a message, not a crash', async () => {
    expect(() => readJsonc('['.repeat(200_000), 'deep.json')).toThrow(/deep\.json/);
  });
});

describe('schemas/wepql-config.schema.json', () => {
  it('lists exactly the keys the reader knows, and every diagnostic code for "rules"', async () => {
    expect(Object.keys(schema.properties).sort()).toEqual([...CONFIG_KEYS].sort());
    expect([...schema.properties.rules.propertyNames.enum].sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
  });

  it.each(['test/fixtures/dashboards-repo/wepql.config.json', 'examples/lint-project/wepql.config.json'])(
    'accepts %s, as the reader does',
    (path) => {
      const text = readFileSync(join(ROOT, path), 'utf8');
      expect(validate(readJsonc(text, path))).toBe(true);
      expect(() => loadConfig(join(ROOT, path))).not.toThrow();
    },
  );

  it('eslint-habits: accepts "overrides" as the reader does', async () => {
    const text = '{ "overrides": [{ "files": ["legacy/**"], "rules": { "contradiction": "off" } }] }';
    expect(validate(readJsonc(text, 'c.json'))).toBe(true);
    expect(loadConfig(configFile(text)).overrides?.[0]?.files[0]?.matches('legacy/a/b.wepql')).toBe(true);
  });

  it.each([
    ['an unknown key', '{ "shema": "x" }'],
    ['maxWarnings below -1', '{ "maxWarnings": -2 }'],
    ['a rule code that does not exist', '{ "rules": { "no-such-code": "off" } }'],
    ['a severity that does not exist', '{ "rules": { "contradiction": "loud" } }'],
    ['a database without a column', '{ "database": { "table": "t", "url": "postgres://x" } }'],
    ['an empty path', '{ "paths": [""] }'],
    ['an override without rules', '{ "overrides": [{ "files": ["a/**"] }] }'],
    ['an override with an unknown code', '{ "overrides": [{ "files": "a/**", "rules": { "nope": "off" } }] }'],
  ])('refuses %s, as the reader does', async (_name, text) => {
    expect(validate(readJsonc(text, 'c.json'))).toBe(false);
    expect(() => loadConfig(configFile(text))).toThrow();
  });

  it('is shipped in the package and named in docs/linting.md', async () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; files: string[] };
    expect(pkg.exports['./schemas/wepql-config.schema.json']).toBe('./schemas/wepql-config.schema.json');
    expect(pkg.files).toContain('schemas');
    expect(readFileSync(join(ROOT, 'docs/linting.md'), 'utf8')).toContain('schemas/wepql-config.schema.json');
  });
});
