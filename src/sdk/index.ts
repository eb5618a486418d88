/**
 * `wepql/sdk`: build queries from typed code and page through list endpoints.
 *
 * This file only re-exports; nothing inside `src/` imports it.
 */
export * from '../builder/field-types.js';
export * from '../builder/filter-builder.js';
export * from '../builder/sort-builder.js';
export type * from '../builder/employee.js';
export * from './request.js';
export * from './errors.js';
export * from './http.js';
export * from './paginate.js';
