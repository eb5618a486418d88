/**
 * `openApiFor`: the OpenAPI 3.1 description of one list endpoint, written
 * from the same schema, policy and limits the handler serves with, so the
 * document cannot drift from the endpoint.
 */
import type { FilterOperator } from '../ast/operators.js';
import type { Limits } from '../diagnostics/limits.js';
import { resolveLimits } from '../diagnostics/limits.js';
import { DEFAULT_API_VERSION, LIST_PARAMETERS, parameterHeader, TOKEN_ERROR_HEADER, VERSION_HEADERS } from '../wire/contract.js';
import type { ListParameter } from '../wire/contract.js';
import type { Policy } from '../policy/policy.js';
import { policyLimits } from '../policy/policy.js';
import type { Schema } from '../schema/schema.js';
import type { ScalarType } from '../schema/values.js';
import { operatorsForType } from '../validate/applicability.js';
import type { JsonSchema } from './json-schema.js';
import { jsonSchemaFor } from './json-schema.js';

/**
 * Options of `openApiFor`.
 *
 * @example
 * openApiFor(employeeSchema, { path: '/api/public/clients/{client_id}/employees', recordName: 'Employee', policy } satisfies OpenApiOptions);
 */
export interface OpenApiOptions {
  /** The route, path parameters in braces: `/api/public/clients/{client_id}/employees`. */
  readonly path: string;
  /** The component name of one record; default `Record`. */
  readonly recordName?: string;
  /** The endpoint's policy: refused fields, operators and sorts are left out of `x-wepql`, its caps apply. */
  readonly policy?: Policy;
  /** As given to the handler: largest page size (default 1,000) and analysis limits. */
  readonly maxLimit?: number;
  readonly limits?: Partial<Limits>;
  /** Accepted `api-version` values (default `['1.0']`); `false` leaves the version headers out. */
  readonly apiVersions?: readonly string[] | false;
  /** The longest data token accepted (default 8,192, the codec's default). */
  readonly maxTokenLength?: number;
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly tags?: readonly string[];
  /** The document's `info`; default a title from the record name and version `1.0`. */
  readonly info?: { readonly title: string; readonly version: string; readonly description?: string };
  /**
   * The endpoint requires a bearer token: declares the `bearerAuth` security
   * scheme and the 401 response (with `WWW-Authenticate`). Default false: the
   * list handler itself authenticates nobody, the application does.
   */
  readonly bearerAuth?: boolean;
  /** The application answers 403 to authenticated callers it does not allow on this list; default false. */
  readonly forbidden?: boolean;
  /**
   * The data source hides soft-deleted rows (created with `deleted`), so the
   * `include-deleted` parameter means something; default false, and the
   * parameter is left out.
   */
  readonly includeDeleted?: boolean;
}

/**
 * One field as `x-wepql` describes it.
 *
 * @example
 * const f: WepqlFieldInfo = { name: 'Ssn', type: 'string', nullable: false, operators: ['Equal'], sortable: false };
 */
export interface WepqlFieldInfo {
  readonly name: string;
  readonly type: ScalarType;
  readonly nullable: boolean;
  /** The operators a filter may use on the field here; empty when it may not be filtered. */
  readonly operators: readonly FilterOperator[];
  readonly sortable: boolean;
  readonly description?: string;
}

/**
 * The `x-wepql` extension of the operation: what the filter and sort parameters accept.
 *
 * @example
 * const ext = doc.paths[path].get['x-wepql'] as WepqlExtension; ext.fields.find((f) => f.name === 'Ssn')?.operators; // ['Equal']
 */
export interface WepqlExtension {
  readonly fields: readonly WepqlFieldInfo[];
  readonly limits: Limits;
  readonly maxLimit: number;
  readonly sortDirections: readonly ['Asc', 'Desc'];
}

/**
 * An OpenAPI 3.1 document (the parts `openApiFor` writes).
 *
 * @example
 * const doc: OpenApiDocument = openApiFor(employeeSchema, { path: '/employees' }); doc.openapi; // '3.1.0'
 */
export interface OpenApiDocument {
  readonly openapi: '3.1.0';
  readonly info: { readonly title: string; readonly version: string; readonly description?: string };
  readonly paths: Readonly<Record<string, { readonly get: Record<string, unknown> }>>;
  readonly components: {
    readonly schemas: Readonly<Record<string, JsonSchema>>;
    readonly securitySchemes?: Readonly<Record<string, unknown>>;
  };
  readonly [key: string]: unknown;
}

