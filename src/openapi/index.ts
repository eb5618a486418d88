/**
 * `wepql/openapi`: API documents in and out — the OpenAPI 3.1 operation of a
 * list endpoint, JSON Schema of its records, a wepql schema from an API's
 * JSON Schema or OpenAPI component, and the TypeScript record type for the
 * typed builder.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 *
 * @packageDocumentation
 */
export { openApiFor } from './openapi.js';
export type { OpenApiDocument, OpenApiOptions, WepqlExtension, WepqlFieldInfo } from './openapi.js';
export { jsonSchemaFor, schemaFromJsonSchema } from './json-schema.js';
export type { FromJsonSchemaOptions, FromJsonSchemaResult, JsonSchema } from './json-schema.js';
export { recordTypeFor } from './record-type.js';
export type { RecordTypeOptions } from './record-type.js';
