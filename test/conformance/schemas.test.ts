/**
 * The JSON Schemas of grammar/schemas/ describe the corpus files exactly
 * (checked with ajv, strict mode): every corpus file validates against
 * its schema, the simplified tree of random filters and sorts validates
 * against simplified-tree.schema.json, and a schema refuses a case that
 * breaks it (so the check can fail).
 */
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseFilter, parseSort } from '../../src/index.js';
import { simplifyFilter, simplifySort } from '../../src/conformance/simplify.js';
import { TRICKY_PIECES, filterAstArb, sortAstArb } from '../support/arbitraries.js';

const dir = new URL('../../grammar/', import.meta.url);
const read = (path: string): unknown => JSON.parse(readFileSync(new URL(path, dir), 'utf8'));
// Strict, except that a required member may be declared beside the oneOf that names it, and a type may be a list.
const ajv = new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true, allErrors: true });
const schemaFiles = readdirSync(new URL('schemas/', dir)).filter((f) => f.endsWith('.schema.json'));
for (const f of schemaFiles) ajv.addSchema(read(`schemas/${f}`) as object, f);

const validate = (schema: string, data: unknown): string[] => {
  const check = ajv.getSchema(schema)!;
  return check(data) ? [] : (check.errors ?? []).map((e: { instancePath: string; message?: string }) => `${e.instancePath} ${e.message}`);
};

/** Each corpus file and its schema. */
const FILES: readonly [string, string][] = [
  ['corpus/filter-valid.json', 'syntax-corpus.schema.json'],
  ['corpus/filter-invalid.json', 'syntax-corpus.schema.json'],
  ['corpus/sort.json', 'syntax-corpus.schema.json'],
  ['corpus/semantics.json', 'semantics.schema.json'],
  ['corpus/list-http.json', 'list-http.schema.json'],
  ['corpus/dataset/employees.json', 'dataset.schema.json'],
];

describe('grammar/schemas', () => {
  it('has a schema for every corpus file', () => {
    const corpora = readdirSync(new URL('corpus/', dir)).filter((f) => f.endsWith('.json'));
    expect(corpora.map((f) => `corpus/${f}`).every((f) => FILES.some(([file]) => file === f))).toBe(true);
    expect(schemaFiles.sort()).toEqual([...new Set([...FILES.map(([, s]) => s), 'simplified-tree.schema.json'])].sort());
  });

  it.each(FILES)('%s validates against %s', (file, schema) => {
    expect(validate(schema, read(file))).toEqual([]);
  });

  it('refuses cases that break the schemas', () => {
    const semantics = read('corpus/semantics.json') as { cases: Record<string, unknown>[] };
    const both = { ...semantics, cases: [{ ...semantics.cases[0], errors: ['unknown-field'] }] };
    expect(validate('semantics.schema.json', both)).not.toEqual([]);
    const http = read('corpus/list-http.json') as { cases: { steps: Record<string, unknown>[] }[] };
    const noStatus = { ...http, cases: [{ ...http.cases[0], steps: [{ request: {}, expect: { ids: [1] } }] }] };
    expect(validate('list-http.schema.json', noStatus)).not.toEqual([]);
    expect(validate('simplified-tree.schema.json#/definitions/filter', [{ op: 'InArray', field: 'A' }])).not.toEqual([]);
  });

  it('describes the simplified tree of any filter and sort', () => {
    // Trees built directly, and the trees the parser recovers from broken text.
    const brokenText = fc.array(fc.constantFrom(...TRICKY_PIECES), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(filterAstArb(), sortAstArb(), brokenText, (filter, sort, text) => {
        expect(validate('simplified-tree.schema.json#/definitions/filter', simplifyFilter(filter))).toEqual([]);
        expect(validate('simplified-tree.schema.json#/definitions/sort', simplifySort(sort))).toEqual([]);
        expect(validate('simplified-tree.schema.json#/definitions/filter', simplifyFilter(parseFilter(text).ast))).toEqual([]);
        expect(validate('simplified-tree.schema.json#/definitions/sort', simplifySort(parseSort(text).ast))).toEqual([]);
      }),
      { numRuns: 300, seed: 20261126 },
    );
  });
});
