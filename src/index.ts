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
export * from './print/format.js';
