/**
 * openApiFor: the document validates with a real OpenAPI validator, and real
 * responses of handleListRequest validate against the schemas it declares
 * (Ajv, JSON Schema 2020-12), so the document describes what the endpoint sends.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryDataSource } from '../../../src/sources/index.js';
import { createTokenCodec, handleListRequest } from '../../../src/list/index.js';
import type { ListHandlerOptions } from '../../../src/list/index.js';
import { openApiFor, definePolicy } from '../../../src/index.js';
import type { OpenApiDocument, WepqlExtension } from '../../../src/index.js';
import { employeeSchema } from '../../../src/schema/employee-schema.js';

const PATH = '/api/public/clients/{client_id}/employees';
const policy = definePolicy(
  { fields: { Ssn: { filter: ['Equal', 'StartsWith'], sort: false }, BirthOn: { filter: false } }, caps: { maxConditions: 20 } },
  employeeSchema,
);
const doc = openApiFor(employeeSchema, {
  path: PATH,
  recordName: 'Employee',
  policy,
  maxLimit: 500,
  tags: ['Employees'],
  bearerAuth: true,
  forbidden: true,
  includeDeleted: true,
});
const operation = doc.paths[PATH]!.get;

describe('openApiFor', () => {
  it.each([
    ['with a policy', doc],
    ['without options beyond the path', openApiFor(employeeSchema, { path: '/employees' })],
    ['without auth and versions', openApiFor(employeeSchema, { path: '/x/{a}/{b}', bearerAuth: false, apiVersions: false })],
    ['with bearer auth only, on a path without parameters', openApiFor(employeeSchema, { path: '/products', bearerAuth: true })],
  ])('writes a valid OpenAPI 3.1 document %s', async (_title, document) => {
    const result = await new Validator().validate(structuredClone(document) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('declares every list parameter as a query parameter and as its x-api-* header, and the path parameter', () => {
    const params = (operation.parameters as { name: string; in: string; required: boolean }[]).map((p) => `${p.in}:${p.name}`);
    const names = ['limit', 'skip', 'filter', 'sort', 'include-deleted', 'next-page', 'prev-page', 'page', 'data-token'];
    expect(params).toEqual([
      'path:client_id',
      ...names.map((n) => `query:${n}`),
      ...names.map((n) => `header:x-api-${n}`),
      'header:api-version',
      'header:x-api-version',
    ]);
  });

  it('lists 200, 400, 401, 403, 404 and 500, with WWW-Authenticate on 401 and the token error header on 400', () => {
    const responses = operation.responses as Record<string, { headers?: Record<string, unknown> }>;
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '403', '404', '500']);
    expect(Object.keys(responses['401']!.headers!)).toEqual(['WWW-Authenticate']);
    expect(Object.keys(responses['400']!.headers!)).toEqual(['x-wepql-token-error']);
  });

  it('describes in x-wepql what the schema and the policy allow, field by field', () => {
    const ext = operation['x-wepql'] as WepqlExtension;
    const field = (name: string) => ext.fields.find((f) => f.name === name)!;
    expect(field('Ssn')).toMatchObject({ type: 'string', operators: ['Equal', 'StartsWith'], sortable: false });
    expect(field('BirthOn')).toMatchObject({ type: 'datetime', operators: [], sortable: true });
    expect(field('Gender')).toMatchObject({ type: 'integer', nullable: true, sortable: true });
    expect(field('Gender').operators).toContain('GreaterThan');
    expect(field('Gender').operators).not.toContain('StartsWith');
    expect(field('LastName').operators).toHaveLength(26 - 8);
    expect(ext.fields.map((f) => f.name)).toEqual(employeeSchema.fields.map((f) => f.name));
    expect(ext.limits.maxConditions).toBe(20);
    expect(ext.maxLimit).toBe(500);
  });

  it('declares include-deleted, 401, 403, 404 and bearerAuth only where the server offers them (issue 21 #7)', async () => {
    const plain = openApiFor(employeeSchema, { path: '/products' });
    const get = plain.paths['/products']!.get;
    expect(Object.keys(get.responses as object)).toEqual(['200', '400', '500']);
    expect(get.security).toBeUndefined();
    expect(plain.components.securitySchemes).toBeUndefined();
    const names = (get.parameters as { name: string }[]).map((p) => p.name);
    expect(names).not.toContain('include-deleted');
    expect(names).not.toContain('x-api-include-deleted');
    expect(names).toContain('filter');
    const withOptions = openApiFor(employeeSchema, { path: '/clients/{client_id}/products', bearerAuth: true, includeDeleted: true });
    const op = withOptions.paths['/clients/{client_id}/products']!.get;
    expect(Object.keys(op.responses as object)).toEqual(['200', '400', '401', '404', '500']);
    expect(op.security).toEqual([{ bearerAuth: [] }]);
    expect(withOptions.components.securitySchemes).toEqual({ bearerAuth: { type: 'http', scheme: 'bearer' } });
    expect((op.parameters as { name: string }[]).map((p) => p.name)).toEqual(
      expect.arrayContaining(['include-deleted', 'x-api-include-deleted']),
    );
    for (const document of [plain, withOptions])
      expect((await new Validator().validate(structuredClone(document) as never)).valid).toBe(true);
  });

  it('refuses a record name that cannot be a component name', () => {
    expect(() => openApiFor(employeeSchema, { path: '/x', recordName: 'a b' })).toThrow(TypeError);
  });
});

describe('real responses match the declared schemas', () => {
  const employees: unknown[] = JSON.parse(readFileSync(new URL('../../../examples/employees.json', import.meta.url), 'utf8'));
  const options: ListHandlerOptions = {
    source: createMemoryDataSource(employees, {
      schema: employeeSchema,
      clientField: 'ClientId',
      deleted: { field: 'RowStatus', value: 3 },
      tieBreaker: 'Id',
    }),
    schema: employeeSchema,
    codec: createTokenCodec({ secret: 'openapi test secret, 16+ bytes' }),
    route: '/api/public/clients/1/employees',
    clientId: 1,
    policy,
    maxLimit: 500,
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export arrives wrapped under ESM.
  const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (
    a: Ajv2020,
  ) => void;
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: (doc as OpenApiDocument).components }, 'doc');
  const responseSchema = (status: string) => {
    const r = (operation.responses as Record<string, { content?: { 'application/json': { schema: unknown } } }>)[status]!;
    return JSON.parse(JSON.stringify(r.content!['application/json'].schema).replace(/"#\/components/g, '"doc#/components'));
  };

  it.each([
    ['a first page', { limit: '50', filter: 'Ssn.StartsWith(8)', sort: 'LastName=Asc' }, 200],
    ['a skip page', { limit: '20', skip: '10', 'include-deleted': 'true' }, 200],
    ['refusals of the policy and a bad limit', { limit: '0', filter: 'Ssn.Contains(1)', sort: 'Ssn=Asc' }, 400],
    ['a move without a token', { 'next-page': 'true' }, 400],
  ])('%s', async (_title, query, status) => {
    const r = await handleListRequest({ query }, options);
    expect(r.status).toBe(status);
    const validate = ajv.compile(responseSchema(String(status)));
    expect(validate(r.body) ? [] : validate.errors).toEqual([]);
  });

  it('a page out of range and an unsupported version', async () => {
    const first = await handleListRequest({ query: { limit: '500' } }, options);
    const token = (first.body as { Pagination: { DataToken: string } }).Pagination.DataToken;
    const validate = ajv.compile(responseSchema('400'));
    for (const r of [
      await handleListRequest({ query: { 'data-token': token, page: '9' } }, options),
      await handleListRequest({ query: { limit: '1' }, headers: { 'api-version': '9.0' } }, options),
    ]) {
      expect(r.status).toBe(400);
      expect(validate(r.body) ? [] : validate.errors).toEqual([]);
    }
  });
});
