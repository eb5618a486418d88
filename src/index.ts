/**
 * wepql — the filter and sort language of the payroll and workforce API's
 * list endpoints: parse, validate, print, evaluate, compile to SQL, build,
 * and serve the list contract.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from './ast/operators.js';
export type * from './ast/nodes.js';
export { NO_SPAN } from './ast/nodes.js';
export * from './diagnostics/diagnostic.js';
export * from './diagnostics/codes.js';
export * from './diagnostics/limits.js';
export * from './diagnostics/error.js';
export * from './diagnostics/code-frame.js';
export * from './diagnostics/suggest.js';
export * from './schema/values.js';
export * from './schema/schema.js';
export type * from './validate/typed-tree.js';
export * from './syntax/parse-options.js';
export * from './syntax/parse-filter.js';
export * from './syntax/parse-sort.js';
export * from './syntax/grammar-productions.js';
export * from './schema/infer.js';
export * from './schema/load-schema.js';
export * from './schemas/employee.js';
export * from './validate/applicability.js';
export * from './validate/convert-value.js';
export * from './validate/validate-filter.js';
export * from './validate/validate-sort.js';
export * from './validate/analyze.js';
export * from './evaluate/options.js';
export * from './evaluate/compile-filter.js';
export * from './evaluate/compile-sort.js';
export * from './evaluate/query.js';
export * from './sql/dialect.js';
export * from './sql/storage.js';
export * from './sql/to-sql.js';
export * from './sql/sqlite-functions.js';
export * from './evaluate/string-order.js';
export * from './lint/semantic-rules.js';
export * from './lint/lint-text.js';
export * from './lint/report.js';
export * from './list/token.js';
export * from './list/envelope.js';
export * from './list/params.js';
export * from './list/version.js';
export * from './list/request.js';
export * from './list/handler.js';
export * from './list/data-source.js';
export * from './list/memory-source.js';
export * from './list/postgres-source.js';
export * from './list/postgres-table.js';
export * from './service/complete.js';
export * from './service/words.js';
export * from './service/explain.js';
export * from './print/format.js';
export * from './builder/field-types.js';
export * from './builder/filter-builder.js';
export * from './builder/sort-builder.js';
export type * from './builder/employee.js';
export * from './sdk/request.js';
export * from './sdk/errors.js';
export * from './sdk/http.js';
export * from './sdk/paginate.js';