const PARAMETER_DOCS: Readonly<Record<ListParameter, string>> = {
  limit: 'Page size. Required unless data-token is sent.',
  skip: 'Skip paging: rows to skip. The response then has no Pagination.',
  filter:
    'A wepql filter, such as LastName.StartsWith(Sm);Or(Gender.Equal(1);Gender.IsNull()). x-wepql lists the fields and operators accepted.',
  sort: 'A wepql sort, such as LastName=Asc;CreatedOn=Desc. x-wepql lists the fields accepted.',
  'include-deleted': 'Include soft-deleted rows.',
  'next-page': 'With data-token: the next page.',
  'prev-page': 'With data-token: the previous page.',
  page: 'With data-token: this page number.',
  'data-token': 'The Pagination.DataToken of an earlier page; carries filter, sort, limit and include-deleted.',
};

/**
 * The OpenAPI 3.1 document of one list endpoint: the GET operation with
 * every list parameter as a query parameter and as its `x-api-*` header
 * (`include-deleted` only with `includeDeleted`), the path parameters, the
 * version headers, the 200 envelope with the record schema, the 400 and 500
 * responses (404 when the path has parameters, such as a client id; 401 and
 * the `bearerAuth` scheme with `bearerAuth`; 403 with `forbidden`), and an
 * `x-wepql` extension listing each field's type and the operators and sorts
 * the endpoint allows (schema and policy together).
 *
 * @example
 * const doc = openApiFor(employeeSchema, { path: '/api/public/clients/{client_id}/employees', recordName: 'Employee', policy, bearerAuth: true, includeDeleted: true });
 * doc.paths['/api/public/clients/{client_id}/employees'].get['x-wepql'];
 */
export function openApiFor(schema: Schema, options: OpenApiOptions): OpenApiDocument {
  const record = options.recordName ?? 'Record';
  if (!/^[A-Za-z0-9._-]+$/.test(record))
    throw new TypeError(`openApiFor: recordName ${JSON.stringify(record)} is not a valid component name`);
  const maxLimit = options.maxLimit ?? 1000;
  const limits = resolveLimits(policyLimits(options.limits, options.policy));
  const maxToken = options.maxTokenLength ?? 8192;
  const bearer = options.bearerAuth === true;
  const operation: Record<string, unknown> = {
    operationId: options.operationId ?? `list${record.replace(/[^A-Za-z0-9]/g, '')}`,
    summary: options.summary ?? `List ${record} records with wepql filter, sort and paging`,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.tags === undefined ? {} : { tags: [...options.tags] }),
    ...(bearer ? { security: [{ bearerAuth: [] }] } : {}),
    parameters: parametersFor(options, limits, maxLimit, maxToken),
    responses: responsesFor(options, record),
    'x-wepql': wepqlExtension(schema, options.policy, limits, maxLimit),
  };
  return {
    openapi: '3.1.0',
    info: options.info ?? { title: `${record} list`, version: '1.0' },
    paths: { [options.path]: { get: operation } },
    components: {
      schemas: { [record]: jsonSchemaFor(schema), ...envelopeSchemas(record, maxToken) },
      ...(bearer ? { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } } : {}),
    },
  };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schemaRef: unknown) => ({ 'application/json': { schema: schemaRef } });
const TEXT = { type: 'string' };

/** The path parameters, every list parameter the endpoint offers (query and header), and the version headers. */
function parametersFor(options: OpenApiOptions, limits: Limits, maxLimit: number, maxToken: number): Record<string, unknown>[] {
  const valueSchema: Readonly<Record<ListParameter, JsonSchema>> = {
    limit: { type: 'integer', minimum: 1, maximum: maxLimit },
    skip: { type: 'integer', minimum: 0 },
    filter: { type: 'string', maxLength: limits.maxLength },
    sort: { type: 'string', maxLength: limits.maxLength },
    'include-deleted': { type: 'boolean', default: false },
    'next-page': { type: 'boolean' },
    'prev-page': { type: 'boolean' },
    page: { type: 'integer', minimum: 1 },
    'data-token': { type: 'string', maxLength: maxToken },
  };
  const offered = LIST_PARAMETERS.filter((name) => name !== 'include-deleted' || options.includeDeleted === true);
  const parameters: Record<string, unknown>[] = pathParameters(options.path).map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  for (const name of offered)
    parameters.push({ name, in: 'query', required: false, description: PARAMETER_DOCS[name], schema: valueSchema[name] });
  for (const name of offered) {
    parameters.push({
      name: parameterHeader(name),
      in: 'header',
      required: false,
      description: `The ${name} parameter as a header; wins over the query parameter.`,
      schema: valueSchema[name],
    });
  }
  const versions = options.apiVersions === false ? undefined : (options.apiVersions ?? [DEFAULT_API_VERSION]);
  if (versions !== undefined) {
    for (const name of VERSION_HEADERS) {
      parameters.push({
        name,
        in: 'header',
        required: false,
        description: 'The API version.',
        schema: { type: 'string', enum: [...versions] },
      });
    }
  }
  return parameters;
}

