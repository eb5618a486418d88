export * from '../../../src/ast/operators.js';
export { NO_SPAN } from '../../../src/ast/nodes.js';
export * from '../../../src/schema/schema.js';
export * from '../../../src/schema/values.js';
export type * from '../../../src/validate/typed-tree.js';
export type * from '../../../src/ast/nodes.js';