/** The responses the endpoint can give: 200, 400 and 500 always; 401, 403 and 404 when the options say the server has them. */
function responsesFor(options: OpenApiOptions, record: string): Record<string, unknown> {
  return {
    '200': { description: 'A page of records.', content: json(ref(`${record}List`)) },
    '400': {
      description:
        'Invalid parameters (ValidationErrors names each parameter with [code, message] pairs), a page out of range, or an unsupported API version.',
      headers: {
        [TOKEN_ERROR_HEADER]: {
          description: 'Why a data token was refused (missing, expired, bad-signature, wrong-route…).',
          schema: { type: 'string' },
        },
      },
      content: json({ anyOf: [ref('ValidationErrorEnvelope'), ref('ErrorEnvelope')] }),
    },
    ...(options.bearerAuth === true
      ? {
          '401': {
            description: 'Missing or invalid bearer token; no body.',
            headers: { 'WWW-Authenticate': { schema: { type: 'string' }, example: 'Bearer error="invalid_token"' } },
          },
        }
      : {}),
    ...(options.forbidden === true ? { '403': { description: 'Authenticated, but not allowed to read this list.' } } : {}),
    ...(pathParameters(options.path).length > 0
      ? { '404': { description: 'The client (or list) was not found.', content: json(ref('ErrorEnvelope')) } }
      : {}),
    '500': { description: 'The list could not be read.', content: json(ref('ErrorEnvelope')) },
  };
}

/** The page envelope, its pagination and the two error envelopes. */
function envelopeSchemas(record: string, maxToken: number): Record<string, JsonSchema> {
  const envelope = ['Status', 'Code', 'ErrorCode', 'Message', 'StackTrace'];
  return {
    [`${record}List`]: {
      type: 'object',
      required: ['Data', ...envelope],
      properties: {
        Data: { type: 'array', items: ref(record) },
        Status: { const: 1 },
        Code: { const: '200' },
        ErrorCode: { const: '' },
        Message: TEXT,
        StackTrace: TEXT,
        Pagination: ref('Pagination'),
      },
    },
    Pagination: {
      type: 'object',
      description: 'Present on token paging (absent with skip).',
      required: ['PageNo', 'PageSize', 'TotalRecords', 'TotalPages', 'DataToken'],
      properties: {
        PageNo: { type: 'integer', minimum: 1 },
        PageSize: { type: 'integer', minimum: 1 },
        TotalRecords: { type: 'integer', minimum: 0 },
        TotalPages: { type: 'integer', minimum: 0 },
        DataToken: { type: 'string', maxLength: maxToken },
      },
    },
    ValidationErrorEnvelope: {
      type: 'object',
      required: [...envelope, 'ValidationErrors'],
      properties: {
        Status: { const: 3 },
        Code: { const: 'DataValidationError' },
        ErrorCode: { const: '' },
        Message: TEXT,
        StackTrace: TEXT,
        ValidationErrors: {
          type: 'object',
          description: 'By parameter name: [code, message] pairs.',
          additionalProperties: { type: 'array', items: { type: 'array', prefixItems: [TEXT, TEXT], minItems: 2, maxItems: 2 } },
        },
      },
    },
    ErrorEnvelope: {
      type: 'object',
      required: envelope,
      properties: { Status: { type: 'integer' }, Code: TEXT, ErrorCode: { type: ['string', 'null'] }, Message: TEXT, StackTrace: TEXT },
    },
  };
}

function wepqlExtension(schema: Schema, policy: Policy | undefined, limits: Limits, maxLimit: number): WepqlExtension {
  const fields = schema.fields.map((f): WepqlFieldInfo => {
    const rule = policy?.ruleOf(f.name);
    let operators: readonly FilterOperator[] = f.filterable ? operatorsForType(f.type) : [];
    if (rule !== undefined && rule.filter !== true)
      operators = rule.filter === false ? [] : operators.filter((op) => (rule.filter as ReadonlySet<FilterOperator>).has(op));
    return {
      name: f.name,
      type: f.type,
      nullable: f.nullable,
      operators,
      sortable: f.sortable && (rule?.sort ?? true),
      ...(f.description === undefined ? {} : { description: f.description }),
    };
  });
  return { fields, limits, maxLimit, sortDirections: ['Asc', 'Desc'] };
}

function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
}
